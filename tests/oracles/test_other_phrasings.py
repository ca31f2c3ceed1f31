"""The oracles on runs worded and shaped as another writer's apps and models word them (the zoo's
second scripted policy showed each of these): an HTTP status line or envelope for a failure, a
fact the team looked up (not the user's) lost at a hand-over, a dependency told by what is done to
a thing ("once the van has been weighed in"), a request whose words fit two tools but whose
arguments fit one, and an agent whose name is an everyday noun the user counts ("2 beds"). Each
buggy run beside its correct twin, over hand-built traces and specs."""

from __future__ import annotations

import pytest

from masfuzz.oracles import detect
from masfuzz.oracles.instructed import instructed_order, misrouted_request, participation
from masfuzz.oracles.semantic import claimed_outcome, handover_facts, tool_doc_mismatch
from masfuzz.oracles.wording import names_agent, payload_failure, status_line
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import (
    HANDOVER_INPUTS, AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace,
)


def _params(**described: str) -> dict:
    return {"type": "object", "required": list(described),
            "properties": {p: {"type": "string", "description": d} for p, d in described.items()}}


def _end(*events) -> Trace:
    final = next((e.content for e in reversed(events) if isinstance(e, Message) and e.role == "assistant"), "")
    return Trace(scenario_id="s", events=(*events, TerminationEvent(reason="completed", final_output=final)))


# -- an HTTP status line or envelope reports a failure ---------------------------------------------

@pytest.mark.parametrize("text,code", [
    ("422 Unprocessable Entity: pickup '03 Apr 2026' does not match", 422),
    ("HTTP/1.1 409 Conflict", 409),
    ("HTTP 404 - no such slot", 404),
    ("503 service unavailable, try later", 503),
    ("404 items matched your search", None),  # a count, not a status
    ("500 kg net, tip at bay 2", None),
    ("201 Created: job PK-4471", 201),
])
def test_a_status_line_is_read_only_with_http_or_its_reason_phrase(text, code):
    assert status_line(text) == code
    assert bool(payload_failure(text)) == (code is not None and code >= 400)


LOCKERS = WorkflowSpec(
    system=SystemInfo(id="gym", entry_agent="desk", pattern="handoff"),
    agents=(AgentSpec(id="desk", instructions="Rent lockers with `rent_locker`."),),
    tools=(ToolSpec(id="rent_locker", description="Rent a locker for a member.",
                    parameters=_params(member='The membership number, e.g. "GM-0000"',
                                       start='The first day, e.g. "03 Apr 2026"')),),
    permissions=Permissions(allow=(("desk", "rent_locker"),)))


def _locker(payload: str, reply: str, start: str = "03 Apr 2026") -> Trace:
    return _end(Message(role="user", content=f"Locker from {start} please, member GM-2231."),
                AgentTurn(agent="desk"),
                ToolCall(agent="desk", tool="rent_locker", call_id="c", arguments={"member": "GM-2231", "start": start}),
                ToolResult(agent="desk", tool="rent_locker", call_id="c", status="ok", payload=payload),
                Message(agent="desk", content=reply))


@pytest.mark.parametrize("payload", [
    '{"http": 409, "body": {"reason": "no lockers left in the women\'s changing room"}}',
    "HTTP/1.1 409 Conflict: no lockers left",
])
def test_a_success_claimed_after_a_status_envelope_or_line_of_failure_is_incorrect_verification(payload):
    [f] = claimed_outcome(_locker(payload, "Lovely - your locker is rented from 03 Apr 2026."), LOCKERS)
    assert (f.root_cause, f.agent) == ("Incorrect Verification", "desk")
    assert claimed_outcome(_locker('{"http": 201, "body": {"locker": 14}}',
                                   "Lovely - your locker is rented from 03 Apr 2026."), LOCKERS) == []


def test_a_status_line_rejecting_the_documented_form_is_a_specification_mismatch():
    said = "So sorry, that didn't go through - the system answered with an error."
    trace = _locker("422 Unprocessable Entity: start '03 Apr 2026' does not match the booking format", said)
    [f] = tool_doc_mismatch(trace, LOCKERS)
    assert (f.root_cause, f.agent, f.elements) == ("Tool Specification Mismatch", None, ("desk", "rent_locker", "start"))
    # a content refusal in a status line is no mismatch of form, nor a caller straying from it
    assert tool_doc_mismatch(_locker("409 Conflict: start '03 Apr 2026' is fully booked", said), LOCKERS) == []
    assert tool_doc_mismatch(_locker("422 Unprocessable Entity: start '2026-04-03' does not match the booking "
                                     "format", said, start="2026-04-03"), LOCKERS) == []


@pytest.mark.parametrize("payload, failed", [
    ("(422, 'START_FORMAT', \"début '03 Apr 2026' illisible\")", True),  # a web-style handler's (status, code, why)
    ("(409, {'detail': 'no lockers left'})", True),
    ("(201, 'locker 14')", False),
    ("(14, 'lockers free')", False),  # a count first, no status
])
def test_a_tuple_opening_with_an_http_status_of_failure_is_a_failure(payload, failed):
    assert bool(payload_failure(payload)) == failed


def test_a_status_tuple_rejecting_the_documented_form_is_a_specification_mismatch():
    trace = _locker("(422, 'START_FORMAT', \"début '03 Apr 2026' illisible\")",
                    "The locker could not be rented.")
    [f] = tool_doc_mismatch(trace, LOCKERS)
    assert (f.root_cause, f.agent, f.elements) == ("Tool Specification Mismatch", None, ("desk", "rent_locker", "start"))


# -- a fact the hander's tools looked up, lost at the hand-over ------------------------------------

CLINIC = WorkflowSpec(
    system=SystemInfo(id="clinic", entry_agent="front", pattern="handoff"),
    agents=(AgentSpec(id="front", instructions="Find the patient with `find_patient`, then hand off to `diary`."),
            AgentSpec(id="diary", instructions="Book the visit with `book_visit`.")),
    tools=(ToolSpec(id="find_patient", description="Find a patient's record from their phone number.",
                    parameters=_params(phone='The phone number, e.g. "0161 496 0000"')),
           ToolSpec(id="book_visit", description="Book a visit for a patient.",
                    parameters=_params(patient_id='The patient number on their record, e.g. "PT-10000"',
                                       slot='The day and time, e.g. "Mon 09:00"'))),
    permissions=Permissions(allow=(("front", "find_patient"), ("diary", "book_visit"))),
    delegations=({"from": "front", "to": "diary"},))


def _clinic(record: str, *after, received: str | None = None) -> Trace:
    trace = _end(Message(role="user", content="Hello, it's 0161 496 0417, could I see the nurse on Tue 10:00?"),
                 AgentTurn(agent="front"),
                 ToolCall(agent="front", tool="find_patient", call_id="f", arguments={"phone": "0161 496 0417"}),
                 ToolResult(agent="front", tool="find_patient", call_id="f", status="ok", payload=record),
                 DelegationEvent(**{"from": "front"}, to="diary"), AgentTurn(agent="diary"), *after)
    if received is not None:
        trace = trace.model_copy(update={"meta": {HANDOVER_INPUTS: [{"since": 4, "agent": "diary", "text": received}]}})
    return trace


ONE = '{"record": {"patient_id": "PT-30417", "name": "Ada Reid"}}'


@pytest.mark.parametrize("question", [
    "Could you let me have the patient number on their record?",  # the parameter's documentation
    "What is the patient number, please?",  # a kind of fact whose form its tool documents
])
def test_asking_after_a_hand_over_for_a_fact_the_hander_looked_up_is_information_loss(question):
    [f] = handover_facts(_clinic(ONE, Message(agent="diary", content=question), received="Tue 10:00 please"), CLINIC)
    assert (f.root_cause, f.agent, f.step) == ("Information Loss at Hand-over", "front", 4)
    assert "front's tools returned" in f.description and "PT-30417" in f.description and f.evidence[0] == 3
    # it reached the receiving agent, which asked anyway: its own loss
    [f] = handover_facts(_clinic(ONE, Message(agent="diary", content=question), received=ONE), CLINIC)
    assert (f.agent, f.step) == ("diary", 6)


@pytest.mark.parametrize("record,after", [
    (ONE, [ToolCall(agent="diary", tool="book_visit", arguments={"patient_id": "PT-30417", "slot": "Tue 10:00"})]),
    # a search's list: which of its values is meant is open, so asking is right
    ('{"matches": [{"patient_id": "PT-30417"}, {"patient_id": "PT-30418"}]}',
     [Message(agent="diary", content="What is the patient number, please?")]),
    # nothing of the form its tool documents was looked up
    ('{"record": {"name": "Ada Reid"}}', [Message(agent="diary", content="What is the patient number, please?")]),
])
def test_a_receiving_agent_that_had_or_could_not_have_the_looked_up_fact_is_silent(record, after):
    assert handover_facts(_clinic(record, *after), CLINIC) == []


# -- a dependency told by what is done to a thing ---------------------------------------------------

def _yard(gate: str, tools: tuple[str, str] = ("weigh_in", "charge_fee")) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="yard", entry_agent="scales", pattern="fixed_order"),
        agents=(AgentSpec(id="scales", instructions=f"Weigh the lorry with `{tools[0]}`."),
                AgentSpec(id="till", instructions=gate)),
        tools=tuple(ToolSpec(id=t, description="A yard tool.") for t in tools),
        permissions=Permissions(allow=(("scales", tools[0]), ("till", tools[1]))))


def _yard_run(*speakers: str) -> Trace:
    events = [Message(role="user", content="Lorry AB12 CDE with scrap copper.")]
    for a in speakers:
        events += [AgentTurn(agent=a), Message(agent=a, content="Done my part.")]
    return _end(*events)


ONCE_WEIGHED = "The fee rests on the weight, so it can only be charged once the lorry has been weighed."


def test_a_dependency_on_what_another_agent_s_tool_does_to_a_thing_orders_the_run():
    [f] = instructed_order(_yard_run("till", "scales"), _yard(ONCE_WEIGHED))
    assert (f.root_cause, f.agent, f.elements) == ("Violation of Relationships-based Speaking Order", "till",
                                                   ("scales", "till"))
    assert instructed_order(_yard_run("scales", "till"), _yard(ONCE_WEIGHED)) == []
    # no other agent holds a tool named by that verb: the maker is not sure, no dependency is read
    assert instructed_order(_yard_run("till", "scales"), _yard(ONCE_WEIGHED, ("scale_read", "charge_fee"))) == []


# -- a request whose words fit two tools and whose arguments fit one --------------------------------

HOSTEL = WorkflowSpec(
    system=SystemInfo(id="hostel", entry_agent="reception", pattern="handoff"),
    agents=(AgentSpec(id="reception", instructions="Transfer each guest to the right desk."),
            AgentSpec(id="rooms", instructions="Move bookings with `move_stay`."),
            AgentSpec(id="porter", instructions="Set up late arrivals with `leave_key`.")),
    tools=(ToolSpec(id="move_stay", description="Move a booking to another arrival date, same rooms.",
                    parameters=_params(booking='The booking, e.g. "HB-10000"', new_date='The date, e.g. "2026-01-31"')),
           ToolSpec(id="leave_key", description="Leave a door key for guests arriving after the desk closes.",
                    parameters=_params(booking='The booking, e.g. "HB-10000"', arrival='The time, e.g. "23:45"'))),
    permissions=Permissions(allow=(("rooms", "move_stay"), ("porter", "leave_key"))),
    delegations=({"from": "reception", "to": "rooms"}, {"from": "reception", "to": "porter"}))
LATE = "Our booking HB-66120 is for 2 rooms; we arrive at 01:30, after the desk closes. Could you leave a key?"


def _hostel(to: str) -> Trace:
    return _end(Message(role="user", content=LATE), AgentTurn(agent="reception"),
                DelegationEvent(**{"from": "reception"}, to=to, trigger="handoff"), AgentTurn(agent=to),
                Message(agent=to, content="I can only move the dates on a booking - is that what you need?"))


def test_a_request_fitting_two_descriptions_but_one_tool_s_arguments_routed_to_the_other_is_misrouted():
    [f] = misrouted_request(_hostel("rooms"), HOSTEL)
    assert (f.root_cause, f.agent, f.elements) == ("Misrouted Request", "reception", ("reception", "rooms", "leave_key"))


# -- an agent named by an everyday noun the user counts ---------------------------------------------

def test_a_counted_noun_does_not_name_the_agent_that_bears_it():
    assert not names_agent(LATE, HOSTEL, "rooms")
    assert not names_agent("three more rooms please", HOSTEL, "rooms")
    assert names_agent("Could rooms move my booking?", HOSTEL, "rooms")
    # the porter served the request; the rooms desk the user counted was never needed
    served = _end(Message(role="user", content=LATE), AgentTurn(agent="reception"),
                  DelegationEvent(**{"from": "reception"}, to="porter", trigger="handoff"), AgentTurn(agent="porter"),
                  ToolCall(agent="porter", tool="leave_key", arguments={"booking": "HB-66120", "arrival": "01:30"}),
                  ToolResult(agent="porter", tool="leave_key", status="ok", payload="key in safe 3"),
                  Message(agent="porter", content="Your key is in safe 3."))
    assert participation(served, HOSTEL) == [] and detect(served, HOSTEL) == []


# -- a failed answer relayed field by field -------------------------------------------------------

@pytest.mark.parametrize("reply", [
    "Here is what came back: member GM-2231; rented False.",
    "The system says rented: no, reason: no lockers left.",
])
def test_a_failure_relayed_field_by_field_claims_nothing(reply):
    trace = _locker('{"member": "GM-2231", "rented": false}', reply)
    assert claimed_outcome(trace, LOCKERS) == []
    # the same answer with the action claimed done is still a false claim
    [f] = claimed_outcome(_locker('{"member": "GM-2231", "rented": false}', "Your locker is rented."), LOCKERS)
    assert f.root_cause == "Incorrect Verification"


# -- a failure said in a message field, or as input the tool could not read -------------------------

@pytest.mark.parametrize("payload", [
    '{"code": "E409", "detail": "the last locker already taken", "locker": null}',
    '{"result": {"message": "Could not rent: the changing room is closed for works."}}',
])
def test_a_success_claimed_after_a_message_field_saying_failure_is_incorrect_verification(payload):
    [f] = claimed_outcome(_locker(payload, "Lovely - your locker is rented from 03 Apr 2026."), LOCKERS)
    assert (f.root_cause, f.agent) == ("Incorrect Verification", "desk")
    # words that say it went through, in the same field, are no failure
    assert claimed_outcome(_locker('{"code": "E0", "detail": "Locker rented; card payment not available at the door.", "locker": 14}',
                                   "Lovely - your locker is rented from 03 Apr 2026."), LOCKERS) == []
    assert payload_failure('{"detail": "3 lockers not available"}', "find_lockers") is None  # a finder's fact


def test_a_code_and_a_note_that_the_documented_form_is_not_readable_is_a_specification_mismatch():
    said = "Sorry, the locker system did not take that."
    [f] = tool_doc_mismatch(_locker("31 start '03 Apr 2026' not readable", said), LOCKERS)
    assert (f.root_cause, f.agent) == ("Tool Specification Mismatch", None)
    assert tool_doc_mismatch(_locker("31 start '2026-04-03' not readable", said, start="2026-04-03"), LOCKERS) == []
