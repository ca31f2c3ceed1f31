"""Incorrect verification, OpenAI Agents SDK (parallel tool calls asked for with
`ModelSettings(parallel_tool_calls=True)`, the stores agent answering with a Pydantic
`output_type`): a yacht chandlery's trade counter. `counter_c` takes customers' messages and hands
part orders to `stores_s`, who reserves each part for collection with `reserve_part`. The stock
system answers "reserved" or, for a part not on the shelf, "backordered" with the date it is due.

Seeded: stores_s's lines were written when every catalogue part was kept on the shelf: they go
from the reservation straight to "... is reserved for collection", whatever the stock system
said, so a backordered part reaches the customer as reserved. Fixed: a line first reports a
backordered part with the date it is due.
"""

from __future__ import annotations

from agents import Agent, ModelSettings, function_tool
from pydantic import BaseModel

from .models import model_string

SHELF = {"CH-1042": ("Jabsco raw-water impeller", 6), "CH-2210": ("Rule 1100 bilge pump", 0),
         "CH-3307": ("Spinlock rope clutch", 2)}
DUE = {"CH-2210": "2026-06-19"}
RESERVED: list[str] = []


@function_tool
def reserve_part(part_no: str, collect_date: str) -> dict:
    """Reserve a catalogue part for collection at the trade counter.

    Args:
        part_no: The catalogue part number, like "CH-1042".
        collect_date: The day the customer collects, like "2026-01-31".
    """
    part = SHELF.get(part_no.upper())
    if part is None:
        return {"status": "unknown", "reason": f"no part {part_no} in the catalogue"}
    name, on_shelf = part
    if on_shelf < 1:
        return {"status": "backordered", "part": name, "reason": f"none on the shelf, due {DUE[part_no.upper()]}"}
    RESERVED.append(part_no)
    return {"status": "reserved", "part": name, "slip": f"RS-{510 + len(RESERVED)}", "collect": collect_date}


class StoresReply(BaseModel):
    """What the stores desk tells the customer, and whether everything asked for is set aside."""

    message: str
    all_reserved: bool


BACKORDER = ('If reserve_part answers backordered, say "{part_no} ({part}) is backordered and could not be reserved: '
             '{reason}."\n'
             'If reserve_part answers unknown, say "{part_no} could not be reserved: {reason}."\n')

STORES = """You are stores_s, the stores desk of Hamble Point Chandlery.
Reserve each part with reserve_part.
{backorder}If reserve_part raises an error, say "The stock system is not answering, so {{part_no}} is not reserved yet; the counter will ring you."
Reply "{{part_no}} ({{part}}) is reserved for collection on {{collect}}, slip {{slip}}."
"""

COUNTER = """You are counter_c at the trade counter of Hamble Point Chandlery.
Hand anything about parts, spares or orders to stores_s.
Say "Thanks, the counter will get back to you."
"""


def build(backorder: str) -> Agent:
    stores_s = Agent(name="stores_s", model=model_string(), tools=[reserve_part], output_type=StoresReply,
                     model_settings=ModelSettings(parallel_tool_calls=True),
                     instructions=STORES.format(backorder=backorder))
    return Agent(name="counter_c", model=model_string(), handoffs=[stores_s], instructions=COUNTER)


def seeded():
    return build("")


def fixed():
    return build(BACKORDER)
