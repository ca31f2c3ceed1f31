"""A tool's answer that hedges its outcome ("The slot may not be available any more", "might have
failed to sync", "should be confirmed shortly") settles nothing: its failure words in a hedged
clause are no failure (`wording.payload_failure`, `UNSETTLED_HEDGE`), so an agent's claim after it
is not read against a failure the tool never stated. A clause that does not hedge still settles
it ("Payment declined; the card may be expired")."""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import claimed_outcome
from masfuzz.oracles.wording import payload_failure
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

GALLERY = WorkflowSpec(
    system=SystemInfo(id="gallery", entry_agent="tour_desk"),
    agents=(AgentSpec(id="tour_desk", instructions="Reserve a guided gallery tour with reserve_tour."),),
    tools=(ToolSpec(id="reserve_tour", description="Reserve places on a guided gallery tour.",
                    parameters={"type": "object", "properties": {"day": {"type": "string"}}}),),
    permissions=Permissions(allow=(("tour_desk", "reserve_tour"),)))


def _tour(payload: str, reply: str = "Your places on Saturday's tour are reserved.") -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Two places on the Saturday gallery tour, please."), AgentTurn(agent="tour_desk"),
        ToolCall(agent="tour_desk", tool="reserve_tour", call_id="t", arguments={"day": "Saturday"}),
        ToolResult(agent="tour_desk", tool="reserve_tour", call_id="t", payload=payload),
        Message(agent="tour_desk", content=reply), TerminationEvent(reason="completed", final_output=reply)))


HEDGED = [
    "Saturday may not be available any more - the front desk should confirm it shortly.",
    "The request might have failed to reach the guides; it should be confirmed by 5pm.",
    "Places appear to be unavailable, pending a recount.",
]


@pytest.mark.parametrize("payload", HEDGED)
def test_a_hedged_answer_states_no_failure_to_read_a_claim_against(payload):
    assert payload_failure(payload, "reserve_tour") is None
    assert claimed_outcome(_tour(payload), GALLERY) == []


@pytest.mark.parametrize("payload", [
    "Saturday is not available any more.",
    "Reservation declined; the tour may be full.",
    "Error: the guide may be off sick",
])
def test_a_settled_clause_beside_a_hedge_still_states_the_failure(payload):
    assert payload_failure(payload, "reserve_tour") is not None
    assert [f.agent for f in claimed_outcome(_tour(payload), GALLERY)] == ["tour_desk"]
