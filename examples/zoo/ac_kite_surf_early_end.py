"""Premature termination, AutoGen AgentChat (`RoundRobinGroupChat` with `max_turns`, a
`TextMentionTermination`): a kite-surfing school's lesson bookings. `spot_b` reads the wind for the
day with `wind_outlook`, `coach_c` books an instructor and kit with `book_instructor`, and
`till_t` takes the deposit with `take_deposit` and offers more help at the end of the booking.

Seeded: the stop phrase, "anything else I can do", was meant for the till's closing offer but is
heard from anyone: spot_b's polite closing offer after the wind check ends the team before
coach_c books an instructor or till_t takes the deposit.
Fixed: the stop phrase counts only from till_t.
"""

from __future__ import annotations

from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

DAY = Annotated[str, 'The lesson day, e.g. "2026-01-31"']
WIND = {"2026-07-18": ("WSW", 17, "knots", "steady cross-onshore, bon pour débutants")}
COACHES = {"2026-07-18": ["Mara", "Jonas"]}


def wind_outlook(day: DAY) -> tuple:
    """The wind outlook for the lagoon on a day: direction, strength, unit and the head coach's remark."""
    return WIND.get(day, ("?", 0, "knots", "no outlook yet, check 48h before"))


def book_instructor(day: DAY, riders: Annotated[int, "How many riders take the lesson"],
                    level: Literal["beginner", "improver", "independent"]) -> dict:
    """Book an instructor, kites and boards for a three-hour lesson on a day."""
    free = COACHES.get(day, [])
    if not free:
        return {"result": {"status": "no_instructor", "day": day}}
    return {"result": {"status": "held", "instructor": free[0], "kit": f"{riders} x 9m kite, foamie board"},
            "ref": f"KS-{day[5:7]}{day[8:]}-{riders}{level[0].upper()}"}


def take_deposit(booking_ref: Annotated[str, 'The lesson reference, e.g. "KS-0000-0A"']) -> str:
    """Take the £40 deposit for a held lesson on the card the school has on file."""
    return f"£40.00 deposit taken against {booking_ref}; balance due at the beach hut."


def build(stop: TextMentionTermination) -> RoundRobinGroupChat:
    client = agentchat_client()
    spot_b = AssistantAgent(
        "spot_b", model_client=client, tools=[wind_outlook], reflect_on_tool_use=True,
        description="Reads the wind for the lesson day.",
        system_message="You read the wind for Brancaster Kite School.\nCheck the wind with wind_outlook.")
    coach_c = AssistantAgent(
        "coach_c", model_client=client, tools=[book_instructor], reflect_on_tool_use=True,
        description="Books instructors and kit.",
        system_message="You run the instructors' diary at Brancaster Kite School.\n"
                       "Book the lesson with book_instructor.\n"
                       "If book_instructor says no_instructor, tell the customer.")
    till_t = AssistantAgent(
        "till_t", model_client=client, tools=[take_deposit], reflect_on_tool_use=True,
        description="Takes deposits and closes the booking.",
        system_message="You keep the till at Brancaster Kite School.\nTake the deposit with take_deposit.")
    return RoundRobinGroupChat([spot_b, coach_c, till_t], termination_condition=stop, max_turns=9)


def seeded():
    return build(TextMentionTermination("anything else I can do"))


def fixed():
    return build(TextMentionTermination("anything else I can do", sources=["till_t"]))
