"""Tool specification mismatch, PydanticAI (the studio's details given to the tools as `deps`, a
dataclass read through `RunContext`): a henna artist's party bookings. `studio_h` books a henna
party at the customer's home with `book_party`.

Seeded: `book_party` documents the start time "as the customer says it, like '2:30 pm'", but reads
it with `%H:%M`, the booking form's old 24-hour field: every time written the documented way
answers 422.
Fixed: it reads the documented 12-hour clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model


@dataclass
class Studio:
    """What the studio's booking page passes its agent on every run."""
    artist: str = "Priya"
    deposit: str = "£30.00"


INSTRUCTIONS = """You are studio_h at Saffron Hands Henna.
Book the party with book_party.
If book_party fails, write "Our booking diary is not answering; nothing is booked yet, and we will ring you."
Report what book_party answered."""


def build(time_format: str) -> Agent:
    agent = Agent(pydantic_ai_model(), name="studio_h", deps_type=Studio, instructions=INSTRUCTIONS)

    @agent.tool
    def book_party(ctx: RunContext[Studio], day: str, start_time: str, guests: int) -> dict:
        """Book a henna party at the customer's home (bridal or guests' designs).

        Args:
            day: The party's day, like "2026-01-31".
            start_time: When the artist should arrive, as the customer says it, like "2:30 pm".
            guests: How many guests want henna.
        """
        try:
            start = datetime.strptime(start_time.strip(), time_format).time()
        except ValueError as e:
            return {"status": 422, "detail": str(e)}
        return {"status": 201, "party": f"HP-{start.hour}{start.minute:02d}{guests}", "day": day,
                "arrives": start.strftime("%H:%M"), "artist": ctx.deps.artist, "deposit": ctx.deps.deposit}

    return agent


def seeded():
    return build("%H:%M")


def fixed():
    return build("%I:%M %p")
