"""Premature termination, AutoGen AgentChat (`RoundRobinGroupChat` stopped by
`TextMentionTermination | MaxMessageTermination`): a bowling alley's birthday party desk. `lanes`
holds a lane with `book_lane` and posts the lane system's record to the team as it comes
(`reflect_on_tool_use=False`); `party_m` books the party room and food with `book_party`; `front`
closes with the line the team's stop condition listens for.

Seeded: the stop condition listens for the bare word "confirmed", meant for front's closing line;
the lane system's record ends "... confirmed by LaneMaster", so the team stops as soon as lanes
posts it: no party room or food is booked and front never speaks. Fixed: the stop condition
listens for front's whole phrase, "PARTY CONFIRMED".
"""

from __future__ import annotations

from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

ROOMS: list[str] = []


def lane_diary():
    """book_lane over the alley's lane diary. A hold is the party's: the same party (day, start,
    bowlers) asking again is given the lane it holds, so a run repeated in one process (masfuzz's
    in-process executor opens the system once) finds what the first run found."""
    free = {("2026-06-13", "14:00"): [7, 9]}
    held: dict[tuple[str, str, int], int] = {}

    def book_lane(day: Annotated[str, 'The day, e.g. "2026-01-31"'],
                  start: Annotated[str, 'When bowling starts, 24-hour clock, e.g. "18:30"'],
                  bowlers: Annotated[int, 'How many kids or adults bowl, e.g. "6"']) -> str:
        """Hold a lane at Kingpin Lanes for two games."""
        party = (day, start, bowlers)
        if party not in held:
            if not free.get((day, start)):
                return f"no lane free at {start} on {day} - nächste Bahn frei um 16:30"
            held[party] = free[(day, start)].pop(0)
        return (f"Lane {held[party]} held {start}-{int(start[:2]) + 2}:00 for {bowlers} bowlers, bumpers up - "
                "confirmed by LaneMaster")
    return book_lane


def book_party(day: Annotated[str, 'The day, e.g. "2026-01-31"'],
               children: Annotated[int, 'How many kids come to the party, e.g. "10"'],
               pack: Literal["pizza", "hotdog", "nuggets"]) -> dict:
    """Book the party room and the food pack for after bowling."""
    ROOMS.append(day)
    return {"result": {"code": 201, "ref": f"KP-{5120 + len(ROOMS)}"}, "room": "Strike Zone",
            "food": {"pack": pack, "covers": children, "gf_option": pack == "pizza"}}


def build(stop_word: str) -> RoundRobinGroupChat:
    client = agentchat_client()
    lanes = AssistantAgent(
        "lanes", model_client=client, tools=[lane_diary()], reflect_on_tool_use=False,
        system_message="You run the lane diary at Kingpin Lanes. Hold a lane for the party with book_lane.")
    party_m = AssistantAgent(
        "party_m", model_client=client, tools=[book_party], reflect_on_tool_use=True,
        system_message="You look after birthday parties at Kingpin Lanes.\n"
                       "Book the party room and food with book_party.\n"
                       "Report what book_party said.")
    front = AssistantAgent(
        "front", model_client=client,
        system_message="You are the front desk at Kingpin Lanes and close every party booking.\n"
                       "Say \"That's everything - PARTY CONFIRMED, see you on the lanes!\"")
    stop = TextMentionTermination(stop_word) | MaxMessageTermination(12)
    return RoundRobinGroupChat([lanes, party_m, front], termination_condition=stop)


def seeded():
    return build("confirmed")


def fixed():
    return build("PARTY CONFIRMED")
