"""Premature termination, AutoGen AgentChat (`RoundRobinGroupChat` stopped by
`TextMentionTermination | MaxMessageTermination`, a `MessageFilterAgent` in front of one member):
a puppet theatre's family box office. `box_office` books the seats with `book_seats`; `access_k`,
who sees only the family's own message and the box office's last word (the filter keeps its
context short), books the wheelchair space, ear defenders or a relaxed seat with `book_access`.
The team was meant to stop when the last member wishes the family a good show with the house's
closing line, "Is there anything else I can help with today?".

Seeded: the stop condition listens for that closing line from anyone; the box office's own
reply closes with it, so the team stops after the seats are booked and access_k never books the
wheelchair space the family asked for. Fixed: the condition listens for the line from access_k,
the member who speaks last (`sources=["access_k"]`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent, MessageFilterAgent, MessageFilterConfig, PerSourceFilter
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

CLOSING_LINE = "anything else I can help with"
SHOWS = {"the-owl-and-the-moon": {"2026-10-24": 38, "2026-10-25": 4}}
BOOKED: list[str] = []


def book_seats(show: Literal["the-owl-and-the-moon", "punch-at-sea"],
               day: Annotated[str, 'The performance day, e.g. "2026-01-31"'],
               adults: Annotated[int, 'How many adults, e.g. "2"'],
               children: Annotated[int, 'How many kids, e.g. "3"']) -> dict:
    """Book seats for a matinee at the Lantern Puppet Theatre."""
    left = SHOWS.get(show, {}).get(day, 0)
    wanted = adults + children
    if left < wanted:
        return {"http": 409, "body": {"seats_left": left, "motivo": "sala casi llena"}}
    SHOWS[show][day] = left - wanted
    BOOKED.append(day)
    return {"http": 201, "body": {"ref": f"LPT-{6100 + len(BOOKED)}", "row": "C", "seats": wanted}}


def book_access(day: Annotated[str, 'The performance day, e.g. "2026-01-31"'],
                need: Literal["wheelchair", "defenders", "relaxed"]) -> tuple:
    """Book an access need for a performance: the wheelchair space by row C, ear defenders or a relaxed seat."""
    return ("OK", {"day": day, "need": need, "space": "W2, beside row C", "helper": "Mags at the side door"})


def build(closing_sources: list[str] | None) -> RoundRobinGroupChat:
    client = agentchat_client()
    box_office = AssistantAgent(
        "box_office", model_client=client, tools=[book_seats], reflect_on_tool_use=True,
        system_message="You run the box office at the Lantern Puppet Theatre.\n"
                       "Book the seats with book_seats.\n"
                       "Report what book_seats said.")
    access = AssistantAgent(
        "access_k", model_client=client, tools=[book_access], reflect_on_tool_use=True,
        system_message="You look after access at the Lantern Puppet Theatre.\n"
                       "Book the access need the family mentioned with book_access.\n"
                       "Report what book_access said.")
    access_k = MessageFilterAgent(
        "access_k", access,
        MessageFilterConfig(per_source=[PerSourceFilter(source="user", position="first", count=1),
                                        PerSourceFilter(source="box_office", position="last", count=1)]))
    stop = TextMentionTermination(CLOSING_LINE, sources=closing_sources) | MaxMessageTermination(8)
    return RoundRobinGroupChat([box_office, access_k], termination_condition=stop)


def seeded():
    return build(None)


def fixed():
    return build(["access_k"])
