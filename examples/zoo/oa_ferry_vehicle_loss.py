"""Information loss, OpenAI Agents SDK handoff: a ferry company's booking office on the west
coast. Passengers write to `q1`, which finds their booking from the e-mail address it was made
with (`find_booking`: JSON text, as the reservations system's API answers) and hands vehicle
changes to the `Vehicle Deck` agent, which re-tickets the car deck with `change_vehicle`. People
who write in have often lost the confirmation, so the booking reference is usually known only
from q1's look-up.

Seeded: the handoff carries `handoff_filters.remove_all_tools`, the SDK's filter for giving a
specialist a tidy history. It strips q1's tool call and its answer with it, and the answer is
the only place the booking reference was ever written: Vehicle Deck has to ask the passenger for
a reference they do not have. Fixed: the handoff passes the history as it is.
"""

from __future__ import annotations

import json

from agents import Agent, function_tool, handoff
from agents.extensions import handoff_filters

from .models import model_string

BOOKINGS = {
    "moraglindsay@btinternet.com": {"ref": "CM-48213", "sailing": "Oban-Craignure 2026-05-14 07:10",
                                    "vehicle": "car under 5 m", "passengers": 2},
}
CLASSES = {"C1": ("car under 5 m", 0.0), "C2": ("car 5-6 m or car with roof box over 1.85 m", 18.40),
           "V3": ("campervan up to 7 m", 41.90)}


@function_tool
def find_booking(email: str) -> str:
    """Find a booking from the e-mail address it was made with.

    Args:
        email: The passenger's e-mail address, like "someone@example.com".
    """
    found = BOOKINGS.get(email.lower())
    if found is None:
        return json.dumps({"status": "NOT_FOUND", "email": email})
    return json.dumps({"status": "FOUND", "booking": found})


@function_tool
def change_vehicle(booking: str, vehicle_class: str) -> str:
    """Re-ticket a booking's car-deck space for another vehicle class.

    Args:
        booking: The booking reference, like "CM-10000".
        vehicle_class: The fare class of the vehicle now travelling, like "C2".
    """
    if vehicle_class not in CLASSES:
        return f"Fare class {vehicle_class} does not exist; classes are {', '.join(CLASSES)}."
    held = next((b for b in BOOKINGS.values() if b["ref"] == booking), None)
    if held is None:
        return f"No booking {booking} in the reservations system."
    desc, extra = CLASSES[vehicle_class]
    held["vehicle"] = desc
    return (f"{booking} re-ticketed: {desc} on {held['sailing']}. Difference to pay: GBP {extra:.2f}, "
            "taken from the card on file. New boarding card sent by e-mail.")


Q1 = """You answer passengers writing to Hebridean Crossings' booking office.
Call find_booking.
If find_booking raises an error, say "Our reservations system is not answering; please ring the office on 01631 560000."
If find_booking answers NOT_FOUND, say "I can't find a booking under that e-mail address - could you check which address you booked with?"
Hand off to vehicle_deck when the request mentions car, van, campervan, trailer, roof box or vehicle.
Report the result of find_booking."""

DECK = """You look after the car deck.
Call change_vehicle.
If change_vehicle raises an error, say "The car-deck plan is locked for loading; the office will re-ticket you by phone."
Report the result of change_vehicle."""


def build(input_filter) -> Agent:
    deck = Agent(name="Vehicle Deck", model=model_string(), instructions=DECK, tools=[change_vehicle],
                 handoff_description="Changes the vehicle on a booking.")
    return Agent(name="q1", model=model_string(), instructions=Q1, tools=[find_booking],
                 handoffs=[handoff(deck, input_filter=input_filter)])


seeded = build(handoff_filters.remove_all_tools)
fixed = build(None)
