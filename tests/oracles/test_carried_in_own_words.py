"""A required parameter documented as the person's own words ("the symptom, in the owner's
words") documents no form, yet any request carries it: the request that brings every other
required argument in its documented form carries all the tool needs. A router that passed such
a request to a member without that tool, who answered without it, misrouted it."""

from __future__ import annotations

from masfuzz.oracles import detect
from masfuzz.oracles.semantic import carries_arguments
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace


def _spec(symptom: str) -> WorkflowSpec:
    schema = {"type": "object", "required": ["plate", "symptom", "date"], "properties": {
        "plate": {"type": "string", "description": 'The number plate, e.g. "AB12 CDE"'},
        "symptom": {"type": "string", "description": symptom},
        "date": {"type": "string", "description": 'The day to bring the car in, e.g. "2026-01-31"'}}}
    return WorkflowSpec(
        system=SystemInfo(id="garage", entry_agent="desk_d", pattern="orchestrated"),
        agents=(AgentSpec(id="desk_d", instructions="Use ask_tyres or ask_workshop."),
                AgentSpec(id="tyres_t", instructions="Fit tyres with fit_tyres."),
                AgentSpec(id="workshop_w", instructions="Book diagnostics with book_diagnostic.")),
        tools=(ToolSpec(id="ask_tyres", description="Pass the message to the tyre bay."),
               ToolSpec(id="ask_workshop", description="Pass the message to the workshop."),
               ToolSpec(id="fit_tyres", description="Fit new tyres.", parameters={
                   "type": "object", "required": ["size"], "properties": {
                       "size": {"type": "string", "description": 'The tyre size, e.g. "205/55 R16"'}}}),
               ToolSpec(id="book_diagnostic", description="Book the car in for a fault diagnosis.", parameters=schema)),
        permissions=Permissions(allow=(("desk_d", "ask_tyres"), ("desk_d", "ask_workshop"),
                                       ("tyres_t", "fit_tyres"), ("workshop_w", "book_diagnostic"))),
        delegations=(Delegation(**{"from": "desk_d"}, to="tyres_t", trigger="as_tool", condition="tool ask_tyres"),
                     Delegation(**{"from": "desk_d"}, to="workshop_w", trigger="as_tool",
                                condition="tool ask_workshop")))


ASK = "My car KT19 WPA judders when I brake and the warning light is on. Could someone find the fault on 2026-05-04?"
OWN_WORDS = "What is wrong, in the driver's own words"


def test_a_parameter_taking_the_persons_words_is_carried_by_any_request():
    assert carries_arguments(ASK, _spec(OWN_WORDS), "book_diagnostic")
    assert not carries_arguments(ASK, _spec("The fault code read from the car"), "book_diagnostic")


def _misrouted(spec: WorkflowSpec) -> list:
    said = "We only fit tyres here, sorry."
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=ASK), AgentTurn(agent="desk_d"),
        ToolCall(agent="desk_d", tool="ask_tyres", arguments={"message": ASK}, call_id="1"),
        DelegationEvent(**{"from": "desk_d"}, to="tyres_t", trigger="as_tool"), AgentTurn(agent="tyres_t"),
        Message(agent="tyres_t", role="assistant", content=said),
        ToolResult(agent="desk_d", tool="ask_tyres", call_id="1", payload=said), AgentTurn(agent="desk_d"),
        Message(agent="desk_d", role="assistant", content=said), TerminationEvent(reason="completed", final_output=said)))
    return [f for f in detect(trace, spec) if f.root_cause == "Misrouted Request"]


def test_the_request_passed_to_a_member_without_the_tool_is_misrouted():
    [f] = _misrouted(_spec(OWN_WORDS))
    assert f.agent == "desk_d" and "book_diagnostic" in f.description


def _desk(question_doc: str) -> WorkflowSpec:
    """A front desk handing to a help line (its one tool takes the caller's question as written)
    or to a bookings member (whose tool needs a booking reference of a documented form)."""
    return WorkflowSpec(
        system=SystemInfo(id="ferry", entry_agent="front_f", pattern="handoff"),
        agents=(AgentSpec(id="front_f", instructions="Hand questions to help_h and bookings to bookings_b."),
                AgentSpec(id="help_h", instructions="Answer with answer_question."),
                AgentSpec(id="bookings_b", instructions="Move sailings with move_sailing.")),
        tools=(ToolSpec(id="answer_question", description="Answer a traveller's common question.", parameters={
                   "type": "object", "required": ["question"], "properties": {
                       "question": {"type": "string", "description": question_doc}}}),
               ToolSpec(id="move_sailing", description="Move a booking to another sailing.", parameters={
                   "type": "object", "required": ["ref"], "properties": {
                       "ref": {"type": "string", "description": 'The booking reference, e.g. "FR-00000"'}}})),
        permissions=Permissions(allow=(("help_h", "answer_question"), ("bookings_b", "move_sailing"))),
        delegations=(Delegation(**{"from": "front_f"}, to="help_h", trigger="handoff"),
                     Delegation(**{"from": "front_f"}, to="bookings_b", trigger="handoff")))


# it shares the parameter's "traveller" and carries no reference: it asks for someone, not for
# the help line's answer
WHO = "I need someone who moves a traveller's booking to a later sailing."


def test_a_tool_taking_only_the_persons_words_is_carried_by_no_request():
    spec = _desk("The traveller's question, in their own words")
    assert not carries_arguments(WHO, spec, "answer_question")
    assert not carries_arguments("Is there wifi on board?", spec, "answer_question")
    assert carries_arguments("Please move FR-12345 to the evening boat", spec, "move_sailing")


def test_a_member_holding_only_such_a_tool_is_not_needed_by_a_request_it_was_not_handed():
    said = "Your booking is moved."
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=WHO), AgentTurn(agent="front_f"),
        DelegationEvent(**{"from": "front_f"}, to="bookings_b", trigger="handoff"), AgentTurn(agent="bookings_b"),
        Message(agent="bookings_b", role="assistant", content=said),
        TerminationEvent(reason="completed", final_output=said)))
    found = [f for f in detect(trace, _desk("The traveller's question, in their own words"))
             if "help_h" in f.description]
    assert found == []
