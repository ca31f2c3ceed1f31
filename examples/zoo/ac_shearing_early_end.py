"""Premature termination, AutoGen AgentChat Swarm: a shearing contractor's booking line. `desk`
answers farmers and hands shearing bookings to `Worker`, who books a gang with `book_gang`.
The team stops when someone hands the conversation back to the farmer (`HandoffTermination` to
"user") or once Worker has answered.

desk's hand-over line is filled from a table of who handles what (`HANDLERS`), with the farmer as
the fallback for anything the line does not handle. Seeded: the table's key was renamed from
"shearing" to "shear" when crutching was added, so the lookup falls back to "user": desk hands the
farmer back and the team ends normally before Worker books anything. Fixed: the key the lookup
uses.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import HandoffTermination, MaxMessageTermination, SourceMatchTermination
from autogen_agentchat.teams import Swarm

from .models import agentchat_client

GANG_DAYS = {"2026-06-08": "gang B (4 shearers)", "2026-06-09": "gang A (3 shearers)"}


def book_gang(holding: Annotated[str, 'The farm\'s holding number, like "CPH 12/345/6789"'],
              day: Annotated[str, 'The shearing day, like "2026-01-31"']) -> str:
    """Book a shearing gang for a day at a farm."""
    gang = GANG_DAYS.get(day)
    if gang is None:
        return f"No gang free on {day}."
    return f"Booked {gang} for holding {holding} on {day}, starting 07:00; pens and a dry shed needed."


DESK = """You answer the phone line of Fell & Dale Shearing.
Hand off to {shearing} when the request mentions shearing, shear, flock or ewes.
Say "We shear from late May to August; the diary opens in March."
"""

WORKER = """You keep the shearing gangs' diary.
Call book_gang.
If book_gang raises an error, say "The gang diary is offline; the boss will ring you tonight to fix a day."
Report the result of book_gang.
"""


def build(handlers: dict[str, str]) -> Swarm:
    client = agentchat_client()
    desk = AssistantAgent("desk", model_client=client, handoffs=["Worker", "user"],
                          system_message=DESK.format(shearing=handlers.get("shearing", "user")),
                          description="Answers the phone line.")
    worker = AssistantAgent("Worker", model_client=client, tools=[book_gang], system_message=WORKER,
                            description="Keeps the shearing gangs' diary.")
    stop = HandoffTermination(target="user") | SourceMatchTermination(["Worker"]) | MaxMessageTermination(12)
    return Swarm([desk, worker], termination_condition=stop)


def seeded():
    return build({"shear": "Worker", "crutching": "Worker"})


def fixed():
    return build({"shearing": "Worker", "crutching": "Worker"})
