"""A product named with its maker's past work in a relative clause, the maker by a role that is no
agent's name ("frame the print in the mount the cutting bench chose"): the member whose tool is
named by the product makes it, so an agent speaking before that member violates the speaking
order. Its question for the product, asked before the maker acted, is that one fault, not also
information lost at the hand-over, whatever values of the user's fit the asked fact's form."""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import instructed_dependencies, instructed_order
from masfuzz.oracles.semantic import handover_facts
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace


def _shop(framer: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="frames", entry_agent="counter", pattern="fixed_order"),
        agents=(AgentSpec(id="counter", instructions="Front counter. Take the order in with `take_order`."),
                AgentSpec(id="bench_k", instructions="Cutting bench. Choose the mount with `pick_mount`."),
                AgentSpec(id="framer", instructions=framer)),
        tools=(ToolSpec(id="take_order", description="Take a framing order in."),
               ToolSpec(id="pick_mount", description="Choose a mount colour for a print."),
               ToolSpec(id="frame_print", description="Frame a print.", parameters={
                   "type": "object", "properties": {
                       "order": {"type": "string", "description": 'The order number, e.g. "FO-0000"'},
                       "mount": {"type": "string", "description": 'The chosen mount code, e.g. "M2"'}}})),
        permissions=Permissions(allow=(("counter", "take_order"), ("bench_k", "pick_mount"),
                                       ("framer", "frame_print"))))


FRAMER = "Framing. Prints are framed in the mount the cutting bench chose.\n- Frame it with `frame_print`."
TASK = "Order FO-4410: the A3 heron print, and the frame in oak please, size B2 if you have it."


def _run(*order: str) -> Trace:
    events = [Message(role="user", content=TASK)]
    prev = None
    for a in order:
        if prev:
            events.append(DelegationEvent(from_=prev, to=a, trigger="sequence"))
        events.append(AgentTurn(agent=a))
        if a == "framer" and "bench_k" not in order[:order.index(a)]:
            events.append(Message(agent=a, content="Could you tell me the chosen mount code?"))
        else:
            events.append(Message(agent=a, content=f"{a}: done my part."))
        prev = a
    events.append(TerminationEvent(reason="completed", final_output="ok"))
    return Trace(scenario_id="s", events=tuple(events))


def test_a_product_whose_maker_is_named_by_a_role_in_a_past_relative_clause_is_a_dependency():
    assert [(b, a) for b, a, _ in instructed_dependencies(_shop(FRAMER))] == [("bench_k", "framer")]


@pytest.mark.parametrize("framer", [
    "Framing. Prints are framed in the mount the customer asked for.",  # a person of the request
    "Framing. Prints are framed in the mount the customer chose.",
])
def test_a_person_of_the_request_making_it_names_no_member(framer):
    assert instructed_dependencies(_shop(framer)) == []


def test_the_early_agent_s_question_for_the_product_is_one_fault_the_speaking_order():
    trace, spec = _run("counter", "framer", "bench_k"), _shop(FRAMER)
    [f] = instructed_order(trace, spec)
    assert (f.agent, f.elements) == ("framer", ("bench_k", "framer"))
    assert handover_facts(trace, spec) == []


def test_in_the_right_order_neither_fires():
    trace, spec = _run("counter", "bench_k", "framer"), _shop(FRAMER)
    assert instructed_order(trace, spec) == [] and handover_facts(trace, spec) == []
