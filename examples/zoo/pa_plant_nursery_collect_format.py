"""Tool specification mismatch, PydanticAI agent delegation: a plant nursery's order chat.
`nursery` answers customers and passes order matters to the order desk, `pot_r`, through its tool
`ask_orders`; pot_r sets plants aside for collection with `reserve_plants`, whose documentation
asks for the collection day the way the nursery's order forms print it, DD/MM/YYYY ("31/01/2026"),
and may look stock up with `stock_lookup`.

Seeded: the reservation service was lifted from the webshop plugin, which reads the day month
first (`%m/%d/%Y`): every day after the 12th is refused with a list of problems, a Spanish note
and the code `unparseable`, for the very format the tool documents; pot_r reports the
reservation not possible. Fixed: the service reads the day as documented.
"""

from __future__ import annotations

from datetime import datetime

from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

ORDERS = {"PN-3318": {"customer": "R. Achebe", "lines": ["3x Acer palmatum 'Bloodgood' 10L", "12x Lavandula 2L"]}}
STOCK = {"Acer palmatum 'Bloodgood' 10L": 7, "Lavandula 2L": 140}


def reservation_service(day_format: str):
    def reserve_plants(order_ref: str, collect_on: str) -> dict:
        """Set an order's plants aside on the collection bench.

        Args:
            order_ref: The order reference on the nursery's confirmation, e.g. "PN-0000".
            collect_on: The collection day, DD/MM/YYYY as on our order forms, e.g. "31/01/2026".
        """
        try:
            day = datetime.strptime(collect_on, day_format).date()
        except ValueError:
            return {"reservation": None,
                    "problems": [{"field": "collect_on", "code": "unparseable", "nota": "fecha no reconocida"}]}
        order = ORDERS.get(order_ref)
        if order is None:
            return {"reservation": None, "problems": [{"field": "order_ref", "code": "unknown_order"}]}
        return {"reservation": {"order": order_ref, "bench": "C4", "collect_on": day.isoformat(),
                                "lines": order["lines"], "hold_days": 5}, "problems": []}

    return reserve_plants


def stock_lookup(order_ref: str) -> list:
    """Look up how many of each of an order's plants are in stock (read-only).

    Args:
        order_ref: The order reference on the nursery's confirmation, e.g. "PN-0000".
    """
    order = ORDERS.get(order_ref, {"lines": []})
    return [(line, STOCK.get(line.split("x ", 1)[1], 0)) for line in order["lines"]]


POT_R = """Order desk, Fernleigh Plant Nursery. Plants are held on the bench for five days.
- Set the plants aside with `reserve_plants`.
- `stock_lookup` can be used for a second look at an order.
- If `reserve_plants` fails, mark the collection as not possible, with the reason.
- Tick off the collection for the customer."""

NURSERY = """Customer chat, Fernleigh Plant Nursery.
- Pass the message to the order desk with `ask_orders` when it is about an order, a collection or reserving plants.
- Relay what `ask_orders` answered to the customer.
- Otherwise reply "Our planting advice line is open weekdays 9-5."
"""


def build(day_format: str) -> Agent:
    pot_r = Agent(pydantic_ai_model(), name="pot_r", instructions=POT_R)
    pot_r.tool_plain(reservation_service(day_format))
    pot_r.tool_plain(stock_lookup)
    nursery = Agent(pydantic_ai_model(), name="nursery", instructions=NURSERY)

    @nursery.tool
    async def ask_orders(ctx: RunContext, question: str) -> str:
        """Pass a customer's question about an order or a collection to the order desk."""
        return (await pot_r.run(question, usage=ctx.usage)).output

    return nursery


def seeded():
    return build("%m/%d/%Y")


def fixed():
    return build("%d/%m/%Y")
