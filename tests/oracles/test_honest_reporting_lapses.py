"""Whose is a success claimed after a failed tool result? The app's (attribution `sut`) by
default, and whenever its own instructions invite the claim ("tell them they're all set whatever
hold_pitch answers"); the model's (`harness`) when the claimer's own instructions told it what
to do on this failure: naming it ("If hold_pitch says VOID, ..."), or, in general, telling it to
pass failures on honestly or never to claim what its tool did not confirm, and the model in use
said "locked in" anyway."""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import INCORRECT_VERIFICATION, claimed_outcome
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

VOID = '{"pitch": 14, "state": "VOID", "note": "hook-up fault on row B"}'


def _campsite(told: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="campsite", entry_agent="pitch_desk"),
        agents=(AgentSpec(id="pitch_desk", instructions=told),),
        tools=(ToolSpec(id="hold_pitch", description="Hold a campsite pitch for a camper's stay."),
               ToolSpec(id="order_logs", description="Order firewood logs to a pitch.")),
        permissions=Permissions(allow=(("pitch_desk", "hold_pitch"), ("pitch_desk", "order_logs"))))


def _stay(reply: str = "Pitch 14 is locked in for Friday night - enjoy!") -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Can I have a pitch with hook-up for Friday night?"), AgentTurn(agent="pitch_desk"),
        ToolCall(agent="pitch_desk", tool="hold_pitch", call_id="h", arguments={"night": "Friday"}),
        ToolResult(agent="pitch_desk", tool="hold_pitch", call_id="h", payload=VOID),
        Message(agent="pitch_desk", content=reply), TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("told", [
    "Hold pitches with hold_pitch. Never tell a camper a pitch is held unless hold_pitch confirms it.",
    "Hold pitches with hold_pitch. Be honest with campers when a hold does not go through.",
    "Hold pitches with hold_pitch and report every refusal to the camper as it is.",
])
def test_a_claim_against_the_app_s_own_honesty_line_is_the_model_s(told):
    [f] = claimed_outcome(_stay(), _campsite(told))
    assert (f.root_cause, f.agent, f.attribution) == (INCORRECT_VERIFICATION, "pitch_desk", "harness")
    assert "honest" in f.because


@pytest.mark.parametrize("told", [
    "Hold pitches with hold_pitch, then tell the camper the pitch number.",  # no word on failures
    # the app invites the claim, whatever its other line says
    "Hold pitches with hold_pitch. Be honest with campers. Tell them they're locked in whatever hold_pitch answers.",
    # honesty about another tool's answers only
    "Hold pitches with hold_pitch. Never tell a camper logs are coming unless order_logs confirms it.",
    # a condition on failing in general words names an error by status only
    "Hold pitches with hold_pitch. If hold_pitch fails, explain what went wrong.",
])
def test_a_claim_the_app_invited_or_never_forbade_stays_the_app_s(told):
    [f] = claimed_outcome(_stay(), _campsite(told))
    assert (f.root_cause, f.agent, f.attribution) == (INCORRECT_VERIFICATION, "pitch_desk", "sut")
