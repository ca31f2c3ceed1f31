"""Tool specification mismatch, PydanticAI (a `deps_type` holding the plant's press schedule,
tools registered with `@agent.tool` reading it through `RunContext.deps`, `output_type` a
Pydantic model): a record pressing plant's order desk. `press_p` finds the label's master with
`find_master`, then books a pressing run with `book_pressing`.

Seeded: `book_pressing` documents the catalogue number "as printed on the sleeve, like
'HVR-0042'", but still validates it against the old order system's pattern, three letters and
four digits with no hyphen: every catalogue number written as documented is answered 422.
Fixed: the validation accepts the documented form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pydantic import BaseModel, Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

MASTERS = {"MS-7714": {"master": "MS-7714", "catalogue_no": "HVR-0117", "title": "Low Tide Hymns",
                       "sides": 2, "cut": "lacquer, approved"}}


@dataclass
class PressSchedule:
    """The plant's schedule: the next free week on each press."""
    free_week: dict[str, str] = field(default_factory=lambda: {"12-inch": "2026-06-08", "7-inch": "2026-05-18"})
    runs: list[str] = field(default_factory=list)


class PressingReply(BaseModel):
    reply: str = Field(description="What the label is told")
    booked: bool = Field(description="Whether the pressing run is booked")


INSTRUCTIONS = """You are press_p at Harbour Vinyl Pressing.
Find the master with find_master.
Book the pressing run with book_pressing.
If book_pressing fails, say "The press schedule is not answering; we will confirm the run by email."
Report the result of book_pressing."""


def build(catalogue_pattern: str) -> Agent:
    agent = Agent(pydantic_ai_model(), name="press_p", deps_type=PressSchedule, instructions=INSTRUCTIONS,
                  output_type=PressingReply)

    @agent.tool_plain
    def find_master(master: str) -> dict:
        """Look up a lacquer master the plant has cut for a label.

        Args:
            master: The master number on the cutting note, like "MS-1000".
        """
        return MASTERS.get(master, {"status": 404, "detail": f"no master {master}"})

    @agent.tool
    def book_pressing(ctx: RunContext[PressSchedule], catalogue_no: str, copies: int) -> dict:
        """Book a 12-inch pressing run on the next free week of the press.

        Args:
            catalogue_no: The release's catalogue number as printed on the sleeve, like "HVR-0042".
            copies: How many copies to press (300 at least).
        """
        if not re.fullmatch(catalogue_pattern, catalogue_no):
            return {"status": 422, "detail": f"catalogue number {catalogue_no!r} is not valid"}
        if copies < 300:
            return {"status": 409, "detail": "the minimum run is 300 copies"}
        ctx.deps.runs.append(catalogue_no)
        return {"status": 201, "run": f"PR-{3300 + len(ctx.deps.runs)}", "catalogue_no": catalogue_no,
                "copies": copies, "week_of": ctx.deps.free_week["12-inch"]}

    return agent


def seeded():
    return build(r"[A-Z]{3}\d{4}")  # the old order system's catalogue numbers


def fixed():
    return build(r"[A-Z]{3}-\d{4}")
