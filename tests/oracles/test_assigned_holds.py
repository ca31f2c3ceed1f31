"""A tool whose own verb assigns a thing (assign_berth, assign_locker) holds it for someone, as
allocate_ and hold_ tools do: its action is done in any state of the thing held (ALLOCATED,
SECURED, HELD), not only in its own verb's participle. A claim after `"status": "allocated"` is
true; a claim after a waiting state (PENDING) is still incorrect verification."""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import INCORRECT_VERIFICATION, claimed_outcome
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace


def _run(state: str) -> Trace:
    said = "All done: your boat has pontoon berth V-7 for the night of the 18th."
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Could we have a visitor berth for Kittiwake on 2026-07-18?"),
        AgentTurn(agent="harbour"),
        ToolCall(agent="harbour", tool="assign_berth", call_id="c1", arguments={"vessel": "Kittiwake"}),
        ToolResult(agent="harbour", tool="assign_berth", call_id="c1", status="ok",
                   payload='{"vessel": "Kittiwake", "berth": "V-7", "status": "' + state + '"}'),
        Message(agent="harbour", content=said), TerminationEvent(reason="completed", final_output=said)))


@pytest.mark.parametrize("state", ["allocated", "secured", "assigned"])
def test_a_thing_held_in_any_words_is_the_assignment_done(state):
    assert claimed_outcome(_run(state), None) == []


def test_an_assignment_still_waiting_is_no_assignment_done():
    [f] = claimed_outcome(_run("pending"), None)
    assert (f.root_cause, f.agent) == (INCORRECT_VERIFICATION, "harbour")
