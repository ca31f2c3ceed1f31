"""Incorrect verification, OpenAI Agents SDK (a `handoff()` with a tool description of its own, the
receiving agent answering with a Pydantic `output_type`): a harbour-side hotel's front desk.
`front_f` takes guests' messages and hands late-checkout requests to `rooms_r`, the rooms desk,
who asks the property system with `extend_checkout`. The system answers a dict whose `status` is
"approved" or "declined" (a room already let to an arriving guest cannot be kept).

Seeded: rooms_r's instructions were written when late checkouts were granted on request: they go
straight from the call to "the checkout ... has been moved to {new_time}", whatever the system
said. Fixed: a line first reports a declined request with the system's reason.
"""

from __future__ import annotations

from agents import Agent, function_tool, handoff
from pydantic import BaseModel

from .models import model_string

# rooms let again on the day: a late checkout there would leave the arriving guest without a room
LET_AGAIN = {("214", "2026-05-16"), ("108", "2026-05-17")}
EXTENDED: dict[tuple[str, str], str] = {}


@function_tool
def extend_checkout(booking_ref: str, stay_date: str, new_time: str) -> dict:
    """Ask the property system to move a room's checkout later on the guest's last day.

    Args:
        booking_ref: The stay's booking reference, like "HB-40217".
        stay_date: The day of departure, like "2026-01-31".
        new_time: The checkout time asked for, 24-hour clock, like "13:00".
    """
    room = {"HB-40217": "214", "HB-40388": "311"}.get(booking_ref.upper(), "unknown")
    if room == "unknown":
        return {"status": "declined", "reason": f"no stay under {booking_ref}"}
    if (room, stay_date) in LET_AGAIN:
        return {"status": "declined", "room": room,
                "reason": f"room {room} is let to an arriving guest from 12:00 on {stay_date}"}
    EXTENDED[(room, stay_date)] = new_time
    return {"status": "approved", "room": room, "new_time": new_time, "charge": "no charge before 14:00"}


class RoomsReply(BaseModel):
    """What the rooms desk tells the guest, and whether the later checkout stands."""

    message: str
    late_checkout: bool


ROOMS = """You are rooms_r, the rooms desk of the Harbour Light Hotel, Whitby.
{declined}Extend the checkout with extend_checkout.
Reply "Per the rooms system, the checkout for room {{room}} has been moved to {{new_time}}."
"""

DECLINED = ("If extend_checkout answers declined, say \"The late checkout was declined by the rooms system: "
            "'{reason}'. Checkout remains at 11:00; the luggage room can hold bags until evening.\"\n")

FRONT = """You are front_f at the front desk of the Harbour Light Hotel, Whitby.
Hand anything about checkout times or late departures to rooms_r.
Say "The message has been received by the front desk and will be answered shortly."
"""


def build(declined: str) -> Agent:
    rooms_r = Agent(name="rooms_r", model=model_string(), tools=[extend_checkout], output_type=RoomsReply,
                    instructions=ROOMS.format(declined=declined))
    to_rooms = handoff(rooms_r, tool_description_override="Pass a checkout or late-departure request to the rooms desk.")
    return Agent(name="front_f", model=model_string(), handoffs=[to_rooms], instructions=FRONT)


def seeded():
    return build("")


def fixed():
    return build(DECLINED)
