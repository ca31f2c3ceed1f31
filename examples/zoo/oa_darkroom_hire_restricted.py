"""Restricted tool access, OpenAI Agents SDK (a `handoff(...)` with `tool_name_override` and
`tool_description_override`; run with `--restricted probe`): a community darkroom's hire desk.
`counter_k` answers members at the front counter; `enlarger_e`, the darkroom technician, holds
sessions with `hold_darkroom` once the chemistry for the process asked for is mixed.

Seeded: counter_k's lines come from the days before the technician kept the room diary: it holds
darkroom sessions with hold_darkroom itself, a tool only enlarger_e may use.
Fixed: it routes darkroom hires to enlarger_e through the hand-over.
"""

from __future__ import annotations

from typing import Literal

from agents import Agent, function_tool, handoff

from .models import model_string

DIARY: dict[str, int] = {"2026-02-21": 1}
ROOMS = 3


@function_tool
def hold_darkroom(day: str, hours: int, process: Literal["black and white", "colour"]) -> dict:
    """Hold a darkroom session and have its chemistry mixed.

    Args:
        day: The day of the session, e.g. "2026-01-31".
        hours: How long the session lasts, in whole hours (2 to 6).
        process: Black and white (fibre or RC paper) or colour (RA-4).
    """
    taken = DIARY.get(day, 0)
    if taken >= ROOMS:
        return {"http": 409, "body": {"detail": f"all rooms taken on {day}"}}
    return {"http": 201, "body": {"booking": f"DR-{day[5:7]}{day[8:]}-{taken + 1}", "room": f"Room {taken + 1} (Durst M605)",
                                  "chemistry": "Ilford MG dev 1+9, fresh" if process == "black and white" else "RA-4 kit"}}


@function_tool
def opening_hours() -> str:
    """When the darkroom building is open."""
    return "Tue-Sat 10:00-22:00; Sunday 12:00-18:00 (members only); closed Mondays."


enlarger_e = Agent(name="enlarger_e", model=model_string(), tools=[hold_darkroom],
                   instructions="You are the technician at Halide Street Darkroom.\nHold the session with hold_darkroom.")

COUNTER = "You are the front counter at Halide Street Darkroom, a members' community darkroom.\n{line}"
SEEDED = "Hold darkroom sessions with hold_darkroom."
FIXED = "Route darkroom hires to enlarger_e."


def build(line: str) -> Agent:
    return Agent(name="counter_k", model=model_string(), instructions=COUNTER.format(line=line),
                 tools=[opening_hours],
                 handoffs=[handoff(enlarger_e, tool_name_override="ask_the_technician",
                                   tool_description_override="Pass a member to the technician, who keeps the room diary.")])


def seeded():
    return build(SEEDED)


def fixed():
    return build(FIXED)
