"""An agent that takes the floor before the member whose tool makes what it needs, and asks for
that thing as a form asks: a structured list of what is missing, closed by a question that points
at the list ("Still needed: - vaccination card / Could you pass those on?"), not one naming it.
The value it then used came from the other member's tool: the order put it first. Violation of
Relationships-based Speaking Order, blamed on the early speaker."""

from __future__ import annotations

from masfuzz.oracles import detect
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

SPEC = WorkflowSpec(
    system=SystemInfo(id="kennels", entry_agent="groomer_g", pattern="fixed_order"),
    agents=(AgentSpec(id="groomer_g", instructions="Book grooming slots with book_groom."),
            AgentSpec(id="vet_v", instructions="Look the dog up with vaccine_record.")),
    tools=(ToolSpec(id="book_groom", description="Book a grooming slot.", parameters={
               "type": "object", "required": ["vaccination_card", "day"],
               "properties": {"vaccination_card": {"type": "string"}, "day": {"type": "string"}}}),
           ToolSpec(id="vaccine_record", description="Find a dog's vaccination card.", parameters={
               "type": "object", "properties": {"dog": {"type": "string"}}})),
    permissions=Permissions(allow=(("groomer_g", "book_groom"), ("vet_v", "vaccine_record"))))


def _run(ask: str) -> Trace:
    said = "Booked for Tuesday."
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Please book Biscuit in for a wash and trim on Tuesday."),
        AgentTurn(agent="groomer_g"), Message(agent="groomer_g", role="assistant", content=ask),
        DelegationEvent(**{"from": "groomer_g"}, to="vet_v", trigger="sequence"), AgentTurn(agent="vet_v"),
        ToolCall(agent="vet_v", tool="vaccine_record", arguments={"dog": "Biscuit"}, call_id="1"),
        ToolResult(agent="vet_v", tool="vaccine_record", call_id="1", payload='{"card": "VC-33107", "valid": true}'),
        DelegationEvent(**{"from": "vet_v"}, to="groomer_g", trigger="sequence"), AgentTurn(agent="groomer_g"),
        ToolCall(agent="groomer_g", tool="book_groom", arguments={"vaccination_card": "VC-33107", "day": "Tuesday"},
                 call_id="2"),
        ToolResult(agent="groomer_g", tool="book_groom", call_id="2", payload="booked GR-12"),
        Message(agent="groomer_g", role="assistant", content=said),
        TerminationEvent(reason="completed", final_output=said)))


def _order(trace: Trace) -> list:
    return [f for f in detect(trace, SPEC) if f.detector == "instructed_order"]


def test_a_missing_list_closed_by_a_question_asks_for_what_it_lists():
    [f] = _order(_run("I can't book yet.\nStill needed:\n* vaccination card\nCould you pass those on?"))
    assert f.agent == "groomer_g" and f.elements == ("vet_v", "groomer_g")


def test_a_list_of_other_things_asks_nothing_of_the_other_member():
    assert not _order(_run("I can't book yet.\nStill needed:\n* the dog's coat length\nCould you pass those on?"))


def test_a_list_with_no_question_is_a_note_not_an_ask():
    assert not _order(_run("Slot held.\nStill needed:\n* vaccination card"))
