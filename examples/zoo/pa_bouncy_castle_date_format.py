"""Tool specification mismatch, PydanticAI (`deps` carrying the depot's settings, a tool raising
`ModelRetry`, delegation to a second agent through a tool with the caller's deps and usage): a
bouncy castle hire. `front` answers the parent and asks `yard` through `ask_yard`; yard reserves a
castle with `reserve_castle`, whose documentation asks for the party day the way the hire sheet
writes it, day first ("31/01/2026"). The tool raises `ModelRetry` for what it cannot take, so the
model can correct itself.

The depot's stock and bookings are the run's `deps` (`--context ...:depot`).

Seeded: the tool still reads the day with the date format of the US booking plugin the hire sheet
was imported from, "%m/%d/%Y": the documented "13/06/2026" has no month 13, and the call is sent
back to be retried as if the model had written the day wrongly. Fixed: the tool reads the day as
documented, "%d/%m/%Y".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field
from pydantic_ai import Agent, ModelRetry, RunContext

from .models import pydantic_ai_model


@dataclass
class Depot:
    """What the depot's booking server passes its agents on every run."""
    stock: dict[str, int] = field(default_factory=lambda: {"pirate ship": 1, "princess palace": 2, "jungle slide": 0})
    garden_min_m: dict[str, float] = field(default_factory=lambda: {"pirate ship": 5.5, "princess palace": 4.5,
                                                                    "jungle slide": 7.0})
    booked: list[str] = field(default_factory=list)


US_PLUGIN = "%m/%d/%Y"  # the booking plugin the hire sheet was imported from
HIRE_SHEET = "%d/%m/%Y"

FRONT = ("you answer parents at Bounce Around Castle Hire, Leicester.\n"
         "Use ask_yard for any hire or booking.\n"
         "Pass on what ask_yard said.")

YARD = ("you keep the hire sheet at Bounce Around.\n"
        "Reserve the castle with reserve_castle.\n"
        "If reserve_castle says full, explain that the castle is out that day.\n"
        "Report what reserve_castle said.")


def depot() -> Depot:
    return Depot()


def build(date_format: str) -> Agent:
    yard = Agent(pydantic_ai_model(), name="yard", deps_type=Depot, instructions=YARD)
    front = Agent(pydantic_ai_model(), name="front", deps_type=Depot, instructions=FRONT)

    @yard.tool(retries=2)
    def reserve_castle(
            ctx: RunContext[Depot],
            castle: Literal["pirate ship", "princess palace", "jungle slide"],
            party_day: Annotated[str, Field(description='The party day as the hire sheet writes it, day first, e.g. "31/01/2026"')],
            garden_m: Annotated[float, Field(description='The length of the garden in metres, e.g. "6"')]) -> dict:
        """Reserve a bouncy castle for a party; we deliver at 9 and collect at 6."""
        try:
            day = datetime.strptime(party_day, date_format).date()
        except ValueError:
            raise ModelRetry(f"party_day {party_day!r} is not a date the hire sheet takes") from None
        if garden_m < ctx.deps.garden_min_m[castle]:
            raise ModelRetry(f"the {castle} needs {ctx.deps.garden_min_m[castle]} m of garden; offer a smaller one")
        if ctx.deps.stock[castle] < 1:
            return {"status": "full", "castle": castle, "day": day.isoformat()}
        ctx.deps.stock[castle] -= 1
        ctx.deps.booked.append(castle)
        return {"status": "reserved", "ref": f"BA-{6200 + len(ctx.deps.booked)}",
                "castle": castle, "day": day.isoformat(), "delivery": {"from": "09:00", "collect": "18:00"}}

    @front.tool
    async def ask_yard(ctx: RunContext[Depot], request: str) -> str:
        """Ask the yard to reserve a castle: pass the parent's message as they wrote it."""
        result = await yard.run(request, deps=ctx.deps, usage=ctx.usage)
        return result.output

    return front


def seeded():
    return build(US_PLUGIN)


def fixed():
    return build(HIRE_SHEET)
