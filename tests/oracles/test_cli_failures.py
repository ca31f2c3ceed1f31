"""Failures through the commands: exec prints them, cover records them, report shows them."""

from __future__ import annotations

import json

import pytest

from masfuzz.store.db import RunStore
from masfuzz.trace import Trace

from tests.conftest import EXAMPLES, ROOT

VIDEO = "examples/video_team/team.py:selector_team"
VIDEO_SUT = "scripted/examples/video_team/policy.py:policy"
TASK = "Make a 30-second short video about the water cycle."
CS = str(EXAMPLES / "customer_service" / "app.py") + ":triage_agent"
CS_SUT = "scripted/" + str(EXAMPLES / "customer_service" / "policy.py") + ":policy"
TESTER = "scripted/" + str(EXAMPLES / "testers" / "template_tester.py") + ":policy"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("VIDEO_TEAM_OUT", str(tmp_path))


def test_exec_prints_the_failures_after_the_trace(cli):
    code, out, _ = cli("exec", VIDEO, "--input", TASK, "--sut-model", VIDEO_SUT)
    assert code == 0
    trace_part, failures_part = out.split("failures (1)")
    assert "termination         message_limit" in trace_part
    assert "[system termination / Termination Condition Violation] (medium, observed) director announced" in failures_part


def test_exec_json_stays_a_trace_unless_failures_are_asked_for(cli):
    code, out, _ = cli("exec", VIDEO, "--input", TASK, "--sut-model", VIDEO_SUT, "--format", "json")
    assert code == 0 and Trace.model_validate_json(out).termination.reason == "message_limit"
    code, out, _ = cli("exec", VIDEO, "--input", TASK, "--sut-model", VIDEO_SUT, "--format", "json",
                       "--failures")
    data = json.loads(out)
    assert Trace.model_validate(data["trace"]).termination.reason == "message_limit"
    [f] = data["failures"]
    assert f["root_cause"] == "Termination Condition Violation" and len(f["fingerprint"]) == 16
    code, out, _ = cli("exec", VIDEO, "--input", TASK, "--sut-model", VIDEO_SUT, "--format", "json",
                       "--coverage")
    assert [g["fingerprint"] for g in json.loads(out)["failures"]] == [f["fingerprint"]]


def test_cover_records_each_failure_once_with_its_reproducer_and_report_shows_it(cli, tmp_path):
    store = tmp_path / "runs.db"
    code, out, err = cli("cover", CS, "--model", TESTER, "--sut-model", CS_SUT, "--no-cache",
                         "--store", str(store), "--suite", str(tmp_path / "suite.yaml"),
                         "--format", "json")
    assert code == 0, err
    failures = json.loads(out)["failures"]
    restricted = [f for f in failures if f["category"] == "restricted_tool_call"]
    assert [(f["elements"][0], f["elements"][1]) for f in restricted] == [("triage_agent", "update_seat")]
    assert len({f["fingerprint"] for f in failures}) == len(failures)
    with RunStore(store) as db:
        stored = db.failures()
        by_id = {s.id: s for _, s, _ in db.executions(stored[0]["run_id"])}
    assert [f["fingerprint"] for f in stored] == [f["fingerprint"] for f in failures]
    first = stored[0]
    assert by_id[first["scenario_id"]].input == first["input"]  # the reproducer is stored with it
    code, text, _ = cli("report", "--store", str(store))
    assert code == 0 and "triage_agent called update_seat" in text
    assert f"reproduced by {first['scenario_id']}" in text
    code, out, _ = cli("report", "--store", str(store), "--format", "json")
    assert [f["fingerprint"] for f in json.loads(out)["failures"]] == [f["fingerprint"] for f in stored]
