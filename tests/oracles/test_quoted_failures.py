"""A reply that sets the tool's failed answer out verbatim (a fenced block, a code span, a quote)
reports the failure to whoever reads it, whatever its checklist ticks ("[x] intake checked"); a
tick over arguments echoed in parentheses ("(case: RX-1)") is about the thing named before them.
And a reference the user gave that is, as written, another parameter's documented form is that
parameter's value, not a respelling of the one an agent asks for."""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import claimed_outcome, handover_facts
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

CLINIC = WorkflowSpec(
    system=SystemInfo(id="vet", entry_agent="intake"), agents=(AgentSpec(id="intake"), AgentSpec(id="pharmacy")),
    tools=(ToolSpec(id="register_pet", description="Register a pet on the surgery's books."),
           ToolSpec(id="send_prescription", description="Send a prescription to the pharmacy.")),
    permissions=Permissions(allow=(("intake", "register_pet"), ("pharmacy", "send_prescription"))))
REFUSED = "{'registered': False, 'reason': 'microchip unknown', 'chip': '985000'}"


def _run(reply: str, payload: str = REFUSED) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Please register our cat Miso, chip 985000."), AgentTurn(agent="intake"),
        ToolCall(agent="intake", tool="register_pet", arguments={"chip": "985000"}, call_id="r"),
        ToolResult(agent="intake", tool="register_pet", call_id="r", payload=payload),
        Message(agent="intake", content=reply), TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("reply", [
    "Summary\n- [x] register_pet checked\n```\n{'registered': False, 'reason': 'microchip unknown', 'chip': '985000'}\n```",
    # re-serialised as JSON
    '- [x] pet registration looked at\n```json\n{"registered": false, "reason": "microchip unknown", "chip": "985000"}\n```',
    "Pet registration done, the desk answered `{'registered': False, 'reason': 'microchip unknown', 'chip': '985000'}`.",
    "Registration handled.\n> {'registered': False, 'reason': 'microchip unknown', 'chip': '985000'}",
])
def test_a_reply_quoting_the_failed_answer_verbatim_reports_it(reply):
    assert claimed_outcome(_run(reply), CLINIC) == []


def test_the_same_tick_without_the_quote_is_a_claim():
    [f] = claimed_outcome(_run("Summary\n- [x] pet registration (chip: 985000)"), CLINIC)
    assert f.subject == "register_pet"


def test_a_quote_of_only_part_of_the_answer_is_no_report_of_it():
    reply = "- [x] pet registration done\n```\n{'chip': '985000'}\n```"
    assert [f.subject for f in claimed_outcome(_run(reply), CLINIC)] == ["register_pet"]


def test_a_tick_about_another_thing_is_not_about_the_failed_tool_through_its_echoed_arguments():
    """"[x] prescription sent (pet: Miso)" is the prescription's; the "pet" in its echoed
    arguments names no claim of register_pet."""
    events = list(_run("ok").events[:4]) + [
        Message(agent="intake", content="Sorry, the chip is unknown, so Miso is not registered."),
        DelegationEvent(from_="intake", to="pharmacy", trigger="handoff"), AgentTurn(agent="pharmacy"),
        ToolCall(agent="pharmacy", tool="send_prescription", arguments={"pet": "Miso"}, call_id="p"),
        ToolResult(agent="pharmacy", tool="send_prescription", call_id="p", payload="{'sent': True}"),
        Message(agent="pharmacy", content="- [x] prescription sent (pet: Miso)"),
        TerminationEvent(reason="completed", final_output="- [x] prescription sent (pet: Miso)")]
    assert claimed_outcome(Trace(scenario_id="s", events=tuple(events)), CLINIC) == []


LAB = WorkflowSpec(
    system=SystemInfo(id="lab", entry_agent="desk"), agents=(AgentSpec(id="desk"), AgentSpec(id="kiln")),
    tools=(ToolSpec(id="fire_glaze", description="Fire a pot in the given glaze.", parameters={
        "type": "object", "properties": {
            "job": {"type": "string", "description": 'The studio job number, e.g. "PJ-0000"'},
            "glaze": {"type": "string", "description": 'The chosen glaze code, e.g. "G7"'}}}),),
    permissions=Permissions(allow=(("kiln", "fire_glaze"),)))


def test_the_user_s_reference_of_another_parameter_s_form_is_not_the_asked_fact_respelt():
    events = (Message(role="user", content="Job PJ-4410 is ready to fire, thanks."), AgentTurn(agent="desk"),
              Message(agent="desk", content="Passing it to the kiln."),
              DelegationEvent(from_="desk", to="kiln", trigger="handoff"), AgentTurn(agent="kiln"),
              Message(agent="kiln", content="Could you tell me the glaze for it?"),
              TerminationEvent(reason="completed", final_output="Could you tell me the glaze for it?"))
    assert handover_facts(Trace(scenario_id="s", events=events), LAB) == []
