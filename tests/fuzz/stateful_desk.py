"""A one-agent PydanticAI desk whose tool keeps its bookings in module-level data, as small apps
do: a village hall's hire line with one evening slot per day. The first booking of a day takes
the slot; any later one, in the same process, is answered `full`. The desk's instructions handle
no refusal, so a claim after one is the app's own defect when a fresh process shows it."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent

TAKEN: set[str] = set()


def hire_hall(day: Annotated[str, Field(description='The evening to hire the hall, e.g. "2026-02-14"')],
              group: Annotated[str, Field(description="Who is hiring, in the caller's words")]) -> dict:
    """Hire the village hall's main room for an evening."""
    if day in TAKEN:
        return {"state": "full", "day": day}
    TAKEN.add(day)
    return {"state": "hired", "day": day, "keys": "from the shop next door"}


desk = Agent("openai:gpt-4o-mini", name="hall_desk", tools=[hire_hall], instructions=(
    "You take bookings for Little Orton village hall.\n"
    "Hire the hall with hire_hall.\n"
    "Confirm the hire."))
