"""Incorrect verification, OpenAI Agents SDK (agents as tools: the reception agent calls the baths
desk through `Agent.as_tool` with a `custom_output_extractor` that hands back only the desk's
final words): a thermal baths. `recepcion` takes every message and asks `banos_d` to book
sessions in the pools; banos_d books with `book_bath_session`, which answers an HTTP-like dict:
201 with a ticket, or 409 with status FAILED when the thermal circuit is full that day.

Seeded: banos_d's instructions, written when the circuit was never full on weekdays, end by
telling the guest the session is booked, whatever book_bath_session answered; the reception relays
it. Fixed: a line first explains a FAILED answer.
"""

from __future__ import annotations

from typing import Literal

from agents import Agent, RunResult, function_tool

from .models import model_string

CAPACITY = {("circuito termal", "2026-03-12"): 0, ("circuito termal", "2026-03-13"): 9, ("piscina exterior", "2026-03-12"): 14}
TICKETS: list[str] = []


@function_tool
def book_bath_session(area: Literal["circuito termal", "piscina exterior", "flotarium"], day: str, guests: int) -> dict:
    """Book a two-hour session in one area of the baths.

    Args:
        area: circuito termal (the hot-cold circuit), piscina exterior or flotarium.
        day: The day of the visit, e.g. "2026-01-31".
        guests: How many guests.
    """
    left = CAPACITY.get((area, day), 0)
    if left < guests:
        return {"http": 409, "body": {"status": "FAILED", "reason": f"{area} fully booked on {day} ({left} places left)"}}
    CAPACITY[(area, day)] = left - guests
    TICKETS.append(day)
    return {"http": 201, "body": {"status": "CREATED", "ticket": f"TB-{4410 + len(TICKETS)}", "towels": "included"}}


DESK = """You are banos_d, the bookings desk of Termas de Alhama.
Book the session with book_bath_session.
{failed}Tell the guest the session is booked."""

FAILED = "If book_bath_session says FAILED, explain to the guest that the day is full and quote the reason.\n"


async def final_words(result: RunResult) -> str:
    """Only what the desk finally said, not its tool traffic, goes back to reception."""
    return str(result.final_output)


def build(failed: str) -> Agent:
    banos_d = Agent(name="banos_d", model=model_string(), tools=[book_bath_session],
                    instructions=DESK.format(failed=failed))
    return Agent(
        name="recepcion", model=model_string(),
        instructions=("You are the reception of Termas de Alhama, a thermal spa in Aragon.\n"
                      "Ask the bookings desk with ask_bookings_desk, passing the guest's words."),
        tools=[banos_d.as_tool(tool_name="ask_bookings_desk",
                               tool_description="Ask the bookings desk to book a session in the baths.",
                               custom_output_extractor=final_words)])


def seeded():
    return build("")


def fixed():
    return build(FAILED)
