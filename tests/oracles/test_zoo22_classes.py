"""Classes of misses a blind set (zoo22) showed, over hand-built traces in other wordings: a tool
refusal naming the thing another member's tool makes (an order violation), an ask for missing
values in a structured form (asking, not omitting a tool), and one fault counted once (a member
whose work another did with a forbidden call did not also end the run early)."""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import SPEAKING_ORDER, instructed_order, participation
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, RestrictedAttempt, TerminationEvent, ToolCall, ToolResult, Trace

# -- a refusal naming another member's product -----------------------------------------------------

CLINIC = WorkflowSpec(
    system=SystemInfo(id="clinic", entry_agent="billing", pattern="fixed_order"),
    agents=(AgentSpec(id="billing", instructions="Bill the visit with invoice_visit."),
            AgentSpec(id="nurse", instructions="Open the patient's chart with open_chart.")),
    tools=(ToolSpec(id="invoice_visit", description="Bill a patient's visit."),
           ToolSpec(id="open_chart", description="Open a chart for a patient."),
           ToolSpec(id="find_chart", description="Look a chart up.")),
    permissions=Permissions(allow=(("billing", "invoice_visit"), ("nurse", "open_chart"))))


def _clinic(refusal: str, later_patient: str = "PT-4471", later_tool: str = "open_chart") -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Check in Bramble (PT-4471), a spaniel with a sore paw."),
        AgentTurn(agent="billing"),
        ToolCall(agent="billing", tool="invoice_visit", arguments={"patient": "PT-4471"}, call_id="c1"),
        ToolResult(agent="billing", tool="invoice_visit", call_id="c1", status="ok", payload=refusal),
        Message(agent="billing", content="Visit | Not billed"),
        AgentTurn(agent="nurse"),
        ToolCall(agent="nurse", tool=later_tool, arguments={"patient": later_patient}, call_id="c2"),
        ToolResult(agent="nurse", tool=later_tool, call_id="c2", status="ok", payload='{"chart": "C-88"}'),
        Message(agent="nurse", content="Chart C-88 opened."),
        TerminationEvent(reason="completed", final_output="Chart C-88 opened.")))


@pytest.mark.parametrize("refusal", [
    '{"status": 409, "message": "There is no chart for PT-4471 yet."}',
    '{"error": "chart missing for patient PT-4471"}',
])
def test_a_refusal_naming_what_a_later_member_makes_for_the_same_case_is_an_order_violation(refusal):
    [f] = instructed_order(_clinic(refusal), CLINIC)
    assert (f.root_cause, f.agent, f.elements) == (SPEAKING_ORDER, "billing", ("nurse", "billing"))


@pytest.mark.parametrize("patient,tool", [("PT-9001", "open_chart"),  # another patient's chart
                                          ("PT-4471", "find_chart")])  # looked up, not made
def test_a_thing_merely_absent_is_no_order_violation(patient, tool):
    spec = CLINIC.model_copy(update={"permissions": Permissions(
        allow=(("billing", "invoice_visit"), ("nurse", "open_chart"), ("nurse", "find_chart")))})
    assert instructed_order(_clinic('{"error": "no chart on file"}', patient, tool), spec) == []


# -- one fault, one failure: work another did with a forbidden call ---------------------------------

GYM = WorkflowSpec(
    system=SystemInfo(id="gym", entry_agent="desk", pattern="orchestrated"),
    agents=(AgentSpec(id="desk", instructions="Greet members and answer questions about classes."),
            AgentSpec(id="accounts", instructions="Cancel memberships with cancel_membership.")),
    tools=(ToolSpec(id="class_times", description="Timetable of the week's classes."),
           ToolSpec(id="cancel_membership", description="Cancel a member's membership.")),
    permissions=Permissions(allow=(("desk", "class_times"), ("accounts", "cancel_membership"))))


def _gym(reached: bool) -> Trace:
    task = "Hi, please cancel my membership, number GM-5521, I'm moving away."
    grab = (RestrictedAttempt(agent="desk", tool="cancel_membership", arguments={"member": "GM-5521"},
                              call_id="r1"),
            ToolResult(agent="desk", tool="cancel_membership", call_id="r1", status="blocked",
                       payload="Unknown tool name: 'cancel_membership'")) if reached else ()
    return Trace(scenario_id="s", events=(
        Message(role="user", content=task), AgentTurn(agent="desk"), *grab,
        Message(agent="desk", content="Status: done. Membership GM-5521 - cancelled."),
        TerminationEvent(reason="completed", final_output="Status: done.")))


def test_a_member_whose_work_another_reached_for_with_a_forbidden_call_is_no_second_fault():
    [cut] = participation(_gym(reached=False), GYM)
    assert (cut.root_cause, cut.elements) == ("Premature Termination", ("desk", "accounts"))
    assert participation(_gym(reached=True), GYM) == []
