"""Misrouted request, Google ADK (an LLM agent transferring to its sub-agents): a hostel's guest
chat. `reception` reads each message and transfers it to `beds`, who changes bookings with
`move_booking`, or to `nightdesk`, who sets up late arrivals with `leave_key_code`. reception's
routing lines are written from each desk's `description`, so the prompt follows the team.

Seeded: beds was cloned from nightdesk when the hostel split the desk in two and kept
nightdesk's description ("late arrivals, door codes or luggage after 22:00"): its routing line
comes first, so a late arrival goes to beds, who cannot leave a door code. Fixed: beds
describes its own work.
"""

from __future__ import annotations

from typing import Annotated

from google.adk.agents import LlmAgent
from pydantic import Field

from .models import adk_model

Booking = Annotated[str, Field(description='The booking reference, e.g. "HB-10000"')]
CODES = {"HB-66120": "4471#"}


def move_booking(booking: Booking, new_date: Annotated[str, Field(description='The new arrival date, e.g. "2026-01-31"')]) -> dict:
    """Move a booking to another arrival date, same beds and nights."""
    return {"booking": booking, "moved": {"arrival": new_date, "state": "OK"}}


def leave_key_code(booking: Booking, arrival: Annotated[str, Field(description='The expected arrival time, e.g. "23:45"')]) -> tuple:
    """Leave a door code and the dorm's key safe for guests arriving after the desk closes."""
    code = CODES.get(booking, "2290#")
    return ("CODE_SET", f"side door {code}, keys in safe 3, expected {arrival}")


NIGHT_WORK = "late arrivals, door codes or luggage after 22:00"
BED_WORK = "date changes, extra nights or room swaps"


def build(beds_description: str) -> LlmAgent:
    beds = LlmAgent(
        name="beds", model=adk_model(), description=beds_description, tools=[move_booking],
        instruction="You handle bed bookings at the Old Mill Hostel, Ullapool.\n"
                    "- Move the booking with `move_booking` (only for date changes, moving dates or extra nights).\n"
                    "- Confirm the new dates.\n"
                    '- Otherwise reply "I can only change the dates or beds on a booking - is that what you need?"')
    nightdesk = LlmAgent(
        name="nightdesk", model=adk_model(), description=NIGHT_WORK, tools=[leave_key_code],
        instruction="You look after guests who arrive after the desk closes at the Old Mill Hostel.\n"
                    "- Set up the late arrival with `leave_key_code`.\n"
                    "- Confirm the arrangement and tell the guests to keep the noise down in the corridor.")
    desks = [beds, nightdesk]
    routes = "\n".join(f"- Transfer to `{d.name}` when a guest asks about {d.description}." for d in desks)
    return LlmAgent(
        name="reception", model=adk_model(), description="The hostel's guest chat.", sub_agents=desks,
        instruction="You answer guests of the Old Mill Hostel, Ullapool.\n" + routes
                    + '\n- Otherwise reply "Breakfast is 7:30-9:30 in the mill room; anything else, just ask."')


def seeded():
    return build(NIGHT_WORK)


def fixed():
    return build(BED_WORK)
