"""Information loss at a hand-over, OpenAI Agents SDK: a driving school's office. `reception`
finds the caller's learner record from their mobile number with `find_learner`, then hands off
to `diary`, who books lessons with `book_lesson` and needs the learner number the record holds.
Learners never know their own number; it lives only in `find_learner`'s answer.

Seeded: the hand-off to `diary` was given the SDK's `handoff_filters.remove_all_tools` input
filter (added to keep the diary agent's context short), which strips every tool call and tool
answer from the history it passes on, the record look-up with them: `diary` gets the learner's
chat without the number and has to ask for one the learner does not have. Fixed: the hand-off
passes the history as it is.
"""

from __future__ import annotations

from agents import Agent, function_tool, handoff
from agents.extensions import handoff_filters

from .models import model_string

LEARNERS = {
    "07700 900417": {"learner_id": "LD-30417", "name": "Callum Reid", "instructor": "Bev Okoro", "test_date": "2026-04-09"},
    "07700 900112": {"learner_id": "LD-29981", "name": "Ana Petrova", "instructor": "Sam Hale", "test_date": None},
}
BOOKED: dict[str, list[str]] = {}


@function_tool
def find_learner(mobile: str) -> dict:
    """Find a learner's record from the mobile number they gave when they signed up.

    Args:
        mobile: The learner's mobile number, e.g. "07700 900000".
    """
    record = LEARNERS.get(mobile)
    if record is None:
        return {"matches": 0, "record": None}
    return {"matches": 1, "record": record}


@function_tool
def book_lesson(learner_id: str, slot: str) -> dict:
    """Book a 90-minute lesson with the learner's own instructor.

    Args:
        learner_id: The learner number from their record, e.g. "LD-10000".
        slot: The day and start time, e.g. "Mon 09:00".
    """
    learner = next((r for r in LEARNERS.values() if r["learner_id"] == learner_id), None)
    if learner is None:
        return {"result": {"booked": False, "why": f"no learner {learner_id}"}}
    BOOKED.setdefault(slot, []).append(learner_id)
    return {"result": {"booked": True, "slot": slot, "instructor": learner["instructor"], "pickup": "home address"}}


def build(input_filter) -> Agent:
    diary = Agent(name="diary", model=model_string(), tools=[book_lesson],
                  handoff_description="Books and moves driving lessons.",
                  instructions=(
                      "You keep the lesson diary at Clearway School of Motoring.\n"
                      "1. Book the lesson with `book_lesson`.\n"
                      "2. Should `book_lesson` come back with false, explain why and offer to find another slot.\n"
                      "3. Confirm the lesson and remind the learner to bring their provisional licence."))
    return Agent(name="reception", model=model_string(), tools=[find_learner],
                 handoffs=[handoff(diary, input_filter=input_filter)],
                 instructions=(
                     "You answer the phone and chat line at Clearway School of Motoring.\n"
                     "1. Find the caller's learner record with `find_learner`.\n"
                     "2. Pass lesson bookings to `diary` when the message is about a lesson, booking or practice.\n"
                     '3. Otherwise reply "Our office is open 9-5 on weekdays if you need anything else."'))


def seeded():
    return build(handoff_filters.remove_all_tools)


def fixed():
    return build(None)
