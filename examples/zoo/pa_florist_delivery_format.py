"""Tool specification mismatch, PydanticAI (delegation through a tool that runs the courier's agent
with `usage=ctx.usage`; the courier's tools grouped in a `FunctionToolset`; its `output_type` a
union of two models, one for a scheduled delivery and one for a refusal): a florist's same-day
delivery. `shop_s` takes orders and passes deliveries to `courier_c` with `ask_courier`; courier_c
books the van with `schedule_delivery`, whose docstring asks for the postcode as written on an
envelope, "like 'EH1 2AB'".

Seeded: `schedule_delivery` validates the postcode against the van routing system's stored form,
with no space, so the "EH3 9QA" it documents is answered 422, every time. Fixed: the space is
allowed (and taken out before routing).
"""

from __future__ import annotations

import re

from pydantic import BaseModel
from pydantic_ai import Agent, FunctionToolset, RunContext

from .models import pydantic_ai_model

ROUNDS = {"EH": "Edinburgh afternoon round, 13:00-17:00", "G": "Glasgow round, 14:00-18:00"}
VANS: list[str] = []


def make_schedule_delivery(pattern: str):
    def schedule_delivery(postcode: str, delivery_date: str, bouquet: str) -> dict:
        """Put a bouquet on the day's delivery van.

        Args:
            postcode: The recipient's postcode, as written on an envelope, like "EH1 2AB".
            delivery_date: The day of delivery, like "2026-01-31".
            bouquet: What is being sent, in the customer's words.
        """
        if not re.fullmatch(pattern, postcode.upper()):
            return {"status": 422, "error": f"postcode {postcode!r} not recognised by van routing"}
        area = re.match(r"[A-Z]+", postcode.upper()).group(0)
        VANS.append(postcode)
        return {"status": 201, "drop": f"FD-{950 + len(VANS)}", "round": ROUNDS.get(area, "national courier, next day"),
                "postcode": postcode.upper()}
    return schedule_delivery


class DeliveryScheduled(BaseModel):
    """A delivery on the van: its reference and round."""

    drop: str
    round: str
    message: str


class DeliveryRefused(BaseModel):
    """A delivery the courier system refused, and why."""

    reason: str
    message: str


COURIER = """You are courier_c, the delivery desk of Petal & Stem florists, Edinburgh.
Schedule the delivery with schedule_delivery.
If schedule_delivery answers 422, say "The delivery was refused by the van routing system: '{error}'."
Reply "A delivery has been scheduled: {drop}, on the {round}, to {postcode}."
"""

SHOP = """You are shop_s at Petal & Stem florists, Edinburgh.
Pass any delivery request to ask_courier.
If ask_courier fails, say "The delivery desk could not be reached just now, so no delivery has been booked yet; the shop will call back within the hour."
"""


def build(pattern: str) -> Agent:
    courier_c = Agent(pydantic_ai_model(), name="courier_c", instructions=COURIER,
                      output_type=[DeliveryScheduled, DeliveryRefused],
                      toolsets=[FunctionToolset([make_schedule_delivery(pattern)])])
    shop_s = Agent(pydantic_ai_model(), name="shop_s", instructions=SHOP)

    @shop_s.tool
    async def ask_courier(ctx: RunContext[None], request: str) -> str:
        """Ask the delivery desk to put a bouquet on a van: pass the customer's request as written."""
        result = await courier_c.run(request, usage=ctx.usage)
        return result.output.model_dump_json()

    return shop_s


def seeded():
    return build(r"[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}")  # the routing system's stored form


def fixed():
    return build(r"[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}")
