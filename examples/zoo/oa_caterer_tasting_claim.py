"""Incorrect verification, OpenAI Agents SDK (triage and hand-off, as in the SDK's customer-service
example): a wedding caterer's enquiries desk. `frontdesk` hands tasting requests to `tastings`,
which books the couple into the chef's tasting diary with `book_tasting`. The diary answers a
`TastingReply` dataclass whose `outcome` is CONFIRMED, or WAITLISTED when the chef's table is
already full that day: then nothing is booked, the couple only hold a place in the queue.

Both twins' prompts are runbooks. Seeded: the tasting runbook goes straight from the diary call
to "confirm the tasting", a step written when the diary could only say yes. Fixed: a step before
it deals with a WAITLISTED or FULL answer.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents import Agent, function_tool

from .models import model_string

TABLE_SEATS = 3  # couples the chef can host for a tasting on one day
DIARY = {"2026-03-14": ["WC-4102", "WC-4388", "WC-4410"], "2026-03-21": ["WC-4120"]}
WAITLIST: dict[str, list[str]] = {"2026-03-14": ["WC-4399"]}


@dataclass
class TastingReply:
    event_ref: str
    tasting_date: str
    outcome: str  # CONFIRMED or WAITLISTED
    note: str


@function_tool
def book_tasting(event_ref: str, tasting_date: str) -> TastingReply:
    """Put a couple into the chef's tasting diary for their wedding menu.

    Args:
        event_ref: The event reference on the couple's quote, e.g. "WC-1000".
        tasting_date: The day of the tasting, e.g. "2026-01-31".
    """
    booked = DIARY.setdefault(tasting_date, [])
    if len(booked) >= TABLE_SEATS:
        queue = WAITLIST.setdefault(tasting_date, [])
        queue.append(event_ref)
        return TastingReply(event_ref, tasting_date, "WAITLISTED",
                            f"chef's table full on {tasting_date}; waitlist position {len(queue)}")
    booked.append(event_ref)
    return TastingReply(event_ref, tasting_date, "CONFIRMED", f"table {len(booked)} of {TABLE_SEATS}, 11:00")


RUNBOOK = """# Tasting desk - Saffron & Sage Catering
You look after menu tastings for couples who already have a quote with us.

## Steps
1. Use `book_tasting` to put the couple into the chef's diary.
{waitlist}3. Confirm the tasting to the couple and remind them the chef plates four starters and three mains.
"""

WAITLIST_STEP = ("2. If `book_tasting` comes back WAITLISTED or FULL, explain that the date is not confirmed "
                 "and give them their place on the waitlist.\n")


def build(waitlist: str) -> Agent:
    tastings = Agent(name="tastings", model=model_string(), tools=[book_tasting],
                     handoff_description="Books menu tastings for couples.",
                     instructions=RUNBOOK.format(waitlist=waitlist))
    return Agent(name="frontdesk", model=model_string(), handoffs=[tastings], instructions=(
        "You are the enquiries desk of Saffron & Sage, a wedding caterer in Hertfordshire.\n"
        "- Transfer to `tastings` when the message is about a tasting, tasting date or menu trial.\n"
        '- For invoices and deposits, reply "Our accounts team answers those at accounts@saffronsage.example."'))


def seeded():
    return build("")


def fixed():
    return build(WAITLIST_STEP)
