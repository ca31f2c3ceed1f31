"""Classes of misses a blind set (zoo22) showed, over hand-built traces in other wordings: a tool
refusal naming the thing another member's tool makes (an order violation), an ask for missing
values in a structured form (asking, not omitting a tool), and one fault counted once (a member
whose work another did with a forbidden call did not also end the run early)."""

from __future__ import annotations

import pytest

from masfuzz.graph.specification import skeleton
from masfuzz.oracles.detectors import missing_termination
from masfuzz.oracles.flare import tool_omission
from masfuzz.oracles.instructed import SPEAKING_ORDER, instructed_order, participation
from masfuzz.oracles.wording import lists_missing
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


# -- an ask for missing values in a structured form is asking ------------------------------------------

ALLOTMENT = WorkflowSpec(
    system=SystemInfo(id="allotments", entry_agent="plots", pattern="handoff"),
    agents=(AgentSpec(id="plots", instructions="Let plots to members. Book the plot with let_plot."),),
    tools=(ToolSpec(id="let_plot", description="Let an allotment plot.", parameters={
        "type": "object", "required": ["member_no", "plot_size", "start_month"],
        "properties": {"member_no": {"type": "string"}, "plot_size": {"type": "string"},
                       "start_month": {"type": "string"}}}),),
    permissions=Permissions(allow=(("plots", "let_plot"),)))


def _allotment(reply: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="I'd like an allotment plot please, something small near the gate."),
        AgentTurn(agent="plots"), Message(agent="plots", content=reply),
        TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("reply", [
    "Missing: member no, start month",
    "Still needed:\n- member number\n- month you want to start",
    "To reserve it, I need: your membership number and a start month",
    "Plot request\n\n| Field | Needed |\n| --- | --- |\n| Member no | yes |\n| Start month | yes |",
])
def test_an_ask_for_missing_values_in_a_structured_form_owes_no_call(reply):
    assert lists_missing(reply)
    assert tool_omission(_allotment(reply), skeleton(ALLOTMENT), ALLOTMENT) == []


@pytest.mark.parametrize("reply", [
    "Plot 14 is yours from March.",  # claims the work without the tool
    "Missing: 2 sheds from the inventory",  # an outcome, not names of values
    "Plot 14 is yours from March.\nMissing: none",
    "Summary\n\n| Item | Result |\n| --- | --- |\n| Let plot | Done |",
])
def test_a_reply_that_lists_no_missing_values_still_owes_the_call(reply):
    assert not lists_missing(reply)
    [f] = tool_omission(_allotment(reply), skeleton(ALLOTMENT), ALLOTMENT)
    assert f.elements == ("plots", "let_plot")


# -- a round that stalls on an ask nobody answers: the request's, not the stop condition's ------------

KENNEL = WorkflowSpec(
    system=SystemInfo(id="kennel", entry_agent="intake", pattern="fixed_order"),
    agents=(AgentSpec(id="intake", instructions="Check the dog's vaccination card with check_card."),
            AgentSpec(id="rooms", instructions="Book a kennel with book_kennel. Say BOOKED.")),
    tools=(ToolSpec(id="check_card", description="Check a vaccination card."),
           ToolSpec(id="book_kennel", description="Book a kennel.", parameters={
               "type": "object", "required": ["arrival_day", "nights"],
               "properties": {"arrival_day": {"type": "string"}, "nights": {"type": "integer"}}})),
    permissions=Permissions(allow=(("intake", "check_card"), ("rooms", "book_kennel"))),
    termination={"conditions": ("TextMentionTermination('BOOKED', sources=['rooms'])",
                                "MaxMessageTermination(9)")})


def _kennel(second: str) -> Trace:
    events = [Message(role="user", content="Can Pepper stay with you? Her card number is VC-7781.")]
    for _ in range(4):
        events += [AgentTurn(agent="intake"), Message(agent="intake", content="Card | Valid"),
                   AgentTurn(agent="rooms"), Message(agent="rooms", content=second)]
    events.append(TerminationEvent(reason="message_limit", detail="Maximum number of messages 9 reached",
                                   final_output=second))
    return Trace(scenario_id="s", events=tuple(events))


@pytest.mark.parametrize("ask", ["Still needed: arrival day, number of nights",
                                 "Which nights would Pepper stay?"])
def test_a_round_stalled_on_an_ask_nobody_answered_is_not_the_apps_stop_condition(ask):
    [f] = missing_termination(_kennel(ask), KENNEL)
    assert (f.root_cause, f.attribution) == ("Termination Condition Violation", "harness")
    assert "rooms asks for values the request left out" in f.because


@pytest.mark.parametrize("said", ["Kennel | Pending", "Anything else I can help with?"])
def test_a_round_stalled_without_an_ask_for_values_stays_the_apps(said):
    [f] = missing_termination(_kennel(said), KENNEL)
    assert (f.root_cause, f.attribution) == ("Termination Condition Violation", "sut")


@pytest.mark.parametrize("last,cut", [("Missing: membership number", False),
                                      ("Status: done. Membership GM-5521 - cancelled.", True)])
def test_a_run_that_ends_listing_the_values_it_lacks_waits_for_the_user(last, cut):
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Hi, please cancel my membership, I'm moving away."),
        AgentTurn(agent="desk"), Message(agent="desk", content=last),
        TerminationEvent(reason="completed", final_output=last)))
    assert bool(participation(trace, GYM)) is cut
