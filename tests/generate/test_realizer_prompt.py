"""The native realizer's prompt (a goal line a small model continues) and its screen of
off-task replies, asked again once before an execution is spent on them."""

import asyncio

from masfuzz.generate.realizer import (EXAMPLES, Feedback, NativeRealizer, ObjectiveInputs,
                                       goal, off_task)
from masfuzz.generate.refine import Refinement
from masfuzz.llm.scripted import ScriptedClient, say

SEAT_AGENT = {"id": "seat_booking_agent", "description": "Changes the seat on a customer's booking.",
              "instructions": "You change seats."}
FAQ_AGENT = {"id": "faq_agent", "description": "Answers questions about baggage and wi-fi.",
             "instructions": "Use the lookup tool."}
UPDATE_SEAT = {"id": "update_seat", "description": "Move the passenger to a new seat.",
               "parameters": {"properties": {
                   "confirmation_number": {"type": "string", "description": "The six-character booking reference."},
                   "new_seat": {"type": "string", "description": "The seat to move to, such as 14C."}}}}


def inputs(family="UseTool", **extra):
    base = dict(family=family, driver=f"{family}::x", agent=SEAT_AGENT, tool=UPDATE_SEAT,
                forbidden=("update_seat", "seat_booking_agent"))
    return ObjectiveInputs(**{**base, **extra})


def test_the_goal_line_says_what_the_user_needs_with_the_values_a_call_takes():
    assert goal(inputs()) == ("move the passenger to a new seat (needs: confirmation number - the "
                              "six-character booking reference; new seat - the seat to move to, such as 14C)")
    assert goal(inputs("RestrictTool", agent=FAQ_AGENT)).endswith(
        "asked while dealing with one who answers questions about baggage and wi-fi")
    assert goal(inputs("Delegate", tool=None, child=FAQ_AGENT)) == (
        "help from one who answers questions about baggage and wi-fi")
    hand_back = inputs("Delegate", tool=None, child={"id": "triage"}, hand_back=True, onward=[FAQ_AGENT])
    assert goal(hand_back) == ("help from one who changes the seat on a customer's booking, then help "
                               "from one who answers questions about baggage and wi-fi")
    # the worked examples are turns before the objective's: a base model's transcript goes on in
    # their pattern, a chat model takes them as few-shot turns
    turns = NativeRealizer(None).request(inputs(), []).messages
    assert [m.role for m in turns] == ["system"] + ["user", "assistant"] * len(EXAMPLES) + ["user"]
    assert [m.content for m in turns[2:-1:2]] == [message for _goal, message in EXAMPLES]
    assert turns[-1].content == f"Goal: {goal(inputs())}"
    retried = NativeRealizer(None).request(inputs(), [Feedback("Seat please", "seat_booking_agent never acted")])
    assert retried.messages[-1].content.startswith("Tried before, did not work (seat_booking_agent never acted)")


def test_off_task_replies_are_told_apart_from_requests_for_the_objective():
    objective = inputs()
    assert off_task("Please put me in 14C, booking ref QX7T2P.", objective) is None
    assert off_task("Hi, can I move to a window seat on my booking KLM123?", objective) is None
    assert off_task("I have an important message for you.", objective).startswith("off the objective")
    assert off_task("Could you renew The Hobbit on my library card for two weeks?", objective) == (
        "copied the prompt's example")
    assert off_task("Please book a court for Saturday, and do you have lessons?", objective) == (
        "copied the prompt's example")
    # a chat model answering the goal as the assistant, though it names the seat
    assert off_task("I'd be happy to help you change your seat on your booking.", objective) == (
        "the assistant's voice, not the user's")
    assert off_task("I'm sorry for any confusion, but I'm just an AI. Which seat?", objective) == (
        "the assistant's voice, not the user's")
    assert off_task("Hello ...", objective) == "not a user request (too few words)"


def test_an_off_task_reply_is_asked_for_again_with_another_seed():
    seen = []

    def tester(request):
        seen.append(request.seed)
        return say("I have an important message for you." if len(seen) == 1 else
                   "Move me to seat 3A please, my booking is ABC123.")

    realizer = NativeRealizer(ScriptedClient(tester, "scripted/tester"), seed=5)
    cand = asyncio.run(realizer.propose(inputs(), []))
    assert cand.text == "Move me to seat 3A please, my booking is ABC123." and cand.model_calls == 2
    assert seen[0] != seen[1]


def test_a_reply_off_task_twice_is_an_attempt_judged_without_an_execution():
    def never_executed(*_):
        raise AssertionError("an off-task request was executed")

    realizer = NativeRealizer(ScriptedClient(lambda request: say("What a lovely day it is today."),
                                             "scripted/tester"), seed=0)
    loop = Refinement.start(None, inputs(), attempts=3)
    step = asyncio.run(loop.propose(realizer, never_executed))
    assert step.scenario is None and step.attempt.model_calls == 2
    assert step.attempt.verdict == "off the objective (no word in common with its agent, tool or need)"
