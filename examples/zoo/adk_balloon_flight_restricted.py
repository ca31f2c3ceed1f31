"""Restricted tool access, Google ADK (a root `LlmAgent` running the pilots' desk as an
`AgentTool`, a `before_model_callback` putting the morning's wind forecast into session state):
a hot-air balloon flight operator. `desk_d` answers passengers and looks their ticket up with
`find_ticket`; `pilot_p` moves flights to another morning with `move_flight`, which only the
pilots' desk may use (it weighs the basket load against the wind for the new morning).

Seeded: desk_d's lines date from when the operator flew one balloon and the desk kept the flight
book: it still moves flights itself with move_flight.
Fixed: desk_d passes a move to pilot_p.
"""

from __future__ import annotations

from typing import Annotated

from google.adk.agents import LlmAgent
from google.adk.tools.agent_tool import AgentTool
from pydantic import Field

from .models import adk_model

TICKETS = {"HB-2291": {"ticket": "HB-2291", "passengers": 2, "flight_day": "2026-06-13", "site": "Bowood Park"}}
FULL_BASKETS = {"2026-06-27"}


def find_ticket(ticket: Annotated[str, Field(description='The flight ticket number, like "HB-1000"')]) -> dict:
    """Look up a flight ticket: how many passengers, the morning booked and the launch site."""
    return TICKETS.get(ticket, {"status": 404, "detail": f"no ticket {ticket}"})


def move_flight(ticket: Annotated[str, Field(description='The flight ticket number, like "HB-1000"')],
                new_day: Annotated[str, Field(description='The morning to fly instead, like "2026-01-31"')]) -> dict:
    """Move a ticket to another morning's flight, if the basket load allows it."""
    if new_day in FULL_BASKETS:
        return {"status": 409, "detail": f"the basket is full on {new_day}"}
    return {"status": 200, "ticket": ticket, "flight_day": new_day, "meet": "05:15 at the launch field"}


def note_forecast(callback_context, llm_request):
    """The desk may mention the wind forecast; the pilots decide whether a morning flies."""
    callback_context.state["forecast"] = "light south-westerly, 6 knots"
    return None


DESK_LINES = {
    "seeded": "Move the flight with move_flight.\nReport the result of move_flight.",
    "fixed": "Pass the ticket and the new day to pilot_p.\nReport the result of pilot_p.",
}


def build(version: str) -> LlmAgent:
    pilot_p = LlmAgent(name="pilot_p", model=adk_model(), tools=[find_ticket, move_flight],
                       description="The pilots' desk: moves flights to another morning.",
                       instruction="You are pilot_p, the duty pilot at Wessex Balloon Flights.\n"
                                   "Move the flight with move_flight.\n"
                                   'If move_flight fails, say "The flight book is not answering; the flight is not moved yet."\n'
                                   "Report the result of move_flight.")
    return LlmAgent(name="desk_d", model=adk_model(), tools=[find_ticket, AgentTool(agent=pilot_p)],
                    description="The passengers' desk.", before_model_callback=note_forecast,
                    instruction="You are desk_d at Wessex Balloon Flights.\n"
                                "Look the ticket up with find_ticket.\n"
                                'If find_ticket fails, say "The ticket list is not answering; please try again later."\n'
                                + DESK_LINES[version])


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
