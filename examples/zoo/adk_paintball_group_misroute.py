"""Misrouted request, Google ADK (LLM-driven transfer, `transfer_to_agent`, among `sub_agents`):
a paintball field's enquiries line. `hq` passes each caller to one of its sub-agents: `bookings_p`
books games on the field (`check_sessions`, `book_game`); `kit_shop` prices paint, masks and kit
(`kit_price`).

Seeded: hq's routing lines date from when the kit shop sold group paint packs and took the group
orders: "group bookings" still sits in kit_shop's line and bookings_p's only lists birthday parties
and kids' games, so a stag party's group booking goes to the kit shop, which prices masks and
paint, and no game is booked. Fixed: group bookings, stag and hen dos are bookings_p's.
"""

from __future__ import annotations

from typing import Annotated, Literal

from google.adk.agents import LlmAgent
from pydantic import Field

from .models import adk_model

SESSIONS = {"2026-08-22": {"morning": 14, "afternoon": 0}}
GAMES: list[str] = []


def check_sessions(day: Annotated[str, Field(description='The day, e.g. "2026-01-31"')]) -> dict:
    """Free places in the day's sessions on the woodland field."""
    return {"day": day, "places": SESSIONS.get(day, {"morning": 0, "afternoon": 0})}


def book_game(day: Annotated[str, Field(description='The day, e.g. "2026-01-31"')],
              session: Literal["morning", "afternoon"],
              players: Annotated[int, Field(description='How many players or lads come, e.g. "10"')]) -> dict:
    """Book a group onto a session of the woodland game (300 paintballs each included)."""
    left = SESSIONS.get(day, {}).get(session, 0)
    if left < players:
        return {"ok": False, "why": f"only {left} places left in the {session}"}
    SESSIONS[day][session] = left - players
    GAMES.append(day)
    return {"ok": True, "game": f"PB-{2700 + len(GAMES)}", "arrive": "08:45", "min_age": 16}


def kit_price(item: Annotated[str, Field(description="What the caller wants to buy, in their words")]) -> str:
    """Kit shop prices."""
    return "masks £25 (hire free with a game), 500 paintballs £30, gloves £8 - prices incl. VAT"


BOOKINGS_LINE = {"seeded": "Transfer to bookings_p for birthday parties and kids' games.",
                 "fixed": "Transfer to bookings_p for birthday parties, kids' games, stag and hen dos and any group booking."}
KIT_LINE = {"seeded": "Transfer to kit_shop for paintball refills, masks, kit and group bookings.",
            "fixed": "Transfer to kit_shop for paintball refills, masks and kit to buy."}


def build(version: str) -> LlmAgent:
    bookings_p = LlmAgent(
        name="bookings_p", model=adk_model(), description="Books games on the woodland field.",
        instruction=("You book games at Splat Woods Paintball.\n"
                     "Check the free places on the day with check_sessions.\n"
                     "Book the game with book_game.\n"
                     "If book_game says false, explain why the game could not be booked.\n"
                     "Confirm the game."),
        tools=[check_sessions, book_game])
    kit_shop = LlmAgent(
        name="kit_shop", model=adk_model(), description="Prices paint, masks and kit.",
        instruction=("You run the kit shop at Splat Woods Paintball.\n"
                     "Price what the caller asks about with kit_price.\n"
                     "Pass on what kit_price said."),
        tools=[kit_price])
    return LlmAgent(
        name="hq", model=adk_model(), description="Splat Woods' enquiries line.",
        instruction=("You answer the phone at Splat Woods Paintball.\n"
                     f"{BOOKINGS_LINE[version]}\n{KIT_LINE[version]}"),
        sub_agents=[bookings_p, kit_shop])


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
