"""Premature termination, AutoGen AgentChat (Swarm ended by `HandoffTermination` on a hand-off
to the user): a rural skills centre's hedge-laying weekend. `reg_h` enrols the student on the
course (`enrol_course`, answering a tuple) and `tutor_k`, the course tutor, sizes the student's
kit and sends the kit list (`kit_list`: billhook and gloves to hire, by hand size); the centre
will not let anyone on the hedge without it. The team ends when an agent hands back to the user.

Seeded: reg_h's instructions still say to hand back to the user once the enrolment is made,
from before the tutor's kit check was added; the team ends there and tutor_k never acts.
Fixed: kit and tool questions go to tutor_k first, who hands back to the user.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import HandoffTermination, MaxMessageTermination
from autogen_agentchat.teams import Swarm

from .models import agentchat_client

PLACES = {"2026-11-07": 8}
ROLL: list[str] = []


def enrol_course(weekend: Annotated[str, 'The first day of the weekend course, e.g. "2026-01-31"'],
                 students: Annotated[int, "How many students"]) -> tuple:
    """Enrol students on a hedge-laying weekend."""
    left = PLACES.get(weekend, 0)
    if students > left:
        return ("FULL", f"{left} places left")
    PLACES[weekend] = left - students
    ROLL.append(weekend)
    return ("ENROLLED", f"HL-{weekend[5:7]}{len(ROLL):02d}", "Sat-Sun 09:00-16:00, Midland style, lunch incl.")


def kit_list(hand_size: Annotated[str, 'The glove size, e.g. "XL"'] = "M") -> dict:
    """The kit a student needs on the hedge and what the centre hires out."""
    return {"hire": {"billhook": "GBP 6/day", "gauntlets": f"size {hand_size}, GBP 2/day"},
            "bring": ["steel toe-cap boots", "waterproofs", "flask"], "note": "no boots, no hedge"}


DESK = {
    "seeded": ("You are reg_h, the bookings desk at Wyre Forest Rural Skills.\n"
               "Use enrol_course.\n"
               "Transfer to user."),
    "fixed": ("You are reg_h, the bookings desk at Wyre Forest Rural Skills.\n"
              "Use enrol_course.\n"
              "Transfer to tutor_k when the customer mentions kit, tools, billhook, gloves or boots.\n"
              "Transfer to user."),
}


def build(desk: str) -> Swarm:
    client = agentchat_client()
    reg_h = AssistantAgent("reg_h", model_client=client, tools=[enrol_course], handoffs=["tutor_k", "user"],
                           system_message=desk)
    tutor_k = AssistantAgent("tutor_k", model_client=client, tools=[kit_list], handoffs=["user"],
                             reflect_on_tool_use=True,
                             system_message=("You are tutor_k, the hedge-laying tutor.\n"
                                             "Use kit_list.\n"
                                             "Transfer to user."))
    return Swarm([reg_h, tutor_k], termination_condition=HandoffTermination(target="user") | MaxMessageTermination(16))


def seeded():
    return build(DESK["seeded"])


def fixed():
    return build(DESK["fixed"])
