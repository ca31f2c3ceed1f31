"""Two oracle classes another writer's systems showed, over hand-built specs and traces, each
beside its correct twin: a question after a hand-over that asks for a value under the name of a
parameter of the asking agent's own tool ("which waybill is this for?"), and a dependency told as
working on whatever another agent has done to a thing ("bills whatever the packers have boxed")."""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import handover_facts
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, ToolCall, Trace
from tests.oracles.test_other_phrasings import _end, _params


# -- a question naming the asking agent's own tool parameter --------------------------------------

FERRY = WorkflowSpec(
    system=SystemInfo(id="ferry", entry_agent="quotes", pattern="graph"),
    agents=(AgentSpec(id="quotes", instructions="Price the crossing with `price_crossing`."),
            AgentSpec(id="loaders", instructions="Put the van on a sailing with `load_vehicle`.")),
    tools=(ToolSpec(id="price_crossing", description="Price a crossing.",
                    parameters=_params(route='The route, e.g. "Oban-Craignure"')),
           ToolSpec(id="load_vehicle", description="Put a vehicle on a sailing.",
                    parameters=_params(waybill='The freight waybill printed on the driver\'s sheet, e.g. "WB-00000"',
                                       loyaltyPass='The haulier\'s pass, e.g. "HP-0000"'))),
    permissions=Permissions(allow=(("quotes", "price_crossing"), ("loaders", "load_vehicle"))),
    delegations=({"from": "quotes", "to": "loaders"},))

ASKED = "Our van goes Oban-Craignure on Friday; waybill WB-70412, pass HP-2210."


def _ferry(*after, said: str = ASKED) -> Trace:
    return _end(Message(role="user", content=said), AgentTurn(agent="quotes"),
                Message(agent="quotes", content="## Your quote\n\n> £84.50 for the crossing."),
                DelegationEvent(**{"from": "quotes"}, to="loaders"), AgentTurn(agent="loaders"), *after)


@pytest.mark.parametrize("question,value", [
    ("Before I send the van down the ramp - which waybill is this for?", "WB-70412"),
    ("So sorry, could you remind me of your loyalty pass?", "HP-2210"),  # camelCase, split
])
def test_a_question_naming_a_parameter_of_its_own_tool_after_a_hand_over_is_information_loss(question, value):
    [f] = handover_facts(_ferry(Message(agent="loaders", content=f"**Nearly there!**\n\n{question}")), FERRY)
    assert (f.root_cause, f.agent, f.step) == ("Information Loss at Hand-over", "quotes", 3)
    assert value in f.description


@pytest.mark.parametrize("after,said", [
    # the value reached it: it loads the van
    ([ToolCall(agent="loaders", tool="load_vehicle", call_id="l",
               arguments={"waybill": "WB-70412", "loyaltyPass": "HP-2210"})], ASKED),
    # the user never gave a waybill of the documented form: asking for it is right
    ([Message(agent="loaders", content="Which waybill is this for?")], "Our van goes Oban-Craignure on Friday."),
])
def test_a_question_for_a_parameter_the_user_never_gave_or_a_call_with_it_is_no_loss(after, said):
    assert handover_facts(_ferry(*after, said=said), FERRY) == []


# -- a dependency told as working on what another agent has done -----------------------------------

def _depot(said: str, *, described: bool) -> WorkflowSpec:
    van = dict(description=said, instructions="Drive the crates out with `dispatch_van`.") if described \
        else dict(description="Drives orders out.", instructions=f"You run the vans. {said}\n- Use `dispatch_van`.")
    return WorkflowSpec(
        system=SystemInfo(id="depot", entry_agent="van_r", pattern="fixed_order"),
        agents=(AgentSpec(id="van_r", **van),
                AgentSpec(id="packer_q", description="Packs orders.", instructions="Box the order with `box_order`.")),
        tools=(ToolSpec(id="dispatch_van", description="Send a van."), ToolSpec(id="box_order", description="Box an order.")),
        permissions=Permissions(allow=(("van_r", "dispatch_van"), ("packer_q", "box_order"))))


def _turns(*agents: str) -> Trace:
    events = [Message(role="user", content="Order DP-4410 to Leith, please.")]
    for a in agents:
        events += [AgentTurn(agent=a), Message(agent=a, content=f"{a}: done.")]
    return _end(*events)


@pytest.mark.parametrize("said,described", [
    ("Ships whatever packer_q has boxed up for the customer.", True),
    ("You load what packer_q had already put aside for the order.", False),
    ("You drive out the crates packer_q has sealed.", False),
])
def test_working_on_what_another_agent_has_done_is_a_dependency_on_it(said, described):
    from masfuzz.oracles.instructed import instructed_order

    spec = _depot(said, described=described)
    [f] = instructed_order(_turns("van_r", "packer_q"), spec)
    assert (f.root_cause, f.agent, f.elements) == ("Violation of Relationships-based Speaking Order", "van_r",
                                                   ("packer_q", "van_r"))
    assert instructed_order(_turns("packer_q", "van_r"), spec) == []


@pytest.mark.parametrize("said", [
    "You never wait for whatever packer_q has boxed.",  # negated
    "You load whatever packer_q has not touched.",  # what it has not done is no product of it
    "Ships the order the customer has paid for.",  # the customer's doing, no agent's
])
def test_no_dependency_where_nothing_another_agent_has_done_is_worked_on(said):
    from masfuzz.oracles.instructed import instructed_order

    assert instructed_order(_turns("van_r", "packer_q"), _depot(said, described=True)) == []
