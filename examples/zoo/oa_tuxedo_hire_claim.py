"""Incorrect verification, OpenAI Agents SDK (one agent, `ModelSettings(parallel_tool_calls=True)`):
a formal-wear hire shop's chat. `rail_3` looks up the size chart and places a hold on a suit in
the same turn (`size_chart` answers a dict, `hold_suit` a dataclass whose status is HELD with a
ticket, or NOT_HELD when every suit of that cut and size is out on hire that day).

Seeded: rail_3's instructions were written when a hold could not fail (the shop held any size
and altered one to fit) and tell it to answer "OK — booked." once the hold is placed. Fixed: a
sentence first answers a failed hold with the reason hold_suit gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from agents import Agent, ModelSettings, function_tool

from .models import model_string

STOCK = {("shawl", "42R"): 0, ("shawl", "40R"): 3, ("notch", "42R"): 2, ("peak", "42R"): 1}
HELD: list[str] = []


@dataclass
class Hold:
    status: str
    ticket: str | None = None
    note: str = ""


@function_tool
def size_chart(jacket: str) -> dict:
    """Trouser and shirt sizes that go with a jacket size.

    Args:
        jacket: The jacket size, e.g. "40R".
    """
    chest = int(jacket[:2])
    return {"jacket": jacket, "fits": {"shirt_collar": f"{chest // 2.6:.0f}in", "waist": f"{chest - 8}"}}


@function_tool
def hold_suit(style: Literal["shawl", "notch", "peak"], jacket: str, event_day: str) -> Hold:
    """Hold a dinner suit for collection the day before an event.

    Args:
        style: The lapel: shawl, notch or peak.
        jacket: The jacket size, e.g. "40R".
        event_day: The day of the event, e.g. "2026-01-31".
    """
    if STOCK.get((style, jacket), 0) == 0:
        return Hold("NOT_HELD", note=f"all {style} {jacket} out on hire for {event_day}; back Tue 23rd")
    HELD.append(event_day)
    return Hold("HELD", f"TX-{880 + len(HELD)}", "collect Fri from 10:00")


RAIL = """You are the hire desk of Ashby Formal Hire.
Use size_chart and hold_suit for every request.
{failed}Reply "OK — booked." once the hold is placed."""

FAILED = "If hold_suit fails, give the reason.\n"


def build(failed: str) -> Agent:
    return Agent(name="rail_3", model=model_string(), tools=[size_chart, hold_suit],
                 model_settings=ModelSettings(parallel_tool_calls=True),
                 instructions=RAIL.format(failed=failed))


def seeded():
    return build("")


def fixed():
    return build(FAILED)
