"""Incorrect verification, OpenAI Agents SDK (a handoff with `input_type` and an `on_handoff`
callback that writes the dispatch slip): a skip hire firm's phone line. `front_desk` hands skip
bookings to `hire_desk`, passing the postcode and skip size as the handoff's input; hire_desk
checks which day the lorry covers the postcode with `check_round` and books with `book_skip`,
which answers with a dataclass whose status is BOOKED with a docket number, or REFUSED when a
skip on the public road needs a council permit that cannot be had by the day asked for.

Seeded: hire_desk's instructions date from before the council's permit rule and tell it to
tell the customer the skip is booked as soon as book_skip has answered. Fixed: a sentence first
answers a REFUSED status with the reason book_skip gives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from agents import Agent, RunContextWrapper, function_tool, handoff
from pydantic import BaseModel, Field

from .models import model_string

ROUNDS = {"BS3": "tuesdays and saturdays", "BS4": "mondays", "BS5": "thursdays"}
PERMIT_DAYS = 10  # the council wants ten days' notice for a skip on the highway
TODAY = date(2026, 4, 27)
DOCKETS: list[str] = []
SLIPS: list[dict] = []


@dataclass
class SkipOutcome:
    status: str
    docket: str | None = None
    notes: list[str] = field(default_factory=list)


@function_tool
def check_round(postcode: str) -> dict:
    """Which days the lorry covers a postcode district.

    Args:
        postcode: The full postcode, e.g. "BS5 9QT".
    """
    district = postcode.split()[0].upper()
    return {"district": district, "lorry": {"days": ROUNDS.get(district, "ring the yard"), "driver": "Kev"}}


@function_tool
def book_skip(postcode: str, size: Literal["mini", "midi", "builders"], drop_day: str,
              placement: Literal["road", "driveway"]) -> SkipOutcome:
    """Book a skip drop.

    Args:
        postcode: The full postcode, e.g. "BS5 9QT".
        size: mini (2 yd), midi (4 yd) or builders (6 yd).
        drop_day: The day the skip is dropped, e.g. "2026-01-31".
        placement: Where it stands: on the road (needs a council permit) or a driveway.
    """
    day = date.fromisoformat(drop_day)
    if placement == "road" and (day - TODAY).days < PERMIT_DAYS:
        return SkipOutcome("REFUSED", notes=[f"highway permit needs {PERMIT_DAYS} days' notice",
                                             f"earliest road drop {date.fromordinal(TODAY.toordinal() + PERMIT_DAYS)}"])
    DOCKETS.append(drop_day)
    return SkipOutcome("BOOKED", f"SK-{4410 + len(DOCKETS)}", [f"{size} skip, 14 days hire"])


class SkipRequest(BaseModel):
    postcode: str = Field(description='Where the skip goes, e.g. "BS5 9QT"')
    size: Literal["mini", "midi", "builders"]


def write_slip(ctx: RunContextWrapper, request: SkipRequest) -> None:
    """The dispatch slip the yard prints for every booking that reaches the hire desk."""
    SLIPS.append(request.model_dump())


HIRE = """You are the hire desk at Hollis Skip Hire.
Check which days the lorry covers the postcode with check_round.
Book the skip with book_skip.
{refused}Tell the customer the skip is booked."""

REFUSED = "If book_skip says REFUSED, explain why the skip could not be booked.\n"


def build(refused: str) -> Agent:
    hire_desk = Agent(name="hire_desk", model=model_string(), tools=[check_round, book_skip],
                      instructions=HIRE.format(refused=refused))
    return Agent(name="front_desk", model=model_string(),
                 handoffs=[handoff(hire_desk, on_handoff=write_slip, input_type=SkipRequest)],
                 instructions=("You answer the phone at Hollis Skip Hire, Bristol.\n"
                               "Hand over to hire_desk for any skip booking or delivery."))


def seeded():
    return build("")


def fixed():
    return build(REFUSED)
