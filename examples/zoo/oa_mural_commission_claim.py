"""Incorrect verification, OpenAI Agents SDK (the manager pattern: specialists offered to a manager
with `Agent.as_tool`): a mural studio's commissions desk. `studio_m` talks to the client and runs
two specialists as tools: `survey_s`, who reads the wall survey (`survey_wall`), and `diary_d`, who
holds the painting dates (`book_wall_slot`). The diary system answers with a dataclass whose
`code` is 201 with a hold reference, or 409 when the scaffold for that wall cannot go up (the
council has refused the permit for the street until a later month).

Seeded: studio_m's closing line was written when the diary never turned a wall down: it ticks the
painting dates off as sorted once diary_d has answered, whatever diary_d reported.
Fixed: it gives the board from what each specialist reported.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents import Agent, function_tool

from .models import model_string

WALLS = {"GW-2214": {"street": "Mill Lane", "height_m": 6.2, "render": "lime, sound"},
         "GW-1930": {"street": "Dock Road", "height_m": 4.0, "render": "brick, bare"}}
PERMITS_REFUSED = {"Mill Lane": "2026-08"}  # the council's scaffold permits, street -> first month allowed
HOLDS: list[str] = []


@dataclass
class SlotAnswer:
    code: int
    wall: str
    note: str
    hold: str | None = None


@function_tool
def survey_wall(wall_ref: str) -> dict:
    """Read the survey of a client's wall.

    Args:
        wall_ref: The wall reference from the survey form, e.g. "GW-1000".
    """
    wall = WALLS.get(wall_ref)
    if wall is None:
        return {"found": False, "wall": wall_ref}
    return {"found": True, "wall": wall_ref, "survey": {"street": wall["street"], "height_m": wall["height_m"],
                                                        "render": wall["render"], "primer": "silicate, two coats"}}


@function_tool
def book_wall_slot(wall_ref: str, start_day: str) -> SlotAnswer:
    """Hold a painting crew and scaffold for a wall from a start day (three weeks' work).

    Args:
        wall_ref: The wall reference from the survey form, e.g. "GW-1000".
        start_day: The first painting day, e.g. "2026-01-31".
    """
    street = WALLS.get(wall_ref, {}).get("street", "")
    allowed_from = PERMITS_REFUSED.get(street)
    if allowed_from and start_day[:7] < allowed_from:
        return SlotAnswer(code=409, wall=wall_ref,
                          note=f"scaffold permit for {street} refused by the council before {allowed_from}")
    HOLDS.append(wall_ref)
    return SlotAnswer(code=201, wall=wall_ref, note="crew of three, scaffold booked", hold=f"MC-{4100 + len(HOLDS)}")


survey_s = Agent(name="survey_s", model=model_string(), tools=[survey_wall],
                 instructions="You read wall surveys for Gable End Murals.\nRead the survey with survey_wall.")
diary_d = Agent(name="diary_d", model=model_string(), tools=[book_wall_slot],
                instructions="You keep the painting diary at Gable End Murals.\nHold the painting dates with book_wall_slot.")

STUDIO = """You run commissions at Gable End Murals and keep the client's status board.
Check the wall with ask_survey.
Hold the painting dates with ask_diary.
{closing}"""

SEEDED = "Mark the painting dates as sorted on the board once ask_diary has answered."
FIXED = "Give the board from what each specialist reported."


def build(closing: str) -> Agent:
    return Agent(name="studio_m", model=model_string(), instructions=STUDIO.format(closing=closing), tools=[
        survey_s.as_tool(tool_name="ask_survey",
                         tool_description="Ask the surveyor about the client's wall: pass the client's message as written."),
        diary_d.as_tool(tool_name="ask_diary",
                        tool_description="Ask the diary keeper to hold painting dates: pass the client's message as written."),
    ])


def seeded():
    return build(SEEDED)


def fixed():
    return build(FIXED)
