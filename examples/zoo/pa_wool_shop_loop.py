"""Loop, PydanticAI (the shop's tools grouped in a `FunctionToolset` and given to the agent with
`toolsets=`): a wool shop's order desk. `skein_o` matches knitters' yarn to a dye lot: the dye
house's board (`dye_lot_status`) says whether a lot is in stock, being redyed (then it says
ready once the vat is done) or discontinued, which it stays for good.

Seeded: skein_o's lines were written for the weeks the dye house redyed every short lot, so they
watch the board until a lot says ready with no way out for a lot that never will: a discontinued
lot is asked about again and again until PydanticAI's request limit stops the run.
Fixed: a line first answers a discontinued lot, before the watching line. (Both twins answer a
lot the board does not know, and an in-stock lot reads "ready, in stock".)
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent, FunctionToolset

from .models import pydantic_ai_model

LOTS = {"DL-2291": ("Heather Moss DK", "discontinued"), "DL-2304": ("Peat Smoke DK", "ready"),
        "DL-2310": ("Gorse Aran", "ready, in stock")}


def dye_lot_status(lot: Annotated[str, Field(description='The dye lot on the ball band, e.g. "DL-1000"')]) -> dict:
    """The dye house's board for one dye lot: in stock, being redyed, ready, or discontinued."""
    shade, state = LOTS.get(lot, ("?", "unknown"))
    if state == "discontinued":
        return {"lot": lot, "shade": shade, "vat": {"state": "discontinued", "skeins_left": 0,
                                                    "note": "colourway retired by the dyer, no redye planned"}}
    return {"lot": lot, "shade": shade, "vat": {"state": state}}


def postage(destination: Annotated[str, Field(description="Where the parcel goes, in the knitter's words")]) -> str:
    """Postage for a small parcel of yarn."""
    return "Royal Mail tracked: £3.90 UK mainland, £6.20 Highlands & Islands (3-5 days)."


shop_tools = FunctionToolset([dye_lot_status, postage])

DISCONTINUED = ('If dye_lot_status says discontinued: "⚠️ **Dye lot** — on ice: that lot is discontinued, '
                'so no skeins will match it. ❓ Shall I look out the nearest shade for you?"\n')
UNKNOWN = 'If dye_lot_status says unknown: "❓ That lot isn\'t on the dye house board: could you check the ball band?"\n'
SKEIN = """You are skein_o at Yarnbarrow, a wool shop that posts orders.
{unknown}{discontinued}Watch dye_lot_status until it says ready.
Give the board."""


def build(discontinued: str) -> Agent:
    return Agent(pydantic_ai_model(), name="skein_o", toolsets=[shop_tools],
                 instructions=SKEIN.format(unknown=UNKNOWN, discontinued=discontinued))


def seeded():
    return build("")


def fixed():
    return build(DISCONTINUED)
