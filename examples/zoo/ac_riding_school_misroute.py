"""Misrouted request, AutoGen AgentChat `SelectorGroupChat` with a `candidate_func`: a riding
school's stable-yard chat. Two desks share the team: `lessons_k` books riding lessons in the
instructors' diary (`book_lesson`), `livery_y` runs the livery stalls for owners who keep their
own horse at the yard (`stall_space`). The team's `candidate_func` narrows the speakers by the
client's message, so the selector model is only asked when more than one desk fits.

Seeded: the candidate table was written as a dict of desks to keywords, livery first, and
livery's words include "horse" and "pony": a parent asking for a first lesson for a pony-mad
child goes to livery_y alone, who can only look at stalls, and lessons_k never speaks. Fixed:
lesson words are checked first, and livery's words are the livery trade's own (stall, livery,
grazing, my own horse).
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination
from autogen_agentchat.teams import SelectorGroupChat

from .models import agentchat_client

DIARY = {"2026-05-09": ["09:00 Becca (arena 2)", "11:30 Tom (arena 1)"], "2026-05-10": []}
STALLS = {"full": 14, "free": 0, "waiting_list": 3}


def book_lesson(rider_age: Annotated[int, "How many years old the rider is"],
                lesson_date: Annotated[str, 'The day wanted, e.g. "2026-01-31"'],
                level: Annotated[str, 'The rider\'s level, e.g. "beginner"']) -> str:
    """Book a 30-minute riding lesson with an instructor."""
    free = DIARY.get(lesson_date, [])
    if not free:
        return f"({lesson_date}) ausgebucht - no instructor free that day"
    slot = free.pop(0)
    pony = "Biscuit" if rider_age < 10 else "Jasper"
    return f"Booked {slot} on {lesson_date}, pony {pony}, {level}; hat and boots can be borrowed. Ref RL-{lesson_date[5:7]}{lesson_date[8:]}"


def stall_space(from_date: Annotated[str, 'The day the horse would arrive, e.g. "2026-01-31"']) -> dict:
    """How many livery stalls are free for an owner's horse from a date."""
    return {"from": from_date, "stalls": STALLS, "note": "grass livery only until the top field reopens"}


ROUTES = {
    "seeded": {"livery_y": ("livery", "stall", "horse", "pony", "grazing"),
               "lessons_k": ("lesson", "ride", "riding", "instructor")},
    "fixed": {"lessons_k": ("lesson", "riding", "instructor", "first ride"),
              "livery_y": ("livery", "stall", "grazing", "my own horse", "our own horse")},
}


def build(routes: dict) -> SelectorGroupChat:
    client = agentchat_client()
    lessons_k = AssistantAgent(
        "lessons_k", model_client=client, tools=[book_lesson], max_tool_iterations=3,
        description="Books riding lessons with the yard's instructors.",
        system_message="You keep the instructors' diary at Larkfield Riding School.\n"
                       "Book the lesson with book_lesson.\n"
                       'If book_lesson raises an error, say "The diary is offline; we will phone you to book."\n'
                       "In your summary, mark a step ✅ only when its result says it went through; otherwise ❌ "
                       "with the reason.")
    livery_y = AssistantAgent(
        "livery_y", model_client=client, tools=[stall_space], max_tool_iterations=3,
        description="Runs the livery stalls for owners who keep their own horse at the yard.",
        system_message="You run the livery yard at Larkfield Riding School.\n"
                       "Look up free stalls with stall_space.\n"
                       'If stall_space raises an error, say "The yard book is not to hand; we will call you."\n'
                       "In your summary, mark a step ✅ only when its result says it went through; otherwise ❌ "
                       "with the reason.")

    def candidates(messages) -> list[str]:
        """The desks whose words the client's message uses, in the table's order."""
        asked = next((m.to_text().lower() for m in messages if m.source == "user"), "")
        for desk, words in routes.items():
            if any(w in asked for w in words):
                return [desk]
        return ["lessons_k", "livery_y"]

    return SelectorGroupChat([lessons_k, livery_y], model_client=client, candidate_func=candidates,
                             termination_condition=SourceMatchTermination(["lessons_k", "livery_y"])
                             | MaxMessageTermination(12))


def seeded():
    return build(ROUTES["seeded"])


def fixed():
    return build(ROUTES["fixed"])
