"""Premature termination, AutoGen AgentChat (SelectorGroupChat with `allow_repeated_speaker=False`
and a stop condition made of two with `|`): a cricket club's indoor nets. The selector follows the
club's order of play: `nets_n` finds a free lane with `lane_free`, `coach_c` books a coach to feed
balls with `book_coach`, and `till_t` takes the deposit with `take_deposit` and signs off with
"All locked in", the phrase the team stops on.

Seeded: the stop condition hears "locked in" from anyone, and every member's status board says
"locked in" of an item it has secured: the run ends on the lane line, normally, before the coach
is booked or the deposit taken.
Fixed: the phrase counts only from the till (`sources=["till_t"]`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import SelectorGroupChat

from .models import agentchat_client

DAY = Annotated[str, 'The session day, e.g. "2026-01-31"']


def lane_free(session_day: DAY, lane_type: Literal["turf", "artificial", "bowling machine"]) -> tuple:
    """Which lanes of a type are free from 18:00 on a session day."""
    return "OK", [{"lane": 3, "type": lane_type, "from": "18:00", "to": "19:30"}]


def book_coach(session_day: DAY, players: Annotated[int, "How many players come to the session"]) -> dict:
    """Book a club coach to feed balls and watch technique (one coach per 10 players)."""
    return {"coach": "Priya Raman (ECB Level 2)", "ref": f"CN-{7700 + players}", "day": session_day}


def take_deposit(session_day: DAY) -> str:
    """Take the £25 lane deposit by card on file (refunded after the session)."""
    return f"Deposit DEP-{session_day.replace('-', '')[2:]} taken: £25.00, card ending 4471"


SELECTOR = """You pick who speaks next at Harrow Vale Cricket Club's nets desk. The roles are:
{roles}.
Order of play: nets_n, coach_c, till_t.
Conversation so far:
{history}
Select the next role from {participants}. Only return the role."""


def build(stop) -> SelectorGroupChat:
    client = agentchat_client()

    def member(name: str, tool, description: str, lines: str) -> AssistantAgent:
        return AssistantAgent(name, model_client=client, tools=[tool], reflect_on_tool_use=True,
                              description=description, system_message=lines)

    team = [
        member("nets_n", lane_free, "Finds a free net lane.",
               "You keep the lane sheet at Harrow Vale CC's indoor nets.\nFind the lane with lane_free.\n"
               "Give the board."),
        member("coach_c", book_coach, "Books a coach for the session.",
               "You keep the coaches' rota at Harrow Vale CC.\nBook the coach with book_coach.\nGive the board."),
        member("till_t", take_deposit, "Takes the lane deposit.",
               "You run the till at Harrow Vale CC.\nTake the deposit with take_deposit.\n"
               'Sign off with "🏏 All locked in: lane, coach and deposit. See you in the nets."'),
    ]
    return SelectorGroupChat(team, model_client=client, selector_prompt=SELECTOR, allow_repeated_speaker=False,
                             termination_condition=stop | MaxMessageTermination(16))


def seeded():
    return build(TextMentionTermination("locked in"))


def fixed():
    return build(TextMentionTermination("locked in", sources=["till_t"]))
