"""Incorrect verification, OpenAI Agents SDK (a hand-off, parallel tool calls): a ski rental
shop's booking chat. `counter` takes the message and transfers rentals to `rk_9`, who reserves a
ski set with `reserve_skis` and helmets with `reserve_helmets`. The rental system answers with a
`Hold` dataclass whose `state` is HELD, with a reference, or SOLD_OUT with a note (in German and
English) when no set of the length asked for is free that day.

Seeded: rk_9's lines were written for the shop's first season, when every length was always in
stock, so they report the ski set as "Confirmed" whatever the hold's state. Fixed: a line first
reports a SOLD_OUT hold as not reserved, with the system's note.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from agents import Agent, function_tool

from .models import model_string

STOCK = {("all-mountain", 170): 0, ("all-mountain", 160): 3, ("piste", 170): 2}
HOLDS: list[str] = []


@dataclass
class Hold:
    state: str
    ref: str | None = None
    note: str = ""


@function_tool
def reserve_skis(day: str, length_cm: int, kind: Literal["all-mountain", "piste", "touring"]) -> Hold:
    """Reserve a ski set (skis, bindings set to the skier) for collection on a day.

    Args:
        day: The collection day, e.g. "2026-01-31".
        length_cm: The ski length in cm the skier asked for.
        kind: The kind of ski.
    """
    if not STOCK.get((kind, length_cm)):
        return Hold("SOLD_OUT", note=f"keine {kind} {length_cm} cm frei am {day} - no {length_cm} cm set left that day")
    STOCK[(kind, length_cm)] -= 1
    HOLDS.append(day)
    return Hold("HELD", ref=f"SK-{4410 + len(HOLDS)}", note="collect from 08:00 at the Talstation counter")


@function_tool
def reserve_helmets(day: str, helmets: int) -> dict:
    """Reserve helmets for collection on a day.

    Args:
        day: The collection day, e.g. "2026-01-31".
        helmets: How many helmets.
    """
    return {"result": {"status": "reserved", "count": helmets, "day": day}}


RK = """You are rk_9, rentals at Alpspitz Sport, Garmisch.
Reserve the ski set with reserve_skis.
Reserve helmets with reserve_helmets.
{sold_out}Report reserve_skis as "Confirmed" and give the collection time."""

SOLD_OUT = 'If reserve_skis returns SOLD_OUT, report "Not reserved" with the note the system gives.\n'


def build(sold_out: str) -> Agent:
    rk_9 = Agent(name="rk_9", model=model_string(), tools=[reserve_skis, reserve_helmets],
                 handoff_description="Rentals: ski sets, boots and helmets for collection.",
                 instructions=RK.format(sold_out=sold_out))
    return Agent(name="counter", model=model_string(), handoffs=[rk_9], instructions=(
        "You answer the Alpspitz Sport booking chat.\n"
        "Transfer to rk_9 for rental, rent, skis, helmets or hire.\n"
        'Say "Lessons are booked through the ski school, Skischule Zugspitze."'))


def seeded():
    return build("")


def fixed():
    return build(SOLD_OUT)
