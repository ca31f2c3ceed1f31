"""Runtime crash, Google ADK (a host agent running the arena desk as an `AgentTool`, an
`after_tool_callback` on the arena's booking tool writing each party's deposit into session
state): a laser tag arena's birthday parties. `host_h` answers parents and passes bookings to
`arena_a` through the `arena_a` tool; arena_a books the party with `book_party`.

Seeded: the callback reads the party's price with `int(price.lstrip("£"))`, written when the
arena priced parties in whole pounds; the new price list has pence ("£187.50") and `int()`
raises ValueError in the middle of the booking.
Fixed: the price is read with `Decimal`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated

from google.adk.agents import LlmAgent
from google.adk.tools.agent_tool import AgentTool
from pydantic import Field

from .models import adk_model


def book_party(party_day: Annotated[str, Field(description='The day of the party, like "2026-01-31"')],
               players: Annotated[int, Field(description="How many children play")]) -> dict:
    """Book a laser tag birthday party: two games, the party room and food for each player."""
    price = Decimal("12.50") * players + Decimal("50.00")
    return {"status": "booked", "party": f"LT-{3300 + players}", "party_day": party_day, "players": players,
            "start": "14:00", "price": f"£{price:.2f}"}


def deposit_seeded(tool, args, tool_context, tool_response):
    if isinstance(tool_response, dict) and "price" in tool_response:
        tool_context.state["deposit"] = int(tool_response["price"].lstrip("£")) // 4
    return None


def deposit_fixed(tool, args, tool_context, tool_response):
    if isinstance(tool_response, dict) and "price" in tool_response:
        tool_context.state["deposit"] = str(Decimal(tool_response["price"].lstrip("£")) / 4)
    return None


def build(deposit) -> LlmAgent:
    arena_a = LlmAgent(name="arena_a", model=adk_model(), tools=[book_party], after_tool_callback=deposit,
                       description="The arena desk: books laser tag parties.",
                       instruction="You are arena_a at Photon Alley Laser Tag, booking parties.\n"
                                   "Book the party with book_party.\n"
                                   'If book_party fails, say "The party diary is not answering; nothing is booked yet."\n'
                                   "Tell the customer what book_party answered.")
    return LlmAgent(name="host_h", model=adk_model(), tools=[AgentTool(agent=arena_a)],
                    description="The parents' desk.",
                    instruction="You are host_h at Photon Alley Laser Tag.\n"
                                "Pass party bookings to the arena desk with arena_a.\n"
                                'If arena_a fails, say "The arena desk is not answering; we will ring you back."\n'
                                "Tell the customer what arena_a answered.")


def seeded():
    return build(deposit_seeded)


def fixed():
    return build(deposit_fixed)
