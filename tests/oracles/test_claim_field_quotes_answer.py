"""A reply written as a form that passes the failed answer on in one of its fields, the answer's
opening quoted and cut short (`why: {"reserved": false, "note": "the hall is taken th...`), claims
nothing with the answer's own keys: cut at the colons, "{"reserved"" is the tool's word, not the
agent's. A field of the agent's own that says the thing done is still its claim."""

from __future__ import annotations

from masfuzz.oracles import detect
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

SPEC = WorkflowSpec(
    system=SystemInfo(id="village_hall", entry_agent="hall_h", pattern="handoff"),
    agents=(AgentSpec(id="hall_h", instructions="Reserve the hall with reserve_hall."),),
    tools=(ToolSpec(id="reserve_hall", description="Reserve the village hall for an evening."),),
    permissions=Permissions(allow=(("hall_h", "reserve_hall"),)))
ANSWER = '{"reserved": false, "note": "the hall is taken that evening by the choir, try the 14th"}'


def _reply(text: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Could we have the hall on the 12th for the quiz night?"),
        AgentTurn(agent="hall_h"),
        ToolCall(agent="hall_h", tool="reserve_hall", arguments={"day": "12th"}, call_id="1"),
        ToolResult(agent="hall_h", tool="reserve_hall", call_id="1", payload=ANSWER),
        Message(agent="hall_h", role="assistant", content=text),
        TerminationEvent(reason="completed", final_output=text)))


def _claims(text: str) -> list:
    return [f for f in detect(_reply(text), SPEC) if f.detector == "claimed_outcome"]


def test_a_field_quoting_the_failed_answers_opening_claims_nothing():
    assert not _claims('Could not do it.\n<form>\nstate: declined\nwhy: {"reserved": false, "note": "the hall is taken th...\n</form>')


def test_a_field_of_the_agents_own_words_still_claims():
    assert _claims('All sorted.\n<form>\nstate: reserved\nwhy: {"reserved": false, "note": "the hall is taken th...\n</form>')
