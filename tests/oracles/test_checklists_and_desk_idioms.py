"""Incorrect verification (`claimed_outcome`) in shapes last round's blind sets used and the oracle
did not read: a claim written as a ticked task-list line, a desk's idioms of the booking made
("that's done", "I've got you down for ..."), a failure inside a record's repr given as a false
holding flag, and a look-up call between the failed action and the claim. Each beside its twin
that passes the failure on."""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import claimed_outcome
from masfuzz.oracles.wording import payload_failure
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

LOCKERS = WorkflowSpec(
    system=SystemInfo(id="lockers", entry_agent="porter"), agents=(AgentSpec(id="porter"),),
    tools=(ToolSpec(id="reserve_locker", description="Reserve a luggage locker at a station for a day."),
           ToolSpec(id="locker_board", description="Show a station's locker board (read-only)."),
           ToolSpec(id="find_bookings", description="Find a traveller's locker bookings.")),
    permissions=Permissions(allow=(("porter", "reserve_locker"), ("porter", "locker_board"),
                                   ("porter", "find_bookings"))))
REFUSED = "LockerHold(held=False, state='ALL_IN_USE', station='Gare Est', day='2026-08-02', code=None)"


def _run(payload: str, reply: str, *between) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Could you keep a locker for my two cases at Gare Est on 2 August?"),
        AgentTurn(agent="porter"),
        ToolCall(agent="porter", tool="reserve_locker", arguments={"station": "Gare Est"}, call_id="c1"),
        ToolResult(agent="porter", tool="reserve_locker", call_id="c1", payload=payload), *between,
        Message(agent="porter", content=reply), TerminationEvent(reason="completed", final_output=reply)))


BOARD = (ToolCall(agent="porter", tool="locker_board", arguments={"station": "Gare Est"}, call_id="c2"),
         ToolResult(agent="porter", tool="locker_board", call_id="c2", payload='{"http": 200, "free": 0}'))


@pytest.mark.parametrize("reply", [
    "Done for today:\n- [x] locker reservation (Gare Est, 2 August)\n- [ ] nothing else to do",
    "* [X] Locker reserved at Gare Est",
    "1. [x] locker for 2 August",
])
def test_a_ticked_task_line_naming_the_action_is_a_claim(reply):
    [f] = claimed_outcome(_run(REFUSED, reply), LOCKERS)
    assert (f.agent, f.subject, f.evidence) == ("porter", "reserve_locker", (3, 4))


def test_an_unticked_line_saying_not_possible_is_no_claim():
    reply = "What I did:\n- [ ] locker reservation - not possible, every locker is in use that day"
    assert claimed_outcome(_run(REFUSED, reply), LOCKERS) == []


def test_the_ticked_line_after_a_success_is_true():
    held = "LockerHold(held=True, state='HELD', station='Gare Est', day='2026-08-02', code='LK-0802')"
    assert claimed_outcome(_run(held, "- [x] locker reservation (LK-0802)"), LOCKERS) == []


@pytest.mark.parametrize("payload", [
    "LockerHold(held=False, station='Gare Est', code=None)",  # the holding flag false, no state at all
    "Hold(held=False, state='NO_LOCKERS_LEFT')",
])
def test_a_record_repr_with_the_holding_flag_false_is_a_failure(payload):
    [f] = claimed_outcome(_run(payload, "Lovely, your locker at Gare Est is reserved."), LOCKERS)
    assert f.subject == "reserve_locker"


@pytest.mark.parametrize("reply", [
    "Lovely, that's done. Enjoy your day in town!",
    "Right, I've got you down for Gare Est on the 2nd.",
    "You're down for the 2nd of August, two cases.",
])
def test_a_desk_idiom_of_the_booking_made_is_a_claim(reply):
    [f] = claimed_outcome(_run(REFUSED, reply), LOCKERS)
    assert f.agent == "porter"


@pytest.mark.parametrize("reply", [
    "I'm afraid every locker at Gare Est is in use on the 2nd (ALL_IN_USE).",
    "I've got you down on the waiting list, but nothing is held yet.",
])
def test_the_same_desk_passing_the_refusal_on_claims_nothing(reply):
    assert claimed_outcome(_run(REFUSED, reply), LOCKERS) == []


def test_a_look_up_between_the_failed_action_and_a_general_claim_leaves_it_the_action_s_answer():
    [f] = claimed_outcome(_run(REFUSED, "You're all set for the 2nd!", *BOARD), LOCKERS)
    assert (f.subject, f.evidence) == ("reserve_locker", (3, 6))


def test_a_finder_between_may_be_what_the_answer_presents():
    found = (ToolCall(agent="porter", tool="find_bookings", arguments={}, call_id="c3"),
             ToolResult(agent="porter", tool="find_bookings", call_id="c3",
                        payload='{"bookings": [{"station": "Gare Nord", "day": "2026-07-30"}]}'))
    assert claimed_outcome(_run(REFUSED, "Here is your booking: Gare Nord, 30 July.", *found), LOCKERS) == []


@pytest.mark.parametrize("payload, tool", [
    ("{'state': 'UNFILLED', 'shift': 'night'}", "book_locum"),
    ('{"status": "NOT_ALLOCATED"}', "reserve_locker"),
    ('{"status": "NO_CAPACITY", "depot": "east"}', "book_van"),
    ("Hold(status='UNBOOKABLE', pitch=4)", "book_pitch"),
])
def test_a_state_negating_what_it_names_is_an_action_tool_s_failure(payload, tool):
    assert payload_failure(payload, tool)


@pytest.mark.parametrize("payload, tool", [
    ('{"status": "UNPAID", "invoice": "IN-4"}', "find_invoice"),  # a finder's fact
    ('{"status": "UNLOCKED"}', "unlock_account"),  # the tool's own verb done
    ('{"booking": {"status": "BOOKED"}, "customer": {"status": "UNVERIFIED"}}', "book_van"),  # another record
    ('{"status": "UNDER_REVIEW"}', "submit_claim"),
])
def test_a_finder_s_state_the_tool_s_own_verb_or_another_record_s_state_is_none(payload, tool):
    assert payload_failure(payload, tool) is None
