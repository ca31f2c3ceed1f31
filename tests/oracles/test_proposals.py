"""The detectors' readings of free text are proposals (`Failure.decided_by`): without a tester
model the rule decides ("rule (no judge configured)"); with one, the judge agent confirms or
rejects each before anything is final, and a rejected proposal is a note, not a failure. The
scripted judge reads the proposal and the log it is sent (tests/oracles/oracle_testers.py:
proposal_judge), so these fail when the proposal is not passed or its verdict ignored."""

from __future__ import annotations

import asyncio
import json
import xml.etree.ElementTree as ET

import jsonschema
import markupsafe
import pytest

from masfuzz.fuzz.failure_agents import confirm_proposals, to_failures, _Checked, Finding
from masfuzz.graph.specification import skeleton
from masfuzz.llm.scripted import ScriptedClient
from masfuzz.oracles import detect
from masfuzz.oracles.failure import JUDGE_CONFIRMED, RULE, UNCONFIRMED, dedupe
from masfuzz.trace import AgentTurn, ErrorEvent, Message, TerminationEvent, Trace

from tests.conftest import ROOT
from tests.oracles import oracle_testers as testers
from tests.oracles.test_semantic import SPEC, _handover
from tests.report.test_ci_reports import _schema

JUDGE = ScriptedClient(testers.proposal_judge, "scripted/tester")


def _confirm(trace):
    return asyncio.run(confirm_proposals(trace, skeleton(SPEC), detect(trace, SPEC), JUDGE))


def test_without_a_judge_the_rule_decides_and_says_so():
    [lost] = detect(_handover(Message(agent="seat_agent", content="What is your confirmation number?")), SPEC)
    assert (lost.detector, lost.decided_by) == ("handover_facts", UNCONFIRMED) and lost.proposal
    crash = Trace(scenario_id="s", events=(
        Message(role="user", content="hi"), AgentTurn(agent="triage"),
        ErrorEvent(agent="triage", kind="exception", message="KeyError: 'x'"),
        TerminationEvent(reason="crash", detail="KeyError: 'x'")))
    [f] = detect(crash, SPEC)
    assert (f.category, f.decided_by, f.proposal) == ("runtime_crash", RULE, False)


def test_the_judge_confirms_a_true_proposal():
    [f], notes = _confirm(_handover(Message(agent="seat_agent", content="What is your confirmation number?")))
    assert (f.root_cause, f.decided_by, notes) == ("Information Loss at Hand-over", JUDGE_CONFIRMED, [])
    assert not f.proposal


def test_a_proposal_the_judge_rejects_is_a_note_not_a_failure():
    trace = _handover(Message(agent="seat_agent", content="Could you confirm the confirmation number ABC123?"))
    [proposed] = detect(trace, SPEC)  # the rule reads a question for the fact as the fact lost
    assert proposed.decided_by == UNCONFIRMED
    failures, [note] = _confirm(trace)
    assert failures == [] and "rejected handover_facts's proposal" in note and "received it" in note


def test_a_failure_agent_finding_of_the_proposed_fault_confirms_it_and_prints_as_one():
    trace = _handover(Message(agent="seat_agent", content="What is your confirmation number?"))
    [proposed] = detect(trace, SPEC)
    agreed = to_failures([_Checked(finding=Finding(
        category=proposed.category, root_cause=proposed.root_cause, clause=proposed.clause or "",
        elements=("triage", "seat_agent"), quote="What is your confirmation number?", reason="lost"),
        evidence=proposed.evidence)], trace)  # the agents' own elements: agent and tool ids only
    assert [f.fingerprint for f in agreed] == [proposed.fingerprint]  # one fault, one fingerprint
    [f] = dedupe([proposed, *agreed])
    assert f.decided_by == JUDGE_CONFIRMED and set(f.oracles) == {"handover_facts", "failure_agent"}


DESK = f"{ROOT / 'tests' / 'oracles' / 'semantic_apps.py'}:careful_triage"
DOUBTING = f"scripted/{ROOT / 'tests' / 'oracles' / 'doubting_seat_policy.py'}:policy"
CAMPAIGN_JUDGE = f"scripted/{ROOT / 'tests' / 'oracles' / 'oracle_testers.py'}:campaign_tester"
TRUE = "Please move me to seat 14C, confirmation ABC123"
FALSE = TRUE + " (doubtful)"


@pytest.mark.parametrize("command", ["fuzz", "run"])
def test_fuzz_and_run_put_each_proposal_to_the_judge_before_storing_it(cli, tmp_path, command):
    """The doubtful execution runs first: its proposal, were the verdict ignored, would be the
    stored reproducer; rejected, it is a note, and the true one's execution reproduces."""
    from masfuzz.store.db import RunStore

    store = tmp_path / "runs.db"
    extra = (["--rounds", "1", "--seed-tasks", "0", "--no-spec-agent"] if command == "fuzz"
             else ["--phases", "flare", "--budget", "4x", "--seed-tasks", "0", "--no-spec-agent",
                   "--suite", str(tmp_path / "suite.yaml")])
    code, out, err = cli(command, DESK, "--input", FALSE, "--input", TRUE, "--sut-model", DOUBTING,
                         "--model", CAMPAIGN_JUDGE, "--no-cache", "--executor", "inprocess",
                         "--store", str(store), "--progress", "off", "--no-check", "--no-shrink", *extra,
                         *(a for fmt in ("text", "html", "sarif", "junit", "json")
                           for a in ("--report", f"{fmt}:{tmp_path / ('report.' + fmt)}")))
    assert code in (0, 1), err
    db = RunStore(store)
    run = db.latest_run(command)
    [f] = [f for f in db.failures(run) if f["detector"] == "handover_facts"]
    assert (f["decided_by"], f["agent"]) == (JUDGE_CONFIRMED, "seat_booking_agent")
    assert db.scenario(f["scenario_id"]).input == TRUE
    notes = db.notes(run)
    assert notes and all("rejected handover_facts's proposal" in n["text"] for n in notes)
    assert {db.scenario(n["scenario_id"]).input for n in notes} == {FALSE}
    assert "rejected by the judge agent (no failures)" in (tmp_path / "report.text").read_text()
    # every format that shows findings lists the rejection, none counts it as a failure
    said = notes[0]["text"]
    page = (tmp_path / "report.html").read_text()
    assert "Rejected by the judge agent" in page and str(markupsafe.escape(said)) in page
    whole = json.loads((tmp_path / "report.sarif").read_text())
    jsonschema.validate(whole, _schema())
    [sarif] = whole["runs"]
    assert said in [n["message"]["text"] for n in sarif["invocations"][0]["toolExecutionNotifications"]]
    assert not any(said in r["message"]["text"] for r in sarif["results"])
    junit = ET.parse(tmp_path / "report.junit").getroot()
    [suite] = [s for s in junit if s.get("name") == "rejected proposals"]
    assert suite.get("failures") == "0" and said in [c.findtext("system-out") for c in suite]
    data = json.loads((tmp_path / "report.json").read_text())
    assert said in [r["text"] for r in data["rejected_proposals"]]
    assert not any(f["detector"] == "handover_facts" and f["scenario_id"] == notes[0]["scenario_id"]
                   for f in data["failures"])


def test_a_judge_that_cannot_answer_leaves_the_rule_deciding_and_says_why(cli, tmp_path):
    """The template tester answers a judge's request with a user request, twice: malformed, so
    the proposal is kept, and says the judge was unavailable."""
    store = tmp_path / "runs.db"
    code, out, err = cli("fuzz", DESK, "--input", TRUE, "--sut-model", DOUBTING, "--model",
                         "scripted/masfuzz.generate.generic_tester:policy", "--rounds", "1",
                         "--seed-tasks", "0", "--no-spec-agent", "--no-cache", "--executor",
                         "inprocess", "--store", str(store), "--format", "json", "--progress", "off")
    assert code in (0, 1), err
    [f] = [f for f in json.loads(out)["failures"] if f["detector"] == "handover_facts"]
    assert f["decided_by"].startswith("rule (judge unavailable: its replies were malformed")


def test_a_judge_call_that_fails_leaves_the_rule_deciding_and_says_why():
    trace = _handover(Message(agent="seat_agent", content="What is your confirmation number?"))
    failing = ScriptedClient(testers.failing_judge, "scripted/tester")
    [f], notes = asyncio.run(confirm_proposals(trace, skeleton(SPEC), detect(trace, SPEC), failing))
    assert f.decided_by.startswith("rule (judge unavailable: its model call failed") and f.proposal
    assert "no reply within 30s" in f.decided_by and notes == []  # no rejection: nothing to list


def test_the_judge_spends_the_model_call_budget_and_respects_it(cli, tmp_path):
    """One tester call allowed: the first execution's proposal is judged (rejected: a note), the
    second's, recorded with the budget spent, stays the rule's and says why."""
    from masfuzz.store.db import RunStore

    store = tmp_path / "runs.db"
    code, _, err = cli("fuzz", DESK, "--input", FALSE, "--input", TRUE, "--sut-model", DOUBTING,
                       "--model", CAMPAIGN_JUDGE, "--budget", "1calls", "--seed-tasks", "0",
                       "--no-spec-agent", "--no-cache", "--executor", "inprocess", "--store", str(store),
                       "--progress", "off")
    assert code in (0, 1), err
    db = RunStore(store)
    run = db.latest_run("fuzz")
    [note] = db.notes(run)
    assert db.scenario(note["scenario_id"]).input == FALSE
    [f] = [f for f in db.failures(run) if f["detector"] == "handover_facts"]
    assert db.scenario(f["scenario_id"]).input == TRUE
    assert f["decided_by"].startswith("rule (judge unavailable: budget: 1 tester model calls")


@pytest.mark.parametrize("judge", [True, False])
def test_cover_puts_each_proposal_to_the_judge_too(cli, tmp_path, judge):
    """`cover`'s executions go through the same decision point as `fuzz`'s: its tester judges
    the lost-fact proposal (confirmed), and with --no-judge the rule decides and says so."""
    code, out, err = cli("cover", DESK, "--sut-model", DOUBTING, "--model", CAMPAIGN_JUDGE, "--no-cache",
                         "--executor", "inprocess", "--store", str(tmp_path / "runs.db"), "--progress", "off",
                         "--no-check", "--suite", str(tmp_path / "suite.yaml"), "--format", "json",
                         *(() if judge else ("--no-judge",)))
    assert code in (0, 1), err
    [f] = [f for f in json.loads(out)["failures"] if f["detector"] == "handover_facts"]
    assert (f["decided_by"], f["agent"]) == (JUDGE_CONFIRMED if judge else UNCONFIRMED, "seat_booking_agent")
