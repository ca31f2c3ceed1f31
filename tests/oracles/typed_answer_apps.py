"""A sea-kayak centre's hire desk on PydanticAI whose answer is a typed `output_type`
(`KayakHire`): `hire_desk` reserves a double kayak with `reserve_kayak`, which answers with a
`Launch` dataclass whose `state` is RESERVED, with a reference, or SWELL_CLOSED with the harbour
master's reason when the sea state is over the hire limit.

`careless_desk`'s instructions were written when every launch went out: it sets `reserved` true
and `state` "reserved" whatever the tool said (its `note` copies the tool's reason). `careful_desk`
first answers a SWELL_CLOSED with `reserved` false. Run them with
`scripted/examples/zoo/policy_o.py:policy`, a model that fills typed answers from such lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import BaseModel, Field
from pydantic_ai import Agent

SWELL_LIMIT_M = 1.2
SWELL = {"2026-07-11": 1.9, "2026-07-12": 0.6}
LAUNCHES: list[str] = []


@dataclass
class Launch:
    state: str
    launch_day: str
    ref: str | None = None
    note: str | None = None


class KayakHire(BaseModel):
    reserved: bool
    state: str
    ref: str | None = None
    note: str | None = None


def reserve_kayak(launch_day: Annotated[str, Field(description='The day on the water, e.g. "2026-01-31"')],
                  paddlers: Annotated[int, Field(description="How many paddle, e.g. 2")]) -> Launch:
    """Reserve a double sea kayak for a day's guided paddle."""
    swell = SWELL.get(launch_day, 0.8)
    if swell > SWELL_LIMIT_M:
        return Launch(state="SWELL_CLOSED", launch_day=launch_day,
                      note=f"swell {swell} m at the harbour mouth, hire limit {SWELL_LIMIT_M} m")
    LAUNCHES.append(launch_day)
    return Launch(state="RESERVED", launch_day=launch_day, ref=f"SK-{300 + len(LAUNCHES)}")


DESK = """You take kayak hires at Longships Sea Kayaking.
Reserve the kayak with reserve_kayak.
{closed}Set reserved to true.
Set state to reserved."""
CLOSED = "If reserve_kayak returns SWELL_CLOSED, set reserved to false.\n"


def _desk(closed: str) -> Agent:
    desk = Agent("openai:gpt-4o-mini", name="hire_desk", output_type=KayakHire,
                 instructions=DESK.format(closed=closed))
    desk.tool_plain(reserve_kayak)
    return desk


careless_desk = _desk("")
careful_desk = _desk(CLOSED)
