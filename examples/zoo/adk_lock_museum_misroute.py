"""Misrouted request, Google ADK (an `LlmAgent` root transferring to `sub_agents` that may not
transfer back or sideways: `disallow_transfer_to_parent` and `disallow_transfer_to_peers`): a
lock and key museum. `front_l` reads the enquiries and transfers each to one desk: `tours_t`
books guided tours of the galleries with `book_tour`; `shop_s` prices the shop's replica keys,
padlocks and books with `price_item`.

Seeded: front_l's routing lines date from when the shop also sold the padlock gallery's
audio-guide tickets: shop_s's line comes first and still claims "padlocks", so a guild's group
tour of the padlock gallery goes to the shop, which can only quote prices and cannot pass it on.
Fixed: the shop's line covers only things to buy, and the tours line covers group visits.
"""

from __future__ import annotations

from typing import Annotated, Literal

from google.adk.agents import LlmAgent
from pydantic import Field

from .models import adk_model

TOURS = {"2026-09-12": {"10:30": 20, "14:00": 6}}
BOOKED: list[str] = []


def book_tour(day: Annotated[str, Field(description='The day of the visit, e.g. "2026-01-31"')],
              gallery: Literal["padlock", "safes", "keys of the world"],
              party_size: Annotated[int, Field(description="How many are in the party")]) -> dict:
    """Book a guided tour of one gallery for a party (the 10:30 tour when it has room)."""
    for time, left in TOURS.get(day, {}).items():
        if left >= party_size:
            TOURS[day][time] = left - party_size
            BOOKED.append(day)
            return {"status": {"code": 201, "text": "Created"}, "tour": {"ref": f"LM-{410 + len(BOOKED)}",
                    "time": time, "gallery": gallery, "guide": "Mr Chubb-Hartley"}}
    return {"status": {"code": 409, "text": "Conflict"}, "reason": f"keine Führung frei - no tour with {party_size} places"}


def price_item(query: Annotated[str, Field(description="What the visitor asks about, in their words")]) -> str:
    """The shop's price list."""
    return "Replica Bramah key £12; brass padlock (working) £18; 'Locks Through the Ages' £9.99. Members 10% off."


SHOP_LINE = {"seeded": "Transfer to shop_s for padlocks, replica keys and books.",
             "fixed": "Transfer to shop_s for replica keys and books to buy."}
TOURS_LINE = "Transfer to tours_t for guided tours, group visits and gallery talks."


def build(version: str) -> LlmAgent:
    tours_t = LlmAgent(
        name="tours_t", model=adk_model(), description="Books guided tours of the galleries.",
        instruction=("You book the guided tours at the Willenhall Lock Museum.\n"
                     "Book the tour with book_tour.\n"
                     "If book_tour says Conflict, explain that the day is full and suggest another day."),
        tools=[book_tour], disallow_transfer_to_parent=True, disallow_transfer_to_peers=True)
    shop_s = LlmAgent(
        name="shop_s", model=adk_model(), description="Prices the museum shop's stock.",
        instruction=("You run the Willenhall Lock Museum shop.\n"
                     "Price what the visitor asks about with price_item."),
        tools=[price_item], disallow_transfer_to_parent=True, disallow_transfer_to_peers=True)
    lines = [SHOP_LINE[version], TOURS_LINE] if version == "seeded" else [TOURS_LINE, SHOP_LINE[version]]
    return LlmAgent(
        name="front_l", model=adk_model(), description="The museum's enquiries desk.",
        instruction="You answer enquiries for the Willenhall Lock Museum.\n" + "\n".join(lines),
        sub_agents=[tours_t, shop_s])


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
