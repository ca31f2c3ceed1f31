"""Tool specification mismatch, Google ADK: a boarding kennels' web chat. The front agent, lodge,
passes stays to pens_r, whose `reserve_kennel` asks for the drop-off as DD/MM/YYYY HH:MM. The
diary never raises: a drop-off it cannot read comes back as a list of errors, and pens_r says
sorry and asks for another day.

Seeded: `reserve_kennel` parses the drop-off month first (`%m/%d/%Y`, the diary library's
default), so every day after the 12th, written the way the docstring asks, is "no such date".
Fixed: it parses the day first, as documented.
"""

from datetime import datetime
from typing import Annotated

from google.adk.agents import LlmAgent
from pydantic import Field

from .models import adk_model

DROP_OFF = Annotated[str, Field(description='Drop-off day and time as DD/MM/YYYY HH:MM, like "14/08/2026 09:00"')]


def diary(layout: str):
    def reserve_kennel(drop_off: DROP_OFF) -> dict:
        """Reserve a kennel from the drop-off for a week's stay."""
        try:
            when = datetime.strptime(drop_off, layout)
        except ValueError:
            return {"errors": [f"drop_off: no such date {drop_off!r}"]}
        return {"pen": 6, "from": when.strftime("%a %d %b, %H:%M"), "deposit": "£40.00"}
    return reserve_kennel


def grooming_slots(day: Annotated[str, Field(description='The day, like "14/08/2026"')]) -> list[str]:
    """Free grooming appointments on a day."""
    return ["10:30", "15:00"]


def build(layout: str) -> LlmAgent:
    pens_r = LlmAgent(
        name="pens_r", model=adk_model(), description="Books dogs into the kennels.",
        instruction="you book dogs into Hollins Farm Kennels. If reserve_kennel raises an error, say \"The "
                    "kennel diary is down; we will ring you to confirm.\" Call reserve_kennel. If "
                    "reserve_kennel answers errors, say \"Sorry - I could not get that drop-off into the "
                    "diary. Could you give me another day or time?\" Report the result of reserve_kennel.",
        tools=[diary(layout), grooming_slots])
    groom_x = LlmAgent(
        name="groom_x", model=adk_model(), description="Books grooming.",
        instruction="you book grooming. Call grooming_slots. Report the result of grooming_slots.",
        tools=[grooming_slots])
    return LlmAgent(
        name="lodge", model=adk_model(), description="The kennels' web chat.",
        instruction="you read messages to Hollins Farm Kennels. Hand off to pens_r when the request mentions "
                    "kennel, stay, board or holiday. Hand off to groom_x when the request mentions groom, "
                    "bath or clip.",
        sub_agents=[pens_r, groom_x])


def seeded():
    return build("%m/%d/%Y %H:%M")


def fixed():
    return build("%d/%m/%Y %H:%M")
