"""Tool specification mismatch, OpenAI Agents SDK (the SDK's customer-service example: a triage
agent handing off to an FAQ agent and a seat-booking agent, an `AirlineAgentContext` carried
through the run, an `on_handoff` hook that fills the flight in before the seat agent starts).

`update_seat` documents the seat as the passenger sees it on the boarding pass, e.g. "14C". The
seat map it checks against comes from the departure-control system, whose keys are written row,
dash, letter ("14-C"). Seeded: the tool validates the passenger's seat with the DCS pattern, so
every seat written as documented is answered `{"http": 400, ...}` and the seat agent apologises
and asks again. Fixed: the seat is normalised to the DCS key before the look-up.

Run it with its context, as the SDK's example does (`Runner.run(..., context=AirlineAgentContext())`):
`--context examples/zoo/oa_airline_seat_format.py:airline_context`.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from agents import Agent, RunContextWrapper, function_tool, handoff

from .models import model_string


class AirlineAgentContext(BaseModel):
    passenger_name: str | None = None
    confirmation_number: str | None = None
    seat_number: str | None = None
    flight_number: str | None = None


def airline_context() -> AirlineAgentContext:
    return AirlineAgentContext()


# the flight each booking is on, and its free seats as the departure-control system keys them
BOOKINGS = {"KQZ417": ("Mrs A. Okonkwo", "NA 2204"), "JTR902": ("Mr P. Lindqvist", "NA 0817")}
SEAT_MAP = {"NA 2204": {"14-C": "free", "14-D": "free", "22-A": "free", "3-F": "blocked"},
            "NA 0817": {"9-A": "free"}}
DCS_KEY = re.compile(r"(\d{1,2})-([A-K])")


def make_update_seat(normalise: bool):
    @function_tool
    async def update_seat(context: RunContextWrapper[AirlineAgentContext], confirmation_number: str,
                          new_seat: str) -> dict:
        """Update the seat for a given confirmation number.

        Args:
            confirmation_number: The confirmation number of the booking, e.g. "ABC123".
            new_seat: The new seat as printed on the boarding pass, e.g. "14C".
        """
        booking = BOOKINGS.get(confirmation_number)
        if booking is None:
            return {"http": 404, "detail": f"no booking {confirmation_number}"}
        seat = new_seat.strip().upper()
        if normalise and (m := re.fullmatch(r"(\d{1,2})\s*-?\s*([A-K])", seat)):
            seat = f"{m.group(1)}-{m.group(2)}"
        if not DCS_KEY.fullmatch(seat):
            return {"http": 400, "detail": f"Sitzplatz '{new_seat}' ungültig (Format)"}
        state = SEAT_MAP[booking[1]].get(seat)
        if state != "free":
            return {"http": 409, "detail": f"seat {new_seat} is {state or 'not on this aircraft'}"}
        SEAT_MAP[booking[1]][seat] = confirmation_number
        if context.context is not None:
            context.context.confirmation_number = confirmation_number
            context.context.seat_number = new_seat
        return {"http": 200, "booking": confirmation_number, "flight": booking[1], "seat": new_seat}

    return update_seat


@function_tool
async def faq_lookup_tool(question: str) -> str:
    """Look up a frequently asked question.

    Args:
        question: The passenger's question in their own words.
    """
    q = question.lower()
    if "bag" in q:
        return "One cabin bag up to 8 kg (55 x 40 x 23 cm) and one personal item under the seat."
    if "wifi" in q or "wi-fi" in q:
        return "Free Wi-Fi on all flights over 90 minutes: join the network 'NordAir-Sky'."
    return "I'm not sure about that one."


async def on_seat_booking_handoff(context: RunContextWrapper[AirlineAgentContext]) -> None:
    # as the SDK's example does: the seat agent starts with the flight already in the context
    if context.context is not None and context.context.confirmation_number in BOOKINGS:
        context.context.flight_number = BOOKINGS[context.context.confirmation_number][1]


FAQ_PROMPT = """# FAQ desk - NordAir
You answer general questions about baggage and Wi-Fi on board.
1. Use `faq_lookup_tool` to find the answer.
2. Relay what `faq_lookup_tool` said.
"""

SEAT_PROMPT = """# Seat changes - NordAir
You help passengers move to another seat on a booked flight.
1. Use `update_seat` to move the passenger to the seat they asked for.
2. If `update_seat` fails, explain what the system answered and ask for another seat.
3. Confirm the new seat to the passenger.
"""

TRIAGE_PROMPT = """# NordAir customer service
You are a helpful triaging agent for NordAir. You can use your tools to delegate questions to other appropriate agents.
- Transfer to `seat_booking_agent` when the message is about a seat, seats or an aisle or window.
- Transfer to `faq_agent` when the message is about baggage, bags or Wi-Fi.
- For refunds, reply "Refunds are handled at nordair.example/refunds - it takes about five minutes."
"""


def build(normalise: bool) -> Agent:
    faq_agent = Agent[AirlineAgentContext](
        name="FAQ Agent", model=model_string(), tools=[faq_lookup_tool], instructions=FAQ_PROMPT,
        handoff_description="A helpful agent that can answer questions about the airline.")
    seat_booking_agent = Agent[AirlineAgentContext](
        name="Seat Booking Agent", model=model_string(), tools=[make_update_seat(normalise)],
        instructions=SEAT_PROMPT, handoff_description="A helpful agent that can update a seat on a flight.")
    triage_agent = Agent[AirlineAgentContext](
        name="Triage Agent", model=model_string(), instructions=TRIAGE_PROMPT,
        handoff_description="A triage agent that can delegate a customer's request to the appropriate agent.",
        handoffs=[faq_agent, handoff(agent=seat_booking_agent, on_handoff=on_seat_booking_handoff)])
    faq_agent.handoffs.append(triage_agent)
    seat_booking_agent.handoffs.append(triage_agent)
    return triage_agent


seeded = build(normalise=False)
fixed = build(normalise=True)
