"""Tools that break on input an agent really sends, each with a twin that does not: a price as a
shelf label prints it, two documented times sent together, a documented date-and-time form, a
JSON example whose inner words are no values of the argument (tests/toolfuzz/test_agent_inputs.py)."""

from __future__ import annotations

import json
import re
from datetime import datetime
from decimal import Decimal, InvalidOperation


def unit_cost(shelf_price: str, units: int) -> str:
    """The cost of one unit of a multipack.

    shelf_price: the pack's price as the shelf label shows it, symbol and all. Text without a
        price raises ValueError.
    units: units in the pack, 1 to 48; another count raises ValueError.
    """
    if not 1 <= units <= 48:
        raise ValueError(f"units must be 1 to 48, got {units}")
    return f"{float(shelf_price) / units:.2f}"


def unit_cost_fixed(shelf_price: str, units: int) -> str:
    """The cost of one unit of a multipack.

    shelf_price: the pack's price as the shelf label shows it, symbol and all. Text without a
        price raises ValueError.
    units: units in the pack, 1 to 48; another count raises ValueError.
    """
    if not 1 <= units <= 48:
        raise ValueError(f"units must be 1 to 48, got {units}")
    try:
        price = Decimal(re.sub(r"[^\d.]", "", shelf_price))
    except InvalidOperation:
        raise ValueError(f"no price in {shelf_price!r}") from None
    return f"{price / units:.2f}"


def servings(grams: str) -> str:
    """How many 40 g servings a bag holds.

    grams: the bag's weight in grams, from its label; fractions of a gram occur. Text that is not
        a weight raises ValueError.
    """
    return f"{int(grams) // 40} servings"


def shift_hours(clock_in: str, clock_out: str) -> str:
    """Hours worked in a shift.

    clock_in: when the shift began, as the badge reader logs it, e.g. "2024-06-01T09:00:00+01:00".
    clock_out: when it ended, as typed by the worker, e.g. "2024-06-01T17:30:00" (local time).
    """
    start = datetime.fromisoformat(clock_in)
    end = datetime.fromisoformat(clock_out)
    return f"{(end - start).total_seconds() / 3600:.1f} h"


def shift_hours_fixed(clock_in: str, clock_out: str) -> str:
    """Hours worked in a shift.

    clock_in: when the shift began, as the badge reader logs it, e.g. "2024-06-01T09:00:00+01:00".
    clock_out: when it ended, as typed by the worker, e.g. "2024-06-01T17:30:00" (local time).
    """
    start = datetime.fromisoformat(clock_in).replace(tzinfo=None)
    end = datetime.fromisoformat(clock_out).replace(tzinfo=None)
    return f"{(end - start).total_seconds() / 3600:.1f} h"


def delivery_slot(slot: str) -> str:
    """The weekday of a delivery slot.

    slot: DD.MM.YYYY, or DD.MM.YYYY HH:MM when the courier gave a time. Any other form raises
        ValueError.
    """
    return datetime.strptime(slot.strip(), "%d.%m.%Y").strftime("%A")


def count_leaves(tree_json: str) -> str:
    """How many plain values a JSON tree holds.

    tree_json: the tree as a JSON object, e.g. {"left": ["x", "y"], "right": {"z": 1}}. Text that
        is not a JSON object raises ValueError.
    """
    try:
        tree = json.loads(tree_json)
    except json.JSONDecodeError:
        tree = None
    if not isinstance(tree, dict):
        raise ValueError("tree_json must be a JSON object")

    def leaves(node):
        if isinstance(node, dict):
            return sum(leaves(v) for v in node.values())
        return 1

    return str(leaves(tree))


def stamp_date(paid_on: str, till: str = "A") -> str:
    """The payment day as the receipt's stamp shows it, DD.MM.YYYY.

    paid_on: the day paid, YYYY-MM-DD.
    till: the till's letter, e.g. "B".
    """
    return f"till {till}: " + datetime.strptime(paid_on, "%Y-%m-%d").strftime("%m.%d.%Y")


def stamp_date_fixed(paid_on: str, till: str = "A") -> str:
    """The payment day as the receipt's stamp shows it, DD.MM.YYYY.

    paid_on: the day paid, YYYY-MM-DD.
    till: the till's letter, e.g. "B".
    """
    return f"till {till}: " + datetime.strptime(paid_on, "%Y-%m-%d").strftime("%d.%m.%Y")
