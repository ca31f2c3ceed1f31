"""A stop condition that reads every message (an AG2 manager's `is_termination_msg`) ended the run
on a tool's answer, the proxy's message carrying it, before the agent that called the tool read
it: the member the app's own code routes to next (a speaker-selection function) never acted,
though the request asks for its tool. Premature Termination, blamed on the caller, whatever the
answer's words; a request the look-up alone served, a stop keyed to the tool itself and a run in
which the routed member acted are no finding."""

from __future__ import annotations

import json

import pytest

from masfuzz.oracles import detect
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

APPS = "tests/oracles/tool_answer_stop_apps.py"
POLICY = f"scripted/{APPS}:policy"
FIRING = "Hi, card 07700 900461 here - can my bowls go into the glaze firing on 2026-03-14?"


def _exec(cli, twin: str, request: str) -> list[dict]:
    pytest.importorskip("autogen")
    code, out, err = cli("exec", f"{APPS}:{twin}", "--input", request, "--sut-model", POLICY,
                         "--executor", "inprocess", "--format", "json", "--failures")
    assert code == 0, err
    return json.loads(out)["failures"]


def test_a_stop_test_met_by_the_look_up_s_answer_cuts_out_the_member_the_code_routes_to(cli):
    [cut] = [f for f in _exec(cli, "seeded", FIRING) if f["root_cause"] == "Premature Termination"]
    assert (cut["agent"], cut["elements"], cut["attribution"]) == ("desk_d", ["desk_d", "kiln_k"], "sut")
    assert "find_member" in cut["description"]


def test_the_stop_test_that_waits_for_the_routed_member_finds_nothing(cli):
    assert _exec(cli, "fixed", FIRING) == []


def test_a_request_the_look_up_alone_served_lost_no_member(cli):
    """Asking only for the membership number asks nothing of the kiln's booking: the early end
    lost no member's work (the unsaid answer stays the Response Omission it is)."""
    found = _exec(cli, "seeded", "Hello, I'm on card 07700 900461 but lost my membership number - what is it?")
    assert not [f for f in found if f["root_cause"] == "Premature Termination"]


def _till() -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="chat_manager", entry_agent="till_t", framework="ag2", pattern="orchestrated"),
        agents=(AgentSpec(id="till_t", instructions="Price the basket with price_basket."),
                AgentSpec(id="bagger_b", instructions="Arrange home delivery with deliver_basket.")),
        tools=(ToolSpec(id="price_basket", description="Price a basket of groceries by its number."),
               ToolSpec(id="deliver_basket", description="Arrange home delivery of a basket to a postcode.")),
        permissions=Permissions(allow=(("till_t", "price_basket"), ("bagger_b", "deliver_basket"))),
        delegations=(Delegation(**{"from": "till_t"}, to="bagger_b", trigger="sequence",
                                condition="chosen by the app's speaker-selection function"),))


def _stopped(detail: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Basket 5512 please, and deliver it to BS3 1QP this evening."),
        AgentTurn(agent="till_t"),
        ToolCall(agent="till_t", tool="price_basket", arguments={"basket": "5512"}, call_id="1"),
        ToolResult(agent="till_t", tool="price_basket", call_id="1", payload="{'total': '41.20', 'items': 17}"),
        TerminationEvent(reason="text_mention", detail=detail)))


def test_the_class_on_a_hand_built_trace_and_a_stop_keyed_to_the_tool_itself():
    cut = [f for f in detect(_stopped("Termination message condition on the GroupChatManager met"), _till())
           if f.root_cause == "Premature Termination"]
    assert [(f.agent, f.elements) for f in cut] == [("till_t", ("till_t", "bagger_b"))]
    keyed = detect(_stopped("Function 'price_basket' was called"), _till())
    assert not [f for f in keyed if "price_basket answer" in f.description]
