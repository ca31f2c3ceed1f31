"""Incorrect verification, LangGraph (langgraph-supervisor): a supervisor hands hotel requests to
a booking agent (a prebuilt ReAct agent) that says the room is booked whatever `book_room`
answered.

Seeded: the booking agent's prompt says to confirm after calling the tool. Fixed: to report the
tool's answer. The hotel is full on the night asked for.
"""

from __future__ import annotations

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from langgraph_supervisor import create_supervisor

from .models import chat_model

FULL_NIGHTS = {"2025-03-14"}


@tool(parse_docstring=True)
def book_room(night: str, guests: int) -> str:
    """Book a double room at the Hotel Lumen.

    Args:
        night: The night of the stay, like "2025-03-14".
        guests: How many guests, like "2".
    """
    if night in FULL_NIGHTS:
        return f"FAILED: the Hotel Lumen has no room free on {night}; nothing was booked."
    return f"Booked a room for {guests} on {night}, reference HL-{night[-2:]}."


def build(booking_prompt: str):
    model = chat_model()
    booking = create_react_agent(model, [book_room], name="booking_agent",
                                 prompt="You book hotel rooms. " + booking_prompt)
    return create_supervisor([booking], model=model, prompt="You run a travel desk. Hand off to "
                             "booking_agent when the request mentions room or hotel. Say \"Anything else?\""
                             ).compile()


seeded = build("Call book_room. Say \"Your room is booked.\"")
fixed = build("Call book_room. Report the result of book_room.")
