"""A closing question is not the agent waiting on the user: a reply that did the work and closes
with an offer or a courtesy ("Anything else?", "Want me to email the receipt too?", "All set -
shall I add a reminder?") asks for nothing the task needs. Each verdict that reads "waiting on the
user" reads it the same way (`wording.closing_offers`), each beside its twin that still waits.

- tool omission: a desk that claims the booking done without calling the booking tool and closes
  with an offer has omitted the call; one that asks for the detail it lacks still waits.
- missing termination: a closing with an offer said again to the auto-reply cap is the team's
  stop condition not hearing it, not a round limit; a question for a detail said again to the cap
  is still a bound reached on a wait.
- participation: a round-robin team stopped on a closing offer after the work, before a member
  spoke, ended early; one stopped on a choice put to the user waits.
"""

from __future__ import annotations

import pytest

from masfuzz.graph.specification import skeleton
from masfuzz.oracles.detectors import missing_termination
from masfuzz.oracles.flare import tool_omission
from masfuzz.oracles.instructed import participation
from masfuzz.oracles.wording import asks_back
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace


@pytest.mark.parametrize("reply,asks", [
    ("Booked: ref K-4. Anything else I can help with?", False),
    ("Done. Want me to email the receipt too?", False),
    ("All set \u2014 shall I add a reminder?", False),
    ("Your refund has been issued. Does that help?", False),
    ("Confirmed for Friday, 10:00. Would you like me to text you the door code?", False),
    ("Sorted. Shall I add a reminder for Tuesday, 09:30?", False),
    # a detail the task lacks, before or instead of an offer
    ("Which row would you like? Anything else?", True),
    ("What time suits you on Friday?", True),
    # leave asked for the work itself, or a choice put to the user, after another step done
    ("I found two slots. Shall I book the 10:00?", True),
    ("Availability is confirmed. Shall I go ahead and book it?", True),
    ("I've cancelled the old booking. Should I book the 10:00 or the 11:00 instead?", True),
    # an offer of a step with no work said done is still a question about the task
    ("Want me to book the 10:00 slot?", True),
])
def test_a_closing_offer_after_the_work_asks_for_nothing(reply, asks):
    assert asks_back(reply) is asks


# -- tool omission ---------------------------------------------------------------------------------

LOCKERS = WorkflowSpec(
    system=SystemInfo(id="ski_lockers", entry_agent="locker_desk", framework="ag2", pattern="orchestrated"),
    agents=(AgentSpec(id="locker_desk", instructions="Rent a locker with rent_locker, then tell the guest the number."),),
    tools=(ToolSpec(id="rent_locker", description="Rent a boot locker at the lift base for a day.",
                    parameters={"type": "object", "required": ["day"],
                                "properties": {"day": {"type": "string", "description": "The day, e.g. Sat"}}}),),
    permissions=Permissions(allow=(("locker_desk", "rent_locker"),)))


def _locker_desk(reply: str) -> set:
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Could I get a boot locker at the lift base please?"),
        AgentTurn(agent="locker_desk"), Message(agent="locker_desk", content=reply),
        TerminationEvent(reason="max_turns", detail="Maximum turns (1) reached")))
    return {f.elements for f in tool_omission(trace, skeleton(LOCKERS), LOCKERS)}


@pytest.mark.parametrize("reply", [
    "Locker 14 is reserved for you. Anything else I can help with?",
    "All sorted \u2014 want me to send the code to your phone too?",
    # the offer names the argument the call needs, and still asks for nothing
    "Locker 14 is reserved for you. Shall I text you the code for that day too?",
])
def test_a_claim_without_the_call_closed_by_an_offer_is_an_omission(reply):
    assert _locker_desk(reply) == {("locker_desk", "rent_locker")}


def test_a_question_for_what_the_call_lacks_still_waits():
    assert _locker_desk("Happy to help! Which day would you like it for?") == set()


# -- missing termination ---------------------------------------------------------------------------

FERRY = WorkflowSpec(
    system=SystemInfo(id="ferry_desk", entry_agent="ferry_desk"),
    agents=(AgentSpec(id="ferry_desk", instructions="Book crossings with `book_crossing`."), AgentSpec(id="proxy")),
    tools=(ToolSpec(id="book_crossing", description="Book a car onto a ferry crossing.",
                    parameters={"type": "object", "required": ["sailing", "vehicle"],
                                "properties": {"sailing": {"type": "string"}, "vehicle": {"type": "string"}}}),),
    permissions=Permissions(allow=(("ferry_desk", "book_crossing"),)))


def _ferry_run(closing: str, times: int = 5) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="One car, the 07:40 sailing to the island on Saturday please"),
        AgentTurn(agent="ferry_desk"),
        ToolCall(agent="ferry_desk", tool="book_crossing", arguments={"sailing": "Sat 07:40", "vehicle": "car"},
                 call_id="b"),
        ToolResult(agent="ferry_desk", tool="book_crossing", call_id="b", payload='{"ok": true, "ref": "FX-2207"}'),
        *[Message(agent="ferry_desk", content=closing) for _ in range(times)],
        TerminationEvent(reason="max_turns", detail="Maximum number of consecutive auto-replies reached")))


@pytest.mark.parametrize("closing", [
    "Booked on the Saturday 07:40 sailing, ref FX-2207. Is there anything else I can help with?",
    "All set \u2014 want me to add the return sailing for your vehicle too?",
])
def test_a_closing_offer_said_again_to_the_bound_is_a_stop_condition_that_never_heard_it(closing):
    [f] = missing_termination(_ferry_run(closing), FERRY)
    assert (f.root_cause, f.elements, f.attribution) == ("Termination Condition Violation", ("max_turns", "repeated"),
                                                         "sut")


def test_a_question_for_a_required_detail_said_again_is_a_wait_on_the_user():
    [f] = missing_termination(_ferry_run("Which vehicle are you bringing, car or van?"), FERRY)
    assert (f.root_cause, f.attribution) == ("Max Round Limit Exceeded", "harness")


# -- participation ---------------------------------------------------------------------------------

BAKERY = WorkflowSpec(
    system=SystemInfo(id="cake_orders", entry_agent="order_desk", pattern="fixed_order"),
    agents=(AgentSpec(id="order_desk", instructions="Take the cake order with place_order."),
            AgentSpec(id="icing_k", instructions="Book the lettering the customer asks for with book_lettering.")),
    tools=(ToolSpec(id="place_order", description="Place a cake order for collection."),
           ToolSpec(id="book_lettering", description="Book piped lettering on a cake.")),
    permissions=Permissions(allow=(("order_desk", "place_order"), ("icing_k", "book_lettering"))))
CAKE = "A lemon sponge for Saturday collection please, with 'Happy 60th Mags' piped on top as lettering."


def _cake(last: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=CAKE), AgentTurn(agent="order_desk"),
        ToolCall(agent="order_desk", tool="place_order", arguments={"cake": "lemon sponge"}, call_id="o"),
        ToolResult(agent="order_desk", tool="place_order", call_id="o", payload="{'order': 'CK-77', 'day': 'Sat'}"),
        Message(agent="order_desk", content=last),
        TerminationEvent(reason="text_mention", detail="Text 'CK-77' mentioned", final_output=last)))


def test_a_team_stopped_on_an_offer_after_the_work_before_a_member_spoke_ended_early():
    [f] = participation(_cake("All done, CK-77 is yours for Saturday. Want me to add candles too?"), BAKERY)
    assert (f.root_cause, f.elements) == ("Premature Termination", ("order_desk", "icing_k"))


def test_a_team_stopped_on_a_choice_put_to_the_user_waits():
    assert participation(_cake("Order CK-77 is placed. Should the lettering be in pink or in white?"), BAKERY) == []


# -- one tail walker for the two "to the end" readings --------------------------------------------

def test_one_tail_walker_reads_a_closing_said_again_and_a_question_asked_again():
    """The closing said again passes over the other side's empty auto-replies and wants the same
    words each time; the question asked again stops at any other message, whatever its words."""
    from masfuzz.oracles.detectors import _closing_tail, _closes

    said = [Message(agent="ferry_desk", content="All set, ref FX-2207. Anything else?"), Message(role="user", content="")]
    trace = Trace(scenario_id="s", events=(Message(role="user", content="One car on the 07:40 please"),
                                           *said, *said, *said[:1]))
    assert _closing_tail(trace, _closes, verbatim=True) == [5, 3, 1]
    assert _closing_tail(trace, _closes, verbatim=False) == [5]
