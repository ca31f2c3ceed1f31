"""A reply that retells the story so far without a "Recap:" label: earlier outcomes told first,
then the newest one. What a success sentence is about is told by its object and the reference
it carries, not by its words: one naming another action of the agent's that held ("The lesson
went through earlier: LS-40, all sorted.") is no claim about the tool that failed since; and a
give-up the reply tells before its newest outcome ("The first try failed. Room 3 is booked.")
is an earlier failure retold, not the answer to the newest result."""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import INCORRECT_VERIFICATION, _given_up, claimed_outcome
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

SCHOOL = WorkflowSpec(
    system=SystemInfo(id="language_school", entry_agent="front_l"),
    agents=(AgentSpec(id="front_l", instructions="Book the trial lesson with book_lesson, then post the welcome "
                                                 "pack with post_pack."),),
    tools=(ToolSpec(id="book_lesson", description="Book a trial language lesson."),
           ToolSpec(id="post_pack", description="Post the printed welcome pack to the student.")),
    permissions=Permissions(allow=(("front_l", "book_lesson"), ("front_l", "post_pack"))))


def _school(then: str) -> Trace:
    first = "Booked: trial lesson LS-40 on Monday."
    return Trace(scenario_id="s", events=(
        Message(role="user", content="A trial Italian lesson on Monday, and please post me the welcome pack."),
        AgentTurn(agent="front_l"),
        ToolCall(agent="front_l", tool="book_lesson", call_id="l", arguments={"day": "Monday"}),
        ToolResult(agent="front_l", tool="book_lesson", call_id="l", payload='{"booked": true, "lesson": "LS-40"}'),
        Message(agent="front_l", content=first),
        ToolCall(agent="front_l", tool="post_pack", call_id="p", arguments={}),
        ToolResult(agent="front_l", tool="post_pack", call_id="p", payload='{"posted": false, "error": "no stamps"}'),
        Message(agent="front_l", content=then), TerminationEvent(reason="completed", final_output=then)))


@pytest.mark.parametrize("then", [
    "The lesson went through earlier: LS-40, all sorted. The welcome pack didn't go out, though (no stamps).",
    "You asked for a lesson and a pack. The lesson is booked, LS-40, as I said. I'm afraid the pack couldn't be posted.",
])
def test_a_retold_success_of_another_action_is_no_claim_about_the_failed_one(then):
    assert claimed_outcome(_school(then), SCHOOL) == []


@pytest.mark.parametrize("then", [
    "LS-40 is booked for Monday. The welcome pack is posted.",
    "The lesson went through earlier: LS-40. All sorted, you're all set.",  # the sure words name nothing
])
def test_a_success_said_of_the_failed_action_is_still_a_claim(then):
    [f] = claimed_outcome(_school(then), SCHOOL)
    assert (f.root_cause, f.agent, f.elements) == (INCORRECT_VERIFICATION, "front_l", ("front_l", "post_pack"))


def _rooms(reply: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="A rehearsal room for Thursday evening, please."), AgentTurn(agent="rooms_r"),
        ToolCall(agent="rooms_r", tool="book_room", call_id="a", arguments={"day": "Thu"}),
        ToolResult(agent="rooms_r", tool="book_room", call_id="a", payload="Booked: room 3, Thursday 19:00."),
        Message(agent="rooms_r", content=reply)))


@pytest.mark.parametrize("reply, given_up", [
    ("The first book_room try failed (wrong day format). Room 3 is booked for Thursday 19:00.", False),
    ("Sorry, the first try didn't go through; on the second go room 3 is booked, Thursday 19:00.", False),
    ("Room 3 is booked for Thursday 19:00. Sorry, I'm unable to add a second room.", True),
    ("Sorry, I couldn't book it.", True),
])
def test_the_reply_s_last_word_on_an_outcome_says_whether_it_gave_up(reply, given_up):
    assert _given_up(_rooms(reply), 3, "rooms_r") is given_up
