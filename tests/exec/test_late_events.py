"""A run the in-process executor abandons at its time limit goes on in masfuzz's process (a tool
blocked in a thread cannot be killed there): what it records afterwards must reach no later
trace, even through the app's shared objects the next run's recording is swapped into; it is
dropped and counted in the next trace of the system (`meta.late_events`)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from masfuzz.exec import InProcessExecutor
from masfuzz.scenario import Scenario
from masfuzz.trace import LATE_EVENTS, Message, ToolCall, ToolResult

DESK = Path(__file__).parent / "fixtures" / "late_system.py"
AG2 = Path(__file__).parent / "fixtures" / "late_ag2.py"
AG2_POLICY = Path(__file__).parent / "fixtures" / "late_ag2_policy.py"


def test_an_abandoned_run_that_goes_on_writes_into_no_later_trace():
    ex = InProcessExecutor(adapter=f"{DESK}:DeskAdapter")

    async def both():
        first = await ex.run(f"{DESK}:desk", Scenario(input="first", timeout=2))
        second = await ex.run(f"{DESK}:desk", Scenario(input="second", timeout=120))
        return first, second

    first, second = asyncio.run(both())
    assert first.termination.reason == "timeout"
    said = [e.content for e in second.of_type(Message)] + [e.payload for e in second.of_type(ToolResult)]
    assert said == ["second", "The desk says: checked second.", "checked second"]
    assert not any("first" in text for text in said)
    assert second.meta[LATE_EVENTS] == 2  # the first run's tool result and message, dropped


def test_an_abandoned_ag2_chat_is_stopped_before_it_reaches_the_next_runs_model_or_agents():
    """AG2 runs its chat in a thread: abandoned at the time limit, it goes on once its tool
    returns, with the module's agents the next run has pointed at its own model endpoint. It is
    unwound at the framework's next step instead (no message sent on, no model asked), and it
    leaves the next run's agents as that run set them, so the next run ends as it would alone."""
    pytest.importorskip("autogen")
    target = f"{AG2}:manager"
    model = f"scripted/{AG2_POLICY}:policy"
    ex = InProcessExecutor()

    async def both():
        first = await ex.run(target, Scenario(input="Check the stock of first", sut_model=model, timeout=5))
        second = await ex.run(target, Scenario(input="Check the stock of second", sut_model=model, timeout=120))
        return first, second

    first, second = asyncio.run(both())
    assert first.termination.reason == "timeout"
    assert second.termination.reason == "message_limit", second.termination  # the group's max_round
    assert not second.meta.get("not_injected_calls")  # its agents kept its endpoint to the end
    assert "first" not in second.model_dump_json()
    assert [(c.tool, c.arguments) for c in second.of_type(ToolCall)] == [("check_stock", {"item": "second"})]
    assert {m.content for m in second.of_type(Message) if m.agent} == {"Stock: second: 3 in stock. TERMINATE"}
    assert second.usage.model_calls == second.meta["agent_settings"]["desk"]["calls"]
