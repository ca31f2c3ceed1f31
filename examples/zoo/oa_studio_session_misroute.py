"""Misrouted request, OpenAI Agents SDK (triage by hand-off descriptions): a recording studio's
booking chat. `front_of_house` hands each enquiry to the colleague whose hand-off description
fits it: `tape_op`, who books the live room for tracking and rehearsals with `book_live_room`,
or `mx_9`, the mix engineer, who books mixing and mastering time with `book_mix`.

Seeded: the desks' blurbs are kept in one list and given to the agents in a loop, and mx_9 was
put first in the list of agents when he joined; the blurbs were not reordered, so the live-room
blurb describes mx_9 and a tracking request goes to him: he cannot book the room. Fixed: each
blurb goes with its own desk.
"""

from __future__ import annotations

from typing import Annotated

from agents import Agent, function_tool
from pydantic import Field

from .models import model_string

ROOM_DIARY = {"2026-04-18": 10}  # hours free in the live room
MIX_DIARY = {"2026-04-18": 4}


@function_tool
def book_live_room(day: Annotated[str, Field(description='The session day, e.g. "31 Jan 2026"')],
                   hours: Annotated[int, Field(description="Hours of live-room time")],
                   contact_name: Annotated[str, Field(description="Who the booking is under")]) -> dict:
    """Book the live room (with the house backline) for a tracking or rehearsal session."""
    from datetime import datetime

    iso = datetime.strptime(day, "%d %b %Y").date().isoformat()
    free = ROOM_DIARY.get(iso, 0)
    if hours > free:
        return {"status": {"code": "NO_ROOM", "free_hours": free}, "day": day}
    ROOM_DIARY[iso] = free - hours
    return {"status": {"code": "CONFIRMED"}, "room": "Live Room A", "day": day, "from": "11:00",
            "deposit": "£90", "booking": f"HH-{4410 + hours}"}


@function_tool
def book_mix(day: Annotated[str, Field(description='The day, e.g. "31 Jan 2026"')],
             tracks: Annotated[int, Field(description="How many songs to mix or master")]) -> str:
    """Book mixing or mastering time with the house engineer."""
    return f"mix desk held for {tracks} track(s) on {day}"


TAPE_OP = Agent(name="tape_op", model=model_string(), tools=[book_live_room], instructions=(
    "Live room bookings, Halfway House Studios.\n"
    "- For tracking, recording or rehearsal sessions, book with book_live_room.\n"
    '- If book_live_room comes back NO_ROOM, say "the live room\'s full that day, want another date?"\n'
    "- Confirm the session to the band."))
MX_9 = Agent(name="mx_9", model=model_string(), tools=[book_mix], instructions=(
    "Mix engineer, Halfway House Studios.\n"
    "- For mixing or mastering, book with book_mix.\n"
    "- Confirm the mix slot to the artist."))

BLURBS = [  # one per desk, in the order of the desks below
    "Live room: tracking, recording and rehearsal sessions for bands, with backline and drum kit.",
    "Mixing and mastering: stems, mixdowns, masters for streaming or vinyl.",
]


def build(desks: list[Agent]) -> Agent:
    described = [desk.clone(handoff_description=blurb) for desk, blurb in zip(desks, BLURBS)]
    return Agent(name="front_of_house", model=model_string(), handoffs=described, instructions=(
        "Front of house, Halfway House Studios. Friendly, short replies.\n"
        "- Hand each enquiry to the colleague whose description fits it."))


seeded = build([MX_9, TAPE_OP])
fixed = build([TAPE_OP, MX_9])
