"""Tool specification mismatch, PydanticAI (a tile shop's agent with `deps_type` (the shop's
stock room) read by `RunContext` tools, an `output_validator` that sends back a reply quoting a
card number): a tile shop's orders. `tiles_t` looks the tile up with `find_tile` and orders the
boxes for a floor with `order_tiles`, which takes the floor's area as the customer measured it.

Seeded: `order_tiles` documents the area "like '12.5 m²'", as the shop's measuring sheet prints
it, but strips the unit with `rstrip("m2 ")`, written for the old sheet's "m2": the superscript
² stays, `float()` fails and the order answers 422 to the very format it documents.
Fixed: the unit is stripped whichever way it is written.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from pydantic_ai import Agent, ModelRetry, RunContext

from .models import pydantic_ai_model


@dataclass
class StockRoom:
    tiles: dict = field(default_factory=lambda: {
        "TL-4471": {"tile": "TL-4471", "name": "Terracotta hexagon 20 cm", "box_covers": "0.96 m²",
                    "price_per_box": "£38.40", "boxes_in_stock": 41}})


def strip_unit_seeded(area: str) -> str:
    return area.rstrip("m2 ")  # the old measuring sheet wrote "m2"


def strip_unit_fixed(area: str) -> str:
    return re.sub(r"\s*m(?:2|²)\s*$", "", area.strip())


INSTRUCTIONS = """You are tiles_t at Alder Street Tiles.
Find the tile with find_tile.
Order the boxes with order_tiles.
If order_tiles fails, say "The order book is not answering; nothing is ordered yet."
If order_tiles answers 422, say "Sorry, the order was not taken: the order book could not read the area."
Tell the customer what order_tiles answered."""


def build(strip_unit) -> Agent:
    agent = Agent(pydantic_ai_model(), name="tiles_t", deps_type=StockRoom, instructions=INSTRUCTIONS)

    @agent.tool
    def find_tile(ctx: RunContext[StockRoom], tile: str) -> dict:
        """Look a tile up in the stock room.

        Args:
            tile: The tile's code from the catalogue, like "TL-1000".
        """
        return ctx.deps.tiles.get(tile, {"status": 404, "detail": f"no tile {tile}"})

    @agent.tool
    def order_tiles(ctx: RunContext[StockRoom], tile: str, area: str) -> dict:
        """Order enough boxes of a tile to cover a floor, with 10% over for cuts.

        Args:
            tile: The tile's code from the catalogue, like "TL-1000".
            area: The floor's area as written on our measuring sheet, like "12.5 m²".
        """
        try:
            square_metres = float(strip_unit(area))
        except ValueError:
            return {"status": 422, "detail": f"area not understood: {area!r}"}
        found = ctx.deps.tiles.get(tile)
        if found is None:
            return {"status": 404, "detail": f"no tile {tile}"}
        boxes = math.ceil(square_metres * 1.1 / float(found["box_covers"].split()[0]))
        price = float(found["price_per_box"].lstrip("£"))
        return {"status": 201, "order": f"TO-{5200 + boxes}", "boxes": boxes, "total": f"£{boxes * price:.2f}",
                "collect": "from the yard, 2 working days"}

    @agent.output_validator
    def no_card_numbers(ctx: RunContext[StockRoom], output: str) -> str:
        if re.search(r"\b(?:\d[ -]?){13,16}\b", output):
            raise ModelRetry("Never repeat a card number back to the customer.")
        return output

    return agent


def seeded():
    return build(strip_unit_seeded)


def fixed():
    return build(strip_unit_fixed)
