"""Violation of the speaking order, AutoGen AgentChat (RoundRobinGroupChat): a dental lab's crown
line. `lab_in` logs a practice's work ticket with `log_case`; `shade_t` reads the shade from the
practice's photos with `read_shade`; `mill_3` mills the zirconia crown "in the shade the shade desk
recorded" with `mill_crown`; `dispatch` books the courier back to the practice.

Seeded: the team's member list was reordered when the mill came in-house (it used to be an
outside lab that took the shade from the ticket), so mill_3 speaks before shade_t has recorded a
shade, and has none to mill in. Fixed: shade_t speaks before the mill.
"""

from __future__ import annotations

from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

CASE = Annotated[str, 'The lab\'s case number on the work ticket, e.g. "DL-0000"']
CASES = {"DL-7731": {"practice": "Brookside Dental", "tooth": "UR6", "photos": 4}}


def log_case(case: CASE) -> dict:
    """Log a practice's work ticket on the crown line."""
    found = CASES.get(case)
    return {"logged": True, "case": case, **found} if found else {"logged": False, "case": case}


def read_shade(case: CASE) -> tuple:
    """Read the tooth shade (VITA classical) from the practice's shade photos."""
    if case not in CASES:
        return ("no photos", case)
    return ("recorded", {"case": case, "shade": "A3", "note": "cervical third slightly darker, Farbe A3 bestätigt"})


def mill_crown(case: CASE, shade: Annotated[str, 'The recorded VITA shade, e.g. "A1"'],
               material: Literal["zirconia", "lithium disilicate"]) -> str:
    """Mill a crown from the scan in the given shade and material."""
    return f"milled {material} crown for {case} in {shade}; sintering 8h, ready 16:00"


def book_courier(case: CASE) -> dict:
    """Book the courier that takes a finished case back to its practice."""
    return {"http": 200, "pickup": "tomorrow 09:00", "case": case}


def build(order: str) -> RoundRobinGroupChat:
    client = agentchat_client()
    lab_in = AssistantAgent(
        "lab_in", model_client=client, tools=[log_case], reflect_on_tool_use=True,
        system_message="Intake, Calder Dental Laboratory.\n"
                       "- Log the ticket with `log_case`.\n"
                       "- Report the result of `log_case` for the line.")
    shade_t = AssistantAgent(
        "shade_t", model_client=client, tools=[read_shade], reflect_on_tool_use=True,
        system_message="Shade desk. Shades are read from the practice's photos, never guessed.\n"
                       "- Record the shade with `read_shade`.\n"
                       "- Quote the result of `read_shade` for the mill.")
    mill_3 = AssistantAgent(
        "mill_3", model_client=client, tools=[mill_crown], reflect_on_tool_use=True,
        system_message="Milling. Crowns are milled in the shade the shade desk recorded.\n"
                       "- Mill the crown with `mill_crown`.\n"
                       "- Report the result of `mill_crown` for dispatch.")
    dispatch = AssistantAgent(
        "dispatch", model_client=client, tools=[book_courier], reflect_on_tool_use=True,
        system_message="Dispatch.\n"
                       "- Book the return courier with `book_courier`.\n"
                       "- Tick off the return courier for the practice.")
    members = {"lab_in": lab_in, "shade_t": shade_t, "mill_3": mill_3, "dispatch": dispatch}
    return RoundRobinGroupChat([members[n] for n in order.split()],
                               termination_condition=SourceMatchTermination(["dispatch"]) | MaxMessageTermination(16))


def seeded():
    return build("lab_in mill_3 shade_t dispatch")


def fixed():
    return build("lab_in shade_t mill_3 dispatch")
