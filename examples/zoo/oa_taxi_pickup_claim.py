"""Incorrect verification, OpenAI Agents SDK (a switchboard agent and a hand-off): a taxi dispatch
line answered by a voice assistant. `line_1` takes the call and puts bookings through to `d7`,
the dispatcher, who books a pickup with `book_pickup`. The dispatch system answers with a
`Dispatch` dataclass whose `job` is a nested dict: its `state` is ASSIGNED, with a cab and a
reference, or UNCOVERED when no driver of the class asked for is on shift at that hour.

Seeded: d7's lines were written when the old dispatch system queued every job and a driver was
always found later, so they go from `book_pickup` straight to confirming the pickup, whatever
the job's state. Fixed: a line first answers an UNCOVERED job with the reason the system gives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from agents import Agent, function_tool

from .models import model_string

ON_SHIFT = {"saloon": range(5, 24), "estate": range(6, 22), "wheelchair": range(7, 19)}
JOBS: list[str] = []


@dataclass
class Dispatch:
    http: int
    job: dict = field(default_factory=dict)


@function_tool
def book_pickup(pickup_postcode: str, pickup_time: str, day: str,
                vehicle: Literal["saloon", "estate", "wheelchair"]) -> Dispatch:
    """Book a cab to collect a passenger.

    Args:
        pickup_postcode: Where the passenger is collected, a postcode, e.g. "LS6 2QD".
        pickup_time: The pickup time on a 24-hour clock, e.g. "07:45".
        day: The day of the pickup, e.g. "2026-01-31".
        vehicle: The kind of car the passenger needs.
    """
    hour = int(pickup_time.split(":")[0])
    if hour not in ON_SHIFT[vehicle]:
        return Dispatch(200, {"state": "UNCOVERED", "vehicle": vehicle, "at": f"{day} {pickup_time}",
                              "note": f"kein {vehicle} Fahrer im Dienst vor 07:00 - no {vehicle} driver on shift then"})
    JOBS.append(pickup_postcode)
    return Dispatch(201, {"state": "ASSIGNED", "cab": "car 41, grey Skoda", "ref": f"KL{990 + len(JOBS)}",
                          "at": f"{day} {pickup_time}", "from": pickup_postcode})


D7 = """You are the dispatcher on the Aire Valley Cars phone line. Speak plainly, the caller hears you.
Book the pickup with book_pickup.
{uncovered}Confirm the pickup to the caller."""

UNCOVERED = ("If book_pickup says UNCOVERED, tell the caller no car can be sent at that time and give them the "
             "reason the system gives.\n")


def build(uncovered: str) -> Agent:
    d7 = Agent(name="d7", model=model_string(), tools=[book_pickup],
               handoff_description="Dispatcher: books cabs, airport runs and school runs.",
               instructions=D7.format(uncovered=uncovered))
    return Agent(name="line_1", model=model_string(), handoffs=[d7], instructions=(
        "You answer the Aire Valley Cars phone line.\n"
        "Put the caller through to d7 for a cab, taxi, pickup, booking or airport run.\n"
        'Otherwise say "For lost property please ring the office after nine."'))


def seeded():
    return build("")


def fixed():
    return build(UNCOVERED)
