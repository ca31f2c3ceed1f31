"""Loop, OpenAI Agents SDK (a handoff with an `on_handoff` callback): an ice cream van hire for
street parties. `scoops` answers the organiser and hands bookings to `permits_k`, which may only
book the van for a road closure the council has approved: it checks the closure with
`road_closure` until the council says APPROVED, then books the van with `book_van`. The council's
checker finishes its review while the first enquiry is in: the record reads PENDING the first
time and APPROVED after.

Seeded: `road_closure` memoises the council's answer (`functools.lru_cache`, added when the
council's API rate-limited the firm), so every check returns the first PENDING and permits_k
checks again and again until the run's turn limit. Fixed: each check asks the council afresh.
"""

from __future__ import annotations

import functools
import itertools

from agents import Agent, RunContextWrapper, function_tool, handoff

from .models import model_string

ENQUIRIES: list[str] = []


def council(ref: str, states) -> dict:
    """The council's road-closure record, as its API returns it."""
    if not ref.startswith("EV-"):
        return {"ref": ref, "council": {"state": "UNKNOWN"}}
    return {"ref": ref, "council": {"state": next(states), "officer": "m.adeyemi", "note": "sin cambios"}}


def build(memoised: bool) -> Agent:
    states = itertools.chain(["PENDING"], itertools.repeat("APPROVED"))
    fetch = functools.partial(council, states=states)
    if memoised:
        fetch = functools.lru_cache(maxsize=64)(fetch)
    vans: list[str] = []

    @function_tool
    def road_closure(closure_ref: str) -> dict:
        """Where the council is with a street party's road closure.

        Args:
            closure_ref: The council's reference for the closure, e.g. "EV-00000".
        """
        return fetch(closure_ref)

    @function_tool
    def book_van(closure_ref: str, party_day: str, arrive: str) -> str:
        """Book the van for a street party on an approved closure.

        Args:
            closure_ref: The council's reference for the closure, e.g. "EV-00000".
            party_day: The day of the party, e.g. "2026-01-31".
            arrive: When the van arrives, 24-hour clock, e.g. "15:00".
        """
        vans.append(party_day)
        return f"Van 2 (Mr Whippy, the pink one) booked {party_day} from {arrive} for {closure_ref} - ref IC-{940 + len(vans)}"

    def log_enquiry(ctx: RunContextWrapper) -> None:
        ENQUIRIES.append("street party")

    permits_k = Agent(
        name="permits_k", model=model_string(), tools=[road_closure, book_van],
        instructions=("You book the van for street parties at Dolce Vita Ices.\n"
                      "Check the road closure with road_closure until it says APPROVED.\n"
                      "Book the van with book_van.\n"
                      "Confirm the booking."))
    return Agent(name="scoops", model=model_string(), handoffs=[handoff(permits_k, on_handoff=log_enquiry)],
                 instructions=("You answer enquiries at Dolce Vita Ices, ice cream van hire.\n"
                               "Hand over to permits_k for any street party booking."))


def seeded():
    return build(memoised=True)


def fixed():
    return build(memoised=False)
