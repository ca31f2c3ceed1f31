"""`masfuzz run`: one campaign, one budget for its phases in order; the next run replays the
failures stored for the target first and says which still fail and which are fixed."""

import json

import pytest

from tests.conftest import ROOT
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
    [mismatch] = [f for f in first["failures"] if f["attribution"] == "sut"]
    assert mismatch["detector"] == "tool_argument_mismatch"

    code, out, err = _run(cli, tmp_path, SLOPPY)
    assert code == 1
    phases = [line for line in err.splitlines() if ".. phase " in line]
    assert phases == ["  .. phase replay", "  .. phase structural", "  .. phase fuzz"]
    assert "replay: STILL FAILS  [tool_invocation]" in err
    assert "replayed: 1 failure(s) stored for this target: 1 still fail, 0 fixed" in out

    code, out, err = _run(cli, tmp_path, CS_SUT, "--phases", "replay", "--format", "json")
    assert code == 0, err  # the careful desk: fixed, and no failure of its own
    third = json.loads(out)
    assert [(r["category"], r["still_fails"]) for r in third["replayed"]] == [("tool_invocation", False)]
    assert third["coverage"]["scenarios"] == 1
