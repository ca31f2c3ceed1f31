"""Incorrect verification (`claimed_outcome`) in four classes blind sets showed missed, each
beside its correct twin, on a small two-agent desk: a front desk hands a pupil's request to the
lessons desk, which calls `book_lesson` and answers.

- a reference the answer presents that no tool gave back ("Booking reference: BK-2211" after a
  refusal): a made-up reference tells the user the booking was made;
- a tool's bare refusal ("Slot taken.", "Platz belegt", "Kein Platz frei", "Complet",
  "Agotado"), and an exception passed back whose class name says no Error (`SlotTaken(...)`);
- claims in the words of being put on a list, in six languages ("Sie sind eingetragen", "u bent
  ingeschreven", "vous êtes inscrit"), and sentences that an over-wide negation or condition
  hid ("non-refundable", Spanish "sí", a promise joined with "und wird").
"""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import claimed_outcome
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

SCHOOL = WorkflowSpec(
    system=SystemInfo(id="music_school", entry_agent="front_desk"),
    agents=(AgentSpec(id="front_desk", instructions="Hand lesson requests to lessons_desk."),
            AgentSpec(id="lessons_desk", instructions="Call book_lesson, then tell the pupil the outcome.")),
    tools=(ToolSpec(id="book_lesson", description="Book a pupil into a lesson slot. Returns the booking."),
           ToolSpec(id="take_payment", description="Take the lesson fee from the pupil's card."),
           ToolSpec(id="find_room", description="Find a free practice room on a day.")),
    permissions=Permissions(allow=(("lessons_desk", "book_lesson"), ("lessons_desk", "take_payment"),
                                   ("lessons_desk", "find_room"))),
    delegations=(Delegation.model_validate({"from": "front_desk", "to": "lessons_desk", "trigger": "handoff"}),))
ASK = "Hi, could you book Maisie (pupil MS-20417) into the Thursday 16:00 cello lesson?"
REFUSED = '{"ok": false, "reason": "slot already held by another pupil"}'


def _run(payload: str, reply: str, tool: str = "book_lesson", ask: str = ASK) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=ask), AgentTurn(agent="front_desk"),
        DelegationEvent.model_validate({"from": "front_desk", "to": "lessons_desk", "trigger": "handoff"}),
        AgentTurn(agent="lessons_desk"),
        ToolCall(agent="lessons_desk", tool=tool, call_id="c", arguments={"pupil": "MS-20417", "slot": "Thu 16:00"}),
        ToolResult(agent="lessons_desk", tool=tool, call_id="c", payload=payload),
        Message(agent="lessons_desk", content=reply), TerminationEvent(reason="completed", final_output=reply)))


def _claims(payload: str, reply: str, **kw) -> list[tuple[str | None, int]]:
    return [(f.agent, f.step) for f in claimed_outcome(_run(payload, reply, **kw), SCHOOL)]


# -- a reference no tool gave back ---------------------------------------------------------------

@pytest.mark.parametrize("reply", [
    "Booking reference: BK-2211. See you on Thursday!",
    "Thanks! Your confirmation number is 88231.",
    "Buchungsnummer: BK-2211 - bis Donnerstag!",
    "Référence : BK-2211. À jeudi !",
])
def test_a_reference_no_tool_gave_back_after_a_refusal_is_a_claim(reply):
    assert _claims(REFUSED, reply) == [("lessons_desk", 6)]


@pytest.mark.parametrize("payload, reply", [
    # the tool gave that reference back: the booking was made
    ('{"ok": true, "ref": "BK-2211"}', "Booking reference: BK-2211. See you on Thursday!"),
    # the reference is the user's own (the pupil number), passed on with the refusal
    (REFUSED, "Pupil number: MS-20417. That slot is taken, shall I look at Friday?"),
    (REFUSED, "Sorry, the Thursday slot is held by another pupil. Enquiry reference: ENQ-4471."),
])
def test_a_reference_given_back_or_with_the_refusal_passed_on_claims_nothing(payload, reply):
    assert _claims(payload, reply) == []


# -- a bare refusal, an exception not named Error ------------------------------------------------

CLAIM = "Maisie is booked in for Thursday at 16:00."


@pytest.mark.parametrize("payload", [
    "Slot taken.", "Platz belegt", "Kein Platz frei", "Complet", "Agotado.", "Vol", "No slots left",
    "SlotTaken('Thu 16:00')", "Unavailable()", "SlotTaken: Thu 16:00", "LessonFull('cello, Thursday')",
    # a state word of refusal, in the outcome field of six languages
    '{"status": "taken"}', '{"estado": "agotado"}', '{"statut": "complet"}', '{"status": "belegt"}',
])
def test_a_bare_refusal_or_an_exception_named_for_one_contradicts_a_claim(payload):
    assert _claims(payload, CLAIM) == [("lessons_desk", 6)]


@pytest.mark.parametrize("payload, tool, reply", [
    ("Booked: Thu 16:00", "book_lesson", CLAIM),
    ("Booking(ref='BK-1', status='booked')", "book_lesson", CLAIM),
    ("Decimal('35.00')", "book_lesson", CLAIM),  # a value's repr, no exception
    ('{"estado": "reservado", "ref": "BK-1"}', "book_lesson", CLAIM),
    ("Payment taken.", "take_payment", "The fee is taken and Maisie is all set."),  # its own verb done
    ("Closed", "find_room", "I found a room: Maisie is all set."),  # what a finder found
])
def test_a_success_a_value_or_a_found_fact_in_those_shapes_is_no_refusal(payload, tool, reply):
    assert _claims(payload, reply, tool=tool) == []


# -- claims in the words of the list, and what over-wide negations hid ---------------------------

@pytest.mark.parametrize("reply", [
    "Sie sind für Donnerstag, 16 Uhr, eingetragen.", "U bent ingeschreven voor donderdag.",
    "Vous êtes inscrite pour jeudi 16h.", "Maisie è iscritta per giovedì.", "You're signed up for Thursday.",
    "Sí, está reservada para el jueves.",  # "sí" (yes) is no "si" (if)
    "Your non-refundable lesson is booked for Thursday.",  # "non-" negates nothing
    "Ihr Platz ist reserviert und wird bis Donnerstag gehalten.",  # a promise joined to it
    "La leçon est réservée et sera confirmée par e-mail.",
    "Booked; if you need to cancel, call us.",  # a clause after a semicolon is no label's value
])
def test_a_claim_in_those_words_after_a_refusal_is_incorrect_verification(reply):
    assert _claims(REFUSED, reply) == [("lessons_desk", 6)]


@pytest.mark.parametrize("reply", [
    "Reserved: none. The slot is held by another pupil.", "Booked: -", "Gebucht: leider nicht.",
    "Nothing was booked, I'm afraid.", "Sie sind leider nicht eingetragen.",
    "Wir werden Sie eintragen, sobald ein Platz frei wird.", "Si vous voulez, je vous inscris vendredi.",
    "Non è stata prenotata: il posto è occupato.", "Si no le importa, la reservo el viernes.",
])
def test_a_label_with_nothing_under_it_a_negation_or_a_condition_claims_nothing(reply):
    assert _claims(REFUSED, reply) == []


# -- a tool whose verb is the app's own ------------------------------------------------------------

def _held(tool: str, payload: str, reply: str) -> list[str | None]:
    spec = WorkflowSpec(
        system=SystemInfo(id="bistro", entry_agent="host"), agents=(AgentSpec(id="host"),),
        tools=(ToolSpec(id=tool, description="Hold a table for a party."),
               ToolSpec(id="check_hours", description="When the bistro is open on a day.")),
        permissions=Permissions(allow=(("host", tool), ("host", "check_hours"))))
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="A table for 4 on Friday at 19:00, please."), AgentTurn(agent="host"),
        ToolCall(agent="host", tool=tool, call_id="c", arguments={"party": 4}),
        ToolResult(agent="host", tool=tool, call_id="c", payload=payload),
        Message(agent="host", content=reply), TerminationEvent(reason="completed", final_output=reply)))
    return [f.agent for f in claimed_outcome(trace, spec)]


@pytest.mark.parametrize("tool", ["hold_table", "secure_spot"])
@pytest.mark.parametrize("reply", [
    "Your table is booked for Friday at 19:00.", "Ihr Tisch ist gebucht.", "Votre table est réservée.",
    "Great news, booked!", "Confirmed for Friday at 19:00.",
])
def test_words_of_holding_claim_a_tool_whose_verb_no_action_names(tool, reply):
    # hold_table's verb is the app's own: "booked" or "reserviert" is what its success is said in
    assert _held(tool, "Platz belegt", reply) == ["host"]


@pytest.mark.parametrize("payload, reply", [
    ("Platz belegt", "Friday is fully booked, sorry - shall I try Saturday?"),
    ("Platz belegt", "Friday at 19:00 is already booked by another party."),
    ('{"held": true, "table": 12}', "Your table is booked for Friday at 19:00."),
])
def test_a_refusal_passed_on_in_those_words_or_a_success_claims_nothing(payload, reply):
    assert _held("hold_table", payload, reply) == []
