"""Findings of a run that shared its process with earlier runs (the in-process executor, a
persistent worker), judged over hand-built traces of a kennel's booking desk.

A finding that rests on a tool answer an earlier run of the process got otherwise
(`meta.earlier_answers`) is set aside as the settings' only when the fault needs the answer the
earlier runs' state made: the same fault on the run with those calls answered as they first were
(the app as a fresh process starts it) is the app's, whatever detail the state changed (a place
on a waiting list counting up from run to run)."""

from __future__ import annotations

from masfuzz.oracles import detect
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import EARLIER_ANSWERS, AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

SPEC = WorkflowSpec(
    system=SystemInfo(id="kennels", entry_agent="kennel_desk", pattern="handoff"),
    agents=(AgentSpec(id="kennel_desk", instructions="Book boarding stays with book_kennel, then confirm the stay."),),
    tools=(ToolSpec(id="book_kennel", description="Book a kennel for a dog's stay.",
                    parameters={"type": "object", "properties": {
                        "dog": {"type": "string"}, "arrive": {"type": "string"}}}),),
    permissions=Permissions(allow=(("kennel_desk", "book_kennel"),)),
)
ASK = "Could Biscuit (a beagle) board with you from 2026-08-01 for a week?"


def _run(answer: str, reply: str, first_answer: str | None) -> Trace:
    meta = {EARLIER_ANSWERS: {"k1": {"status": "ok", "payload": first_answer, "runs_before": 3}}} \
        if first_answer is not None else {}
    return Trace(scenario_id="s", meta=meta, events=(
        Message(role="user", content=ASK), AgentTurn(agent="kennel_desk"),
        ToolCall(agent="kennel_desk", tool="book_kennel", call_id="k1",
                 arguments={"dog": "Biscuit", "arrive": "2026-08-01"}),
        ToolResult(agent="kennel_desk", tool="book_kennel", call_id="k1", payload=answer),
        Message(agent="kennel_desk", content=reply),
        TerminationEvent(reason="completed", final_output=reply)))


def _claims(trace: Trace) -> list[str]:
    return [f.attribution for f in detect(trace, SPEC) if f.root_cause == "Incorrect Verification"]


CLAIM = "Lovely, Biscuit's kennel is booked from 1 August - see you then!"


def test_a_claim_after_a_refusal_that_only_counted_on_is_the_apps():
    # the waiting list's place grew with every earlier run; a fresh process refuses as well
    run = _run('{"ok": false, "reason": "all kennels full, waiting list place 6"}', CLAIM,
               '{"ok": false, "reason": "all kennels full, waiting list place 3"}')
    assert _claims(run) == ["sut"]


def test_a_claim_after_a_refusal_a_fresh_process_would_not_give_is_the_settings():
    # the kennel was free for the process's first run: the earlier runs took it
    run = _run('{"ok": false, "reason": "all kennels full, waiting list place 1"}', CLAIM,
               '{"ok": true, "kennel": "K4", "arrive": "2026-08-01"}')
    [found] = [f for f in detect(run, SPEC) if f.root_cause == "Incorrect Verification"]
    assert found.attribution == "settings" and "earlier run of the same process" in found.because


def test_an_honest_reply_stays_silent_either_way():
    run = _run('{"ok": false, "reason": "all kennels full, waiting list place 6"}',
               "Sorry, we're full that week - Biscuit is number 6 on the waiting list.",
               '{"ok": false, "reason": "all kennels full, waiting list place 3"}')
    assert _claims(run) == []
