"""Violation of the speaking order, AutoGen AgentChat (RoundRobinGroupChat): an archery range's
booking line. `range_desk` looks the archer's membership up with `check_member`; `coach_r` signs
a returning archer off for the season with `sign_off`, which issues an induction card; `lanes_b`
books a lane "for archers coach_r has signed off" with `book_lane`, which wants that card.

Seeded: the members are listed in the order the desks were opened at the range (the lanes desk
came before the coaching rota), so lanes_b speaks before coach_r has issued a card, and has no
card to book with. Fixed: coach_r speaks before lanes_b.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

MEMBER = Annotated[str, 'The archer\'s membership number, e.g. "AR-0000"']
MEMBERS = {"AR-5521": ("beginner", "2026-12-31")}
CARDS: dict[str, str] = {}


@dataclass
class Induction:
    member: str
    passed: bool
    card: str
    draw_weight_limit: str


def check_member(member_no: MEMBER) -> str:
    """Look an archer's membership up."""
    if member_no not in MEMBERS:
        return f"no member {member_no} on the roll"
    grade, until = MEMBERS[member_no]
    return f"member {member_no}: grade {grade}, paid up until {until}, last shot 2026-01-24"


def sign_off(member_no: MEMBER) -> Induction:
    """Sign a returning archer off for the season after the safety refresher; issues the induction card."""
    card = CARDS.setdefault(member_no, f"IND-{2200 + len(CARDS) + 7}")
    return Induction(member=member_no, passed=True, card=card, draw_weight_limit="30 lb")


def book_lane(day: Annotated[str, 'The day to shoot, e.g. "2026-01-31"'],
              start: Annotated[str, 'The start time, e.g. "09:00"'],
              induction_card: Annotated[str, 'The induction card coach_r issued, e.g. "IND-0000"']) -> tuple:
    """Book a lane on the 18 m indoor line for an hour."""
    if induction_card not in CARDS.values():
        return ("NO CARD", {"detail": f"kaart {induction_card} onbekend"})
    return ("HELD", {"lane": 4, "ref": f"LN-{day[-2:]}{start[:2]}", "at": f"{day} {start}"})


def build(order: str) -> RoundRobinGroupChat:
    client = agentchat_client()
    range_desk = AssistantAgent(
        "range_desk", model_client=client, tools=[check_member], reflect_on_tool_use=True,
        description="Front desk of the range.",
        system_message="Front desk, Kirkstall Bowmen indoor range.\n"
                       "Check the membership with check_member.")
    coach_r = AssistantAgent(
        "coach_r", model_client=client, tools=[sign_off], reflect_on_tool_use=True,
        description="Duty coach: signs returning archers off for the season.",
        system_message="Duty coach. Every archer back after a break is signed off before shooting.\n"
                       "Sign the archer off with sign_off.\n"
                       "Confirm the card.")
    lanes_b = AssistantAgent(
        "lanes_b", model_client=client, tools=[book_lane], reflect_on_tool_use=True,
        description="Lanes desk: books lanes for archers coach_r has signed off.",
        system_message="Lanes desk. Lanes are only for archers coach_r has signed off.\n"
                       "Book the lane with book_lane.\n"
                       'If book_lane says HELD: "Lane held. See you on the line."\n'
                       'If book_lane says NO CARD: "No lane - NO CARD."')
    members = {"range_desk": range_desk, "coach_r": coach_r, "lanes_b": lanes_b}
    return RoundRobinGroupChat([members[n] for n in order.split()],
                               termination_condition=TextMentionTermination("See you on the line")
                               | MaxMessageTermination(14))


def seeded():
    return build("range_desk lanes_b coach_r")


def fixed():
    return build("range_desk coach_r lanes_b")
