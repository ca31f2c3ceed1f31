"""Shapes of runs the oracles missed or blamed wrongly, each fixed as a class: a tool named by a
generic verb and the work it does (issue_refund), a router's table mapping the classifier's right
label to the wrong agent, a claim in another clause of a sentence that relays a false field, a
delegating tool whose target only its name, its description or its binding says, and an
all-digit reference the user named ("order 48213907") lost at a hand-over."""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import MISROUTED, misrouted_request, participation
from masfuzz.oracles.wording import asks_for
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

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
