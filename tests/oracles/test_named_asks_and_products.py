"""Two oracle classes another writer's systems showed, over hand-built specs and traces, each
beside its correct twin: a question after a hand-over that asks for a value under the name of a
parameter of the asking agent's own tool ("which waybill is this for?"), and a dependency told as
working on whatever another agent has done to a thing ("bills whatever the packers have boxed")."""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import handover_facts
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, Trace


def _params(**described: str) -> dict:
    return {"type": "object", "required": list(described),
            "properties": {p: {"type": "string", "description": d} for p, d in described.items()}}


def _end(*events) -> Trace:
    final = next((e.content for e in reversed(events) if isinstance(e, Message) and e.role == "assistant"), "")
    return Trace(scenario_id="s", events=(*events, TerminationEvent(reason="completed", final_output=final)))


# -- a question naming the asking agent's own tool parameter --------------------------------------

FERRY = WorkflowSpec(
    system=SystemInfo(id="ferry", entry_agent="quotes", pattern="graph"),
    agents=(AgentSpec(id="quotes", instructions="Price the crossing with `price_crossing`."),
            AgentSpec(id="loaders", instructions="Put the van on a sailing with `load_vehicle`.")),
    tools=(ToolSpec(id="price_crossing", description="Price a crossing.",
                    parameters=_params(route='The route, e.g. "Oban-Craignure"')),
           ToolSpec(id="load_vehicle", description="Put a vehicle on a sailing.",
                    parameters=_params(waybill='The freight waybill printed on the driver\'s sheet, e.g. "WB-00000"',
                                       loyaltyPass='The haulier\'s pass, e.g. "HP/0000"'))),
    permissions=Permissions(allow=(("quotes", "price_crossing"), ("loaders", "load_vehicle"))),
    delegations=({"from": "quotes", "to": "loaders"},))

ASKED = "Our van goes Oban-Craignure on Friday; waybill WB-70412, pass HP/2210."


def _ferry(*after, said: str = ASKED) -> Trace:
    return _end(Message(role="user", content=said), AgentTurn(agent="quotes"),
                Message(agent="quotes", content="## Your quote\n\n> £84.50 for the crossing."),
                DelegationEvent(**{"from": "quotes"}, to="loaders"), AgentTurn(agent="loaders"), *after)


@pytest.mark.parametrize("question,value", [
    ("Before I send the van down the ramp - which waybill is this for?", "WB-70412"),
    ("So sorry, could you remind me of your loyalty pass?", "HP/2210"),  # camelCase, split
])
def test_a_question_naming_a_parameter_of_its_own_tool_after_a_hand_over_is_information_loss(question, value):
    [f] = handover_facts(_ferry(Message(agent="loaders", content=f"**Nearly there!**\n\n{question}")), FERRY)
    assert (f.root_cause, f.agent, f.step) == ("Information Loss at Hand-over", "quotes", 3)
    assert value in f.description


@pytest.mark.parametrize("after,said", [
    # the value reached it: it loads the van
    ([ToolCall(agent="loaders", tool="load_vehicle", call_id="l",
               arguments={"waybill": "WB-70412", "loyaltyPass": "HP/2210"})], ASKED),
    # the user never gave a waybill of the documented form: asking for it is right
    ([Message(agent="loaders", content="Which waybill is this for?")], "Our van goes Oban-Craignure on Friday."),
])
def test_a_question_for_a_parameter_the_user_never_gave_or_a_call_with_it_is_no_loss(after, said):
    assert handover_facts(_ferry(*after, said=said), FERRY) == []
