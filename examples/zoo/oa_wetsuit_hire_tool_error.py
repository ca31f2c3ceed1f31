"""Tool error not handled, Agents SDK (function tools, the SDK's default tool error handling,
tools chosen with `ModelSettings(parallel_tool_calls=False)`): a surf shop's wetsuit hire.
`hire_h` checks stock with `wetsuit_stock` and prices a hire with `price_wetsuit`, which the
booking form offers in sizes XS to XXL.

Seeded: the day-rate table was typed in from last season's price board, before the shop stocked
XXL suits: `price_wetsuit` raises KeyError for an XXL, and hire_h can only say the price list is
not answering: the customer learns no price.
Fixed: the table has this season's XXL rate.
"""

from __future__ import annotations

from typing import Literal

from agents import Agent, ModelSettings, function_tool

from .models import model_string

Size = Literal["XS", "S", "M", "L", "XL", "XXL"]
LAST_SEASON = {"XS": 12.0, "S": 12.0, "M": 14.0, "L": 14.0, "XL": 16.0}
THIS_SEASON = {**LAST_SEASON, "XXL": 16.0}
STOCK = {"XS": 3, "S": 6, "M": 9, "L": 7, "XL": 4, "XXL": 2}


@function_tool
def wetsuit_stock(size: Size) -> dict:
    """How many hire wetsuits of one size are on the rail today.

    Args:
        size: The suit size from the booking form.
    """
    return {"size": size, "on_rail": STOCK[size], "thickness": "5/4 mm"}


def make_price(rates: dict):
    @function_tool
    def price_wetsuit(size: Size, days: int) -> dict:
        """Price a wetsuit hire by the day (boots and gloves included).

        Args:
            size: The suit size from the booking form.
            days: How many days of hire.
        """
        rate = rates[size]
        return {"status": "priced", "size": size, "days": days, "day_rate": f"£{rate:.2f}",
                "total": f"£{rate * days:.2f}", "quote": f"WQ-{400 + days * 7}"}
    return price_wetsuit


LINES = """You are hire_h at Gwithian Surf Hire.
Check the rail with wetsuit_stock.
Price the hire with price_wetsuit.
If price_wetsuit fails, say "Sorry, our price list is not answering just now; ask at the hut for a price."
If wetsuit_stock fails, say "Sorry, the stock list is not answering just now; ask at the hut."
Tell the customer what price_wetsuit answered."""


def build(rates: dict) -> Agent:
    return Agent(name="hire_h", model=model_string(), tools=[wetsuit_stock, make_price(rates)],
                 model_settings=ModelSettings(parallel_tool_calls=False), instructions=LINES)


def seeded():
    return build(LAST_SEASON)


def fixed():
    return build(THIS_SEASON)
