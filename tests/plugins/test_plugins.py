"""Plugins through entry points (`masfuzz.plugins`): a package installed beside masfuzz adds a
detector and a reporter that masfuzz, run as a command, uses; a broken plugin is one line and
exit 2 where it is used, never a traceback at start-up.

The sample package (sample_plugin/) is installed as an installer would: its module and a
`.dist-info` folder whose entry_points.txt is written from its pyproject.toml's
[project.entry-points] tables, in a folder put on the path of a masfuzz subprocess (entry
points are read once per process, so this process's registries stay as they are)."""

import json
import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from tests.conftest import MASFUZZ_CLI, ROOT
from tests.generate.test_cover import CS, CS_SUT, TESTER

pytest.importorskip("agents")

SAMPLE = Path(__file__).parent / "sample_plugin"


def _install(site: Path, entry_points: dict[str, dict[str, str]], module: Path | None) -> Path:
    """The package in `site` as pip would leave it: the module and NAME-VERSION.dist-info."""
    info = site / "masfuzz_sample_plugin-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: masfuzz-sample-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in entries.items()) + "\n"
        for group, entries in entry_points.items()))
    if module is not None:
        shutil.copy(module, site / module.name)
    return site


def _masfuzz(site: Path, *argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT / "src"), str(ROOT)])}
    return subprocess.run([*MASFUZZ_CLI, *argv], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=600)


def test_an_installed_plugin_adds_a_detector_and_a_reporter_that_a_campaign_uses(tmp_path):
    declared = tomllib.loads((SAMPLE / "pyproject.toml").read_text())["project"]["entry-points"]
    site = _install(tmp_path / "site", declared, SAMPLE / "masfuzz_sample_plugin.py")
    out = tmp_path / "report.md"
    done = _masfuzz(site, "cover", CS, "--model", TESTER, "--sut-model", CS_SUT, "--no-cache",
                    "--no-check", "--no-judge", "--executor", "inprocess", "--budget-executions", "4",
                    "--store", str(tmp_path / "runs.db"), "--suite", str(tmp_path / "suite.yaml"),
                    "--report", f"markdown:{out}", "--report", "json")
    assert done.returncode in (0, 1), done.stderr
    found = [f for f in json.loads(done.stdout)["failures"] if f["detector"] == "empty_finding"]
    assert found, "the plugin's detector found nothing"
    report = out.read_text()
    assert report.startswith("# masfuzz run") and "**empty_finding**" in report


def test_a_plugin_that_does_not_load_is_one_line_and_exit_2_where_it_is_used(tmp_path):
    site = _install(tmp_path / "site", {"masfuzz.detectors": {"broken": "no_such_module:detector"},
                                        "masfuzz.reporters": {"broken": "no_such_module:Reporter"}}, None)
    helped = _masfuzz(site, "report", "--help")
    assert helped.returncode == 0 and "Traceback" not in helped.stderr  # start-up loads nothing
    ran = _masfuzz(site, "exec", CS, "--input", "What is the baggage allowance?", "--sut-model", CS_SUT, "--no-cache",
                   "--executor", "inprocess")
    assert ran.returncode == 2 and "Traceback" not in ran.stderr, ran.stderr
    [line] = [x for x in ran.stderr.splitlines() if "error" in x]
    assert "plugin 'broken' (masfuzz.detectors, from masfuzz-sample-plugin 0.1)" in line
    assert "no_such_module" in line
