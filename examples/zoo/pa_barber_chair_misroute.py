"""Misrouted request, PydanticAI (delegation through tools: the till's agent runs a desk's agent
inside a tool, `usage=ctx.usage` passed on; the chair desk answers with a typed `output_type`,
and its booking tool asks the model to try again with `ModelRetry` when a barber's slot is
taken): a barber shop. `till_b` reads the customer's message and passes it to `chair_d`, who
books the barbers' chairs with `book_chair`, or to `shop_s`, who prices the shop's grooming
products with `price_list`.

Seeded: till_b's routing lines date from when the shop's beard kits sold better than its beard
trims: the shop's line comes first and claims anything about beards, so a beard trim and fade
goes to shop_s, who can only read out prices. Fixed: the chairs' line comes first and covers beard
trims; the shop's covers only products.

In the fixed twin Dev's 14:00 is taken: book_chair's `ModelRetry` names his next free slot, and
the desk books that instead.
"""

from __future__ import annotations

import sqlite3
from typing import Annotated, Literal

from pydantic import BaseModel, Field
from pydantic_ai import Agent, ModelRetry, RunContext

from .models import pydantic_ai_model

DIARY = sqlite3.connect(":memory:", check_same_thread=False)
DIARY.executescript("""
CREATE TABLE chairs (barber TEXT, day TEXT, time TEXT, customer TEXT);
INSERT INTO chairs VALUES ('Dev', '2026-03-07', '14:00', 'walk-in (R. Patel)'),
                          ('Dev', '2026-03-07', '14:30', NULL), ('Marco', '2026-03-07', '14:00', NULL);
""")


class ChairBooking(BaseModel):
    booked: bool
    reference: str
    note: str = Field(description="What to tell the customer")


chair_d = Agent(pydantic_ai_model(), name="chair_d", output_type=ChairBooking,
                instructions=("You keep the chair diary at Sharp & Sons, barbers.\n"
                              "Book the chair with book_chair.\n"
                              "If book_chair says taken, try the alternative time it gives."))


@chair_d.tool_plain(retries=2)
def book_chair(barber: Literal["Dev", "Marco"],
               day: Annotated[str, Field(description='The day of the cut, e.g. "2026-01-31"')],
               time: Annotated[str, Field(description='The time of the cut, e.g. "09:30"')],
               service: Literal["skin fade", "scissor cut", "beard trim", "skin fade and beard trim"]) -> dict:
    """Book a barber's chair for a service (skin fade and beard trim: 45 minutes, £32)."""
    row = DIARY.execute("SELECT rowid, customer FROM chairs WHERE barber = ? AND day = ? AND time = ?",
                        (barber, day, time)).fetchone()
    if row is None or row[1] is not None:
        free = DIARY.execute("SELECT time FROM chairs WHERE barber = ? AND day = ? AND customer IS NULL ORDER BY time",
                             (barber, day)).fetchall()
        raise ModelRetry(f"{time} with {barber} is taken; {barber}'s next free chair that day: "
                         + (", ".join(t for (t,) in free) or "none"))
    DIARY.execute("UPDATE chairs SET customer = ? WHERE rowid = ?", (service, row[0]))
    return {"chair": {"barber": barber, "day": day, "time": time, "service": service},
            "ref": f"HB-{row[0] + 20}", "pay": "card or cash at the chair"}


shop_s = Agent(pydantic_ai_model(), name="shop_s",
               instructions=("You run the grooming counter at Sharp & Sons, barbers.\n"
                             "Price what the customer asks about with price_list."))


@shop_s.tool_plain
def price_list(item: Annotated[str, Field(description="What the customer asks about, in their own words")]) -> str:
    """The counter's prices."""
    return "Beard oil (cedar) £14; beard balm £12; Kent beard comb £9; gift box (oil, balm, comb) £30."


LINES = {"seeded": ["For beards and grooming, pass the customer to the shop with ask_shop.",
                    "For haircuts and fades, pass the customer to the chairs with ask_chairs."],
         "fixed": ["For haircuts, fades and beard trims, pass the customer to the chairs with ask_chairs.",
                   "For beard oil, balm, combs and gift boxes, pass the customer to the shop with ask_shop."]}


def build(version: str) -> Agent:
    till_b = Agent(pydantic_ai_model(), name="till_b",
                   instructions="You answer messages for Sharp & Sons, barbers on Cowley Road.\n" + "\n".join(LINES[version]))

    @till_b.tool
    async def ask_chairs(ctx: RunContext, details: Annotated[str, Field(description="The customer's message, in their own words")]) -> str:
        """Pass the customer to the chair diary."""
        result = await chair_d.run(details, usage=ctx.usage)
        return result.output.model_dump_json()

    @till_b.tool
    async def ask_shop(ctx: RunContext, details: Annotated[str, Field(description="The customer's message, in their own words")]) -> str:
        """Pass the customer to the grooming counter."""
        result = await shop_s.run(details, usage=ctx.usage)
        return result.output

    return till_b


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
