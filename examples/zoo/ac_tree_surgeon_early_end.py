"""Premature termination, AutoGen AgentChat (RoundRobinGroupChat with a `SourceMatchTermination`):
a tree surgeon's enquiry desk. `canopy` books a site survey with `book_survey`; `tpo_9` then
checks with `check_protection` whether the tree stands under a Tree Preservation Order or in a
conservation area, where no work may start before the council agrees (six weeks' notice).

Seeded: the team's stop condition was written when the survey desk worked alone and ends the run
once `canopy` has spoken, so the protection check never runs and the customer is never told
that their oak is protected. Fixed: the run ends once `tpo_9`, the last in the round, has spoken.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

SURVEYS: list[str] = []
PROTECTED = {"LS21": ("TPO 2019/07", "Otley conservation area")}


def book_survey(postcode: Annotated[str, 'Where the tree is, a postcode, e.g. "LS21 1AB"'],
                day: Annotated[str, 'The day of the visit, e.g. "2026-01-31"']) -> dict:
    """Book an arborist's site survey (free, about 30 minutes)."""
    SURVEYS.append(postcode)
    return {"status": {"code": 201, "text": "Created"}, "survey": f"SV-{700 + len(SURVEYS)}", "day": day,
            "window": "08:00-12:00", "arborist": "Dani"}


def check_protection(postcode: Annotated[str, 'Where the tree is, a postcode, e.g. "LS21 1AB"']) -> str:
    """Whether trees at a postcode are protected (Tree Preservation Order, conservation area)."""
    found = PROTECTED.get(postcode.split()[0])
    if found is None:
        return f"{postcode}: no order on record, no conservation area - work may go ahead."
    order, area = found
    return (f"{postcode}: PROTECTED - {order}, {area}. Council consent needed before any pruning or felling; "
            "allow six weeks' notice.")


def build(last: str) -> RoundRobinGroupChat:
    client = agentchat_client()
    canopy = AssistantAgent(
        "canopy", model_client=client, tools=[book_survey], reflect_on_tool_use=True,
        system_message="You are the enquiry desk of Canopy Tree Care.\n"
                       "Book the site survey with book_survey.\n"
                       "If book_survey fails, explain what the system said.\n"
                       "Confirm the survey to the customer.")
    tpo_9 = AssistantAgent(
        "tpo_9", model_client=client, tools=[check_protection], reflect_on_tool_use=True,
        system_message="You check tree protection for Canopy Tree Care before any job.\n"
                       "Look the postcode up with check_protection.\n"
                       "Read out what check_protection said.")
    return RoundRobinGroupChat([canopy, tpo_9], termination_condition=SourceMatchTermination([last]) |
                               MaxMessageTermination(10))


def seeded():
    return build("canopy")


def fixed():
    return build("tpo_9")
