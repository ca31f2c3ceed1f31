"""Misrouted request, AutoGen AgentChat (`SelectorGroupChat` whose `selector_func` routes the
first turn by keywords, `reflect_on_tool_use`, `TextMentionTermination | MaxMessageTermination`):
a surf school on the Landes coast. `cours_c` books surf lessons with `book_lesson`;
`location_r` quotes board and wetsuit hire with `quote_rental`.

Seeded: the selector's keyword list was written for the English booking page (lesson, class,
course, coaching): a French family asking for "un cours de surf" matches none and falls through
to the hire desk, which can only quote boards; cours_c never hears of it. Fixed: the list carries
the words the school's French and Spanish customers use too.
"""

from __future__ import annotations

from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import SelectorGroupChat

from .models import agentchat_client

SLOTS = {"2026-08-09": {"beginner": 6, "improver": 2}}
LESSONS: list[str] = []

ENGLISH = ("lesson", "class", "course", "coaching")
LOCAL = ENGLISH + ("cours", "leçon", "lecon", "stage", "clase", "curso")


def book_lesson(level: Annotated[Literal["beginner", "improver", "intermediate"], "The surfers' level"],
                day: Annotated[str, 'The day of the lesson, e.g. "2026-01-31"'],
                people: Annotated[int, "How many surfers"]) -> dict:
    """Book a two-hour group surf lesson (board and wetsuit included)."""
    left = SLOTS.get(day, {}).get(level, 0)
    if left < people:
        return {"result": "NO_PLACES", "left": left}
    SLOTS[day][level] = left - people
    LESSONS.append(day)
    return {"result": "OK", "lesson": f"SU-{880 + len(LESSONS)}", "meet": "poste de secours nord, 09:45"}


def quote_rental(item: Annotated[Literal["board", "wetsuit", "board and wetsuit"], "What to hire"],
                 days: Annotated[int, "For how many days"]) -> str:
    """Price board and wetsuit hire."""
    per_day = {"board": 15, "wetsuit": 8, "board and wetsuit": 20}[item]
    return f"{item}: {per_day * days},00 EUR for {days} day(s), deposit 150 EUR"


def build(keywords: tuple[str, ...]) -> SelectorGroupChat:
    client = agentchat_client()
    cours_c = AssistantAgent(
        "cours_c", model_client=client, tools=[book_lesson], reflect_on_tool_use=True,
        description="Books surf lessons.",
        system_message="You book lessons at École de Surf Les Estagnots.\n"
                       "Book the lesson with book_lesson.\n"
                       "If book_lesson says NO_PLACES, explain that the lesson is full and offer another day.\n"
                       'End your reply with "TERMINATE".')
    location_r = AssistantAgent(
        "location_r", model_client=client, tools=[quote_rental], reflect_on_tool_use=True,
        description="Quotes board and wetsuit hire.",
        system_message="You run the hire shop at École de Surf Les Estagnots.\n"
                       "Quote the hire with quote_rental.\n"
                       'End your reply with "TERMINATE".')

    def by_keyword(messages) -> str | None:
        """The first turn goes to the lessons desk when the request names a lesson, else to hire."""
        if len(messages) > 1:
            return None
        text = messages[0].to_text().lower()
        return "cours_c" if any(k in text for k in keywords) else "location_r"

    return SelectorGroupChat([cours_c, location_r], model_client=client, selector_func=by_keyword,
                             termination_condition=TextMentionTermination("TERMINATE") | MaxMessageTermination(6))


def seeded():
    return build(ENGLISH)


def fixed():
    return build(LOCAL)
