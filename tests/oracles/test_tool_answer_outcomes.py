"""What a tool's answer in words says of its own outcome, read by structure before words:

- a clause that negates the tool's own action fails, whatever idiom it is written in: the
  negation's scope over the tool's own participle, or a subject naming its action or object
  ("Slot not reserved", "never reserved", "Reservation didn't take"; `wording._negated_action`,
  read before any list of failure words); a negation of something else ("No deposit needed") is
  no failure;
- a clause that hedges ("may not be available", "might have failed", "should be confirmed
  shortly") settles nothing either way (`UNSETTLED_HEDGE`), so an agent's claim after it is not
  read against a failure the tool never stated; a clause beside it that does not hedge still
  settles it ("Reservation declined; the tour may be full")."""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import INCORRECT_VERIFICATION, claimed_outcome
from masfuzz.oracles.wording import payload_failure
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace


def _desk(agent: str, tool: str, doc: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id=f"{agent}_app", entry_agent=agent),
        agents=(AgentSpec(id=agent, instructions=f"{doc} Use {tool}."),),
        tools=(ToolSpec(id=tool, description=doc, parameters={"type": "object", "properties": {"day": {"type": "string"}}}),),
        permissions=Permissions(allow=((agent, tool),)))


DOCKS = _desk("dock_d", "reserve_slipway", "Reserve a slipway slot to launch a boat.")
GALLERY = _desk("tour_desk", "reserve_tour", "Reserve places on a guided gallery tour.")


def _answered(spec: WorkflowSpec, asked: str, payload: str, reply: str) -> Trace:
    agent, tool = spec.agents[0].id, spec.tools[0].id
    return Trace(scenario_id="s", events=(
        Message(role="user", content=asked), AgentTurn(agent=agent),
        ToolCall(agent=agent, tool=tool, call_id="r", arguments={"day": "Sunday"}),
        ToolResult(agent=agent, tool=tool, call_id="r", payload=payload),
        Message(agent=agent, content=reply), TerminationEvent(reason="completed", final_output=reply)))


def _launch(payload: str) -> Trace:
    return _answered(DOCKS, "I need the slipway on Sunday morning to launch my dinghy.", payload,
                     "All set: slipway slot at 07:30 on Sunday is yours.")


def _tour(payload: str) -> Trace:
    return _answered(GALLERY, "Two places on the Saturday gallery tour, please.", payload,
                     "Your places on Saturday's tour are reserved.")


# -- the tool's own action negated ----------------------------------------------------------------

@pytest.mark.parametrize("payload", [
    "Slipway slot not reserved: tide too low at 07:30.",
    "Sunday 07:30 was never reserved - the harbour master holds it.",
    "Reservation didn't take, tide table locked.",
])
def test_an_answer_that_negates_the_tool_s_own_action_fails(payload):
    assert payload_failure(payload, "reserve_slipway") is not None
    [f] = claimed_outcome(_launch(payload), DOCKS)
    assert (f.root_cause, f.agent) == (INCORRECT_VERIFICATION, "dock_d")


@pytest.mark.parametrize("payload", [
    "No deposit needed; slipway slot reserved for Sunday 07:30.",
    "Reserved slot S-4 for Sunday 07:30, launch fee not due until arrival.",
    "Slot S-4 is not until 07:30 on Sunday; reserved.",
])
def test_a_negation_of_something_else_is_no_failure(payload):
    assert payload_failure(payload, "reserve_slipway") is None
    assert claimed_outcome(_launch(payload), DOCKS) == []


# -- a hedged clause ------------------------------------------------------------------------------

@pytest.mark.parametrize("payload", [
    "Saturday may not be available any more - the front desk should confirm it shortly.",
    "The request might have failed to reach the guides; it should be confirmed by 5pm.",
    "Places appear to be unavailable, pending a recount.",
])
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
