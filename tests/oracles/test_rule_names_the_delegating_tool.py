"""A router whose routing line names the delegating tool that runs a member ("Send anything about
brakes or tyres to ask_workshop."), not the member itself, and whose model ended the run without
calling it: the line points this request to the member the tool runs, so the early end is the
model's (`specified.model_passed_over`, its rules read with the tool as the member's name); a
request the line does not cover stays the app's."""

from __future__ import annotations

from masfuzz.oracles.instructed import participation
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, Trace

SPEC = WorkflowSpec(
    system=SystemInfo(id="garage", entry_agent="front_desk", pattern="orchestrated"),
    agents=(AgentSpec(id="front_desk", instructions="You are the garage's front desk.\n"
                                                    "Send anything about brakes or tyres to ask_workshop.\n"
                                                    "Send anything about invoices or refunds to ask_accounts."),
            AgentSpec(id="mechanic_m"), AgentSpec(id="clerk_c")),
    tools=(ToolSpec(id="ask_workshop", description="Ask the workshop: pass the request as written."),
           ToolSpec(id="ask_accounts", description="Ask the accounts office: pass the request as written."),
           ToolSpec(id="book_repair", description="Book a repair slot for a car.", parameters={
               "type": "object", "required": ["registration"], "properties": {"registration": {
                   "type": "string", "description": 'The car\'s registration, like "AB12 CDE"'}}}),
           ToolSpec(id="explain_invoice", description="Explain an invoice line.")),
    delegations=({"from": "front_desk", "to": "mechanic_m", "trigger": "as_tool", "condition": "tool ask_workshop"},
                 {"from": "front_desk", "to": "clerk_c", "trigger": "as_tool", "condition": "tool ask_accounts"}),
    permissions=Permissions(allow=(("front_desk", "ask_workshop"), ("front_desk", "ask_accounts"),
                                   ("mechanic_m", "book_repair"), ("clerk_c", "explain_invoice"))))


def _ended_at_the_desk(task: str) -> Trace:
    said = "Thank you, we have your message."
    return Trace(scenario_id="s", events=(
        Message(role="user", content=task), AgentTurn(agent="front_desk"),
        Message(agent="front_desk", content=said), TerminationEvent(reason="completed", final_output=said)))


def test_a_line_naming_the_tool_that_runs_the_member_points_the_request_there():
    found = [f for f in participation(_ended_at_the_desk("The brakes squeal on AB12 CDE, can you book it in?"), SPEC)
             if f.elements == ("front_desk", "mechanic_m")]
    assert found and all(f.attribution == "harness" and "did not follow the app's routing" in f.because
                         for f in found)


def test_a_line_naming_the_tool_for_other_requests_leaves_the_end_the_app_s():
    spec = SPEC.model_copy(update={"agents": (
        AgentSpec(id="front_desk", instructions="You are the garage's front desk.\n"
                                                "Send anything about tyres or wipers to ask_workshop.\n"
                                                "Send anything about invoices or refunds to ask_accounts."),
        *SPEC.agents[1:])})
    found = [f for f in participation(_ended_at_the_desk("The brakes squeal on AB12 CDE, can you book it in?"), spec)
             if f.elements == ("front_desk", "mechanic_m")]
    assert found and all(f.attribution == "sut" for f in found)
