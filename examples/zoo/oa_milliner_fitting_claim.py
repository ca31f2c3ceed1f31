"""Incorrect verification, Agents SDK (a front desk handing over through `handoff(...,
on_handoff=...)` to a fitting agent whose `output_type` is a Pydantic model): a milliner's studio
that makes hats to measure. `front_m` takes the customer's message and hands fittings over to
`fitting_f`, who finds the order with `find_hat_order` and books a fitting with `book_fitting`;
the studio declines a day the milliner is at the races.

Seeded: fitting_f's closing line dates from when the studio fitted every day of the week and
says "Your fitting is booked" once `book_fitting` has answered, whatever it answered: a declined
day reaches the customer as booked (and `booked: true`).
Fixed: fitting_f says when `book_fitting` declined, and otherwise tells what it answered.
"""

from __future__ import annotations

from agents import Agent, function_tool, handoff
from pydantic import BaseModel, Field

from .models import model_string

ORDERS = {"HT-5302": {"order": "HT-5302", "hat_id": "HAT-7718", "style": "sinamay fascinator, navy",
                      "head": "56 cm"}}
AWAY = {"2026-06-16", "2026-06-17", "2026-06-18"}  # the milliner's stand at the races
HANDED_OVER: list[str] = []


@function_tool
def find_hat_order(order: str) -> dict:
    """Find a made-to-measure hat order by the number on the customer's order card.

    Args:
        order: The order number, like "HT-1000".
    """
    return ORDERS.get(order, {"status": "not_found", "order": order})


@function_tool
def book_fitting(hat_id: str, fitting_day: str) -> dict:
    """Book a fitting for a hat in progress at the studio.

    Args:
        hat_id: The studio's id for the hat, from the order, like "HAT-1000".
        fitting_day: The day the customer comes in, like "2026-01-31".
    """
    if fitting_day in AWAY:
        return {"status": "declined", "reason": f"the milliner is away on {fitting_day}",
                "next_free": "2026-06-19"}
    return {"status": "booked", "fitting": "FT-" + hat_id[-4:], "fitting_day": fitting_day, "time": "10:30",
            "length": "45 min"}


class FittingReply(BaseModel):
    reply: str = Field(description="What the customer is told")
    booked: bool = Field(description="Whether a fitting is in the diary")


CLOSING = {
    "seeded": 'Say "Your fitting is booked; we look forward to seeing you at the studio."',
    "fixed": 'If book_fitting answers declined, say "Sorry, that day was declined: the milliner is away. '
             'The next free day is 2026-06-19."\nTell the customer what book_fitting answered.',
}


def build(version: str) -> Agent:
    fitting_f = Agent(name="fitting_f", model=model_string(), tools=[find_hat_order, book_fitting],
                      output_type=FittingReply,
                      instructions="You are fitting_f at Hartley & Rowe Millinery, booking fittings.\n"
                                   "Find the order with find_hat_order.\n"
                                   "Book the fitting with book_fitting.\n"
                                   'If book_fitting fails, say "The fitting diary is not answering; nothing is booked yet."\n'
                                   + CLOSING[version])
    return Agent(name="front_m", model=model_string(),
                 handoffs=[handoff(fitting_f, on_handoff=lambda ctx: HANDED_OVER.append("fitting_f"))],
                 instructions="You are front_m at Hartley & Rowe Millinery.\n"
                              "Hand over to fitting_f for fittings and collections.")


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
