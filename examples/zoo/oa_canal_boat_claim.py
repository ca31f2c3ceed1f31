"""Incorrect verification, OpenAI Agents SDK (agents as tools, `Agent.as_tool`): a canal boat hire
firm's booking line. `helm` talks to the customer and runs `berths` as a tool; `berths` reserves
a narrowboat with `reserve_boat`. The hire system answers with a tuple: an HTTP-like code and a
dict whose `outcome` is HELD, with a hold reference, or NO_BOAT when every boat of that length is
out on the week asked for.

Seeded: berths' instructions were written for the old system, which put every request on a
waiting list and always found a boat, so they go from `reserve_boat` straight to confirming.
Fixed: a sentence first answers a NO_BOAT outcome with the reason the hire system gives.
"""

from __future__ import annotations

from typing import Literal

from agents import Agent, function_tool

from .models import model_string

FLEET = {"2026-07-11": {"short": 1, "long": 0}, "2026-07-18": {"short": 2, "long": 1}}
HOLDS: list[str] = []


@function_tool
def reserve_boat(start_day: str, boat_length: Literal["short", "long"], berths_needed: int) -> tuple:
    """Hold a narrowboat for a week's hire from the Kennet basin.

    Args:
        start_day: The Saturday the hire starts, e.g. "2026-01-31".
        boat_length: A short boat sleeps up to 4, a long one up to 8.
        berths_needed: How many people will sleep on board, e.g. "4".
    """
    free = FLEET.get(start_day, {}).get(boat_length, 0)
    if free < 1:
        return 200, {"outcome": "NO_BOAT", "week": start_day,
                     "note": f"all {boat_length} boats are out that week (ausgebucht)"}
    HOLDS.append(start_day)
    return 201, {"outcome": "HELD", "hold": f"KB-{7300 + len(HOLDS)}", "boat": "Otter's Rest", "week": start_day}


BERTHS = """You look after the boat diary at Kennet Basin Boats.
Hold a boat with reserve_boat.
{no_boat}Confirm the hire."""

NO_BOAT = "If reserve_boat says NO_BOAT, explain that no boat could be held and give the reason.\n"


def build(no_boat: str) -> Agent:
    berths = Agent(name="berths", model=model_string(), tools=[reserve_boat],
                   instructions=BERTHS.format(no_boat=no_boat))
    return Agent(name="helm", model=model_string(), tools=[
        berths.as_tool(tool_name="ask_berths",
                       tool_description='Ask the boat diary to hold a boat: pass the customer\'s request as written.')],
        instructions=("You answer the phone at Kennet Basin Boats, a canal boat hire firm.\n"
                      "Use ask_berths for any hire or booking.\n"
                      "Pass on what ask_berths said."))


def seeded():
    return build("")


def fixed():
    return build(NO_BOAT)
