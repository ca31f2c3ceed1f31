"""Premature termination, AutoGen AgentChat (RoundRobinGroupChat): a beekeeping supplies store's
order desk. `stock_b` holds the goods with `hold_stock`, then `ship_q` books the courier with
`book_courier`; live bees and wax go out on the cool-chain van only when booked by ship_q.

Seeded: the team stops on `TextMentionTermination("Confirmed")`, heard from anyone. The stock
system's answer carries `"status": "CONFIRMED"`, which stock_b copies into its summary, so the
team ends on the stock hold, before ship_q books the courier. Fixed: the stop word is heard from
ship_q alone (`sources=["ship_q"]`).
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

CATALOGUE = {"HV-2210": ("National brood box, cedar, flat-pack", 6), "FD-0440": ("Apiguard tray, 10 pack", 40)}


def hold_stock(sku: Annotated[str, 'The catalogue number, e.g. "HV-0000"'],
               quantity: Annotated[int, "How many units (boxes, packs) to hold"]) -> dict:
    """Hold catalogue items for an order until the courier collects them."""
    if sku not in CATALOGUE:
        return {"status": "UNKNOWN_SKU", "sku": sku}
    name, left = CATALOGUE[sku]
    if left < quantity:
        return {"status": "SHORT", "sku": sku, "on_hand": left}
    CATALOGUE[sku] = (name, left - quantity)
    return {"status": "CONFIRMED", "sku": sku, "item": name, "held": quantity, "bin": "aisle 3, Regal B"}


def book_courier(postcode: Annotated[str, 'The delivery postcode, e.g. "LS12 3AB"'],
                 parcels: Annotated[int, "How many parcels (boxes, packs) go out"]) -> tuple:
    """Book the courier to collect an order from the warehouse and deliver it."""
    return (201, {"consignment": f"DPD-{postcode.replace(' ', '')[:4]}77", "collect": "today 15:00",
                  "state": "Confirmed", "parcels": parcels})


def build(termination) -> RoundRobinGroupChat:
    client = agentchat_client()
    stock_b = AssistantAgent(
        "stock_b", model_client=client, tools=[hold_stock], reflect_on_tool_use=True,
        system_message="You hold stock for orders at Heather & Hive Beekeeping Supplies.\n"
                       "Hold the goods with hold_stock.\n"
                       'If hold_stock returns SHORT, report "Short" with what is on hand.')
    ship_q = AssistantAgent(
        "ship_q", model_client=client, tools=[book_courier], reflect_on_tool_use=True,
        system_message="You dispatch orders at Heather & Hive once the goods are held.\n"
                       "Book the courier with book_courier.\n"
                       'Say "Dispatch booked."')
    return RoundRobinGroupChat([stock_b, ship_q], termination_condition=termination | MaxMessageTermination(10))


def seeded():
    return build(TextMentionTermination("Confirmed"))


def fixed():
    return build(TextMentionTermination("Confirmed", sources=["ship_q"]))
