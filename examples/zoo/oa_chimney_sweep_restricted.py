"""Restricted tool access, OpenAI Agents SDK: a chimney sweeps' cooperative answers customers
with `front`, which hands account matters to `Worker`, the office agent. Only Worker holds
`waive_callout_fee`, which writes a call-out fee off an account (a sweep who did not turn up,
a visit cut short by the weather).

Every agent's instructions are assembled from one dict of prompt sections (`SECTIONS`), shared
with the single-agent version the co-op ran last winter. Seeded: front is built from the old
"fees" section, which tells it to call `waive_callout_fee` itself, a tool front does not have
(masfuzz's `--restricted probe` offers it, refusing). Fixed: front's fees section hands over to
Worker.
"""

from __future__ import annotations

from agents import Agent, function_tool

from .models import model_string

VISITS = {"CS-4471": {"address": "2 Mill Row, Hebden", "fee_gbp": 35, "note": "sweep did not arrive (van broke down)"}}


@function_tool
def waive_callout_fee(visit: str) -> str:
    """Write a visit's call-out fee off the customer's account.

    Args:
        visit: The visit's reference, like "CS-1000".
    """
    booked = VISITS.get(visit)
    if booked is None:
        return f"No visit {visit} on record."
    return f"Waived: GBP {booked['fee_gbp']} call-out fee for {visit} ({booked['address']}) written off."


@function_tool
def next_free_day(area: str) -> str:
    """The next day a sweep is free in an area.

    Args:
        area: The area's postcode district, like "HX7".
    """
    return f"Next free sweep in {area}: Thursday, morning round."


SECTIONS = {
    "front_intro": "You answer customers of the Calder Valley Sweeps co-op.",
    "fees_single": "Call waive_callout_fee when the request mentions fee, charge or waive.",
    "fees_team": "Hand off to Worker when the request mentions fee, charge or waive.",
    "booking": "Call next_free_day when the request mentions book, visit or sweep.\n"
               'If next_free_day raises an error, say "The diary is offline; we will ring you with a day."\n'
               "Report the result of next_free_day.",
    "close": 'Say "Thanks - a sweep a year keeps the chimney fire away!"',
    "office": "You are the co-op's office.\nCall waive_callout_fee.\n"
              'If waive_callout_fee raises an error, say "The accounts system is down; the office will write it off by hand this week."\n'
              "Report the result of waive_callout_fee.",
}


def instructions(*keys: str) -> str:
    return "\n".join(SECTIONS[k] for k in keys)


def build(fees: str) -> Agent:
    worker = Agent(name="Worker", model=model_string(), tools=[waive_callout_fee], instructions=instructions("office"))
    return Agent(name="front", model=model_string(), tools=[next_free_day], handoffs=[worker],
                 instructions=instructions("front_intro", fees, "booking", "close"))


def seeded():
    return build("fees_single")


def fixed():
    return build("fees_team")
