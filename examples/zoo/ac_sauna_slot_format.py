"""Tool specification mismatch, AutoGen AgentChat RoundRobinGroupChat: a wood-fired sauna on a
lake shore takes bookings by chat. `front` checks the member's card with `member_card`, then
`Worker` books the session with `book_session`, whose documentation gives a session as day and
times joined by a hyphen ("Sat 18:00-19:30"). A tool that raises is reported by AgentChat to the
agent as the error's text.

Seeded: `book_session` reads the session with a pattern whose times are joined by an en dash (it
was pasted from the printed timetable when the tool was written), so every session written as
documented raises ValueError ("Invalid session ...") and Worker apologises and asks again.
Fixed: the pattern has the hyphen the tool documents.
"""

from __future__ import annotations

import re
from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

SESSIONS = {("Sat", "18:00", "19:30"): 4, ("Sun", "08:00", "09:30"): 0}  # session -> places left
MEMBERS = {"SN-3391": "K. Lindqvist, 10-swim card, 6 left"}

MEMBER = Annotated[str, 'The member\'s card number, like "SN-1000"']


def member_card(member: MEMBER) -> str:
    """Look up a member's card."""
    return MEMBERS.get(member, f"no card {member}")


def make_book_session(pattern: re.Pattern):
    def book_session(
            member: MEMBER,
            session: Annotated[str, 'The session: day, then start and end times joined by a hyphen, like "Sat 18:00-19:30"'],
    ) -> str:
        """Book a place in a sauna session."""
        parsed = pattern.fullmatch(session)
        if parsed is None:
            raise ValueError(f"Invalid session {session!r}")
        day, start, end = parsed.groups()
        left = SESSIONS.get((day, start, end))
        if not left:
            return f"No places in {day} {start}-{end}."
        SESSIONS[(day, start, end)] = left - 1
        return f"Booked: {member} in {day} {start}-{end}, place {5 - left} of 4. Towels at the jetty hut."
    return book_session


FRONT = """You greet members of the Kettle Tarn sauna.
Call member_card.
If member_card raises an error, say "The card reader is down; we will check your card at the jetty."
Report the result of member_card.
"""

WORKER = """You book places in sauna sessions.
Call book_session.
If book_session raises an error, say "The booking system is down; come early and book at the jetty hut."
If book_session fails, say "Sorry, I could not book that session. Could you give me the day and times again?"
Report the result of book_session.
"""


def build(pattern: re.Pattern) -> RoundRobinGroupChat:
    client = agentchat_client()
    front = AssistantAgent("front", model_client=client, tools=[member_card], system_message=FRONT,
                           description="Greets members and checks their card.")
    worker = AssistantAgent("Worker", model_client=client, tools=[make_book_session(pattern)],
                            system_message=WORKER, reflect_on_tool_use=True,
                            description="Books sauna sessions.")
    return RoundRobinGroupChat([front, worker],
                               termination_condition=SourceMatchTermination(["Worker"]) | MaxMessageTermination(8))


def seeded():
    return build(re.compile(r"([A-Z][a-z]{2}) (\d\d:\d\d)\u2013(\d\d:\d\d)"))  # an en dash, as the timetable prints


def fixed():
    return build(re.compile(r"([A-Z][a-z]{2}) (\d\d:\d\d)-(\d\d:\d\d)"))
