"""An app's router function that gives the turn to the member a front agent names ("Over to
bins_b.") routes by that agent's words: a misroute it carries out is the naming agent's, and a
line of its own instructions sending such requests to that member is the evidence quoted. A
front agent's words naming no member, or several, leave the route the code's."""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import misrouted_request
from masfuzz.spec.model import ENTERED_BY, AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, Trace

PICKED = {ENTERED_BY: "by_name"}
FRONT = ("Council front desk.\n- Send it to `bins_b` when it is about a collection, permit, bin or skip.\n"
         "- Send it to `parking_p` when it is about a fine.")
SPEC = WorkflowSpec(
    system=SystemInfo(id="council", entry_agent="front", pattern="orchestrated"),
    agents=(AgentSpec(id="front", instructions=FRONT), AgentSpec(id="bins_b", model_settings=PICKED),
            AgentSpec(id="parking_p", model_settings=PICKED)),
    tools=(ToolSpec(id="book_collection", description="Book a bulky waste collection."),
           ToolSpec(id="renew_permit", description="Renew a resident's parking permit.")),
    permissions=Permissions(allow=(("bins_b", "book_collection"), ("parking_p", "renew_permit"))),
    delegations=tuple(Delegation.model_validate({"from": "front", "to": to, "trigger": "sequence"})
                      for to in ("bins_b", "parking_p")))
ASK = "Could you renew my parking permit? It runs out on Friday."


def _run(front_said: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=ASK), AgentTurn(agent="front"), Message(agent="front", content=front_said),
        DelegationEvent(**{"from": "front"}, to="bins_b", trigger="sequence"), AgentTurn(agent="bins_b"),
        Message(agent="bins_b", content="Which items should we collect?"), TerminationEvent(reason="completed")))


def test_a_route_the_front_agent_named_is_its_own_with_its_instruction_quoted():
    [f] = misrouted_request(_run("Over to bins_b, who looks after permits."), SPEC)
    assert (f.agent, f.step, f.elements) == ("front", 2, ("front", "bins_b", "renew_permit"))
    assert "when it is about a collection, permit, bin or skip" in f.description


@pytest.mark.parametrize("said", ["Hello! Passing you on.", "Our desks are bins_b and parking_p."])
def test_words_naming_no_member_or_several_leave_the_route_the_code_s(said):
    [f] = misrouted_request(_run(said), SPEC)
    assert (f.agent, f.elements[0]) == (None, "router by_name")
