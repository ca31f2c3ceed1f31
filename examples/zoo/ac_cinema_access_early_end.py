"""Premature termination, AutoGen AgentChat (RoundRobinGroupChat with a `FunctionalTermination`):
a cinema box office's phone line. `box` holds seats for a screening with `hold_seats`; `acc_3`,
the access desk, reserves a wheelchair space and a free companion seat with `reserve_access`
when a caller needs one (the screen has two such spaces, handed out by the access desk alone).

Seeded: the team's stop function was written for the ticket kiosk, where a sale ended once the
seats were held; it ends the run on `hold_seats`' answer, so the access desk never hears a
caller who asked for the wheelchair space. Fixed: the call ends once the access desk, the last
on the line, has spoken.
"""

from __future__ import annotations

from typing import Annotated, Sequence

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import FunctionalTermination, MaxMessageTermination
from autogen_agentchat.messages import BaseAgentEvent, BaseChatMessage, TextMessage, ToolCallExecutionEvent
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

SCREENINGS = {"SC-4410": ("Screen 2", "Paddington in Peru", "2026-05-23 14:10")}
SPACES = {"SC-4410": 2}


def hold_seats(screening: Annotated[str, 'The screening code from the listings, e.g. "SC-0000"'],
               seats: Annotated[int, "How many tickets (seats) to hold"]) -> tuple:
    """Hold seats for a screening; they are paid for at the kiosk up to 20 minutes before."""
    if screening not in SCREENINGS:
        return (404, "no such screening")
    screen, film, when = SCREENINGS[screening]
    return (200, {"hold": f"BX{seats}{screening[-3:]}", "screen": screen, "film": film, "starts": when,
                  "row": "F", "pay_by": "13:50"})


def reserve_access(screening: Annotated[str, 'The screening code from the listings, e.g. "SC-0000"'],
                   companion: Annotated[bool, "Whether a free companion seat goes with the space"] = True) -> dict:
    """Reserve a wheelchair space (and a companion seat) at a screening."""
    left = SPACES.get(screening, 0)
    if not left:
        return {"ok": False, "grund": "keine Rollstuhlplätze mehr"}
    SPACES[screening] = left - 1
    return {"ok": True, "space": f"W{left}", "companion": companion, "entrance": "level access, door B"}


def seats_held(messages: Sequence[BaseAgentEvent | BaseChatMessage]) -> bool:
    """The kiosk's rule: the sale is over once seats are held."""
    return any(isinstance(m, ToolCallExecutionEvent) and any(r.name == "hold_seats" and not r.is_error
                                                             for r in m.content) for m in messages)


def access_desk_spoke(messages: Sequence[BaseAgentEvent | BaseChatMessage]) -> bool:
    return any(isinstance(m, TextMessage) and m.source == "acc_3" for m in messages)


def build(stop) -> RoundRobinGroupChat:
    client = agentchat_client()
    box = AssistantAgent(
        "box", model_client=client, tools=[hold_seats], reflect_on_tool_use=True,
        system_message="You are the Rialto box office phone line. The caller hears every word.\n"
                       "Hold the seats with hold_seats.\n"
                       "If hold_seats says 404, tell the caller we can't find that screening.\n"
                       "Read out what hold_seats said.")
    acc_3 = AssistantAgent(
        "acc_3", model_client=client, tools=[reserve_access], reflect_on_tool_use=True,
        system_message="You are the access desk on the Rialto phone line.\n"
                       "Reserve the space with reserve_access for a wheelchair, wheelchairs, wheelchair user or "
                       "companion.\n"
                       'If reserve_access says false, say "I am sorry, both wheelchair spaces are gone for that '
                       'showing."\n'
                       "Confirm the wheelchair space to the caller.")
    return RoundRobinGroupChat([box, acc_3], termination_condition=FunctionalTermination(stop) |
                               MaxMessageTermination(12))


def seeded():
    return build(seats_held)


def fixed():
    return build(access_desk_spoke)
