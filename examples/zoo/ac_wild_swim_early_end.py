"""Premature termination, AutoGen AgentChat (`RoundRobinGroupChat`, the seeded team stopped by a
`TextMentionTermination`, the fixed one by a `SourceMatchTermination`, each `|` a
`MaxMessageTermination` backstop): a lake's guided open-water swims. `lake_l`, the lifeguard,
reads the lake for the day with `lake_conditions`; `coach_c` books a coached swim with
`book_swim`; `till_t` takes the deposit with `take_deposit` and sees the swimmers off.

Seeded: the team stops when anyone's message says "see you", the till's send-off when the app
was one agent: the lifeguard, whose good lake report ends by looking forward to the day,
stops the team before coach_c books the swim or till_t takes the deposit.
Fixed: the team stops once till_t has spoken.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

DAY = Annotated[str, 'The swim day, e.g. "2026-01-31"']
LAKE = {"2026-06-14": {"water": "16C", "blue_green_algae": "none", "swim": "open", "day": "2026-06-14"}}
COACHES = {"2026-06-14": "Ffion"}


def lake_conditions(day: DAY) -> dict:
    """The lifeguard's reading of the lake for a day: water temperature, algae and whether it is open."""
    return LAKE.get(day, {"water": "?", "swim": "no reading yet, taken at 06:30 on the day", "day": day})


def book_swim(day: DAY, swimmers: Annotated[int, "How many people swim"]) -> dict:
    """Book a coached one-hour open-water swim (tow floats and a coach in a kayak)."""
    coach = COACHES.get(day)
    if coach is None:
        return {"status": 409, "detail": f"no coach free on {day}"}
    return {"status": 201, "swim": {"coach": coach, "start": "07:30", "swimmers": swimmers,
                                    "ref": f"WS-{day[5:7]}{day[8:]}{swimmers}"}}


def take_deposit(ref: Annotated[str, 'The swim\'s reference, e.g. "WS-0000"']) -> dict:
    """Take the £12 deposit a swimmer for a booked swim on the card on file."""
    return {"status": 200, "taken": "£12.00 a swimmer", "against": ref}


def build(stop) -> RoundRobinGroupChat:
    client = agentchat_client()
    lake_l = AssistantAgent(
        "lake_l", model_client=client, tools=[lake_conditions], reflect_on_tool_use=True,
        description="The lifeguard: reads the lake.",
        system_message="You are lake_l, the lifeguard at Llyn Glas Open Water.\n"
                       "Read the lake for the day with lake_conditions.\n"
                       'If lake_conditions fails, say "The lake log is not answering; the coach will check the water on the day."')
    coach_c = AssistantAgent(
        "coach_c", model_client=client, tools=[book_swim], reflect_on_tool_use=True,
        description="Books coached swims.",
        system_message="You are coach_c, the swim coach at Llyn Glas Open Water.\n"
                       "Book the swim with book_swim.\n"
                       "If book_swim answers 409, tell the customer what it said.\n"
                       'If book_swim fails, say "The coaches\' diary is not answering, so the swim is not booked yet."')
    till_t = AssistantAgent(
        "till_t", model_client=client, tools=[take_deposit], reflect_on_tool_use=True,
        description="Takes deposits and sees swimmers off.",
        system_message="You are till_t at the Llyn Glas Open Water hut.\n"
                       "Take the deposit with take_deposit.\n"
                       'If take_deposit fails, say "The card machine is not answering, so no deposit is taken yet."')
    return RoundRobinGroupChat([lake_l, coach_c, till_t], termination_condition=stop | MaxMessageTermination(16))


def seeded():
    return build(TextMentionTermination("see you"))


def fixed():
    return build(SourceMatchTermination(["till_t"]))
