"""Misrouted request, OpenAI Agents SDK (a front desk with hand-offs): a community orchestra's
members' help line. `w_front` reads the member's message and hands it to a colleague:
`concerts`, the concert office, holds tickets for the season's concerts with `hold_tickets`;
`tr_4`, the treasurer's desk, refunds a term's subscription with `refund_subs` when a player
stands down for the term.

Seeded: the front desk's routing lines were copied from the season brochure, where refunds meant
concert ticket refunds, so a player asking for their subscription back goes to the concert
office, which has no way to refund subs. Fixed: subs, subscriptions and their refunds go to the
treasurer's desk; the concert office keeps tickets and seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from agents import Agent, function_tool

from .models import model_string

MEMBERS = {"WCO-0412": {"name": "H. Okafor", "paid": {"autumn": 45.0, "spring": 45.0}}}


@dataclass
class Refund:
    code: int
    member: str
    term: str
    amount: float | None = None
    note: str = ""


@function_tool
def refund_subs(member_no: str, term: Literal["autumn", "spring", "summer"]) -> Refund:
    """Refund a member's subscription for a term they stand down from.

    Args:
        member_no: The membership number on the member's card, e.g. "WCO-0000".
        term: The term whose subscription is refunded.
    """
    member = MEMBERS.get(member_no)
    if member is None:
        return Refund(404, member_no, term, note="no such member")
    paid = member["paid"].pop(term, None)
    if paid is None:
        return Refund(409, member_no, term, note="nicht bezahlt / nothing paid for that term")
    return Refund(200, member_no, term, paid, note="BACS to the account on file within 5 working days")


@function_tool
def hold_tickets(concert: str, how_many: int) -> dict:
    """Hold tickets for one of the season's concerts, paid for on the door.

    Args:
        concert: The concert, as the brochure names it, e.g. "Winter Gala".
        how_many: How many tickets to hold.
    """
    return {"status": {"ok": True}, "held": how_many, "concert": concert, "collect": "box office, 30 min before"}


CONCERTS = """You are the concert office of the Wharfedale Community Orchestra.
Hold tickets with hold_tickets (only for tickets, seats or concerts).
Say "The concert office looks after tickets; for anything else please email the orchestra secretary."
"""

TREASURER = """You are the treasurer's desk of the Wharfedale Community Orchestra.
Refund the term's subscription with refund_subs.
If refund_subs says 404 or 409, explain what the system said.
Confirm the refund to the member.
"""

FRONT = """You answer the members' help line of the Wharfedale Community Orchestra.
{routes}
Say "Thanks for getting in touch, the committee will get back to you."
"""

SEEDED_ROUTES = ("Put the member through to concerts for tickets, seats, refunds or money back.\n"
                 "Put the member through to tr_4 for membership, joining or standing orders.")
FIXED_ROUTES = ("Put the member through to concerts for tickets or seats.\n"
                "Put the member through to tr_4 for membership, subs, subscriptions, refunds or money back.")


def build(routes: str) -> Agent:
    concerts = Agent(name="concerts", model=model_string(), tools=[hold_tickets], instructions=CONCERTS,
                     handoff_description="Concert office: tickets and seats for the season's concerts.")
    tr_4 = Agent(name="tr_4", model=model_string(), tools=[refund_subs], instructions=TREASURER,
                 handoff_description="Treasurer's desk: subscriptions and refunds of subs.")
    return Agent(name="w_front", model=model_string(), handoffs=[concerts, tr_4],
                 instructions=FRONT.format(routes=routes))


def seeded():
    return build(SEEDED_ROUTES)


def fixed():
    return build(FIXED_ROUTES)
