"""`masfuzz run` runs every phase it is given and is never silent about one: the tools phase
fuzzes every tool however long it takes (its lease kept on the event loop's thread), FLARE takes
the structural phase's witnessed scenarios as seeds when the user gives none, a phase that cannot
run or fails is named with why in the progress and in every report, and a phase masfuzz failed
to run gives its own exit status (3)."""

import json
import re
import threading
import xml.etree.ElementTree as ET

import pytest

from tests.generate.test_cover import CS, CS_SUT, TESTER

pytest.importorskip("agents")

from masfuzz.toolfuzz.sandbox import isolation_problem  # noqa: E402

needs_sandbox = pytest.mark.skipif(isolation_problem() is not None,
                                   reason="this machine cannot sandbox a tool")
STALLING = "scripted/tests/campaign/stalling_policy.py:policy"
TASK = "Please change my seat to 14C, confirmation ABC123"


pytestmark = pytest.mark.usefixtures("in_repo")


def _run(cli, tmp_path, *extra):
    """`masfuzz run` on the customer-service desk with scripted models and no --input."""
    return cli("run", CS, "--model", TESTER, "--sut-model", CS_SUT, "--no-cache", "--no-judge",
               "--no-check", "--store", str(tmp_path / "runs.db"), "--suite", str(tmp_path / "suite.yaml"),
               *extra)


@needs_sandbox
def test_without_input_every_phase_runs_and_both_tools_are_fuzzed(cli, tmp_path):
    data, junit = tmp_path / "report.json", tmp_path / "junit.xml"
    code, out, err = _run(cli, tmp_path, "--budget-executions", "40", "--calls", "30",
                          "--progress", "plain", "--report", f"json:{data}", "--report", f"junit:{junit}")
    started = [line for line in err.splitlines() if ".. phase " in line]
    # the cheap, sure phases first: a short budget still reaches them
    assert started == ["  .. phase replay", "  .. phase tools", "  .. phase structural", "  .. phase fuzz"]
    # the scripted tester writes no usable seed (its answers are not the seed writer's JSON), and
    # it is said in true counts; FLARE starts from what the structural phase witnessed
    assert "seed writer: 0 usable task(s) written" in err
    assert "no --input and no task from the tester: the " in err
    assert "scenario(s) the structural phase witnessed are the seeds" in err
    assert "tools: faq_lookup_tool: 30 calls" in err and "tools: update_seat: 30 calls" in err
    assert "not fuzzed" not in err
    report = json.loads(data.read_text())
    assert [p["phase"] for p in report["phases"]] == ["replay", "tools", "structural", "fuzz"]
    assert all(p["status"] in ("done", "stopped") for p in report["phases"]), report["phases"]
    assert report["fuzz"]["seeds"] >= 1 and report["generation"]["realized"]
    [finding] = report["tools"]["findings"]
    assert finding["tool"] == "update_seat" and finding["exception"] == "ValueError"
    # the tool's finding is counted with the others: in the last progress line, and exit 1
    last = [line for line in err.splitlines() if ".. progress: done" in line][-1]
    own = [f for f in report["failures"] if f["attribution"] == "sut"]
    assert f"failures {len(own) + 1}" in last, last
    assert code == 1 and f"the system under test has {len(own) + 1} failure(s)" in err
    assert "runtime crash" in err.split("the system under test has")[1]
    assert f"{len(own)} in runs, 1 by tool fuzzing" in err  # how the figure splits
    phases = ET.parse(junit).getroot().find("testsuite[@name='phases']")
    assert [c.get("name") for c in phases] == ["replay", "tools", "structural", "fuzz"]
    assert phases.get("errors") == "0"


@needs_sandbox
def test_the_tools_phase_outlives_the_lease_renewal_interval_and_fuzzes_every_tool(cli, tmp_path, monkeypatch):
    from masfuzz.campaign import session
    from masfuzz.store.db import RunStore

    # renewal due every 0.1 s: the tools phase (seconds of sandboxed calls) spans many of them
    monkeypatch.setattr(session, "LEASE_TTL", 0.3)
    renewed_on: list[int] = []
    renew = RunStore.renew_lease

    def spy(self, *args, **kwargs):
        renewed_on.append(threading.get_ident())
        return renew(self, *args, **kwargs)

    monkeypatch.setattr(RunStore, "renew_lease", spy)
    code, out, err = _run(cli, tmp_path, "--phases", "tools", "--calls", "40", "--format", "json")
    assert "not fuzzed" not in err and "ProgrammingError" not in err
    report = json.loads(out)
    assert [t["tool"] for t in report["tools"]["session"]["tools"]] == ["faq_lookup_tool", "update_seat"]
    assert all(t["calls"] == 40 for t in report["tools"]["session"]["tools"])
    # what it found: no execution of the app, update_seat's one error, no obligation
    assert report["phases"] == [{"phase": "tools", "status": "done", "reason": "", "problems": [],
                                 "executions": 0, "failures": 1, "met": 0, "passes": 1}]
    # the lease was kept while the tools were fuzzed, by the session's keeper on a connection
    # of its own (the store's own is the loop's thread's: no ProgrammingError above)
    assert renewed_on and threading.get_ident() not in renewed_on
    assert code == 1  # update_seat's error


@needs_sandbox
def test_with_no_seed_at_all_flare_is_not_run_says_why_and_the_tools_phase_still_runs(cli, tmp_path):
    html = tmp_path / "report.html"
    # no --input, a tester that writes no usable seed, and no structural phase before FLARE
    code, out, err = _run(cli, tmp_path, "--phases", "flare,tools", "--calls", "20",
                          "--stub", "update_seat=done", "--progress", "plain",
                          "--report", "text", "--report", f"html:{html}")
    assert "phase fuzz does not run: no seed: give the system's task with --input" in err
    assert "tools: faq_lookup_tool: 20 calls" in err  # the campaign went on
    assert "fuzz NOT RUN" in [line for line in err.splitlines() if ".. progress: done" in line][-1]
    assert "  fuzz: NOT RUN (no seed: give the system's task with --input" in out
    assert "  tools: done" in out
    assert 'data-phase="fuzz"' in html.read_text()
    assert code == 0, err  # a phase that could not run for want of a seed is no failure of masfuzz


@needs_sandbox
def test_a_tool_masfuzz_fails_to_fuzz_fails_the_phase_in_every_report_and_exits_3(cli, tmp_path, monkeypatch):
    from masfuzz.toolfuzz.session import FuzzSession

    real = FuzzSession.test_tool

    async def broken(self, tool, **kwargs):
        if tool.name == "faq_lookup_tool":  # masfuzz's own bug, in one tool's fuzzing
            raise RuntimeError("the sandbox broke")
        return await real(self, tool, **kwargs)

    monkeypatch.setattr(FuzzSession, "test_tool", broken)
    junit = tmp_path / "junit.xml"
    code, out, err = _run(cli, tmp_path, "--phases", "tools", "--calls", "20", "--stub",
                          "update_seat=done", "--format", "json", "--report", "json",
                          "--report", f"junit:{junit}")
    [phase] = json.loads(out)["phases"]
    assert phase["status"] == "failed"
    assert phase["problems"] == ["tool 'faq_lookup_tool' not fuzzed: masfuzz failed to run it "
                                 "(RuntimeError: the sandbox broke)"]
    assert "the campaign is incomplete: tools: FAILED" in err
    [case] = ET.parse(junit).getroot().find("testsuite[@name='phases']")
    assert case.find("error") is not None and "the sandbox broke" in case.find("error").text
    assert code == 3
    # the same with an app failure: 1 wins (the app's failures are real), the phase still said
    code, out, err = _run(cli, tmp_path, "--phases", "tools", "--calls", "20", "--format", "json")
    assert code == 1 and "the campaign is incomplete: tools: FAILED" in err


def test_a_phase_that_breaks_is_recorded_failed_and_the_next_phase_runs(cli, tmp_path, monkeypatch):
    from masfuzz.campaign.known import KnownFailuresPhase

    async def broken(self, campaign):
        raise KeyError("stored failure without its scenario")

    monkeypatch.setattr(KnownFailuresPhase, "run", broken)
    code, out, err = _run(cli, tmp_path, "--phases", "replay,structural", "--input", TASK,
                          "--budget-executions", "6", "--format", "json")
    report = json.loads(out)
    assert [(p["phase"], p["status"]) for p in report["phases"]] == [("replay", "failed"), ("structural", "stopped")]
    assert "KeyError" in report["phases"][0]["reason"]
    assert report["coverage"]["scenarios"] == 6  # the structural phase ran all the same
    # exit 3 says masfuzz failed a phase; a failure of the app's own (here the triage agent
    # reaching for update_seat when masfuzz offered it) wins with 1, and the phase is still said
    own = [f for f in report["failures"] if f["attribution"] == "sut"]
    assert code == (1 if own else 3), err
    assert "replay: FAILED (masfuzz failed: KeyError" in err


def test_a_killed_execution_keeps_the_model_use_it_had(cli, tmp_path):
    code, out, err = cli("exec", CS, "--input", TASK, "--sut-model", STALLING, "--no-cache",
                         "--timeout", "20", "--format", "json")
    trace = json.loads(out)
    assert trace["events"][-1]["reason"] == "timeout"
    # the triage agent's call answered before the kill; the seat booking agent's was under way
    assert trace["usage"]["model_calls"] == 1 and trace["usage"]["tokens_in"] > 0
    assert trace["meta"]["agent_settings"]["triage_agent"]["calls"] == 1


def test_a_budget_stop_keeps_the_attempts_it_ran_and_says_which_objectives_it_left_unfinished(cli, tmp_path):
    code, out, err = _run(cli, tmp_path, "--phases", "structural", "--input", TASK,
                          "--budget-executions", "3", "--report", "text", "--report", "json")
    text, _, _ = out.partition('{\n  "format"')
    report = json.loads(out[len(text):])
    gen = report["generation"]
    # the budget ended the first round after 3 of its executions: those 3 attempts are judged
    # and kept, in the store and the report, whichever way they went
    made = sum(r["attempts"] for r in gen["realized"]) + sum(len(u["attempts"]) for u in gen["unrealized"])
    assert made == 3 and report["coverage"]["scenarios"] == 3
    unfinished = [u for u in gen["unrealized"] if u["unfinished"]]
    assert unfinished and len(gen["realized"]) + len(gen["unrealized"]) == gen["bundles"]
    assert "UNFINISHED" in text and "the budget stopped the phase before its last attempt" in text
    assert "structural: " in err and "objective bundle(s) unfinished" in err


def test_budget_left_after_every_phase_is_spent_by_the_phases_that_can_go_on(cli, tmp_path):
    # a first pass far smaller than the budget: one attempt per bundle, two FLARE rounds
    code, out, err = _run(cli, tmp_path, "--phases", "structural,flare", "--input", TASK,
                          "--attempts", "1", "--rounds", "2", "--batch", "2",
                          "--budget-executions", "30", "--progress", "plain", "--report", "text",
                          "--report", "json")
    text, _, _ = out.partition('{\n  "format"')
    report = json.loads(out[len(text):])
    assert report["coverage"]["scenarios"] == 30, err  # the whole budget, not the first pass's
    assert "budget left after every phase: " in err and ".. phase fuzz goes on" in err
    phases = {p["phase"]: p for p in report["phases"]}
    fuzz = phases["fuzz"]
    assert fuzz["passes"] > 1 and fuzz["status"] == "stopped"  # the budget, not its --rounds, ended it
    assert report["fuzz"]["rounds"] > 2
    # each phase's executions are counted once, and all of them are the run's
    assert sum(p["executions"] for p in report["phases"]) == 30
    assert sum(p["met"] for p in report["phases"]) == report["coverage"]["total"]["covered"]
    # the run's budget and the last phase's share of it end together: either may be named
    assert re.search(r"fuzz: STOPPED \(budget: (30 executions done|phase fuzz's share of the budget used "
                     r"\(30 executions\))\); ", text) and "passes" in text, text
    # without a budget each phase runs once: --rounds and --attempts are all there is
    code, out, err = _run(cli, tmp_path, "--phases", "structural,flare", "--input", TASK,
                          "--attempts", "1", "--rounds", "2", "--batch", "2", "--fresh",
                          "--format", "json")
    report = json.loads(out)
    assert "budget left" not in err and report["fuzz"]["rounds"] == 2
    assert all(p["passes"] == 1 for p in report["phases"])


async def stuck_tester(request):
    """A tester whose every call takes ten minutes (a tiny local model on a loaded machine)."""
    import asyncio

    await asyncio.sleep(600)
    return "{}"


def test_a_slow_testers_proposals_do_not_outlast_the_wall_time_budget(cli, tmp_path):
    import time

    from tests.conftest import ROOT

    tester = "scripted/" + str(ROOT / "tests" / "campaign" / "test_run_phases.py") + ":stuck_tester"
    t0 = time.monotonic()
    code, out, err = cli("run", CS, "--model", tester, "--sut-model", CS_SUT, "--no-cache",
                         "--no-check", "--phases", "structural", "--input", TASK, "--budget", "3s",
                         "--model-timeout", "590",
                         "--store", str(tmp_path / "runs.db"), "--suite", str(tmp_path / "suite.yaml"),
                         "--format", "json")
    assert time.monotonic() - t0 < 300, err  # the budget's 3 s and start-up, not the tester's 600 s
    [phase] = json.loads(out)["phases"]
    assert phase["status"] == "stopped" and "wall time" in phase["reason"], phase
