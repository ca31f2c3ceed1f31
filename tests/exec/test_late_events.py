"""A run the in-process executor abandons at its time limit goes on in masfuzz's process (a tool
blocked in a thread cannot be killed there): what it records afterwards must reach no later
trace, even through the app's shared objects the next run's recording is swapped into; it is
dropped and counted in the next trace of the system (`meta.late_events`)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from masfuzz.exec import InProcessExecutor
from masfuzz.scenario import Scenario
from masfuzz.trace import LATE_EVENTS, Message, ToolResult

DESK = Path(__file__).parent / "fixtures" / "late_system.py"


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
