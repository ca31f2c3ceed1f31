"""Premature termination, AutoGen AgentChat: a university observatory lends its 0.6 m telescope
to amateur clubs. A round robin of two: the desk checks the night's forecast, then the
scheduler books the slot. The team's stop condition is the app's own function
(`FunctionalTermination`), written when the scheduler worked alone: stop once a tool has run.

Seeded: the function stops at the first tool execution of anyone's, which is the desk's
forecast, so the team ends normally before the scheduler books anything. Fixed: it stops once
`book_slot` has run, or once the scheduler answers in words (it asks the club for an account
number the request lacks, or says the calendar is down): the round's last word is then the
user's to answer. Both keep a message cap as a safety net.
"""

from dataclasses import dataclass
from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import FunctionalTermination, MaxMessageTermination, TextMessageTermination
from autogen_agentchat.messages import ToolCallExecutionEvent
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

BOOKED: dict[str, str] = {"2026-04-17": "CL-1048"}  # night -> club holding the telescope


@dataclass
class Forecast:
    night: str
    cloud_cover_pct: int
    seeing_arcsec: float
    moon_illumination_pct: int


NIGHT = Annotated[str, 'The evening the night starts, like "2026-01-31"']


def seeing_forecast(night: NIGHT) -> Forecast:
    """The forecast for an observing night at the observatory."""
    return Forecast(night=night, cloud_cover_pct=15, seeing_arcsec=1.6, moon_illumination_pct=3)


def book_slot(club: Annotated[str, 'The club\'s account with us, like "CL-1000"'], night: NIGHT) -> dict:
    """Book the 0.6 m telescope for a club for one night."""
    if BOOKED.get(night, club) != club:
        return {"booked": False, "night": night, "held_by": BOOKED[night]}
    return {"booked": True, "night": night, "club": club, "dome_opens": "20:45"}


def any_tool_ran(messages) -> bool:
    return any(isinstance(m, ToolCallExecutionEvent) for m in messages)


def slot_booked(messages) -> bool:
    return any(isinstance(m, ToolCallExecutionEvent) and any(r.name == "book_slot" for r in m.content)
               for m in messages)


DESK = """You are the front desk of the Hallam Hill Observatory.
- Call seeing_forecast.
- If seeing_forecast raises an error, say "The forecast service is down; the scheduler will still hold the night for you."
- Report the result of seeing_forecast.
"""

SCHEDULER = """You are the telescope scheduler.
- Call book_slot.
- If book_slot raises an error, say "The booking calendar is not answering; nothing is booked yet."
- Report the result of book_slot.
"""


def build(stop) -> RoundRobinGroupChat:
    """A round robin of the desk and the scheduler, ended by `stop` or the message cap."""
    client = agentchat_client()
    desk = AssistantAgent("desk", model_client=client, tools=[seeing_forecast], system_message=DESK,
                          description="Checks the observing forecast.")
    scheduler = AssistantAgent("scheduler", model_client=client, tools=[book_slot], system_message=SCHEDULER,
                               description="Books telescope nights for clubs.")
    return RoundRobinGroupChat([desk, scheduler],
                               termination_condition=stop | MaxMessageTermination(10))


def seeded():
    return build(FunctionalTermination(any_tool_ran))


def fixed():
    return build(FunctionalTermination(slot_booked) | TextMessageTermination("scheduler"))
