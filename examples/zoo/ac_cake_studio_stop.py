"""Missing termination, AutoGen AgentChat (a `RoundRobinGroupChat` of two tool-using agents that
reflect on their tools' answers, stopped by `FunctionCallTermination | MaxMessageTermination`): a
celebration cake studio. `counter_c` checks the oven diary for the collection day with
`check_oven_slots`; `baker_b` then books the cake into the slot with `book_cake`. The team is
meant to end once a cake has been booked.

Seeded: the stop condition still waits for a call of `place_cake_order`, the tool's name in the
old ordering system; the studio's new system calls it `book_cake`, so the condition never fires
and the two go round to the message limit after the cake is booked.
Fixed: the condition waits for `book_cake`.
"""

from __future__ import annotations

from typing import Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import FunctionCallTermination, MaxMessageTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

SLOTS = {"2026-07-18": {"day": "2026-07-18", "slot_id": "OV-718A", "oven": "deck oven 2", "ready_by": "09:30"}}
BOOKED: list[str] = []


def check_oven_slots(day: str) -> dict:
    """Check the oven diary for a free baking slot for a collection day.

    Args:
        day: The day the cake is collected, like "2026-01-31".
    """
    return SLOTS.get(day, {"day": day, "slot_id": None, "note": "no free slot that day"})


def book_cake(slot_id: str, flavour: Literal["lemon", "chocolate", "vanilla", "carrot", "coffee"], tiers: int) -> dict:
    """Book a celebration cake into an oven slot.

    Args:
        slot_id: The oven slot from the diary, like "OV-101A".
        flavour: The sponge.
        tiers: How many tiers, 1 to 4.
    """
    if tiers > 4:
        return {"status": "declined", "reason": "the studio bakes at most four tiers"}
    BOOKED.append(slot_id)
    return {"status": "booked", "cake": f"CK-{4400 + len(BOOKED)}", "slot_id": slot_id, "flavour": flavour,
            "tiers": tiers, "deposit": "£40.00"}


COUNTER = """You are counter_c at Crumb & Candle cake studio.
Check the oven diary with check_oven_slots.
If check_oven_slots fails, say "The oven diary is not answering; we'll call you back."
Report the result of check_oven_slots."""

BAKER = """You are baker_b at Crumb & Candle cake studio.
Book the cake with book_cake.
If book_cake fails, say "The order book is not answering; nothing is booked yet."
If book_cake says declined, say "Sorry, we can't bake that one: the studio bakes at most four tiers."
Report the result of book_cake."""


def build(stop_tool: str):
    client = agentchat_client()
    counter_c = AssistantAgent("counter_c", model_client=client, system_message=COUNTER,
                               tools=[check_oven_slots], reflect_on_tool_use=True)
    baker_b = AssistantAgent("baker_b", model_client=client, system_message=BAKER,
                             tools=[book_cake], reflect_on_tool_use=True)
    stop = FunctionCallTermination(function_name=stop_tool) | MaxMessageTermination(14)
    return RoundRobinGroupChat([counter_c, baker_b], termination_condition=stop)


def seeded():
    return build("place_cake_order")


def fixed():
    return build("book_cake")
