"""A hand-over whose text is the hander's own reply: a graph node writes a brief into the team's
state and the next node is given that brief alone (the app chose to pass the hander's words).
When the hander's instructions, as its model was told them (a node's system message, recorded in
`meta.system_prompts` since extraction cannot read it), tell it to pass a fact on and its brief
leaves the fact out, the model in use did not follow them: the loss is the model's, not the
app's. A brief template that never names the fact keeps the loss the app's."""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import INFORMATION_LOSS, handover_facts
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import (
    HANDOVER_INPUTS, SYSTEM_PROMPTS, AgentTurn, DelegationEvent, Message, TerminationEvent, Trace,
)

# a graph's nodes build their system messages in code: the spec has no instructions for them
SPEC = WorkflowSpec(
    system=SystemInfo(id="window_cleaners", entry_agent="phones", pattern="graph"),
    agents=(AgentSpec(id="phones"), AgentSpec(id="rounds")),
    tools=(ToolSpec(id="add_to_round", description="Put a house on a cleaning round.", parameters={
        "type": "object", "required": ["account", "visit_day", "panes"], "properties": {
            "account": {"type": "string", "description": 'The customer account, e.g. "WC-00000"'},
            "visit_day": {"type": "string", "description": 'The day to call, e.g. "2026-01-31"'},
            "panes": {"type": "integer", "description": "How many panes to clean."}}}),),
    permissions=Permissions(allow=(("rounds", "add_to_round"),)),
)
USER = 'Add a house to a round please. Account: "WC-40112"; visit day: "2026-05-12"; panes: 14.'
BRIEF = "account WC-40112, call on 12 May"


def _run(phones_told: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=USER), AgentTurn(agent="phones"),
        Message(agent="phones", content='{"brief": "' + BRIEF + '"}'),
        DelegationEvent(**{"from": "phones"}, to="rounds", trigger="graph_edge"),
        AgentTurn(agent="rounds"),
        Message(agent="rounds", content="how many panes is it?"),
        TerminationEvent(reason="completed", final_output="how many panes is it?")),
        meta={HANDOVER_INPUTS: [{"agent": "phones", "since": 1, "text": USER},
                                {"agent": "rounds", "since": 3, "text": BRIEF}],
              SYSTEM_PROMPTS: {"phones": phones_told, "rounds": "Put the house on a round with add_to_round."}})


def test_a_brief_that_leaves_out_what_its_node_was_told_to_pass_is_the_models_lapse():
    [f] = handover_facts(_run("Window cleaning desk. Write the brief for the rounds team.\n"
                              "- Pass on the account, the visit day and the pane count."), SPEC)
    assert (f.root_cause, f.agent, f.attribution) == (INFORMATION_LOSS, "phones", "harness")
    assert "tell it to pass this on" in f.because


@pytest.mark.parametrize("told", [
    "Window cleaning desk. Write the brief for the rounds team.\n- Pass on the account and the visit day.",
    "Window cleaning desk. Write the brief for the rounds team.\n- If the customer mentions panes, pass them on.",
])
def test_a_brief_template_that_never_names_the_fact_keeps_the_loss_the_apps(told):
    [f] = handover_facts(_run(told), SPEC)
    assert (f.root_cause, f.agent, f.attribution) == (INFORMATION_LOSS, "phones", "sut")


def test_a_hand_over_carrying_more_than_the_handers_words_is_not_its_brief():
    # the receiver was given the hander's words and a line of the app's own: the app wrote it
    run = _run("Window cleaning desk. Write the brief for the rounds team.\n"
               "- Pass on the account, the visit day and the pane count.")
    inputs = [*run.meta[HANDOVER_INPUTS][:1], {"agent": "rounds", "since": 3, "text": "Round sheet v2: " + BRIEF}]
    [f] = handover_facts(run.model_copy(update={"meta": {**run.meta, HANDOVER_INPUTS: inputs}}), SPEC)
    assert f.attribution == "sut"
