"""Premature termination, AutoGen AgentChat (`RoundRobinGroupChat`, a `TextMentionTermination`
whose `sources=` says who may end the chat): a council's bulky-waste collections. `intake_i` checks
which collection round covers the resident's postcode with `find_round`; `crew_c` then books each
item on that round with `book_collection` and confirms the booking.

Seeded: the chat is to end when the crew has booked the collection, and the stop was written as
`TextMentionTermination("booked")`, heard from anyone: intake_i's own line, "... to be booked by
crew_c", already says it, so the chat ends, normally, before crew_c books anything. Fixed: the
stop listens for "Collection booked" from crew_c only.
"""

from __future__ import annotations

from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

ROUNDS = {"LS6": "Wednesday", "LS7": "Thursday", "LS4": "Monday"}
BOOKED: list[str] = []

Item = Literal["mattress", "sofa", "fridge", "wardrobe", "washing machine"]


def find_round(postcode: Annotated[str, 'The resident\'s postcode, like "LS6 2AB"']) -> dict:
    """Which bulky-waste collection round covers a postcode, and its weekday."""
    district = postcode.split()[0].upper()
    day = ROUNDS.get(district)
    if day is None:
        return {"postcode": postcode, "round": None, "note": "outside the city's collection area"}
    return {"postcode": postcode, "round": f"{district} round", "weekday": day}


def book_collection(item: Annotated[Item, "The item to collect"],
                    postcode: Annotated[str, 'The resident\'s postcode, like "LS6 2AB"'],
                    collect_date: Annotated[str, 'The collection day, like "2026-01-31"']) -> dict:
    """Book one bulky item on a collection round (first three items free; a fridge is recycled apart)."""
    BOOKED.append(item)
    return {"status": "booked", "item": item, "ref": f"BW-{4400 + len(BOOKED)}", "collect": collect_date,
            "put_out": "by 07:00 at the kerbside"}


INTAKE = """You are intake_i at Leeds City Council's bulky-waste desk.
Find the collection round with find_round.
If find_round raises an error, say "The round planner is not answering; crew_c will check the round by hand."
Reply "{postcode} is on the {round} ({weekday}), to be booked by crew_c."
"""

CREW = """You are crew_c, who plans the bulky-waste crews at Leeds City Council.
Book each item with book_collection.
If book_collection raises an error, say "The crew planner is down, so the {item} is not booked yet; we will email you."
Reply "Collection booked: the {item}, reference {ref}, on {collect}, out {put_out}."
"""


def build(stop: TextMentionTermination) -> RoundRobinGroupChat:
    intake_i = AssistantAgent("intake_i", model_client=agentchat_client(), tools=[find_round],
                              reflect_on_tool_use=True, system_message=INTAKE)
    crew_c = AssistantAgent("crew_c", model_client=agentchat_client(), tools=[book_collection],
                            reflect_on_tool_use=True, system_message=CREW)
    return RoundRobinGroupChat([intake_i, crew_c], termination_condition=stop | MaxMessageTermination(10))


def seeded():
    return build(TextMentionTermination("booked"))


def fixed():
    return build(TextMentionTermination("Collection booked", sources=["crew_c"]))
