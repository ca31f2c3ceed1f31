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
