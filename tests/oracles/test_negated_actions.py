"""A tool's answer that says its own action not done fails, whatever idiom it is written in: the
outcome is read from the negation's scope over the tool's own participle or a subject naming its
action or object ("Pitch 14 not held", "Refund never issued", "Booking didn't take"), before any
list of failure words (`wording._negated_action`, read first in `payload_failure`). A negation of
something else in the answer ("No deposit needed", "payment not needed") is no failure."""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import INCORRECT_VERIFICATION, claimed_outcome
from masfuzz.oracles.wording import payload_failure
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

DOCKS = WorkflowSpec(
    system=SystemInfo(id="marina_docks", entry_agent="dock_d"),
    agents=(AgentSpec(id="dock_d", instructions="Reserve a slipway slot with reserve_slipway."),),
    tools=(ToolSpec(id="reserve_slipway", description="Reserve a slipway slot to launch a boat."),),
    permissions=Permissions(allow=(("dock_d", "reserve_slipway"),)))


def _launch(payload: str, reply: str = "All set: slipway slot at 07:30 on Sunday is yours.") -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="I need the slipway on Sunday morning to launch my dinghy."),
        AgentTurn(agent="dock_d"),
        ToolCall(agent="dock_d", tool="reserve_slipway", call_id="r", arguments={"day": "Sunday"}),
        ToolResult(agent="dock_d", tool="reserve_slipway", call_id="r", payload=payload),
        Message(agent="dock_d", content=reply), TerminationEvent(reason="completed", final_output=reply)))


NOT_DONE = [
    "Slipway slot not reserved: tide too low at 07:30.",
    "Sunday 07:30 was never reserved - the harbour master holds it.",
    "Reservation didn't take, tide table locked.",
]


@pytest.mark.parametrize("payload", NOT_DONE)
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
