"""Information loss, OpenAI Agents SDK (a handoff with an `input_filter` from
`agents.extensions.handoff_filters` and an `on_handoff` callback): a lighthouse's visitor desk.
`keeper` answers the chat and hands climbs of the tower to `tour_desk`, which books a guided climb
with `book_climb` (a gift voucher's code, the day, how many climbers). `on_handoff` counts the
hand-overs for the day sheet.

Seeded: the hand-over's filter was written to keep tour_desk's context short: on top of the SDK's
`remove_all_tools` it drops the input history, the visitor's own message with it, keeping only
keeper's turn. keeper hands over without a word, so tour_desk sees no voucher, day or party size.
Fixed: the hand-over uses `remove_all_tools` alone.
"""

from __future__ import annotations

from agents import Agent, RunContextWrapper, function_tool, handoff
from agents.extensions import handoff_filters
from agents.handoffs import HandoffInputData

from .models import model_string

VOUCHERS = {"LH-4471": {"buyer": "M. Trevithick", "places": 4, "valid_to": "2026-09-30"}}
SLOTS = {"2026-07-18": ["10:30", "13:00", "15:30"]}
DAY_SHEET: list[str] = []


@function_tool
def book_climb(voucher: str, climb_day: str, climbers: int) -> dict:
    """Book a guided climb of the tower with a gift voucher.

    Args:
        voucher: The gift voucher's code, e.g. "LH-1000".
        climb_day: The day of the climb, e.g. "2026-01-31".
        climbers: How many climbers.
    """
    held = VOUCHERS.get(voucher.upper())
    if held is None:
        return {"result": "unknown voucher", "voucher": voucher}
    if climbers > held["places"]:
        return {"result": "too many", "places_on_voucher": held["places"]}
    slot = SLOTS.get(climb_day, ["11:00"])[0]
    return {"result": "booked", "ticket": f"TWR-{climb_day[5:7]}{climb_day[8:]}{climbers}",
            "slot": slot, "note": "115 steps, no under-5s, flat shoes"}


def count_handover(ctx: RunContextWrapper) -> None:
    DAY_SHEET.append("climb")


def short_context(data: HandoffInputData) -> HandoffInputData:
    """The guide only needs what keeper just did, not the whole chat."""
    return handoff_filters.remove_all_tools(data.clone(input_history=()))


KEEPER = ("You are keeper, the visitor desk of Godrevy Point Lighthouse.\n"
          "Transfer to tour_desk when the customer mentions climb, tour, tower, tickets or voucher.\n"
          "Say \"Open 10:00-17:00 Apr-Oct.\"")
TOUR = ("You book guided climbs of the tower.\n"
        "Use book_climb.\n"
        "If book_climb fails, give the reason.\n"
        "Report the booking.")


def build(input_filter) -> Agent:
    tour_desk = Agent(name="tour_desk", model=model_string(), instructions=TOUR, tools=[book_climb],
                      handoff_description="Books guided climbs of the tower.")
    return Agent(name="keeper", model=model_string(), instructions=KEEPER,
                 handoffs=[handoff(tour_desk, on_handoff=count_handover, input_filter=input_filter)])


def seeded():
    return build(short_context)


def fixed():
    return build(handoff_filters.remove_all_tools)
