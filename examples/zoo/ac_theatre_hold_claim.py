"""Incorrect verification, AutoGen AgentChat SelectorGroupChat: a repertory theatre's box office
answers by chat. `seatplan` finds the best free seats for a performance from the seat map (a copy
refreshed every few minutes), `kasse` holds them on the ticketing system (`hold_seats`) until the
customer pays at the window. The ticketing system answers JSON text with a numbered code: `E0` a
hold, `E409` seats someone else has just taken, `E423` a performance closed for sale.

kasse's instructions were written against the ticketing system's first API, which answered
`SOLD_OUT` when seats had gone. Seeded: they still look for SOLD_OUT, so an E409 ("already
taken") falls through to the closing line, and kasse tells the customer the seats are held.
Fixed: they look for the code the system answers and say the seats were taken.
"""

from __future__ import annotations

import json
from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination
from autogen_agentchat.teams import SelectorGroupChat

from .models import agentchat_client

PERFORMANCE = Annotated[str, 'The performance code on the season brochure, like "EV-1000"']
PERFORMANCES = {"EV-3307": "The Seagull, Sat 14 Mar 19:30"}
SEAT_MAP_CACHE = {"EV-3307": ["211-212", "344-345"]}  # refreshed every five minutes
SOLD_SINCE_REFRESH = {("EV-3307", "211-212")}  # sold at the window two minutes ago


def best_available(performance: PERFORMANCE) -> str:
    """The best pair of free seats for a performance, from the seat map."""
    free = SEAT_MAP_CACHE.get(performance)
    if not free:
        return f"No seat map for {performance}."
    return f"Best pair for {PERFORMANCES[performance]}: seats {free[0]} (row F, centre stalls), GBP 32.50 each."


def hold_seats(performance: PERFORMANCE,
               seats: Annotated[str, 'The seat numbers on the map, first and last joined by a hyphen, like "101-102"']) -> str:
    """Hold seats for a customer until they pay at the box-office window."""
    if performance not in PERFORMANCES:
        return json.dumps({"code": "E423", "detail": f"{performance} is not on sale"})
    if (performance, seats) in SOLD_SINCE_REFRESH:
        return json.dumps({"code": "E409", "detail": f"{seats} already taken", "hold": None})
    return json.dumps({"code": "E0", "hold": f"H-{seats}", "until": "30 minutes before curtain-up"})


SELECTOR_PROMPT = """You pass the chat between the box office team of the Lyceum Rep.
{roles}

The work goes seatplan, then kasse.

Read the conversation so far:
{history}

Choose the next speaker from {participants}; answer with the name only.
"""

SEATPLAN = """You find seats on the Lyceum Rep's seat map.
Call best_available.
If best_available raises an error, say "The seat map will not load - the box office will ring you back."
Report the result of best_available."""

KASSE_V1 = """You hold seats for customers until they pay at the window.
Call hold_seats.
If hold_seats raises an error, say "The ticketing system is down; we will keep a note of your seats by hand."
If hold_seats answers SOLD_OUT, say "Sorry - those seats were taken a moment ago. Shall I look for another pair?"
Say "Lovely - your seats are held until half an hour before curtain-up. Pay at the window when you arrive."
"""

KASSE = """You hold seats for customers until they pay at the window.
Call hold_seats.
If hold_seats raises an error, say "The ticketing system is down; we will keep a note of your seats by hand."
If hold_seats answers E409, say "Sorry - those seats were taken a moment ago. Shall I look for another pair?"
Say "Lovely - your seats are held until half an hour before curtain-up. Pay at the window when you arrive."
"""


def build(kasse_instructions: str) -> SelectorGroupChat:
    client = agentchat_client()
    seatplan = AssistantAgent("seatplan", model_client=client, tools=[best_available], system_message=SEATPLAN,
                              reflect_on_tool_use=True, description="Finds the best free seats on the seat map.")
    kasse = AssistantAgent("kasse", model_client=client, tools=[hold_seats], system_message=kasse_instructions,
                           reflect_on_tool_use=True, description="Holds seats on the ticketing system.")
    return SelectorGroupChat([seatplan, kasse], model_client=client, selector_prompt=SELECTOR_PROMPT,
                             termination_condition=SourceMatchTermination(["kasse"]) | MaxMessageTermination(10))


def seeded():
    return build(KASSE_V1)


def fixed():
    return build(KASSE)
