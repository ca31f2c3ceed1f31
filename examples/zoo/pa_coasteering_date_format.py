"""Tool specification mismatch, PydanticAI (an `output_type` answered through PydanticAI's output
tool, tools registered with `@agent.tool_plain`): a coasteering outfit's session bookings.
`guide_k` books a guided coasteering session on a day of the right tide with `book_session`,
whose day parameter is documented the way the tide table writes days ("4 July 2026").

Seeded: book_session's check was written against the booking site's date picker, which sent ISO
days, and parses the day with `date.fromisoformat`: the day written as documented comes back
`{"status": 422, "detail": "day must be YYYY-MM-DD"}`.
Fixed: book_session reads the day as its description says.
"""

from __future__ import annotations

from datetime import date, datetime

from pydantic import BaseModel
from pydantic_ai import Agent

from .models import pydantic_ai_model

LOW_TIDES = {date(2026, 8, 15): "10:40"}


class SessionReply(BaseModel):
    message: str
    booked: bool


def iso_only(day: str) -> date:
    return date.fromisoformat(day)


def tide_table(day: str) -> date:
    return datetime.strptime(day.strip(), "%d %B %Y").date()


def build(parse) -> Agent:
    agent = Agent(pydantic_ai_model(), name="guide_k", output_type=SessionReply,
                  instructions="You are guide_k at Porth Ysgo Coasteering on the Llŷn.\n"
                               "Book the session with book_session.\n"
                               "If book_session answers 409 or 422, tell the customer what it said.\n"
                               'If book_session fails, say "The tide diary is not answering, so no session is held yet."')

    @agent.tool_plain
    def book_session(day: str, people: int) -> dict:
        """Book a guided three-hour coasteering session (wetsuit, helmet, buoyancy aid) around low tide.

        Args:
            day: The session day as the tide table writes it, e.g. "4 July 2026".
            people: How many people come.
        """
        try:
            when = parse(day)
        except ValueError:
            return {"status": 422, "detail": "day must be YYYY-MM-DD"}
        low = LOW_TIDES.get(when)
        if low is None:
            return {"status": 409, "detail": f"the tide is wrong for a session on {day}"}
        return {"status": 201, "session": {"meet": f"{low} at the lifeboat slip, 45 minutes before low tide",
                                           "people": people, "ref": f"CO-{when:%m%d}{people}"}}

    return agent


def seeded():
    return build(iso_only)


def fixed():
    return build(tide_table)
