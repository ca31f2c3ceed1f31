"""Findings `run` and `fuzz` made on correct systems (the bug zoo's fixed twins), by class.

A value the receiving agent's own instructions say the hander makes ("the drop the surveyor
measures is what you sew to"), of which the hander's tool found none: the receiver asking for it
is what that answer leaves, not a fact of the user's lost at the hand-over (the user's own
figure is the guess the team is built to replace). Written apart from the zoo's system."""

from __future__ import annotations

import json

import pytest

from masfuzz.oracles.semantic import handover_facts
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

SEWER_FROM_SURVEY = ("You make up curtains at Pleat & Hem. The curtain drop the surveyor measures is what you "
                     "sew to. Call sew_curtains. Report what sew_curtains returns.")
SEWER_ALONE = "You make up curtains at Pleat & Hem. Call sew_curtains. Report what sew_curtains returns."
TASK = "Job CJ-2210: lined curtains for the bay window, a drop of about 210 cm I reckon."


def _workroom(sewer: str) -> WorkflowSpec:
    job = {"type": "string", "description": 'The curtain job, like "CJ-0000"'}
    return WorkflowSpec(
        system=SystemInfo(id="curtains", entry_agent="survey_s", pattern="fixed_order"),
        agents=(AgentSpec(id="survey_s", instructions="You survey windows. Call measure_window. Report its result."),
                AgentSpec(id="sewer_m", instructions=sewer)),
        tools=(ToolSpec(id="measure_window", description="Measure the window of a job.",
                        parameters={"type": "object", "properties": {"job": job}, "required": ["job"]}),
               ToolSpec(id="sew_curtains", description="Sew the curtains of a job to a drop.", parameters={
                   "type": "object", "required": ["job", "drop"], "properties": {
                       "job": job, "drop": {"type": "string", "description": 'The curtain drop, like "000 cm"'}}})),
        permissions=Permissions(allow=(("survey_s", "measure_window"), ("sewer_m", "sew_curtains"))))


def _run(measured: dict) -> Trace:
    answer = json.dumps({"job": "CJ-2210", **measured})
    return Trace(scenario_id="s", events=(
        Message(role="user", content=TASK),
        AgentTurn(agent="survey_s"),
        ToolCall(agent="survey_s", tool="measure_window", arguments={"job": "CJ-2210"}, call_id="c1"),
        ToolResult(agent="survey_s", tool="measure_window", call_id="c1", status="ok", payload=answer),
        Message(agent="survey_s", role="assistant", content=answer),
        DelegationEvent(from_="survey_s", to="sewer_m", trigger="sequence"),
        AgentTurn(agent="sewer_m"),
        Message(agent="sewer_m", role="assistant", content="Could you tell me the curtain drop?"),
        TerminationEvent(reason="completed", final_output="Could you tell me the curtain drop?")))


def test_a_value_the_hander_was_to_make_and_found_none_of_is_no_loss():
    assert handover_facts(_run({"drop": "no survey booked yet"}), _workroom(SEWER_FROM_SURVEY)) == []


@pytest.mark.parametrize("sewer, measured", [
    (SEWER_FROM_SURVEY, {"drop": "212 cm"}),  # the surveyor measured it: the hand-over lost it
    (SEWER_ALONE, {"drop": "no survey booked yet"}),  # the sewer works from the user's figure
])
def test_a_value_made_or_the_user_s_own_is_still_lost(sewer, measured):
    [f] = handover_facts(_run(measured), _workroom(sewer))
    assert (f.root_cause, f.agent) == ("Information Loss at Hand-over", "survey_s")
