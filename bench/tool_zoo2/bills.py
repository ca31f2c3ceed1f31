"""Restaurant-bill tools as PydanticAI `Tool`s, for a group-dinner assistant.

`split_bill` (seeded) documents the total as printed on the receipt, currency sign and all, and
turns it into a number with `float`: "€84.20" raises ValueError; `split_bill_fixed` drops the
sign first. `cheapest_dish` (seeded) takes the first of the sorted menu, which its documentation
allows to be empty ("no dishes"): IndexError; the fixed twin checks. A party of fewer than 1 or
more than 40 people is rejected, as documented.
"""

from __future__ import annotations

import re
from decimal import ROUND_UP, Decimal, InvalidOperation

from pydantic import BaseModel
from pydantic_ai import Tool


class Dish(BaseModel):
    name: str
    price: float


def _people(people: int) -> None:
    if not 1 <= people <= 40:
        raise ValueError(f"people must be 1 to 40, got {people}")


def _split_bill(total: str, people: int) -> str:
    """What each person pays when a bill is split evenly, rounded up to the cent.

    Args:
        total: the bill's total exactly as printed on the receipt, currency sign included, up
            to 1,000,000. Text with no amount in it, or a larger one, raises ValueError.
        people: how many people share it, 1 to 40; another number raises ValueError.
    """
    _people(people)
    value = float(total)  # the seeded bug: "€84.20" is what a receipt prints
    if not 0 <= value <= 1_000_000:  # NaN fails this too
        raise ValueError(f"total must hold an amount up to 1,000,000, got {total!r}")
    amount = Decimal(value)
    share = (amount / people).quantize(Decimal("0.01"), rounding=ROUND_UP)
    return f"{share} each"


def _split_bill_fixed(total: str, people: int) -> str:
    """What each person pays when a bill is split evenly, rounded up to the cent.

    Args:
        total: the bill's total exactly as printed on the receipt, currency sign included, up
            to 1,000,000. Text with no amount in it, or a larger one, raises ValueError.
        people: how many people share it, 1 to 40; another number raises ValueError.
    """
    _people(people)
    digits = re.sub(r"[^\d.,-]", "", total).replace(",", "")
    try:
        amount = Decimal(digits)
    except InvalidOperation:
        raise ValueError(f"total must hold an amount, got {total!r}") from None
    if not amount.is_finite() or not 0 <= amount <= 1_000_000:
        raise ValueError(f"total must hold an amount up to 1,000,000, got {total!r}")
    share = (amount / people).quantize(Decimal("0.01"), rounding=ROUND_UP)
    return f"{share} each"


def _cheapest_dish(menu: list[Dish]) -> str:
    """The cheapest dish on a menu.

    Args:
        menu: the dishes, each with a name and a price; an empty menu answers "no dishes".
    """
    best = sorted(menu, key=lambda d: d.price)[0]  # the seeded bug: the empty menu
    return f"{best.name} at {best.price:.2f}"


def _cheapest_dish_fixed(menu: list[Dish]) -> str:
    """The cheapest dish on a menu.

    Args:
        menu: the dishes, each with a name and a price; an empty menu answers "no dishes".
    """
    if not menu:
        return "no dishes"
    best = min(menu, key=lambda d: d.price)
    return f"{best.name} at {best.price:.2f}"


split_bill = Tool(_split_bill, name="split_bill")
split_bill_fixed = Tool(_split_bill_fixed, name="split_bill_fixed")
cheapest_dish = Tool(_cheapest_dish, name="cheapest_dish")
cheapest_dish_fixed = Tool(_cheapest_dish_fixed, name="cheapest_dish_fixed")
