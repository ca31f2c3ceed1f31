"""Misrouted request, PydanticAI (a run context given with `deps_type` and read through
`RunContext` by the tools; delegation through tools, the desk's agent run inside a tool with
`deps=ctx.deps` and `usage=ctx.usage`; a SQLite visitor diary): a bell foundry's visitor centre.
`gate_w` reads the visitor's message and passes it on to `tours_t`, who books the foundry floor's
visits (works tours and casting days) with `book_visit`, or to `shop_g`, who sells handbells and
gifts from the shop's stock with `shop_stock`.

Seeded: gate_w's routing lines date from when casting days were sold as a gift-shop experience
voucher: the shop's line comes first and claims anything about casting, so a family asking to
watch a casting day is passed to shop_g, who can only read out stock; tours_t never hears of it.
Fixed: the tours line comes first and covers casting days; the shop's covers handbells and gifts.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model


def open_diary() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.executescript("""
    CREATE TABLE visits (day TEXT, kind TEXT, places INTEGER);
    INSERT INTO visits VALUES ('2026-06-12', 'casting day', 14), ('2026-06-13', 'works tour', 20),
                              ('2026-06-19', 'casting day', 0);
    CREATE TABLE stock (item TEXT, price TEXT, left INTEGER);
    INSERT INTO stock VALUES ('handbell, 8 notes (C5-C6)', '£420', 3), ('tea towel, bell-founding', '£9', 40),
                             ('miniature cast bronze bell', '£35', 12);
    """)
    return db


@dataclass
class Foundry:
    diary: sqlite3.Connection


def foundry() -> Foundry:
    """Today's deps, as the visitor centre's web hook passes them (`--context ...:foundry`)."""
    return Foundry(open_diary())


def desks() -> tuple[Agent, Agent]:
    """The two desks (built with the app, as their model is set then)."""
    tours_t = Agent(pydantic_ai_model(), name="tours_t", deps_type=Foundry,
                    instructions="You book visits to the foundry floor at Whitcombe Bell Foundry.\n"
                                 "Book the visit with book_visit.\nIf book_visit fails, tell the visitor what it said.")

    @tours_t.tool
    def book_visit(ctx: RunContext[Foundry], kind: Literal["works tour", "casting day"],
                   day: Annotated[str, Field(description='The day of the visit, e.g. "2026-01-31"')],
                   visitors: Annotated[int, Field(description="How many people visit")]) -> dict:
        """Book places on a works tour or a casting day (watching a bell poured, 10:00-15:00, lunch in the canteen)."""
        row = ctx.deps.diary.execute("SELECT rowid, places FROM visits WHERE day = ? AND kind = ?", (day, kind)).fetchone()
        if row is None:
            return {"booking": {"state": "rejected", "detail": f"no {kind} on {day}"}}
        if row[1] < visitors:
            return {"booking": {"state": "rejected", "detail": f"only {row[1]} places left for the {kind} on {day}"}}
        ctx.deps.diary.execute("UPDATE visits SET places = places - ? WHERE rowid = ?", (visitors, row[0]))
        return {"booking": {"state": "held", "ref": f"WB-{row[0]}{visitors:02d}", "meet": "the pattern shop door, 09:45"},
                "safety": "closed-toe shoes; under-8s stay behind the yellow line"}

    shop_g = Agent(pydantic_ai_model(), name="shop_g", deps_type=Foundry,
                   instructions="You run the gift shop at Whitcombe Bell Foundry.\nRead out what is in stock with shop_stock.")

    @shop_g.tool
    def shop_stock(ctx: RunContext[Foundry],
                   item: Annotated[str, Field(description="What the visitor asks about, in their own words")]) -> list[tuple]:
        """The gift shop's stock: item, price and how many are left."""
        return ctx.deps.diary.execute("SELECT item, price, left FROM stock").fetchall()

    return tours_t, shop_g


LINES = {"seeded": ["For handbells, casting and gifts, pass the visitor to the shop with ask_shop.",
                    "For tours and visits, pass the visitor to the tours desk with ask_tours."],
         "fixed": ["For tours, visits and casting days, pass the visitor to the tours desk with ask_tours.",
                   "For handbells and gifts, pass the visitor to the shop with ask_shop."]}


def build(version: str) -> Agent:
    tours_t, shop_g = desks()
    gate_w = Agent(pydantic_ai_model(), name="gate_w", deps_type=Foundry,
                   instructions="You answer messages for Whitcombe Bell Foundry's visitor centre.\n" + "\n".join(LINES[version]))

    @gate_w.tool
    async def ask_tours(ctx: RunContext[Foundry],
                        message: Annotated[str, Field(description="The visitor's message, in their own words")]) -> str:
        """Pass the visitor to the tours desk, who books the foundry floor."""
        return (await tours_t.run(message, deps=ctx.deps, usage=ctx.usage)).output

    @gate_w.tool
    async def ask_shop(ctx: RunContext[Foundry],
                       message: Annotated[str, Field(description="The visitor's message, in their own words")]) -> str:
        """Pass the visitor to the gift shop."""
        return (await shop_g.run(message, deps=ctx.deps, usage=ctx.usage)).output

    return gate_w


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
