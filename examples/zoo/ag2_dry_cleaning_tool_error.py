"""Tool error not handled, AG2 (a two-agent `initiate_chat` with a set length, the tool declared
with `register_for_llm` on the assistant and `register_for_execution` on the customer's proxy): a
dry cleaner's counter. `cleaner_c` books garments in with `book_cleaning`, which works out the day
they will be ready (three working days on) and the price.

Seeded: `book_cleaning` finds the ready day by adding three to the day of the month,
`date(d.year, d.month, d.day + 3)`, which raises `ValueError: day is out of range for month` for
anything dropped off in the last days of a month; cleaner_c's line for a broken tool says only
that the booking could not be made, so the customer learns neither the day nor the price. Fixed:
the ready day is counted with `timedelta`.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

import autogen

from .models import ag2_config

PRICES = {"suit": 16.5, "dress": 14.0, "coat": 18.0, "shirt": 4.5, "wedding dress": 145.0}
TICKETS: list[str] = []


def make_book_cleaning(fixed: bool):
    def book_cleaning(
            drop_date: Annotated[str, 'The day the garments are handed in, like "2026-01-31"'],
            garment: Annotated[Literal["suit", "dress", "coat", "shirt", "wedding dress"], "What is being cleaned"],
            count: Annotated[int, "How many of that garment"]) -> dict:
        """Book garments in for dry cleaning: gives the ticket, the price and the day they are ready."""
        handed_in = dt.date.fromisoformat(drop_date)
        if fixed:
            ready = handed_in + dt.timedelta(days=3)
        else:
            ready = dt.date(handed_in.year, handed_in.month, handed_in.day + 3)
        TICKETS.append(garment)
        return {"ticket": f"DC-{6100 + len(TICKETS)}", "ready": ready.isoformat(),
                "price": f"{PRICES[garment] * count:.2f} GBP", "collect": "08:00-18:00"}
    return book_cleaning


LINES = """You are cleaner_c at Pressed & Proper dry cleaners, Bath.
Book the garments in with book_cleaning.
If book_cleaning fails, say "Sorry, the booking could not be made just now."
Reply "Ticket {ticket}: ready on {ready}, {price} to pay on collection ({collect})."
"""


def run(task: str, fixed: bool):
    cleaner_c = autogen.AssistantAgent("cleaner_c", llm_config=ag2_config(), system_message=LINES)
    customer = autogen.UserProxyAgent("customer", human_input_mode="NEVER", code_execution_config=False,
                                      default_auto_reply="")
    book_cleaning = make_book_cleaning(fixed)
    cleaner_c.register_for_llm(description=book_cleaning.__doc__)(book_cleaning)
    customer.register_for_execution()(book_cleaning)
    # one exchange to book, one to answer
    return customer.initiate_chat(cleaner_c, message=task, max_turns=2)


TASK = ("Hi, I'd like to drop my wedding dress in for cleaning on 2026-05-29, just 1 dress. "
        "When would it be ready and how much is it?")


def seeded():
    return run(TASK, False)


def fixed():
    return run(TASK, True)
