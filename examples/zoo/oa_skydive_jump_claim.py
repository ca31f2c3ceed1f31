"""Incorrect verification, OpenAI Agents SDK (structured `output_type`, a `RunContextWrapper`
context shared by tools): a skydiving centre's tandem desk. `manifest` books a tandem jump with
`book_tandem`, which reads the day's wind forecast from the run's context object and answers with
a `Slot` dataclass whose `status` is MANIFESTED, with a load number, or WIND_HOLD when the
forecast is over the tandem limit. Its answer is a typed `JumpBooking`.

Seeded: manifest's instructions were written when every booking went onto a load, so they set
`booked` to true and `status` to "manifested" after calling the tool, whatever it said. Fixed: a
line first answers a WIND_HOLD with the tool's own status and reason, and `booked` false. (Both
say `booked` false when the tool itself breaks.)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agents import Agent, RunContextWrapper, function_tool
from pydantic import BaseModel

from .models import model_string

TANDEM_LIMIT_KNOTS = 18


@dataclass
class DropZone:
    """The desk's shared state: the forecast per day and the loads filled so far."""
    wind_knots: dict[str, int] = field(default_factory=lambda: {"2026-05-16": 24, "2026-05-17": 9})
    loads: list[str] = field(default_factory=list)


@dataclass
class Slot:
    status: str
    day: str
    load: str | None = None
    reason: str | None = None


class JumpBooking(BaseModel):
    booked: bool
    status: str
    reference: str | None = None
    reason: str | None = None


@function_tool
def book_tandem(ctx: RunContextWrapper[DropZone], jump_day: str, jumpers: int) -> Slot:
    """Put tandem jumpers on a load.

    Args:
        jump_day: The day of the jump, e.g. "2026-01-31".
        jumpers: How many people will jump, e.g. 2.
    """
    zone = ctx.context
    wind = zone.wind_knots.get(jump_day, 12)
    if wind > TANDEM_LIMIT_KNOTS:
        return Slot(status="WIND_HOLD", day=jump_day,
                    reason=f"forecast {wind} kt, tandem limit {TANDEM_LIMIT_KNOTS} kt (Windstärke zu hoch)")
    zone.loads.append(jump_day)
    return Slot(status="MANIFESTED", day=jump_day, load=f"LD-{40 + len(zone.loads)}")


MANIFEST = """You run the tandem manifest at Skyline Drop Zone.
Book the jump with book_tandem.
If book_tandem raises an error, set booked to false and set status to unavailable.
{hold}Set booked to true.
Set status to manifested."""

HOLD = "If book_tandem returns WIND_HOLD, set booked to false.\n"


def build(hold: str) -> Agent:
    return Agent[DropZone](name="manifest", model=model_string(), tools=[book_tandem],
                           output_type=JumpBooking, instructions=MANIFEST.format(hold=hold))


def seeded():
    return build("")


def fixed():
    return build(HOLD)
