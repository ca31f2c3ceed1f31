"""A run whose system under test ran outside the OS sandbox (`--unsafe-no-sandbox`) says so in
every report format, and on stderr when it starts; a sandboxed run's reports say nothing of it."""

from __future__ import annotations

import html
import json

import jsonschema
import pytest

from masfuzz.report.analysis import IN_PROCESS, UNSANDBOXED
from tests.generate.test_cover import CS, TESTER
from tests.report.conftest import SLOPPY
from tests.report.test_ci_reports import _schema

pytest.importorskip("agents")
FORMATS = ("text", "json", "html", "junit", "sarif")


def _reports(cli, store):
    out = {}
    for kind in FORMATS:
        code, text, err = cli("report", "--store", store, "--report", kind)
        assert code == 0, err
        out[kind] = html.unescape(text) if kind == "html" else text
    return out


def test_every_report_of_an_unsandboxed_run_warns(cli, tmp_path, store):
    db = str(tmp_path / "runs.db")
    code, _, err = cli("cover", CS, "--model", TESTER, "--sut-model", SLOPPY, "--no-cache", "--no-check",
                       "--store", db, "--suite", str(tmp_path / "suite.yaml"), "--format", "json",
                       "--unsafe-no-sandbox")
    assert code == 0, err
    assert f"WARNING: {UNSANDBOXED}" in err
    unsafe = _reports(cli, db)
    for kind, text in unsafe.items():
        assert UNSANDBOXED in text, kind
    assert json.loads(unsafe["json"])["warnings"] == [UNSANDBOXED]
    sarif = json.loads(unsafe["sarif"])
    jsonschema.validate(sarif, _schema())
    assert sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]["level"] == "warning"
    for kind, text in _reports(cli, store).items():  # the package's run, sandboxed
        assert UNSANDBOXED not in text, kind


def test_an_in_process_run_warns_as_loudly(cli, tmp_path):
    """`--executor inprocess` runs the system in masfuzz's own process, so without the sandbox:
    said on stderr and in every report, as --unsafe-no-sandbox is, with its own reason."""
    db = str(tmp_path / "runs.db")
    code, _, err = cli("cover", CS, "--model", TESTER, "--sut-model", SLOPPY, "--no-cache", "--no-check",
                       "--store", db, "--suite", str(tmp_path / "suite.yaml"), "--format", "json",
                       "--executor", "inprocess")
    assert code == 0, err
    assert f"WARNING: {IN_PROCESS}" in err and UNSANDBOXED not in err
    reports = _reports(cli, db)
    for kind, text in reports.items():
        assert IN_PROCESS in text and UNSANDBOXED not in text, kind
    assert json.loads(reports["json"])["warnings"] == [IN_PROCESS]
