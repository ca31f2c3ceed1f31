"""AG2's `OnCondition` hand-overs: the `transfer_to_<agent>_<n>` tool AG2 offers a model is found
as the hand-over to that agent (`resolve_handoff`), and the speaker change its call makes is
recorded as a hand-off, not as the group's speaker selection."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("autogen.agentchat.group")

from masfuzz.exec import InProcessExecutor  # noqa: E402
from masfuzz.scenario import Scenario  # noqa: E402
from masfuzz.trace import DelegationEvent, ToolCall  # noqa: E402

APP = Path(__file__).parent / "fixtures_ag2" / "grooming_handoff.py"


def test_an_on_condition_hand_over_tool_is_a_hand_off():
    trace = asyncio.run(InProcessExecutor().run(f"{APP}:app", Scenario(
        input="A trim for Biscuit please", sut_model=f"scripted/{APP}:policy")))
    assert [c.tool for c in trace.of_type(ToolCall)][:1] == ["transfer_to_groomer_1"]
    assert [(d.from_, d.to, d.trigger) for d in trace.of_type(DelegationEvent)] == [("desk", "groomer", "handoff")]
