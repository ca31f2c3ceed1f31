"""Premature termination, AutoGen AgentChat (Swarm with a hand-off to the user, as AgentChat's
Swarm docs do for human-in-the-loop): a bouldering gym's booking chat. `wall_desk` registers a
group's visit with `register_visit` and `shoes_k` reserves hire shoes with `reserve_shoes`; the
team stops when an agent hands the conversation back to the user (`HandoffTermination`).

Seeded: wall_desk's instructions are the ones it had when it ran the chat alone, before shoe hire
had its own agent: once the visit is registered it hands back to the user, which ends the run,
and the shoes the climbers asked for are never reserved. Fixed: it hands shoe and chalk requests
to shoes_k first, who hands back to the user once the shoes are put aside.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import HandoffTermination, MaxMessageTermination
from autogen_agentchat.teams import Swarm

from .models import agentchat_client

SESSIONS = {"2026-02-14": {"capacity": 40, "booked": 31}}
RACK = {"2026-02-14": 9}


def register_visit(climbers: Annotated[int, "How many climbers are coming, the group leader included"],
                   visit_day: Annotated[str, 'The day of the visit, e.g. "2026-01-31"']) -> dict:
    """Register a group visit: every climber must be on the register and have signed the waiver."""
    session = SESSIONS.setdefault(visit_day, {"capacity": 40, "booked": 0})
    if session["booked"] + climbers > session["capacity"]:
        return {"registered": False, "why": f"only {session['capacity'] - session['booked']} places left"}
    session["booked"] += climbers
    return {"registered": True, "group_ref": f"GRP-{visit_day[5:7]}{visit_day[8:]}-{climbers:02d}",
            "waivers": f"{climbers} links sent to the group leader"}


def reserve_shoes(pairs: Annotated[int, "How many pairs of hire shoes to put aside"],
                  visit_day: Annotated[str, 'The day of the visit, e.g. "2026-01-31"']) -> tuple:
    """Put hire shoes aside for a group (sizes are fitted at the counter)."""
    left = RACK.get(visit_day, 20)
    if pairs > left:
        return ("SHORT", left)
    RACK[visit_day] = left - pairs
    return ("RESERVED", pairs, "Regal B, Größen am Tresen")


DESK = {
    "seeded": ("You run the booking chat at Gritstone Bouldering, Sheffield.\n"
               "Register the visit with register_visit.\n"
               "Then hand the conversation back to the user."),
    "fixed": ("You run the booking chat at Gritstone Bouldering, Sheffield.\n"
              "Register the visit with register_visit.\n"
              "Requests about hire shoes, shoes, chalk or chalk bags are handed to shoes_k.\n"
              "Then hand the conversation back to the user."),
}


def build(desk: str) -> Swarm:
    client = agentchat_client()
    wall_desk = AssistantAgent("wall_desk", model_client=client, tools=[register_visit],
                               handoffs=["shoes_k", "user"], system_message=desk)
    shoes_k = AssistantAgent("shoes_k", model_client=client, tools=[reserve_shoes], handoffs=["user"],
                             system_message="You look after the hire shoe rack at Gritstone Bouldering.\n"
                                            "Put the shoes aside with reserve_shoes.\n"
                                            "Then hand the conversation back to the user.")
    return Swarm([wall_desk, shoes_k],
                 termination_condition=HandoffTermination(target="user") | MaxMessageTermination(14))


def seeded():
    return build(DESK["seeded"])


def fixed():
    return build(DESK["fixed"])
