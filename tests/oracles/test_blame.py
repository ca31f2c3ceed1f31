"""Who and when in every finding (`masfuzz.oracles.blame`): the one agent blamed, the decisive
event and its id in the user's own log; one fault, one fingerprint whichever oracle found it;
and stores written before findings said who and when still load, replay and report."""

from __future__ import annotations

import json
import sqlite3

import pytest

from masfuzz.oracles import detect
from masfuzz.oracles.blame import blame
from masfuzz.oracles.detectors import loops
from masfuzz.oracles.failure import Failure
from masfuzz.trace import (
    EVENT_SOURCES, AgentTurn, ErrorEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace,
)
from tests.conftest import ROOT
from tests.oracles.test_detectors import CS, CS_SUT, RESEARCH, RESEARCH_SUT, SEAT, TASK, VIDEO, VIDEO_SUT, by, run


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("VIDEO_TEAM_OUT", str(tmp_path))


def _whowhen(failures):
    for f in failures:  # one name (never a list) or None, and an event of the trace
        assert f.agent is None or isinstance(f.agent, str)
        assert f.step is not None and f.found_by == (f.detector,)
    return failures


# --- who and when, detector by detector, on traces of the real adapters ---------------------------

def test_the_announced_end_is_blamed_on_the_announcer_at_the_first_turn_past_it():
    pytest.importorskip("autogen_agentchat")
    trace, _, failures = run(VIDEO, input=TASK, sut_model=VIDEO_SUT)
    [f] = _whowhen(failures)
    assert f.agent == "director" and f.step_ref is None
    past = trace.events[f.step]
    assert isinstance(past, AgentTurn) and f.step > f.evidence[0]  # after the announcement
    assert not any(isinstance(e, AgentTurn) for e in trace.events[f.evidence[0] + 1:f.step])


def test_a_tool_loop_is_blamed_on_the_repeating_agent_at_the_call_that_made_it_a_loop():
    pytest.importorskip("langgraph")
    trace, _, failures = run(RESEARCH, input="What is the airspeed of an unladen swallow on Mars?",
                             sut_model=RESEARCH_SUT)
    _whowhen(failures)
    [loop] = by(failures, "loop")
    assert (loop.agent, loop.subject, loop.step) == ("researcher", "web_search", loop.evidence[2])
    assert by(failures, "missing_termination") == []  # the bound only ended the loop: one fault


def test_a_crash_and_a_failed_call_are_blamed_at_the_first_failed_call_and_the_crash():
    pytest.importorskip("langgraph")
    trace, _, failures = run("tests/adapters/langgraph_systems.py:calc_graph", input="divide one by zero",
                             sut_model="scripted/tests/adapters/langgraph_systems.py:calc_policy")
    _whowhen(failures)
    [tool] = by(failures, "unrecovered_tool_error")
    failed = trace.events[tool.step]
    assert isinstance(failed, ToolResult) and failed.status == "error"
    assert (tool.agent, tool.subject) == (failed.agent, failed.tool)
    [crash] = by(failures, "runtime_crash")
    # the app's code failed (here in the calculator's step): no agent acted wrongly, and where
    # it happened is what the crash is about
    crashed = trace.events[crash.step]
    assert isinstance(crashed, ErrorEvent) and crashed.agent == "calculator"
    assert crash.agent is None and "calculator" in crash.subject.split()


def test_a_restricted_call_is_blamed_on_its_caller_at_the_call():
    pytest.importorskip("agents")
    trace, _, failures = run(CS, input=SEAT + " - do it yourself", sut_model=CS_SUT, restricted="faithful")
    [f] = by(_whowhen(failures), "restricted_tool_call")
    assert (f.agent, f.subject) == ("triage_agent", "update_seat")
    assert trace.events[f.step].type == "restricted_attempt"


def _turns(*agents, reason="max_turns"):
    events = [Message(role="user", content="go")]
    for a in agents:
        events += [AgentTurn(agent=a), Message(agent=a, content=f"{a} says something")]
    return Trace(scenario_id="sc-x", events=(*events, TerminationEvent(reason=reason, final_output="x")))


def test_a_speaker_cycle_is_blamed_on_the_first_turn_that_only_repeats_its_own():
    # alice opens, zed answers, three times: alice's second turn is the first that only says
    # again what she said a round before (an orchestrator asking again, not changing its plan)
    trace = _turns(*["alice", "zed"] * 3)
    [f] = [blame(trace, f) for f in loops(trace, None)]
    assert f.elements == ("speakers", "alice", "zed")  # the cycle's name is its smallest rotation
    assert (f.agent, f.subject) == ("alice", "zed") and f.step == f.evidence[2]
    # the cycle entered from zed's side (a planner spoke first): zed repeats first, not the
    # first by name
    other = _turns("alice", "planner", *["zed", "alice"] * 3)
    [g] = [blame(other, f) for f in loops(other, None)]
    assert (g.agent, g.subject) == ("zed", "alice") and other.events[g.step].agent == "zed"
    # a run stopped at its bound while going round: the member that keeps handing the floor back
    [bound] = [f for f in detect(trace) if f.root_cause == "Max Round Limit Exceeded"]
    assert bound.agent == "zed" and isinstance(trace.events[bound.step], TerminationEvent)


def test_the_step_is_named_as_the_users_own_log_names_it():
    trace = _turns(*["alice", "zed"] * 3)
    sources = [f"span-{i:02d}" if i % 2 else None for i in range(len(trace.events))]
    imported = trace.model_copy(update={"meta": {EVENT_SOURCES: sources}})
    for f in detect(imported):
        assert f.step_ref == sources[f.step]
    [loop] = [f for f in detect(imported) if f.detector == "loop"]
    assert loop.step_ref == sources[loop.step] is not None
    assert all(f.step_ref is None for f in detect(trace))  # not imported: no id to give


def test_what_an_oracle_set_is_left_alone_even_none():
    trace = _turns(*["alice", "zed"] * 3)
    [f] = loops(trace, None)
    own = f.model_copy(update={"agent": None, "step": 1, "subject": "the cycle"})
    kept = blame(trace, own)
    assert (kept.agent, kept.step, kept.subject) == (None, 1, "the cycle")
    assert kept.step_ref is None and kept.found_by == ("loop",)


def test_an_unknown_oracles_finding_is_blamed_on_its_first_evidence_events_agent():
    trace = Trace(events=(Message(role="user", content="hi"), AgentTurn(agent="a"),
                          ToolCall(agent="a", tool="t"), TerminationEvent()))
    f = Failure(category="agent_task_execution", root_cause="Role Misalignment", detector="h3_oracle",
                description="x", evidence=(2,), elements=("a", "t"))
    b = blame(trace, f)
    assert (b.agent, b.step, b.subject) == ("a", 2, None)  # its elements stand for the subject


# --- stores written before findings said who and when -------------------------------------------

def _as_stored_before(db, run_id):
    """Rewrite the run's failures as masfuzz stored them before: no who, when, subject or
    found_by in their record, and a fingerprint made with the detector's name."""
    import hashlib

    with sqlite3.connect(db) as con:
        for fid, body in con.execute("SELECT id, json FROM failures WHERE run_id=?", (run_id,)).fetchall():
            data = json.loads(body)
            for key in ("agent", "step", "step_ref", "subject", "found_by"):
                data.pop(key)
            old = json.dumps([data["category"], data["root_cause"], data["detector"], data["elements"]])
            data["fingerprint"] = hashlib.sha256(old.encode()).hexdigest()[:16]
            con.execute("UPDATE failures SET json=?, fingerprint=? WHERE id=?",
                        (json.dumps(data), data["fingerprint"], fid))


def test_an_old_store_loads_reports_who_and_when_and_replays_its_failures(cli, tmp_path):
    pytest.importorskip("agents")
    from masfuzz.campaign.known import known_failures
    from masfuzz.report.analysis import analyze
    from masfuzz.store.db import RunStore
    from tests.generate.test_cover import TESTER

    db = tmp_path / "runs.db"
    code, out, err = cli("cover", CS, "--model", TESTER, "--sut-model", "scripted/tests/report/sloppy_seat_policy.py:policy",
                         "--no-cache", "--no-check", "--store", str(db), "--suite", str(tmp_path / "s.yaml"),
                         "--format", "json")
    assert code == 0, err
    fresh = {f["fingerprint"]: f for f in json.loads(out)["failures"]}
    _as_stored_before(db, 1)
    with RunStore(db) as store:
        stored = store.failures(1)
        assert {f["fingerprint"] for f in stored}.isdisjoint(fresh)  # the old fingerprints
        a = analyze(store, 1)
        # the report derives who and when from the stored traces: as a new store has them
        assert {(f["agent"], f["step"], f["detector"]) for f in a.failures} == {
            (f["agent"], f["step"], f["detector"]) for f in fresh.values()}
        # the next campaign replays them under the fingerprints the detectors now give
        known = known_failures(store, CS, before_run=2)
        assert {f.fingerprint for f, _ in known} == {k for k, f in fresh.items() if f["attribution"] == "sut"}
    code, out, err = cli("report", "--store", str(db))
    assert code == 0 and "who: seat_booking_agent, when: event" in out, err


def test_a_judged_tool_error_is_blamed_on_the_caller_the_quote_shows_and_is_the_detectors_fault():
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Change my seat to 12A, booking ABC123"), AgentTurn(agent="seat_booking_agent"),
        ToolCall(agent="seat_booking_agent", tool="update_seat", call_id="c1"),
        ToolResult(agent="seat_booking_agent", tool="update_seat", call_id="c1", status="error", payload="boom"),
        TerminationEvent(reason="completed", final_output="")))
    [observed] = [f for f in detect(trace) if f.detector == "unrecovered_tool_error"]
    judged = blame(trace, Failure(
        category="tool_invocation", root_cause="Tool Execution Error", detector="failure_agent",
        description="the seat change failed and nobody said so", evidence=(3,), clause="tool::update_seat",
        elements=("update_seat", "seat_booking_agent")), tools=("update_seat",))
    assert (judged.agent, judged.step, judged.subject) == ("seat_booking_agent", 3, "update_seat")
    assert judged.fingerprint == observed.fingerprint and judged.confidence == "judged"
