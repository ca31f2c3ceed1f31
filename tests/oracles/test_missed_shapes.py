"""Shapes of runs the oracles missed or blamed wrongly, each fixed as a class: a tool named by a
generic verb and the work it does (issue_refund), a claim in another clause of a sentence that relays a false field, a
delegating tool whose target only its name, its description or its binding says, and an
all-digit reference the user named ("order 48213907") lost at a hand-over. (A router's table
mapping a classifier's right label to the wrong agent: test_routing_blame.py.)"""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import MISROUTED, misrouted_request, participation
from masfuzz.oracles.semantic import claimed_outcome, handover_facts
from masfuzz.oracles.wording import asks_for
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace
from tests.oracles.test_instructed import _concierge, _hotel

# -- a tool named by a generic verb and its work ------------------------------------------------


def _shop(refund_tool: str) -> WorkflowSpec:
    """A shop's triage hands to shipping (track_parcel) or to billing, whose refund tool is named
    by a generic verb and the work it does."""
    return WorkflowSpec(
        system=SystemInfo(id="shop", entry_agent="triage", pattern="handoff"),
        agents=(AgentSpec(id="triage", instructions="Hand each customer to the right desk."),
                AgentSpec(id="shipping", instructions="You track parcels."),
                AgentSpec(id="billing", instructions="You handle money back for broken goods.")),
        tools=(ToolSpec(id="track_parcel", description="Where a parcel is now."),
               ToolSpec(id=refund_tool, description="Give the customer their money back for an order.")),
        permissions=Permissions(allow=(("shipping", "track_parcel"), ("billing", refund_tool))),
        delegations=({"from": "triage", "to": "shipping"}, {"from": "triage", "to": "billing"}))


REFUND = "Hello, please refund order ORD-4471, the kettle arrived broken."


def _handed(to: str, request: str = REFUND) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=request), AgentTurn(agent="triage"),
        DelegationEvent(**{"from": "triage"}, to=to), AgentTurn(agent=to),
        ToolCall(agent=to, tool="track_parcel", call_id="t1", arguments={"order": "ORD-4471"}),
        ToolResult(agent=to, tool="track_parcel", call_id="t1", payload="ORD-4471: delivered 3 May."),
        Message(agent=to, content="Your order ORD-4471 was delivered on 3 May."),
        TerminationEvent(reason="completed", final_output="Your order ORD-4471 was delivered on 3 May.")))


@pytest.mark.parametrize("tool", ["issue_refund", "make_refund", "do_refund", "process_refund", "handle_refund",
                                  "submit_refund", "create_refund", "run_refund", "perform_refund",
                                  "request_refund", "refund_payment"])
def test_a_refund_tool_named_by_a_generic_verb_is_what_a_refund_request_asks_for(tool):
    """The verb says only that the tool does something; the noun after it is the work, and a
    request for that work routed to a desk without it is misrouted."""
    [f] = misrouted_request(_handed("shipping"), _shop(tool))
    assert (f.root_cause, f.agent, f.elements) == (MISROUTED, "triage", ("triage", "shipping", tool))
    # the same request routed to the desk holding the tool, or a request for another work
    assert misrouted_request(_handed("billing"), _shop(tool)) == []
    assert misrouted_request(_handed("shipping", "Where is my parcel for order ORD-4471?"), _shop(tool)) == []


def test_a_request_asking_first_for_another_work_does_not_ask_for_a_tool_its_noun_names_later():
    """With nothing but actions in two tools' names, the request's first action word is what it
    asks for: a refund for a booking is not a booking."""
    spec = _shop("issue_refund").model_copy(update={"tools": (
        ToolSpec(id="make_booking", description="Book a delivery slot."),
        ToolSpec(id="issue_refund", description="Give the customer their money back.")),
        "permissions": Permissions(allow=(("shipping", "make_booking"), ("billing", "issue_refund")))})
    asked = "I'd like a refund for my booking ORD-4471, the slot was missed."
    assert [f.elements for f in misrouted_request(_handed("shipping", asked), spec)] == [
        ("triage", "shipping", "issue_refund")]
    # routed to the booking desk's holder, it is the refund the request lacks, not the booking
    assert (asks_for(asked, "issue_refund", spec), asks_for(asked, "make_booking", spec)) == (True, False)
    assert (asks_for("Please book me a slot on Friday.", "make_booking", spec),
            asks_for("Please book me a slot on Friday.", "issue_refund", spec)) == (True, False)


def test_a_run_ending_before_the_holder_of_a_generically_named_tool_the_task_asks_for_is_premature():
    """Who needs whom reads the request the same way: the task asks for a refund, billing alone
    holds issue_refund, and the run concluded without billing."""
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=REFUND), AgentTurn(agent="triage"),
        Message(agent="triage", content="Thanks, we have noted it."),
        TerminationEvent(reason="completed", final_output="Thanks, we have noted it.")))
    spec = _shop("issue_refund").model_copy(update={"delegations": ()})
    assert [(f.root_cause, f.elements[-1:]) for f in participation(trace, spec)] == [
        ("Premature Termination", ("billing",))]


# -- a claim beside a field relayed false, in another clause of the same sentence ----------------

def _relayed(reply: str) -> Trace:
    """A tennis club's desk books a court; the tool answers the court is not free."""
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Can I have court 3 on Saturday at 10:00?"), AgentTurn(agent="desk"),
        ToolCall(agent="desk", tool="book_court", call_id="b1", arguments={"court": 3, "slot": "Sat 10:00"}),
        ToolResult(agent="desk", tool="book_court", call_id="b1",
                   payload='{"booked": false, "available": false, "reason": "court 3 is taken on Saturday 10:00"}'),
        Message(agent="desk", content=reply), TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("reply", [
    "Court 3 on Saturday: available False, but I booked it for you anyway, ref CT-5521.",
    "The system said available: no, but I have booked court 3 for you anyway.",
    "booked False; I have booked court 3 for you by hand.",
])
def test_a_claim_in_another_clause_than_a_field_relayed_false_is_still_read(reply):
    [f] = claimed_outcome(_relayed(reply), None)
    assert (f.root_cause, f.agent, f.elements) == ("Incorrect Verification", "desk", ("desk", "book_court"))


@pytest.mark.parametrize("reply", [
    "Court 3: available False, booked False.",  # the answer relayed field by field
    "I'm sorry, booked: no, the court is taken on Saturday at 10:00.",
    "Booked: none, court 3 is taken then.",
])
def test_a_sentence_of_false_fields_alone_claims_nothing(reply):
    assert claimed_outcome(_relayed(reply), None) == []


# -- a delegating tool's target read from its name, its description or its binding ---------------

@pytest.mark.parametrize("routes, bound, called", [
    # its name alone names the spa, its description says nothing of where it goes
    ({"ask_spa": "Ask about a treatment.", "ask_kitchen": "Ask about meals."}, None, "ask_spa"),
    # its description alone names it, its name says nothing
    ({"guest_query_1": "Send a question about treatments to the spa team.",
      "guest_query_2": "Send a question about meals to the kitchen."}, None, "guest_query_1"),
    # neither: the spec binds each tool to its agent
    ({"query_a": "Ask a question.", "query_b": "Ask a question."}, {"query_a": "spa", "query_b": "kitchen"}, "query_a"),
])
def test_a_delegating_tool_whose_target_one_source_gives_that_ran_its_sibling_s_agent_is_crossed(routes, bound, called):
    """The concierge called the spa's route for a massage; the call ran the kitchen, the agent
    the sibling route names (tools made in a loop): the wiring's, whichever source says where
    each route goes."""
    spec = _hotel(routes=routes, bound=bound)
    [f] = misrouted_request(_concierge(called, "kitchen"), spec)
    sibling = next(t for t in routes if t != called)
    assert (f.root_cause, f.agent, f.elements) == (MISROUTED, None, (called, "kitchen", sibling))
    # the sibling's own call reaching its agent is no crossed route
    assert [f for f in misrouted_request(_concierge(sibling, "kitchen"), spec) if f.agent is None] == []


def test_a_delegating_tool_that_says_nowhere_where_it_goes_is_no_crossed_route():
    spec = _hotel(routes={"query_a": "Ask a question.", "query_b": "Ask a question."})
    assert misrouted_request(_concierge("query_a", "kitchen"), spec) == []


# -- an all-digit reference the user named, lost at a hand-over ----------------------------------

RETURNS = WorkflowSpec(
    system=SystemInfo(id="returns", entry_agent="triage", pattern="handoff"),
    agents=(AgentSpec(id="triage"), AgentSpec(id="returns_desk", instructions="You arrange returns.")),
    tools=(ToolSpec(id="start_return", description="Start a return for an order.",
                    parameters={"type": "object", "properties": {"order_number": {"type": "string"}},
                                "required": ["order_number"]}),),
    permissions=Permissions(allow=(("returns_desk", "start_return"),)),
    delegations=({"from": "triage", "to": "returns_desk"},))


def _returned(request: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=request), AgentTurn(agent="triage"),
        DelegationEvent(**{"from": "triage"}, to="returns_desk"), AgentTurn(agent="returns_desk"),
        Message(agent="returns_desk", content="Happy to help with the return. What is your order number?"),
        TerminationEvent(reason="completed", final_output="What is your order number?")))


@pytest.mark.parametrize("request_, number", [
    ("Hi, I'd like to return the kettle from order 48213907, it leaks.", "48213907"),
    ("Return please: order number: 48213907, the kettle leaks.", "48213907"),
    ("The kettle leaks; it's case 20240117 with your support team, order no. 5512093.", "20240117"),
])
def test_an_all_digit_reference_named_by_its_noun_is_a_fact_lost_at_the_hand_over(request_, number):
    [f] = handover_facts(_returned(request_), RETURNS)
    assert (f.root_cause, f.agent, f.elements) == ("Information Loss at Hand-over", "triage",
                                                   ("triage", "returns_desk", "identifier"))
    assert number in f.description


@pytest.mark.parametrize("request_", [
    "I bought 2 kettles in 2024 and one leaks, I'd like to return it.",  # a count and a year
    "The kettle I paid 1500 pounds for leaks, I'd like to return it.",  # an amount
    "I'd like to return the kettle from my booking on 2026-03-14.",  # a date
    "The kettle from order 14 leaks, I'd like to return it.",  # too short to be a reference
])
def test_counts_years_amounts_and_dates_are_no_lost_reference(request_):
    assert handover_facts(_returned(request_), RETURNS) == []


# -- one reading of a reply that passes a failure on ---------------------------------------------

@pytest.mark.parametrize("reply", [
    "Confirmed: Saturday 10:00. Paid in full.",  # "in full" is no thing not to be had
    "Confirmed: Saturday 10:00, all taken care of.",  # nor is "taken care of"
])
def test_words_of_a_thing_done_are_not_read_as_a_thing_not_to_be_had(reply):
    [f] = claimed_outcome(_relayed(reply), None)
    assert (f.agent, f.subject) == ("desk", "book_court")


@pytest.mark.parametrize("reply", [
    "Confirmed: court 3 is taken on Saturday at 10:00.",
    "No courts found for Saturday 10:00; booking reference: CT-5521 is your enquiry.",
])
def test_a_reply_passing_the_failure_on_claims_nothing_whatever_reference_it_gives(reply):
    assert claimed_outcome(_relayed(reply), None) == []
