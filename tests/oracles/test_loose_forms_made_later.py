"""An early speaker that asked for a required argument of its own tool, answered later by
another member's tool in the argument's documented form, spoke before what it needed was made
(`instructed_order`). A loose documented form (a word, then digits: `like "bus 31"`) fits
everyday words by chance ("after the first 7 days"): an answer's words count as that value only
when they are a fact by their shape, or carry the example's own word."""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import instructed_order
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace


def _spec(example: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="lost_property", entry_agent="found_desk", pattern="fixed_order"),
        agents=(AgentSpec(id="found_desk"), AgentSpec(id="store")),
        tools=(ToolSpec(id="log_find", description="Log an item handed in.", parameters={
                   "type": "object", "required": ["where_found"], "properties": {
                       "where_found": {"type": "string", "description": f'Where it was found, like "{example}"'}}}),
               ToolSpec(id="store_fees", description="What keeping an item has cost so far.", parameters={
                   "type": "object", "properties": {"item": {"type": "string"}}})),
        permissions=Permissions(allow=(("found_desk", "log_find"), ("store", "store_fees"))))


def _run(answer: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="I think I left my umbrella somewhere yesterday, is it with you? Ref LQ-2201."),
        AgentTurn(agent="found_desk"), Message(agent="found_desk", content="Where was it found?"),
        AgentTurn(agent="store"),
        ToolCall(agent="store", tool="store_fees", call_id="c1", arguments={"item": "LQ-2201"}),
        ToolResult(agent="store", tool="store_fees", call_id="c1", status="ok", payload=answer),
        Message(agent="store", content="Noted."), TerminationEvent(reason="completed", final_output="Noted.")))


def test_everyday_words_a_loose_form_fits_by_chance_are_no_value_made():
    answer = "LQ-2201: free for the first 7 days, then GBP 1 a day; sold after 90 days."
    assert instructed_order(_run(answer), _spec("bus 31")) == []


@pytest.mark.parametrize("example, answer", [
    ("BUS 31", "LQ-2201 was handed in from BUS 14 on Monday."),  # the example's own word
    ("B-31", "LQ-2201 was handed in from B-14 on Monday."),  # a code, a fact by its shape
])
def test_a_value_of_the_documented_form_made_after_the_ask_still_shows_the_order(example, answer):
    [f] = instructed_order(_run(answer), _spec(example))
    assert (f.agent, f.elements) == ("found_desk", ("store", "found_desk"))
