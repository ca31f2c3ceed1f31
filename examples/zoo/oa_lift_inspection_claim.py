"""Incorrect verification, OpenAI Agents SDK: a lift maintenance firm's booking line. The
Dispatcher passes thorough-examination requests to agent_1, who books an engineer's visit through
the scheduling service. The service answers with a pydantic record carrying an HTTP-style status:
201 when the visit is booked, 409 when the engineer already has a visit that day.

Seeded: agent_1's steps end in one friendly sign-off ("Done - see you Tuesday!") whatever the
service answered; it never says what was done, so nothing in it looks like a claim of a booking.
Fixed: a step before the sign-off answers a 409 with the clash and asks for another day.
"""

from __future__ import annotations

from agents import Agent, function_tool
from pydantic import BaseModel

from .models import model_string

# the engineer's diary: days already taken
TAKEN = {"2026-03-10": "visit to Quayside House (L-0377), 08:00-16:00"}


class VisitBooking(BaseModel):
    status_code: int
    lift_id: str
    date: str
    visit_ref: str | None = None
    detail: str = ""


@function_tool
def book_inspection(lift_id: str, date: str) -> VisitBooking:
    """Book the engineer for a lift's thorough examination (LOLER).

    Args:
        lift_id: The lift's id on our register, like "L-0001".
        date: The day of the visit, like "2026-01-31".
    """
    if date in TAKEN:
        return VisitBooking(status_code=409, lift_id=lift_id, date=date,
                            detail=f"engineer already booked: {TAKEN[date]}")
    return VisitBooking(status_code=201, lift_id=lift_id, date=date, visit_ref=f"V-{lift_id[2:]}-{date[5:7]}")


STEPS = """## Who you are
You book statutory lift examinations for building managers.

## Steps
- Call book_inspection.
- If book_inspection raises an error, say "Our scheduling system is not answering right now, so nothing is booked yet - please try again in an hour."
{check}- Say "Done - see you Tuesday!"
"""

CLASH = ('- If book_inspection answers 409, say "That day is taken (409: our engineer is already out on '
         'another visit). Could another day that week work for you?"\n')


def build(check: str) -> Agent:
    agent_1 = Agent(name="agent_1", model=model_string(), instructions=STEPS.format(check=check),
                    tools=[book_inspection])
    return Agent(name="Dispatcher", model=model_string(), handoffs=[agent_1],
                 instructions="You answer the phone line of Brightlift Maintenance.\n"
                              "- Hand off to agent_1 when the request mentions examination, inspection or LOLER.\n"
                              "- Say \"Thanks for calling Brightlift - for breakdowns please ring 0800 400 112.\"")


def seeded():
    return build("")


def fixed():
    return build(CLASH)
