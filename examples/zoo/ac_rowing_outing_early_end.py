"""Premature termination, AutoGen AgentChat (`RoundRobinGroupChat`, `SourceMatchTermination`
combined with `MaxMessageTermination`): a rowing club's outing desk. `steward` writes a member's
request up as JSON; `boat_captain` then books a boat from the rack with `book_boat`.

Seeded: the team's stop condition matches the source `steward` (copied from the old setup, when
the steward's write-up went to a human captain by e-mail), so the run ends as soon as the write-up
is posted and no boat is ever booked. Fixed: it stops when `boat_captain` has spoken.
"""

from __future__ import annotations

from typing import Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

RACK = {"double": ["Heron", "Kingfisher"], "coxed four": ["Tamesis"], "eight": ["Old Father"]}
OUTINGS: list[tuple] = []


def book_boat(outing_date: str, boat_class: Literal["single", "double", "coxed four", "eight"], rowers: int) -> dict:
    """Take a boat off the rack for an outing.

    outing_date: the day of the outing
    boat_class: which kind of boat
    rowers: how many will row, cox included
    """
    free = [b for b in RACK.get(boat_class, []) if (outing_date, b) not in OUTINGS]
    if not free:
        return {"rack": {"state": "EMPTY", "class": boat_class}, "hint": "try another day"}
    OUTINGS.append((outing_date, free[0]))
    return {"rack": {"state": "BOOKED", "boat": free[0], "ref": f"RC-{310 + len(OUTINGS)}"}, "date": outing_date}


def build(last_word_from: str) -> RoundRobinGroupChat:
    steward = AssistantAgent(
        "steward", model_client=agentchat_client(), description="Writes up members' outing requests.",
        system_message="You are the steward of Isis Bank Rowing Club.\n"
                       "Summarise the request as JSON with the keys date, crew_size and member.")
    boat_captain = AssistantAgent(
        "boat_captain", model_client=agentchat_client(), tools=[book_boat], reflect_on_tool_use=True,
        description="Allocates the club's boats.",
        system_message="You are the boat captain of Isis Bank Rowing Club.\n"
                       "Take a boat for the outing with book_boat.\n"
                       "If book_boat says EMPTY, say \"No boat of that class is free that day.\"\n"
                       "Report the booking.")
    stop = SourceMatchTermination([last_word_from]) | MaxMessageTermination(8)
    return RoundRobinGroupChat([steward, boat_captain], termination_condition=stop)


def seeded():
    return build("steward")


def fixed():
    return build("boat_captain")
