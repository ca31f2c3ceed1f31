"""Premature termination, AutoGen AgentChat (Swarm with `HandoffTermination`): a model railway
club's members' line. `gate` greets the member and hands running-session requests over to
`layout_desk`, which books a slot on the club's OO-gauge layout with `book_running_slot` and
passes the member on to `yard_master` (or hands the floor back to the member when the request
lacks what the booking needs), who gives their stock a fiddle-yard road with
`assign_road` and hands the floor back to the member (`handoffs=["user"]`).

Seeded: the swarm's stop condition watches for the hand-over to `layout_desk` instead of the
hand-over back to the user (the target was copied from gate's handoff list), so the team stops
the moment gate passes the request on: no slot is booked and yard_master never runs. Fixed: the
team stops on the hand-over to "user", as the Swarm docs show.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import HandoffTermination, MaxMessageTermination
from autogen_agentchat.teams import Swarm

from .models import agentchat_client

TIMETABLE = {"tuesday_evening": 6, "saturday_open": 3}
BOOKED: list[str] = []


@dataclass
class SlotBooking:
    accepted: bool
    slot: str
    road: int | None = None
    remark: str = ""


def book_running_slot(
        member_no: Annotated[str, 'The member\'s card number, e.g. "MRC-0412"'],
        session: Annotated[Literal["tuesday_evening", "saturday_open"], "Which running session"]) -> SlotBooking:
    """Book a member's running slot on the club's main layout (Little Wexcombe, OO gauge)."""
    if TIMETABLE[session] <= len([b for b in BOOKED if b == session]):
        return SlotBooking(False, session, remark="alle Gleise belegt - every road is taken")
    BOOKED.append(session)
    return SlotBooking(True, session, road=len(BOOKED), remark=f"bring stock to the fiddle yard, road {len(BOOKED)}")


YARD = {"road": 0}


def assign_road(member_no: Annotated[str, 'The member\'s card number, e.g. "MRC-0412"'],
                stock: Annotated[str, "What the member is bringing, in their words"]) -> dict:
    """Give a member's locomotives and wagons a road in the fiddle yard for their session."""
    YARD["road"] += 1
    return {"yard": {"road": YARD["road"], "status": "reserved"}, "member": member_no,
            "note": "DCC address check at the bench before running"}


def build(stop_target: str) -> Swarm:
    client = agentchat_client()
    gate = AssistantAgent(
        "gate", model_client=client, handoffs=["layout_desk"],
        system_message=("You answer the members' line of the Wexcombe Model Railway Club.\n"
                        "Transfer to layout_desk for running sessions, slots, track time or the layout.\n"
                        'Otherwise say "The clubroom is open Tuesdays from seven."'))
    layout_desk = AssistantAgent(
        "layout_desk", model_client=client, tools=[book_running_slot], handoffs=["yard_master", "user"],
        system_message=("You keep the running timetable of the club layout.\n"
                        "Book the slot with book_running_slot.\n"
                        "If book_running_slot fails, explain why the slot could not be booked.\n"
                        "Confirm the slot.\n"
                        "Then transfer to yard_master so the member's stock gets a road."))
    yard_master = AssistantAgent(
        "yard_master", model_client=client, tools=[assign_road], handoffs=["user"],
        system_message=("You run the fiddle yard on running nights.\n"
                        "Give the member's stock a road with assign_road.\n"
                        "Pass on what assign_road said.\n"
                        "Then transfer to user."))
    return Swarm([gate, layout_desk, yard_master], termination_condition=HandoffTermination(target=stop_target)
                 | MaxMessageTermination(14))


def seeded():
    return build("layout_desk")


def fixed():
    return build("user")
