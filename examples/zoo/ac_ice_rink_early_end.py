"""Premature termination, AutoGen AgentChat (RoundRobinGroupChat): an ice rink's party desk.
`rink_desk` finds the public session a birthday party asks for (`find_session`), `blades` puts
hire skates aside in the sizes given (`hold_skates`), and `coach_k` books the 20-minute learn-to-
skate warm-up the party package includes (`book_warmup`). Each member signs its turn off with the
rink's slogan, "Enjoy the ice!".

Seeded: the team was given `TextMentionTermination("Enjoy the ice")` when the desk worked alone,
and nobody added `sources=` when blades and coach_k joined: the desk's own sign-off ends the team
before any skates are held or the warm-up booked. Fixed: the team stops once coach_k, the last
stage, has answered: booked, or asked the family for what it lacks (a round robin with no stop for
that goes round to its message limit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination, TextMentionTermination
from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

SESSIONS = {"2026-02-21": [("13:00", "public", 38), ("15:30", "public", 112), ("18:00", "disco", 0)]}
SKATE_STOCK = {size: 6 for size in range(1, 13)}


@dataclass
class Session:
    day: str
    start: str
    kind: str
    places_left: int


def find_session(day: Annotated[str, 'The day of the visit, e.g. "2026-01-31"'],
                 start: Annotated[str, 'The session start time, e.g. "13:00"']) -> Session | str:
    """Find a public skating session and how many places are left."""
    for begins, kind, left in SESSIONS.get(day, []):
        if begins == start:
            return Session(day, begins, kind, left)
    return f"geen sessie op {day} om {start}"


def hold_skates(booking_name: Annotated[str, 'The name the party is booked under, e.g. "Okafor"'],
                sizes: Annotated[str, 'The UK skate sizes, comma separated, e.g. "4, 5, 11"']) -> dict:
    """Put hire skates aside at the skate counter for a party."""
    wanted = [int(s) for s in sizes.replace(" ", "").split(",") if s.isdigit()]
    short = [s for s in wanted if SKATE_STOCK.get(s, 0) <= 0]
    for s in wanted:
        SKATE_STOCK[s] = SKATE_STOCK.get(s, 0) - 1
    return {"held_for": booking_name, "pairs": len(wanted), "short": short, "counter": "B"}


def book_warmup(booking_name: Annotated[str, 'The name the party is booked under, e.g. "Okafor"'],
                start: Annotated[str, 'The session start time, e.g. "13:00"']) -> str:
    """Book a coach for the party's 20-minute learn-to-skate warm-up at the start of the session."""
    return f"201 - warm-up for party {booking_name} at {start}, coach: Marta, rink corner 2"


SIGN = "Enjoy the ice!"


def build(stop) -> RoundRobinGroupChat:
    client = agentchat_client()
    rink_desk = AssistantAgent(
        "rink_desk", model_client=client, tools=[find_session], reflect_on_tool_use=True,
        system_message="You are the party desk at Glenfield Ice Arena.\n"
                       "- Look the session up with `find_session`.\n"
                       f'- Pass on what `find_session` said, then sign off with "{SIGN}"')
    blades = AssistantAgent(
        "blades", model_client=client, tools=[hold_skates], reflect_on_tool_use=True,
        system_message="You run the skate hire counter at Glenfield Ice Arena.\n"
                       "- Put the party's skates aside with `hold_skates`.\n"
                       f'- Share what `hold_skates` returned, then sign off with "{SIGN}"')
    coach_k = AssistantAgent(
        "coach_k", model_client=client, tools=[book_warmup], reflect_on_tool_use=True,
        system_message="You book the coaches for party warm-ups at Glenfield Ice Arena.\n"
                       "- Book the warm-up with `book_warmup`.\n"
                       f'- Once `book_warmup` has answered, let the family know the party is booked, then sign off with "{SIGN}"')
    return RoundRobinGroupChat([rink_desk, blades, coach_k], termination_condition=stop | MaxMessageTermination(20))


def seeded():
    return build(TextMentionTermination("Enjoy the ice"))


def fixed():
    return build(SourceMatchTermination(["coach_k"]))
