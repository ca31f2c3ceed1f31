"""An agent told to work from a part of another step's product, the step named as the possessor
("set the fee using the inspection's findings"), depends on the one member holding the tool
named by that step (run_inspection): a fixed order that gives it the floor first is a
Violation of Relationships-based Speaking Order, blamed on the early speaker. A person's
possession ("from the owner's letter") is the request, no member's work."""

from __future__ import annotations

from masfuzz.oracles import detect
from masfuzz.oracles.instructed import instructed_dependencies
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace


def _spec(fee_line: str, hull_tool: str = "run_inspection") -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="boatyard", entry_agent="fees_f", pattern="fixed_order"),
        agents=(AgentSpec(id="fees_f", instructions=f"You work the boatyard's fee desk. {fee_line}"),
                AgentSpec(id="hull_h", instructions="Check the hull with run_inspection and report what it says.")),
        tools=(ToolSpec(id="quote_fee", description="Quote the yard fee.", parameters={
                   "type": "object", "required": ["length_m", "grade"],
                   "properties": {"length_m": {"type": "number"}, "grade": {"type": "string"}}}),
               ToolSpec(id=hull_tool, description="Inspect a hull.", parameters={
                   "type": "object", "properties": {"boat": {"type": "string"}}})),
        permissions=Permissions(allow=(("fees_f", "quote_fee"), ("hull_h", hull_tool))))


def _reply(spec: WorkflowSpec, agent: str, known: str) -> str:
    """A scripted member: one that holds quote_fee asks for what it lacks when the run has not
    yet said a length; otherwise it reports."""
    if "quote_fee" in [t for a, t in spec.permissions.allow if a == agent] and "length" not in known:
        return "Before I can quote: what is the boat's length and hull grade?"
    return "Hull inspected: 9.4 m, grade B." if agent == "hull_h" else "Fee quoted."


def _run(spec: WorkflowSpec, order: tuple[str, ...]) -> Trace:
    user = "Please price a winter lay-up for the yacht Tern."
    events: list = [Message(role="user", content=user)]
    known = user
    for i, agent in enumerate(order):
        if i:
            events.append(DelegationEvent(**{"from": order[i - 1]}, to=agent, trigger="sequence"))
        events.append(AgentTurn(agent=agent))
        if agent == "hull_h":
            events += [ToolCall(agent=agent, tool="run_inspection", arguments={"boat": "Tern"}, call_id="1"),
                       ToolResult(agent=agent, tool="run_inspection", call_id="1",
                                  payload='{"length": 9.4, "grade": "B"}')]
            known += " length 9.4"
        said = _reply(spec, agent, known)
        events.append(Message(agent=agent, role="assistant", content=said))
    return Trace(scenario_id="s", events=(*events, TerminationEvent(reason="completed", final_output=said)))


def _order(trace: Trace, spec: WorkflowSpec) -> list:
    return [f for f in detect(trace, spec) if f.detector == "instructed_order"]


STEP_LINE = "Set the fee with quote_fee, using the inspection's findings."


def test_a_steps_possession_is_the_product_of_the_member_holding_that_steps_tool():
    spec = _spec(STEP_LINE)
    assert [(b, a) for b, a, _ in instructed_dependencies(spec)] == [("hull_h", "fees_f")]
    [f] = _order(_run(spec, ("fees_f", "hull_h")), spec)
    assert f.agent == "fees_f" and f.elements == ("hull_h", "fees_f")


def test_the_member_that_makes_it_speaking_first_breaks_no_order():
    spec = _spec(STEP_LINE)
    assert not _order(_run(spec, ("hull_h", "fees_f")), spec)


def test_a_persons_possession_is_the_request_not_a_members_work():
    # the owner's letter is read by no one's tool, whatever hull_h's tool is called
    spec = _spec("Set the fee with quote_fee, from the owner's letter.", hull_tool="owner_inspection")
    assert not instructed_dependencies(spec)
