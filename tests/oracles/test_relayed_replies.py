"""A fact the hander's own tool answered, when the app passes on the hander's reply and not its
tool results (an AG2 chat sequence's `last_msg` carry-over after the next chat's opening, an
AgentChat team relaying each member's final message): the reply was the only way the fact could
travel. When a line of the hander's instructions tells it to report that tool's answer and its
reply leaves the fact out ("Logged."), the model in use did not follow the app's instructions:
the loss is the model's (a terse model's clipped reply), not the app's. Without such a line, or
when the app did not pass the reply at all, the loss stays the app's."""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import INFORMATION_LOSS, handover_facts
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import (
    HANDOVER_INPUTS, AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace,
)

OPENING = "Send out the next order, please."  # the second chat's own opening, the app's words


def _spec(potting_told: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="nursery", entry_agent="potting", pattern="fixed_order"),
        agents=(AgentSpec(id="potting", instructions=potting_told),
                AgentSpec(id="dispatch", instructions="You send trays out. Call dispatch_tray.")),
        tools=(ToolSpec(id="register_tray", description="Put an order's seedlings on a tray.", parameters={
                   "type": "object", "required": ["order"], "properties": {
                       "order": {"type": "string", "description": 'The order, like "PN-000"'}}}),
               ToolSpec(id="dispatch_tray", description="Send a tray out on the van.", parameters={
                   "type": "object", "required": ["tray"], "properties": {
                       "tray": {"type": "string", "description": 'The tray tag, like "TR-0000"'}}})),
        permissions=Permissions(allow=(("potting", "register_tray"), ("dispatch", "dispatch_tray"))),
    )


def _run(reply: str, carried: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Seedlings for order PN-311 need to go out on Friday."),
        AgentTurn(agent="potting"),
        ToolCall(agent="potting", tool="register_tray", call_id="c1", arguments={"order": "PN-311"}),
        ToolResult(agent="potting", tool="register_tray", call_id="c1", status="ok",
                   payload='{"order": "PN-311", "tray": "TR-0419", "plants": 24}'),
        Message(agent="potting", content=reply),
        DelegationEvent(**{"from": "potting"}, to="dispatch", trigger="sequence"),
        AgentTurn(agent="dispatch"),
        Message(agent="dispatch", content="Which tray tag?"),
        TerminationEvent(reason="completed", final_output="Which tray tag?")),
        meta={HANDOVER_INPUTS: [{"agent": "potting", "since": -1, "text": "PN-311"},
                                {"agent": "dispatch", "since": 5, "text": carried}]})


REPORTS = "You pot seedlings. Call register_tray. Report the result of register_tray."


@pytest.mark.parametrize("told, quoted", [
    (REPORTS, "Report the result of register_tray"),
    ("You pot seedlings. Call register_tray. Pass on the tray tag for dispatch.", "Pass on the tray tag"),
])
def test_a_relayed_reply_that_leaves_out_what_the_reported_tool_answered_is_the_models_lapse(told, quoted):
    [f] = handover_facts(_run("Logged.", f"{OPENING}\nLogged."), _spec(told))
    assert (f.root_cause, f.agent, f.attribution) == (INFORMATION_LOSS, "potting", "harness")
    assert quoted in f.because and "TR-0419" in f.because


@pytest.mark.parametrize("told", [
    "You pot seedlings. Call register_tray.",  # never told to report the answer
    "You pot seedlings. Put them on a tray with register_tray.",  # which tool to use, not what to pass
    "You pot seedlings. Call register_tray. If register_tray fails, report the reason.",  # only on a failure
    "You pot seedlings. Call register_tray. Do not report the result of register_tray.",
])
def test_without_a_line_to_report_the_answer_the_loss_stays_the_apps(told):
    [f] = handover_facts(_run("Logged.", f"{OPENING}\nLogged."), _spec(told))
    assert (f.root_cause, f.agent, f.attribution) == (INFORMATION_LOSS, "potting", "sut")


def test_a_hand_over_that_never_passed_the_reply_stays_the_apps():
    # the carry-over was left out: the model's reply, whatever it said, never reached dispatch
    [f] = handover_facts(_run("Logged.", OPENING), _spec(REPORTS))
    assert (f.agent, f.attribution) == ("potting", "sut")


def _asked_on(potting_got: str) -> Trace:
    """potting's model asks the user for the order the user gave, and the app carries that reply
    on as the hand-over: dispatch asks for the order too."""
    asked = "Which order is this for?"
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Seedlings for order PN-311 need to go out on Friday."),
        AgentTurn(agent="potting"),
        Message(agent="potting", content=asked),
        DelegationEvent(**{"from": "potting"}, to="dispatch", trigger="sequence"),
        AgentTurn(agent="dispatch"),
        Message(agent="dispatch", content="I still need the order number, please."),
        TerminationEvent(reason="completed", final_output="I still need the order number, please.")),
        meta={HANDOVER_INPUTS: [{"agent": "potting", "since": 1, "text": potting_got},
                                {"agent": "dispatch", "since": 3, "text": f"{OPENING}\n{asked}"}]})


def _spec_with_order() -> WorkflowSpec:
    spec = _spec(REPORTS)
    [register, dispatch] = spec.tools
    props = {**dispatch.parameters["properties"], "order": register.parameters["properties"]["order"]}
    dispatch = dispatch.model_copy(update={"parameters": {**dispatch.parameters, "properties": props}})
    return spec.model_copy(update={"tools": (register, dispatch)})


def test_a_relayed_reply_that_asks_for_what_its_model_was_given_is_the_models_lapse():
    [f] = handover_facts(_asked_on("Seedlings for order PN-311 need to go out on Friday."), _spec_with_order())
    assert (f.root_cause, f.agent, f.attribution) == (INFORMATION_LOSS, "potting", "harness")
    assert "overlooked" in f.because and "PN-311" in f.because


def test_a_hander_that_was_never_given_the_fact_asks_rightly_and_the_loss_stays_the_apps():
    # the app opened potting's chat with words of its own: the user's order never reached it
    [f] = handover_facts(_asked_on("Pot the next order."), _spec_with_order())
    assert (f.agent, f.attribution) == ("potting", "sut")


# -- one vocabulary of what an agent is told to write, in its brief or its relayed reply ----------

@pytest.mark.parametrize("told", [
    "You pot seedlings. Call register_tray. Sum up what register_tray answered for dispatch.",
    "You pot seedlings. Call register_tray, then tell dispatch what register_tray gave back.",
    "You pot seedlings. Call register_tray and share the tray tag with the dispatch team.",
])
def test_every_verb_of_writing_the_answer_down_tells_the_hander_to_relay_it(told):
    # the verbs the brief's reading counts count for the relayed reply too: one vocabulary
    [f] = handover_facts(_run("Logged.", f"{OPENING}\nLogged."), _spec(told))
    assert (f.agent, f.attribution) == ("potting", "harness")


def test_a_verb_of_writing_in_another_clause_than_the_tool_tells_nothing():
    told = "You pot seedlings; tell the grower about frost. Call register_tray when an order comes in."
    [f] = handover_facts(_run("Logged.", f"{OPENING}\nLogged."), _spec(told))
    assert (f.agent, f.attribution) == ("potting", "sut")
