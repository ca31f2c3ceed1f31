"""Tool specification mismatch, PydanticAI (agent delegation: the front desk's tool runs the
coachmen's agent with `usage=ctx.usage`, so the whole exchange counts against one usage limit):
horse-drawn carriage rides round a château park. `accueil` passes each ride request to
`cocher_m`, whose `reserve_ride` documents the ride date the way the printed timetable writes it,
day first ("31/01/2026").

Seeded: reserve_ride parses the date month first (`%m/%d/%Y`), as the US booking engine it wraps
does, so any documented date after the twelfth of a month comes back as a 400 and no carriage is
booked. Fixed: it parses the documented day-first date.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

CARRIAGES = {("château", date(2026, 6, 14)): 2}
RIDES: list[str] = []

ACCUEIL = ("You answer visitors of the Attelages du Parc, carriage rides at the château park.\n"
           "Pass every ride request to the coachmen with ask_coachmen.")

COCHER = ("You are cocher_m, who keeps the coachmen's ride book.\n"
          "Reserve the ride with reserve_ride.\n"
          "If reserve_ride says COMPLET, explain that no carriage is free that day and offer another.")


def build(date_format: str) -> Agent:
    cocher_m = Agent(pydantic_ai_model(), name="cocher_m", instructions=COCHER)

    @cocher_m.tool_plain
    def reserve_ride(
            ride: Literal["château", "forêt", "hippodrome"],
            ride_date: Annotated[str, Field(description='The date as the timetable prints it, e.g. "31/01/2026"')],
            passengers: Annotated[int, Field(description="How many passengers (a carriage seats 6)")]) -> dict:
        """Reserve a carriage for a one-hour ride (champagne option on the château ride)."""
        try:
            day = datetime.strptime(ride_date, date_format).date()
        except ValueError:
            return {"code": 400, "error": {"field": "ride_date", "value": ride_date, "message": "date invalide"}}
        if CARRIAGES.get((ride, day), 0) < 1 or passengers > 6:
            return {"code": 409, "error": {"message": "COMPLET"}}
        CARRIAGES[(ride, day)] -= 1
        RIDES.append(ride)
        return {"code": 201, "ride": {"ref": f"CA-{640 + len(RIDES)}", "depart": "15:00, grille d'honneur"}}

    accueil = Agent(pydantic_ai_model(), name="accueil", instructions=ACCUEIL)

    @accueil.tool
    async def ask_coachmen(ctx: RunContext, details: str) -> str:
        """Pass a ride request to the coachmen, in the visitor's own words."""
        result = await cocher_m.run(details, usage=ctx.usage)
        return result.output

    return accueil


def seeded():
    return build("%m/%d/%Y")


def fixed():
    return build("%d/%m/%Y")
