"""Classes of misses a blind set (zoo27, a planner that narrates) showed, over hand-built traces in
other wordings than the zoo's: a fact a chat sequence's carried summary dropped, asked for after a
look-up that tried nothing of it; a speaker the app's candidate function left alone (no model
chose it)."""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import MISROUTED, misrouted_request
from masfuzz.oracles.semantic import INFORMATION_LOSS, handover_facts
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import (
    HANDOVER_INPUTS, AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace,
)

# -- a fact a carried summary dropped, asked for after a look-up of something else ------------------

NURSERY = WorkflowSpec(
    system=SystemInfo(id="nursery", entry_agent="intake", pattern="fixed_order"),
    agents=(AgentSpec(id="intake", instructions="Summarise the customer's order for the despatch desk."),
            AgentSpec(id="despatch", instructions="Find the plants with find_stock, then send them with "
                      "send_order.")),
    tools=(ToolSpec(id="find_stock", description="Find plants in stock that match a request.",
                    parameters={"type": "object", "properties": {
                        "request": {"type": "string", "description": "What the customer wants"}}}),
           ToolSpec(id="send_order", description="Send an order to a trade account.",
                    parameters={"type": "object", "properties": {
                        "account": {"type": "string",
                                    "description": 'The garden centre\'s trade account, e.g. "TA-00000"'},
                        "plant": {"type": "string", "description": "The plant's code"}},
                        "required": ["account", "plant"]})),
    permissions=Permissions(allow=(("despatch", "find_stock"), ("despatch", "send_order"))))

ASK = ("Thanks - before I send anything I need two things:\n1. Which trade account should this go on?\n"
       "2. Please confirm the garden centre's trade account.")


def _nursery(look_up: str, payload: str, status: str = "ok") -> Trace:
    task = "Hello, Brookfield Garden Centre here, trade account ta-55102. Could we have 40 lavender plugs?"
    summary = "Order: 40 lavender plugs for Brookfield Garden Centre."
    return Trace(scenario_id="s", events=(
        Message(role="user", content=task),
        AgentTurn(agent="intake"),
        Message(agent="intake", content=summary),
        DelegationEvent(from_="intake", to="despatch", trigger="sequence"),
        AgentTurn(agent="despatch"),
        Message(agent="despatch", content="Plan: 1) find stock 2) send order. Step 1/2 — find stock"),
        ToolCall(agent="despatch", tool="find_stock", arguments={"request": look_up}, call_id="c1"),
        ToolResult(agent="despatch", tool="find_stock", call_id="c1", status=status, payload=payload),
        Message(agent="despatch", content=ASK),
        TerminationEvent(reason="max_turns", final_output=ASK)),
        meta={HANDOVER_INPUTS: [{"agent": "despatch", "since": 3,
                                 "text": "Send the order.\nContext: " + summary}]})


def test_a_fact_a_carried_summary_dropped_is_lost_though_the_receiver_looked_something_else_up():
    [f] = handover_facts(_nursery("40 lavender plugs", '[{"plant": "LAV-12", "in_stock": 300}]'), NURSERY)
    assert (f.root_cause, f.agent, f.elements[:2]) == (INFORMATION_LOSS, "intake", ("intake", "despatch"))
    assert "ta-55102" in f.description


@pytest.mark.parametrize("look_up,payload,status", [
    ("account TA-55102", '[{"plant": "LAV-12", "in_stock": 300}]', "ok"),  # it tried the value itself
    ("40 lavender plugs", "[]", "ok"),  # the look-up found nothing
    ("40 lavender plugs", "stock system unavailable", "error"),  # the tool failed
])
def test_asking_after_a_call_that_tried_the_fact_or_failed_is_no_loss(look_up, payload, status):
    assert handover_facts(_nursery(look_up, payload, status), NURSERY) == []


# -- a speaker the app's candidate function left alone is the app's choice --------------------------

KENNELS = WorkflowSpec(
    system=SystemInfo(id="kennels", entry_agent="grooming", framework="autogen", pattern="selector"),
    agents=(AgentSpec(id="grooming", description="Books baths, trims and nail clips for dogs."),
            AgentSpec(id="boarding", description="Books overnight kennel stays while owners are away.")),
    tools=(ToolSpec(id="book_trim", description="Book a trim for a dog.",
                    parameters={"type": "object", "properties": {"day": {"type": "string"}}}),
           ToolSpec(id="book_stay", description="Book a kennel stay for a dog.",
                    parameters={"type": "object", "properties": {"nights": {"type": "integer"}}})),
    permissions=Permissions(allow=(("grooming", "book_trim"), ("boarding", "book_stay"))),
    delegations=(Delegation(**{"from": "grooming", "to": "boarding", "trigger": "selector",
                               "condition": "chosen by the selector model among candidates from pick"}),
                 Delegation(**{"from": "boarding", "to": "grooming", "trigger": "selector",
                               "condition": "chosen by the selector model among candidates from pick"})))


def _kennels(callers: dict[str, int]) -> Trace:
    ask = "We're away for a week in August - could you arrange an overnight kennel stay for our collie, 7 nights?"
    return Trace(scenario_id="s", events=(
        Message(role="user", content=ask),
        AgentTurn(agent="grooming"),
        ToolCall(agent="grooming", tool="book_trim", arguments={"day": "2026-08-01"}, call_id="c1"),
        ToolResult(agent="grooming", tool="book_trim", call_id="c1", status="ok", payload="trim booked 1 Aug"),
        Message(agent="grooming", content="Summary: ✅ 1. trim → booked for 1 August"),
        TerminationEvent(reason="completed", final_output="Summary: ✅ 1. trim → booked for 1 August")),
        meta={"speaking_order": ["grooming"],
              "agent_settings": {a: {"model": "scripted/p.py:policy", "calls": n} for a, n in callers.items()}})


def test_a_speaker_no_model_chose_is_the_apps_misroute():
    # the members' descriptions point the stay to boarding; the selector's model made no call:
    # the app's candidate function left grooming alone
    [f] = misrouted_request(_kennels({"grooming": 2}), KENNELS)
    assert (f.root_cause, f.agent, f.attribution) == (MISROUTED, None, "sut")


def test_a_speaker_the_selector_model_chose_against_the_descriptions_is_the_models():
    [f] = misrouted_request(_kennels({"selector": 1, "grooming": 2}), KENNELS)
    assert (f.root_cause, f.attribution) == (MISROUTED, "harness")
