"""Incorrect verification (`claimed_outcome`) in shapes the bug zoo does not hold: a tool's
result as an app's own types print it (an enum member, a NamedTuple, a state wrapped in the
record), plain sentences and framework-wrapped exceptions, in English and five other languages;
claims as next steps, summary bullets and in French, German, Spanish, Italian and Dutch. Each
missed shape beside its twin: a correct "could not reserve" answer, a success, a claim about
another call that succeeded."""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import claimed_outcome
from masfuzz.oracles.wording import sentences
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

DESK = WorkflowSpec(
    system=SystemInfo(id="desk", entry_agent="desk"), agents=(AgentSpec(id="desk"),),
    tools=(ToolSpec(id="reserve_slot", description="Reserve a slot for a visitor."),
           ToolSpec(id="order_box", description="Order a box from the store.")),
    permissions=Permissions(allow=(("desk", "reserve_slot"), ("desk", "order_box"))))
CLAIM = "Your slot on Thursday has been reserved."
REJECTED = "{'status': 'REJECTED'}"


def _run(payload: str, claim: str, *between) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Please reserve a slot on Thursday."), AgentTurn(agent="desk"),
        ToolCall(agent="desk", tool="reserve_slot", arguments={}, call_id="c"),
        ToolResult(agent="desk", tool="reserve_slot", call_id="c", payload=payload), *between,
        Message(agent="desk", content=claim), TerminationEvent(reason="completed", final_output=claim)))


@pytest.mark.parametrize("payload", [
    "BookingState.TAKEN",  # an enum member's str()
    "Booking(status=<BookingState.TAKEN: 'taken'>, ref=None)",  # its repr in a dataclass's
    "{'state': <BookingState.WAITLISTED: 'waitlisted'>}",  # ... and in a printed dict
    '{"result": {"state": "WAITLISTED"}}',  # the state inside the record the answer wraps
    '{"data": {"booking": {"status": "CONFLICT"}}}',
    "('rejected', 'slot taken')",  # a (state, message) pair
    "The slot is already taken.",
    "Reservierung fehlgeschlagen", "Réservation impossible : créneau complet",
    "Reserva rechazada: no hay plazas", "Prenotazione non riuscita", "Reservering mislukt: het tijdslot is vol",
    # an exception as each framework turns it into the tool's answer (PydanticAI's retry prompt
    # around it, LangGraph's ToolNode, the Agents SDK's and CrewAI's defaults), whatever its status
    "slot taken\n\nFix the errors and try again.", "Error: ValueError('slot taken')\n Please fix your mistakes.",
    "An error occurred while running the tool. Please try again. Error: slot taken",
    "Error executing tool reserve_slot: slot taken",
])
def test_a_failure_in_an_app_s_own_result_shape_contradicts_a_success_claim(payload):
    [f] = claimed_outcome(_run(payload, CLAIM), DESK)
    assert (f.agent, f.subject, f.evidence) == ("desk", "reserve_slot", (3, 4))


@pytest.mark.parametrize("payload", [
    "<BookingState.CONFIRMED: 'confirmed'>", "BookingState.RESERVED", "Status.OK",
    "Booking(status=<BookingState.BOOKED: 'booked'>, ref='B-1')", '{"result": {"state": "RESERVED"}}',
    '{"customer": {"status": "VIP"}, "status": "reserved"}',  # another record's state is not the action's
    '{"data": {"customer": {"status": "BLOCKED"}, "booking": {"status": "CONFIRMED"}}}',
    "Reservierung erfolgreich: Platz 4", "Réservation confirmée", "('reserved', 'seat 4')",
    "Reserved. No fee charged.",
])
def test_a_success_in_those_shapes_leaves_the_claim_alone(payload):
    assert claimed_outcome(_run(payload, CLAIM), DESK) == []


@pytest.mark.parametrize("claim", [
    "I've put you down for Thursday at 10.",
    "Votre créneau de jeudi est réservé.", "Votre réservation du 5 mai est confirmée.",  # mai: May, no negation
    "C'est fait : votre réservation est confirmée pour jeudi.",
    "Ihr Termin am Donnerstag ist reserviert.", "Alles erledigt – Ihre Reservierung ist bestätigt.",
    "Su plaza para el jueves está reservada.", "¡Listo! Reserva confirmada para el jueves.",
    "Il suo posto per giovedì è prenotato.", "Prenotazione confermata per giovedì.",
    "Uw plek op donderdag is gereserveerd.", "Reservering bevestigd voor donderdag.",
    # next steps and summaries (read before: kept as they are)
    "You're all set for Thursday — bring your ID.", "Summary:\n- Reservation: confirmed\n- Slot: Thursday 10:00",
    # a success word alone as a label or its value
    "Status: CONFIRMED", "Confirmed: Thursday 10:00.", "Reserviert: Donnerstag, 10 Uhr.",
])
def test_a_claim_in_another_language_or_shape_after_a_refusal_is_incorrect_verification(claim):
    [f] = claimed_outcome(_run(REJECTED, claim), DESK)
    assert (f.agent, f.step) == ("desk", 4)


@pytest.mark.parametrize("answer", [
    "Could not reserve: the slot is taken.", "Leider konnte der Termin nicht reserviert werden.",
    "La réservation n'a pas pu être effectuée.", "Lo siento, no se pudo reservar la plaza.",
    "Purtroppo la prenotazione non è riuscita.", "Helaas is de reservering niet gelukt.",
    "Je n'ai pas pu réserver : le créneau est complet.", "Ihre Reservierung wird bestätigt, sobald ein Platz frei wird.",
    "Summary:\n- Reservation: rejected (slot taken)\n- Next step: try Friday",
    # the refusal passed on in words of its own, a success label over it included
    "The slot is taken.", "Confirmed: the slot is taken.", "Confirmed: nothing was reserved.",
    "Confirmed: Thursday is no longer available.",
])
def test_a_correct_refusal_in_any_of_those_languages_claims_nothing(answer):
    assert claimed_outcome(_run(REJECTED, answer), DESK) == []


@pytest.mark.parametrize("claim", ["Your box has been ordered for Thursday.", "Votre carton a été commandé.",
                                   "Ihre Box ist bestellt.", "All set: the box is on its way."])
def test_a_claim_about_another_call_that_succeeded_is_not_about_the_refused_one(claim):
    box = (ToolCall(agent="desk", tool="order_box", arguments={}, call_id="b"),
           ToolResult(agent="desk", tool="order_box", call_id="b", payload='{"status": "ordered"}'))
    assert claimed_outcome(_run(REJECTED, claim, *box), DESK) == []


def test_a_sentence_ends_at_a_closing_quote():
    """A quoted reply that ends a sentence ends it: the next sentence's hedge or negation must
    not reach back into it, nor its claim forward."""
    assert sentences('The desk said "Reserved." Sorry, that was wrong.') == [
        'The desk said "Reserved."', "Sorry, that was wrong."]
    assert sentences("She replied 'Done!' Then we left.") == ["She replied 'Done!'", "Then we left."]


@pytest.mark.parametrize("said, found", [
    ("You're all set for Thursday - bring your ID.", True),
    ("The store could not reserve the slot: it is taken.", False),
])
def test_an_agent_run_as_a_tool_claims_in_its_own_reply_which_the_tool_s_answer_repeats(said, found):
    """A sub-agent run as a tool (PydanticAI's delegation, an Agents SDK agent tool) says its
    reply, and the delegating tool answers with the same words after it: the reply is the
    sub-agent's claim, not a repeat of a tool's answer (which only a reply after it can be)."""
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Please reserve a slot on Thursday."), AgentTurn(agent="front"),
        ToolCall(agent="front", tool="ask_desk", arguments={"message": "reserve Thursday"}, call_id="a"),
        AgentTurn(agent="desk"),
        ToolCall(agent="desk", tool="reserve_slot", arguments={}, call_id="c"),
        ToolResult(agent="desk", tool="reserve_slot", call_id="c", payload='{"result": {"state": "REJECTED"}}'),
        Message(agent="desk", content=said),
        ToolResult(agent="front", tool="ask_desk", call_id="a", payload=said), AgentTurn(agent="front"),
        Message(agent="front", content=said), TerminationEvent(reason="completed", final_output=said)))
    assert [(f.agent, f.step) for f in claimed_outcome(trace, DESK)] == ([("desk", 6)] if found else [])
