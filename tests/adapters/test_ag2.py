"""AG2 (AutoGen 0.2 API) group chat: native extraction and run, and the same app black-box."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

pytest.importorskip("autogen.agentchat")

from masfuzz.adapters.ag2 import AG2Adapter  # noqa: E402
from masfuzz.adapters.blackbox import BlackboxApp, run_blackbox  # noqa: E402
from masfuzz.exec import InProcessExecutor  # noqa: E402
from masfuzz.scenario import Scenario  # noqa: E402
from masfuzz.trace import ToolCall, ToolResult  # noqa: E402

APP = Path(__file__).parents[2] / "examples" / "ag2_groupchat" / "app.py"
POLICY = f"scripted/{APP.parent / 'policy.py'}:policy"
TASK = "Write a short note about the Eiffel Tower"


@pytest.fixture(autouse=True)
def config_list(monkeypatch):
    monkeypatch.setenv("OAI_CONFIG_LIST", json.dumps([{"model": "gpt-4o", "api_key": "sk-unused"}]))


def native():
    ex = InProcessExecutor()
    trace = asyncio.run(ex.run(f"{APP}:build_manager", Scenario(input=TASK, sut_model=POLICY)))
    return ex.load(f"{APP}:build_manager").spec, trace


def test_extraction_reads_agents_functions_and_speaker_transitions():
    spec, _ = native()
    assert spec.system.framework == "ag2" and spec.system.pattern == "selector"
    # the model-less user proxy executes the tool; it is no agent to reach
    assert spec.system.entry_agent == "planner"
    assert [a.id for a in spec.agents] == ["planner", "writer", "critic"]
    assert spec.permissions.allow == (("planner", "lookup_fact"),)
    assert "user is a model-less proxy: runs lookup_fact" in spec.notes
    edges = {d.edge for d in spec.delegations}
    # the transition graph, through the proxy: critic -> user -> planner
    assert edges == {("planner", "writer"), ("writer", "critic"), ("critic", "writer"),
                     ("critic", "planner")}
    assert spec.termination.max_turns == 10


def test_native_run_and_blackbox_run_agree():
    spec, live = native()
    assert live.speaker_order == ["planner", "writer", "critic"]
    assert [(c.agent, c.tool, c.arguments) for c in live.of_type(ToolCall)] == [
        ("planner", "lookup_fact", {"topic": "Eiffel Tower"})]
    assert live.of_type(ToolResult)[0].payload == "330 m tall, finished in 1889"
    assert live.termination.reason == "text_mention"

    known = {a.id: a.instructions for a in spec.agents if a.instructions}
    app = BlackboxApp(f"python {APP} {{input}}", agents=known)
    box = asyncio.run(run_blackbox(app, Scenario(input=TASK, sut_model=POLICY, timeout=60)))
    assert box.speaker_order == live.speaker_order
    assert [(c.agent, c.tool, c.arguments) for c in box.of_type(ToolCall)] == [
        (c.agent, c.tool, c.arguments) for c in live.of_type(ToolCall)]
    assert [r.payload for r in box.of_type(ToolResult)] == [r.payload for r in live.of_type(ToolResult)]
    assert box.termination.reason == live.termination.reason


def test_restricted_probe_offers_each_agent_the_others_tools_and_the_framework_refuses_them(monkeypatch):
    """`--restricted probe`: each model agent is offered the tools registered for the others'
    models; a call of one is a restricted attempt, refused as AG2 refuses a function its executor
    does not have (the tool does not run), and the agent's own tools still run."""
    from masfuzz.trace import RestrictedAttempt

    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    trace = asyncio.run(InProcessExecutor().run("examples/zoo/ag2_carryover.py:fixed", Scenario(
        input="My order ORD-4412 arrived broken.", sut_model="scripted/masfuzz.control:probe")))
    probes = [(e.agent, e.tool, e.mode) for e in trace.of_type(RestrictedAttempt)]
    assert probes == [("intake", "ship_replacement", "probe"), ("shipping", "log_complaint", "probe")]
    refused = [(r.agent, r.tool, r.status) for r in trace.of_type(ToolResult) if r.status == "blocked"]
    assert refused == [("intake", "ship_replacement", "blocked"), ("shipping", "log_complaint", "blocked")]
    assert not any("ships tomorrow" in r.payload for r in trace.of_type(ToolResult) if r.agent == "intake")
    assert ("shipping", "ship_replacement") in {(c.agent, c.tool) for c in trace.of_type(ToolCall)}
    # off: the agents see their own tools only
    trace = asyncio.run(InProcessExecutor().run("examples/zoo/ag2_carryover.py:fixed", Scenario(
        input="My order ORD-4412 arrived broken.", sut_model="scripted/masfuzz.control:probe", restricted="off")))
    assert trace.of_type(RestrictedAttempt) == []
