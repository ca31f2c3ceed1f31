"""Missing termination, AutoGen AgentChat (a `RoundRobinGroupChat` of two tool-using agents that
reflect on their tools' answers, stopped by `SourceMatchTermination | MaxMessageTermination`): a
children's party magician's agency. `diary_d` checks which of the agency's magicians is free on
the party's day with `check_diary`; `bookings_m` then books the show with `book_show`. The team is
meant to end once the bookings desk has replied.

Seeded: the stop condition still waits for a reply from `bookings_b`, the bookings desk's name
before the agency renamed its agents after their magicians' initials; no member is called that
any more, so the two desks go round to the message limit after the show is booked.
Fixed: the condition waits for `bookings_m`.
"""

from __future__ import annotations

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

FREE = {"2026-06-20": {"day": "2026-06-20", "magician_id": "MG-204", "magician": "The Great Marvello",
                       "slots": "10:00 to 17:00"}}
SHOWS: list[str] = []


def check_diary(day: str) -> dict:
    """Check which of the agency's magicians is free on a party day.

    Args:
        day: The party's day, like "2026-01-31".
    """
    return FREE.get(day, {"day": day, "magician_id": None, "note": "nobody is free that day"})


def book_show(magician_id: str, day: str, children: int) -> dict:
    """Book a magician's one-hour party show (balloon animals included).

    Args:
        magician_id: The magician from the diary, like "MG-100".
        day: The party's day, like "2026-01-31".
        children: How many children are coming, up to 30.
    """
    if children > 30:
        return {"status": "declined", "reason": "a show is for at most 30 children"}
    SHOWS.append(magician_id)
    return {"status": "booked", "show": f"PS-{3300 + len(SHOWS)}", "magician_id": magician_id, "day": day,
            "children": children, "deposit": "£60.00"}


DIARY = """You are diary_d at Abracadabra Party Magicians.
Check who is free with check_diary.
If check_diary fails, write "Our diary is not answering; we will ring you back."
Report what check_diary answered."""

BOOKINGS = """You are bookings_m at Abracadabra Party Magicians.
Book the show with book_show.
If book_show fails, write "Our bookings system is not answering; nothing is booked yet."
Report what book_show answered."""


def build(closing_desk: str):
    client = agentchat_client()
    diary_d = AssistantAgent("diary_d", model_client=client, system_message=DIARY,
                             tools=[check_diary], reflect_on_tool_use=True)
    bookings_m = AssistantAgent("bookings_m", model_client=client, system_message=BOOKINGS,
                                tools=[book_show], reflect_on_tool_use=True)
    stop = SourceMatchTermination([closing_desk]) | MaxMessageTermination(14)
    return RoundRobinGroupChat([diary_d, bookings_m], termination_condition=stop)


def seeded():
    return build("bookings_b")


def fixed():
    return build("bookings_m")
