"""Incorrect verification, OpenAI Agents SDK (instructions written by a function of the run
context, a hand-over to an agent answering with a Pydantic `output_type`): a railway station's
secure bike lockers. `station_s` takes commuters' messages and hands locker requests to
`lockers_l`, who rents one with `rent_locker`. The locker system answers "rented" with a locker
number, or "waitlisted" when every locker at the station is let.

Seeded: lockers_l's lines were written when the station had spare lockers: they go from the call
straight to "Locker {locker} is yours from {start_date}", whatever the system said. Fixed: a
line first reports a waitlisted request, with the place on the list.
"""

from __future__ import annotations

from agents import Agent, RunContextWrapper, function_tool
from pydantic import BaseModel

from .models import model_string

FREE = {"Leeds": 0, "York": 6, "Harrogate": 2}  # lockers free at each station this month
RENTED: list[str] = []


@function_tool
def rent_locker(station: str, start_date: str, months: int) -> dict:
    """Rent a secure bike locker at a station, paid monthly (18.00 GBP a month).

    Args:
        station: The station, one of "Leeds", "York", "Harrogate".
        start_date: The first day of the rental, like "2026-01-31".
        months: How many months the locker is wanted for.
    """
    if FREE.get(station.title(), 0) < 1:
        return {"status": "waitlisted", "station": station, "place": 14, "expected": "about 8 weeks"}
    FREE[station.title()] -= 1
    RENTED.append(station)
    return {"status": "rented", "locker": f"{station[:2].upper()}-{40 + len(RENTED)}", "start_date": start_date,
            "total": f"{18 * months:.2f} GBP", "code": "sent by text message"}


class LockerReply(BaseModel):
    """What the locker desk tells the commuter, and whether a locker is theirs."""

    message: str
    locker_rented: bool


WAITLISTED = ("If rent_locker answers waitlisted, say \"Every locker at {station} is let, so you have been waitlisted: "
              "number {place} on the list, {expected}. Nothing has been charged.\"\n")


def lockers_lines(waitlisted: str):
    def lines(context: RunContextWrapper, agent: Agent) -> str:
        return ("You are lockers_l, the bike locker desk of West Yorkshire Stations.\n"
                "Rent the locker with rent_locker.\n"
                "If rent_locker fails, say \"The locker system could not be reached just now; nothing has been "
                "rented or charged, and we will email you once it is back.\"\n"
                f"{waitlisted}"
                "Reply \"Locker {locker} is yours from {start_date}: {total} in all, the door code is {code}.\"\n")
    return lines


STATION = """You are station_s at the West Yorkshire Stations help point.
Hand anything about bike lockers or cycle parking to lockers_l.
Say "Thanks, a colleague will answer shortly."
"""


def build(waitlisted: str) -> Agent:
    lockers_l = Agent(name="lockers_l", model=model_string(), tools=[rent_locker], output_type=LockerReply,
                      instructions=lockers_lines(waitlisted))
    return Agent(name="station_s", model=model_string(), handoffs=[lockers_l], instructions=STATION)


def seeded():
    return build("")


def fixed():
    return build(WAITLISTED)
