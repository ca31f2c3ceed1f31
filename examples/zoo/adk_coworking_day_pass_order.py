"""Speaking order, Google ADK `SequentialAgent`: a coworking space's day-pass desk. `floor` gives
a member a desk for the day with `assign_desk`, which answers the desk and its zone; `acct`
charges the day to the company account with `bill_day`, at the zone's rate (the quiet zone costs
more than the open floor), so it can only bill once the floor has given a zone.

Seeded: the pipeline still lists acct first, from when a day pass was one flat rate paid on
arrival: acct runs before any desk is assigned, has no zone to bill, and asks the member for it.
Fixed: floor, then acct.
"""

from typing import Annotated

from google.adk.agents import LlmAgent, SequentialAgent
from pydantic import Field

from .models import adk_model

MEMBER = Annotated[str, Field(description='The membership number, like "TW-0000"')]
ZONE = Annotated[str, Field(description='The zone code of the assigned desk, like "Z0"')]
RATES = {"Z1": 18.00, "Z2": 26.00}  # open floor, quiet zone (GBP a day)


def assign_desk(member: MEMBER, note: Annotated[str, Field(description="What the member asked for")]) -> dict:
    """Give a member a desk for the day; quiet-zone desks go to members who ask for quiet or calls."""
    quiet = any(w in note.lower() for w in ("quiet", "call", "focus"))
    return {"member": member, "desk": "Q-04" if quiet else "F-17", "zone": "Z2" if quiet else "Z1",
            "wifi": "tallyho-guest"}


def bill_day(member: MEMBER, zone: ZONE) -> dict:
    """Charge a day pass to the member's company account at the zone's rate."""
    if zone not in RATES:
        return {"result": "err", "detail": f"unknown zone {zone}"}
    return {"result": "ok", "member": member, "charged_gbp": RATES[zone], "invoice": "monthly"}


def build(floor_first: bool) -> SequentialAgent:
    floor = LlmAgent(
        name="floor", model=adk_model(), description="Assigns desks for the day.",
        instruction="Floor desk, Tallyho Works. Short.\n"
                    "- assign_desk for the member.\n"
                    "- reply: desk: <desk>, zone: <zone>, wifi: <wifi>",
        tools=[assign_desk])
    acct = LlmAgent(
        name="acct", model=adk_model(), description="Bills day passes at the rate of the zone the floor assigned.",
        instruction="Accounts, Tallyho Works. The rate is the zone's: bill after the floor desk has given the zone.\n"
                    "- bill_day for the member and zone.\n"
                    '- If bill_day gives "err", reply: not billed, <detail>\n'
                    "- reply: billed: <charged_gbp> GBP, invoice: <invoice>",
        tools=[bill_day])
    return SequentialAgent(name="day_pass", sub_agents=[floor, acct] if floor_first else [acct, floor])


def seeded():
    return build(floor_first=False)


def fixed():
    return build(floor_first=True)
