"""A tool-invocation duty scoped by what the line is for ("Hold a hoist with book_hoist for a
hoist, a sling or a bariatric bed."): the tool is owed only when the conversation shows the scope
met. A line for a beneficiary ("for the caller"), a span ("for each guest") or with no scope at
all stays a plain duty."""

from __future__ import annotations

import re

import pytest

from masfuzz.graph.specification import skeleton
from masfuzz.oracles.flare import _conditions, tool_omission
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, Trace

HOIST = re.compile(r"\bbook_hoist\b")


def _ward(line: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="ward", entry_agent="nurse", pattern="orchestrated"),
        agents=(AgentSpec(id="nurse", instructions=f"Admissions nurse, Ward 7.\nAdmit the patient with admit.\n{line}\n"
                                                    "Tell the family the bed number."),),
        tools=(ToolSpec(id="admit"), ToolSpec(id="book_hoist")),
        permissions=Permissions(allow=(("nurse", "admit"), ("nurse", "book_hoist"))))


def _omitted(line: str, said: str) -> set:
    wf = _ward(line)
    reply = "Your father is in bed 12 on Ward 7."
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=said), AgentTurn(agent="nurse"),
        ToolCall(agent="nurse", tool="admit", call_id="c1"), Message(agent="nurse", content=reply),
        TerminationEvent(reason="completed", final_output=reply)))
    return {f.elements for f in tool_omission(trace, skeleton(wf), wf)}


SCOPED = "Hold a lifting aid with book_hoist for a hoist, a sling or a bariatric bed."


def test_a_scoped_line_owes_nothing_when_the_conversation_does_not_meet_its_scope():
    assert _omitted(SCOPED, "My father is coming in for his knee tomorrow, he walks fine.") == set()


def test_a_scoped_line_is_owed_once_the_conversation_meets_it():
    assert _omitted(SCOPED, "His legs are weak since the stroke, so he will need a hoist to get into bed.") == {("nurse", "book_hoist")}


@pytest.mark.parametrize("line", [
    "Hold a lifting aid with book_hoist for the patient.",  # a beneficiary
    "Book one with book_hoist for each admission.",  # a span
    "Always hold a hoist with book_hoist.",
])
def test_a_line_for_a_beneficiary_or_a_span_or_without_scope_stays_a_duty(line):
    assert _conditions(line, HOIST) == [""]
    assert _omitted(line, "My father is coming in for his knee tomorrow.") == {("nurse", "book_hoist")}


PLACED = "Use book_hoist for transfers out of a wheelchair: slings, hoists and bariatric beds."


def test_a_scope_that_names_its_place_before_a_colon_of_examples_is_a_scope():
    # the kind of request with where it happens ("transfers out of a wheelchair"), then examples
    assert _conditions(PLACED, HOIST) == ["transfers out of a wheelchair"]
    assert _omitted(PLACED, "My father is coming in for his knee tomorrow, he walks fine.") == set()
    assert _omitted(PLACED, "He cannot stand, so every transfer out of his wheelchair needs help.") == {("nurse", "book_hoist")}


@pytest.mark.parametrize("line", [
    "Pass anything to do with lifting, slings or bariatric beds through book_hoist.",
    "Send any requests regarding a hoist or a sling on to book_hoist.",
])
def test_a_routers_object_scoped_by_what_it_is_about_owes_its_tool_only_for_those(line):
    """The requests a router's line is for, as the object of its verb ("Pass anything about A or
    B to T"): a duty only when the person asked about one of them."""
    assert _omitted(line, "My father is coming in for his knee tomorrow, he walks fine.") == set()
    assert _omitted(line, "He cannot stand since the stroke, he will need a sling to get into bed.") == {("nurse", "book_hoist")}
