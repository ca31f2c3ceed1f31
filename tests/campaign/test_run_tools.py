"""`masfuzz run`'s tools phase: the tools the workflow's agents own fuzzed in the sandbox within
the campaign's budget, their findings in the run's store and reports, counted by --fail-on, and
a stopped or killed campaign resumed without losing or duplicating a finding."""

import json
import sqlite3

import pytest

from tests.conftest import MASFUZZ_CLI, ROOT, stored_rows
from tests.generate.test_cover import CS, CS_SUT, TESTER

pytest.importorskip("agents")

from masfuzz.toolfuzz.sandbox import isolation_problem  # noqa: E402

if isolation_problem() is not None:
    pytest.skip("this machine cannot sandbox a tool", allow_module_level=True)

FRAGILE = str(ROOT / "tests" / "campaign" / "fragile_tools_app.py") + ":desk"
TASK = "Please change my seat to 14C, confirmation ABC123"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def _run(cli, tmp_path, target, *extra):
    return cli("run", target, "--model", TESTER, "--sut-model", CS_SUT, "--no-cache", "--input", TASK,
               "--no-judge", "--no-check", "--store", str(tmp_path / "runs.db"),
               "--suite", str(tmp_path / "suite.yaml"), *extra)


def _findings(store):
    db = sqlite3.connect(store)
    try:
        return [json.loads(r[0]) for r in db.execute("SELECT json FROM tool_findings ORDER BY tool, fingerprint")]
    finally:
        db.close()


def test_all_four_phases_put_the_tools_section_in_the_runs_reports(cli, tmp_path):
    text, data = tmp_path / "report.txt", tmp_path / "report.json"
    code, out, err = _run(cli, tmp_path, CS, "--rounds", "2", "--budget-executions", "60",
                          "--calls", "40", "--report", f"text:{text}", "--report", f"json:{data}")
    phases = [line for line in err.splitlines() if ".. phase " in line]
    assert phases[:4] == ["  .. phase replay", "  .. phase tools", "  .. phase structural", "  .. phase fuzz"]
    # with budget left after every phase ran once, those that can go on do (the budget is spent)
    assert all(line.endswith(" goes on") for line in phases[4:]), phases
    assert "tools: faq_lookup_tool: 40 calls" in err and "tools: update_seat: 40 calls" in err
    report = json.loads(data.read_text())
    session = report["tools"]["session"]
    assert [t["tool"] for t in session["tools"]] == ["faq_lookup_tool", "update_seat"]
    assert "generation" in report and "fuzz" in report  # the other phases ran in the same run
    # update_seat raises on a confirmation number that is not six characters: the tool's own
    [finding] = report["tools"]["findings"]
    assert finding["tool"] == "update_seat" and finding["exception"] == "ValueError"
    assert finding["attribution"] == "sut"
    # the tool gets the run context masfuzz's runs give it, so no error comes from a None context
    assert not any("NoneType" in f["message"] for f in report["tools"]["findings"])
    shown = text.read_text()
    assert "== faq_lookup_tool (openai_agents) ==" in shown and "== update_seat (openai_agents) ==" in shown
    assert code == 1 and "runtime crash" in err  # a tool's runtime error is a new failure
    code, out, err = cli("report", "--store", str(tmp_path / "runs.db"), "--format", "json")
    assert json.loads(out)["tools"] == report["tools"]  # as stored


def test_a_tool_that_crashes_on_some_input_fails_the_run(cli, tmp_path):
    code, out, err = _run(cli, tmp_path, FRAGILE, "--phases", "tools", "--calls", "60",
                          "--memory-mb", "64", "--format", "json")
    assert code == 1, err
    report = json.loads(out)
    found = report["tools"]["findings"]
    mine = {f["exception"] for f in found if f["tool"] == "shout"}
    assert {"IndexError", "UnicodeEncodeError"} <= mine  # the empty name, a name that is not ASCII
    assert all(f["attribution"] == "sut" for f in found if f["tool"] == "shout")
    # a tool echoing its input is fine: no crash blamed on it for what masfuzz passes back
    assert not [f for f in found if f["tool"] == "slow_echo"]
    # the sandbox's memory limit made reserve fail: recorded, but as the settings', not the app's
    [limit] = [f for f in found if f["tool"] == "reserve"]
    assert limit["exception"] == "MemoryError" and limit["attribution"] == "settings"
    assert "masfuzz: --fail-on any" in err
    # each finding stored with the call that reproduces it, as the report shows it
    stored = _findings(tmp_path / "runs.db")
    assert stored and all(f["reproduce"] and "call_tool(" in f["reproduce"] for f in stored)
    assert {f["fingerprint"]: f["reproduce"] for f in stored} == {f["fingerprint"]: f["reproduce"] for f in found}
    # RC is what a tool's crash counts as; a run gated on TI alone passes
    code, out, err = _run(cli, tmp_path, FRAGILE, "--phases", "tools", "--calls", "60",
                          "--memory-mb", "64", "--fail-on", "TI")
    assert code == 0, err
    # only the limit's finding left (a tool without the crashing one): exit 0
    code, out, err = _run(cli, tmp_path, FRAGILE, "--phases", "tools", "--calls", "60",
                          "--memory-mb", "64", "--stub", "shout=HELLO")
    assert code == 0, err
    assert "tool 'shout' is replaced by --stub: not fuzzed" in err


def test_each_phase_spends_its_share_and_the_tools_phase_no_executions(cli, tmp_path):
    code, out, err = _run(cli, tmp_path, CS, "--budget-executions", "3", "--calls", "20")
    # tools are called, not the system: bounded by --calls, they are fuzzed whatever is left
    assert ".. phase tools" in err and "tools: update_seat: 20 calls" in err
    # of 3 executions the structural phase may spend its share (2 of 2 + 2 weights, rounded
    # up), not all: FLARE still runs, on what the structural phase left
    assert "budget: phase structural's share of the budget used (2 executions); phase structural stops here" in err
    assert ".. phase fuzz" in err and "budget: 3 executions done; phase fuzz stops here" in err
    code, out, err = cli("report", "--store", str(tmp_path / "runs.db"), "--format", "json")
    report = json.loads(out)
    assert report["coverage"]["scenarios"] == 3
    assert [t["tool"] for t in report["tools"]["session"]["tools"]] == ["faq_lookup_tool", "update_seat"]
    assert [(p["phase"], p["status"]) for p in report["phases"]] == [
        ("replay", "done"), ("tools", "done"), ("structural", "stopped"), ("fuzz", "stopped")]


def test_a_spent_wall_time_ends_every_later_phase_the_tools_phase_too(cli, tmp_path):
    code, out, err = _run(cli, tmp_path, CS, "--budget-time", "0.001", "--calls", "20")
    assert "phase tools does not run" in err and ".. phase tools" not in err
    assert "masfuzz tools" not in out  # no tools section: the phase never ran


def test_a_tight_wall_time_is_shared_by_the_tools_and_stops_the_phase_inside_the_last(cli, tmp_path):
    # 4000 calls of a tool take minutes: each tool's part of the wall time ends it between
    # calls, and the wall time ends the phase inside the last one (15 s: more than the
    # command's start, which it counts, takes on a loaded machine)
    code, out, err = _run(cli, tmp_path, FRAGILE, "--phases", "tools", "--calls", "4000",
                          "--memory-mb", "64", "--budget-time", "15")
    if "wall time 15 s used; phase tools does not run" in err:  # seen at load 24: a 23-54 s start
        pytest.skip("the command's start took its whole wall time on this loaded machine")
    assert "budget: wall time 15 s used; phase tools stops here" in err
    assert "stopped early: wall time 15 s used" in out, (out, err)
    assert "shout: " in err and "stopped: its part of phase tools's share used" in err
    code, out, err = cli("report", "--store", str(tmp_path / "runs.db"), "--format", "json")
    tools = json.loads(out)["tools"]
    parts = tools["session"]["tools"]
    assert parts[-1]["stopped"] == "wall time 15 s used" and parts[-1]["calls"] < 4000
    # the tools before it each stopped when their part was used, leaving the next one its own
    assert [t["tool"] for t in parts] == ["shout", "slow_echo", "reserve"]
    assert all(t["stopped"].startswith("its part of phase tools's share used") for t in parts[:-1]), parts


def test_each_tool_not_fuzzed_yet_gets_an_equal_part_of_the_time_the_phase_has_left():
    from masfuzz.toolfuzz.phase import _Part

    class Campaign:  # 60 s of the phase left, the budget itself not spent
        spent = None

        def time_left(self):
            return 60.0

        def budget_left(self, spends):
            return self.spent

    campaign = Campaign()
    first = _Part.of(campaign, ("wall_time",), tools_left=3)
    assert first.time_left() == 20.0  # before its first call (the arguments' generation) too
    assert first.stop() is None and 19.0 < first.time_left() <= 20.0  # the first call: it starts
    first.end -= 20.0  # its 20 s passed: it stops, saying why; the phase goes on
    assert first.stop() == ("its part of phase tools's share used (20.0 s from its first call, the "
                            "phase's time left shared by 3 tool(s))") and first.time_left() == 0.0
    last = _Part.of(campaign, ("wall_time",), tools_left=1)  # the last has what is left
    assert last.stop() is None and last.time_left() == 60.0
    campaign.spent = "wall time 90 s used"  # the phase's own budget stops any part
    assert first.stop() == last.stop() == "wall time 90 s used"


def test_a_run_killed_in_the_tools_phase_resumes_to_the_findings_of_an_uninterrupted_one(tmp_path):
    import os
    import signal
    import subprocess
    import time

    def start(store, *extra):
        cmd = [*MASFUZZ_CLI,
               "run", FRAGILE, "--model", TESTER, "--sut-model", CS_SUT, "--no-cache", "--input", TASK,
               "--no-judge", "--no-check", "--phases", "tools", "--calls", "150", "--memory-mb", "64",
               "--format", "json", "--store", str(store), "--suite", str(store.with_suffix(".yaml")), *extra]
        return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                                env={**os.environ, "PYTHONPATH": str(ROOT / "src")})

    whole = start(tmp_path / "whole.db")
    out, err = whole.communicate(timeout=600)
    assert whole.returncode == 1, err
    expected = json.loads(out)["tools"]["findings"]

    killed = start(tmp_path / "killed.db")
    deadline = time.monotonic() + 300
    while stored_rows(tmp_path / "killed.db", "tool_results") < 1 and killed.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert killed.poll() is None, "the run ended before it could be killed"
    os.kill(killed.pid, signal.SIGKILL)  # inside slow_echo (150 calls of 20 ms)
    killed.wait()
    assert stored_rows(tmp_path / "killed.db", "tool_results") == 1

    resumed = start(tmp_path / "killed.db", "--resume")
    out, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 1, err
    got = json.loads(out)
    assert got["run"]["id"] == 1
    assert [t["tool"] for t in got["tools"]["session"]["tools"]] == ["shout", "slow_echo", "reserve"]
    assert all(t["calls"] == 150 for t in got["tools"]["session"]["tools"])
    key = lambda f: (f["tool"], f["fingerprint"], f["count"])  # noqa: E731
    assert sorted(map(key, got["tools"]["findings"])) == sorted(map(key, expected))
    assert len(_findings(tmp_path / "killed.db")) == len(expected)
