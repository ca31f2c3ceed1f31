"""`masfuzz run`: one campaign, one budget for its phases in order; the next run replays the
failures stored for the target first and says which still fail and which are fixed."""

import json

import pytest

from tests.conftest import MASFUZZ_CLI, ROOT, stored_rows
from tests.generate.test_cover import CS, CS_SUT, TESTER

pytest.importorskip("agents")

SLOPPY = "scripted/tests/report/sloppy_seat_policy.py:policy"
TASK = "Please change my seat to 14C, confirmation ABC123"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def _run(cli, tmp_path, sut, *extra):
    return cli("run", CS, "--model", TESTER, "--sut-model", sut, "--no-cache", "--input", TASK,
               "--budget-executions", "24", "--no-judge", "--no-check", "--store", str(tmp_path / "runs.db"),
               "--suite", str(tmp_path / "suite.yaml"), *extra)


def test_the_phases_share_one_budget_and_the_next_run_replays_known_failures_first(cli, tmp_path):
    code, out, err = _run(cli, tmp_path, SLOPPY, "--format", "json")
    assert code == 1  # the app's failure fails the run by default (--fail-on any)
    first = json.loads(out)
    assert first["run"]["command"] == "run" and first["coverage"]["scenarios"] == 24
    assert "generation" in first and "fuzz" in first  # both phases ran, within the 24 executions
    assert "replayed" not in first  # nothing was known yet
    own = {f["detector"]: f for f in first["failures"] if f["attribution"] == "sut"}
    # the sloppy seat agent's call off the schema and its apology after the tool's error, and the
    # triage agent calling update_seat when masfuzz offered it as a probe: the agent reached for
    # a tool it must not use, the app's too
    assert sorted(own) == ["restricted_tool_call", "tool_argument_mismatch", "unrecovered_tool_error"]
    assert own["restricted_tool_call"]["agent"] == "triage_agent"
    assert "probe" in own["restricted_tool_call"]["description"]

    code, out, err = _run(cli, tmp_path, SLOPPY)
    assert code == 1
    phases = [line for line in err.splitlines() if ".. phase " in line]
    assert phases == ["  .. phase replay", "  .. phase tools", "  .. phase structural", "  .. phase fuzz"]
    assert "replay: STILL FAILS  [tool_invocation]" in err
    assert "replayed: 3 failure(s) stored for this target: 3 still fail, 0 fixed" in out

    code, out, err = _run(cli, tmp_path, CS_SUT, "--phases", "replay", "--format", "json")
    assert code == 1, err  # the careful desk: its seat agent fixed, its triage agent still tempted
    third = json.loads(out)
    assert sorted((r["category"], r["still_fails"]) for r in third["replayed"]) == [
        ("restricted_tool_call", True), ("tool_invocation", False), ("tool_invocation", False)]


def _start(store, *extra):
    import os
    import subprocess

    cmd = [*MASFUZZ_CLI,
           "run", CS, "--model", TESTER, "--sut-model", SLOPPY, "--no-cache", "--input", TASK,
           "--budget-executions", "24", "--no-judge", "--no-check", "--executor", "inprocess",
           "--format", "json", "--store", str(store), "--suite", str(store.with_suffix(".yaml")), *extra]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT / "src")})


def test_a_run_killed_with_sigkill_resumes_to_the_report_of_an_uninterrupted_one(tmp_path):
    import os
    import signal
    import time

    whole = _start(tmp_path / "whole.db")
    out, err = whole.communicate(timeout=600)
    assert whole.returncode == 1, err
    expected = json.loads(out)

    killed = _start(tmp_path / "killed.db")
    deadline = time.monotonic() + 300
    while stored_rows(tmp_path / "killed.db", "executions") < 6 and killed.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert killed.poll() is None, "the run ended before it could be killed"
    os.kill(killed.pid, signal.SIGKILL)
    killed.wait()
    done_before = stored_rows(tmp_path / "killed.db", "executions")
    assert 6 <= done_before < 24

    resumed = _start(tmp_path / "killed.db", "--resume")
    out, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 1, err
    got = json.loads(out)
    assert got["run"]["id"] == 1 and "resuming run 1" not in out  # one run, continued
    assert got["coverage"]["criteria"] == expected["coverage"]["criteria"]
    assert got["coverage"]["scenarios"] == expected["coverage"]["scenarios"] == 24
    assert sorted(f["fingerprint"] for f in got["failures"]) == sorted(f["fingerprint"] for f in expected["failures"])
