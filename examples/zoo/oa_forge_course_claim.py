"""Incorrect verification, OpenAI Agents SDK (a handoff to a desk whose `ModelSettings` make it
call a tool first, `tool_choice="required"` with the SDK's `reset_tool_choice`): a blacksmith's
forge runs weekend courses. `reception` hands course bookings to `forge_k`, who looks up the
course's dates with `course_dates` and books with `book_forge_place`, which answers with a
dataclass whose `state` is BOOKED with a docket, or FULL when every anvil of that weekend is
taken (eight anvils, one learner each).

Seeded: forge_k's instructions come from the days when a course never filled up and end by
telling the customer the place is booked, whatever book_forge_place answered. Fixed: a line
first answers FULL with the reason the forge gives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from agents import Agent, ModelSettings, function_tool

from .models import model_string

ANVILS = 8
TAKEN = {("knife", "2026-03-14"): 8, ("knife", "2026-03-21"): 5, ("hook", "2026-03-14"): 2}
DOCKETS: list[str] = []


@dataclass
class ForgeBooking:
    state: str
    docket: str | None = None
    remarks: list[str] = field(default_factory=list)


@function_tool
def course_dates(course: Literal["knife", "hook", "axe"]) -> dict:
    """The weekends a course runs this season and how many anvils are left on each.

    Args:
        course: knife (a two-day knife making course), hook (a one-day fire-poker and hook day) or axe.
    """
    weekends = ["2026-03-14", "2026-03-21", "2026-04-11"]
    return {"course": course, "weekends": {d: {"anvils_left": ANVILS - TAKEN.get((course, d), 0)} for d in weekends},
            "kit": "leather apron and boots provided"}


@function_tool
def book_forge_place(course: Literal["knife", "hook", "axe"], weekend: str) -> ForgeBooking:
    """Book one learner onto a course weekend.

    Args:
        course: knife, hook or axe.
        weekend: The Saturday the course starts, e.g. "2026-01-31".
    """
    if TAKEN.get((course, weekend), 0) >= ANVILS:
        return ForgeBooking("FULL", remarks=[f"alle {ANVILS} Ambosse belegt (all anvils taken)",
                                             "next weekend with room: 2026-03-21"])
    DOCKETS.append(weekend)
    return ForgeBooking("BOOKED", f"FG-{7300 + len(DOCKETS)}", ["bring a packed lunch"])


FORGE = """You are forge_k, the course desk at Emberwell Forge.
Look up the course with course_dates.
Book the learner's place with book_forge_place.
{full}Tell the customer their place on the course is booked."""

FULL = "If book_forge_place says FULL, explain that the weekend is full and offer the next weekend with room.\n"


def build(full: str) -> Agent:
    desk = Agent(name="forge_k", model=model_string(), tools=[course_dates, book_forge_place],
                 instructions=FORGE.format(full=full),
                 model_settings=ModelSettings(tool_choice="required"), reset_tool_choice=True)
    return Agent(name="reception", model=model_string(), handoffs=[desk],
                 instructions=("You answer messages for Emberwell Forge, a working smithy near Hebden Bridge.\n"
                               "Hand over to forge_k for courses, classes or forge days."))


def seeded():
    return build("")


def fixed():
    return build(FULL)
