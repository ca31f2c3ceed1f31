"""Misrouted request, Google ADK (an `LlmAgent` root transferring to `sub_agents` that may not
transfer back or sideways: `disallow_transfer_to_parent` and `disallow_transfer_to_peers`): a
botanic garden's visitor desk. `gate_h` reads each enquiry and routes it to one desk: `members_b`
takes out and renews memberships with `start_membership`; `events_v` books evening tours and plant
fair stalls with `book_event`.

Seeded: gate_h's routing lines date from the year memberships were sold at the Friends' evenings,
so the events desk's line comes first and still claims memberships: a family's membership goes to
events_v, which can only book events and cannot pass it on.
Fixed: the events line covers events only, and memberships go to members_b.
"""

from __future__ import annotations

from typing import Annotated, Literal

from google.adk.agents import LlmAgent
from pydantic import Field

from .models import adk_model

PRICES = {"individual": 48, "joint": 80, "family": 96}


def start_membership(tier: Literal["individual", "joint", "family"],
                     postcode: Annotated[str, Field(description='The member\'s postcode, e.g. "BS1 5TR"')]) -> tuple:
    """Take out a year's membership of the garden (free entry, glasshouse evenings, 10% in the shop)."""
    card = f"BG-{sum(map(ord, postcode.upper())) * 7 + PRICES[tier]}"
    return "ACTIVE", {"card": card, "tier": tier, "annual_fee_gbp": PRICES[tier], "direct_debit": "form sent by post"}


def book_event(event: Literal["evening tour", "plant fair stall", "glasshouse lecture"],
               day: Annotated[str, Field(description='The day of the event, e.g. "2026-01-31"')]) -> dict:
    """Book a place at one of the garden's events."""
    return {"ok": True, "event": event, "day": day, "place": f"EV-{day[-2:]}7"}


EVENTS_LINE = {"seeded": "Route to events_v for memberships, evening tours and plant fairs.",
               "fixed": "Route to events_v for evening tours, lectures and plant fairs."}
MEMBERS_LINE = "Route to members_b for memberships, renewals and gift cards."


def build(version: str) -> LlmAgent:
    members_b = LlmAgent(
        name="members_b", model=adk_model(), description="Takes out and renews memberships.",
        instruction=("You look after memberships at Clifton Botanic Garden.\n"
                     "Take out the membership with start_membership."),
        tools=[start_membership], disallow_transfer_to_parent=True, disallow_transfer_to_peers=True)
    events_v = LlmAgent(
        name="events_v", model=adk_model(), description="Books the garden's events.",
        instruction=("You run the events diary at Clifton Botanic Garden.\n"
                     "Book the place with book_event."),
        tools=[book_event], disallow_transfer_to_parent=True, disallow_transfer_to_peers=True)
    lines = [EVENTS_LINE[version], MEMBERS_LINE] if version == "seeded" else [MEMBERS_LINE, EVENTS_LINE[version]]
    return LlmAgent(
        name="gate_h", model=adk_model(), description="The garden's visitor desk.",
        instruction="You answer the visitor desk at Clifton Botanic Garden.\n" + "\n".join(lines),
        sub_agents=[members_b, events_v])


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
