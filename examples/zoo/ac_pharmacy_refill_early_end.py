"""Premature termination, AutoGen AgentChat (RoundRobinGroupChat): a pharmacy's repeat
prescription desk. `intake` finds the patient's repeat with `find_repeat`, `rx_check` (the
pharmacist's check) clears it with `check_interactions`, and `courier` books the home delivery
with `book_delivery`, answering `delivery: cleared` once the van has a slot.

Seeded: the team stops on `TextMentionTermination("cleared")`, meant for the courier's closing
line, but heard from every member: the pharmacist's own check answers "rx: cleared" and the run
ends before the courier books the delivery the patient asked for. Fixed: the team stops once the
courier, the last stage, has answered: booked, or asked the patient for what it lacks (a stop on
its "cleared" alone would go round to the message limit when it has to ask).
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

PATIENT = Annotated[str, 'The patient\'s pharmacy number, e.g. "RX-000000"']
REPEATS = {"RX-551208": [("amlodipine 5 mg", 28), ("atorvastatin 20 mg", 28)]}


def find_repeat(patient: PATIENT) -> dict:
    """The patient's repeat prescription on file."""
    items = REPEATS.get(patient)
    if items is None:
        return {"patient": patient, "found": 0}
    return {"patient": patient, "found": len(items), "items": [f"{name} x{n}" for name, n in items],
            "gp_authorised": "2026-01-12"}


def check_interactions(patient: PATIENT) -> tuple:
    """The pharmacist's clinical check of a repeat before it is dispensed."""
    return ("CLEAR", f"{patient}: no interactions; BP review due in March")


def book_delivery(patient: PATIENT,
                  postcode: Annotated[str, 'The delivery postcode, e.g. "AB1 2CD"']) -> str:
    """Book the pharmacy van to take a dispensed repeat to the patient's home."""
    return f"van slot Thu 10:00-12:00 for {patient} at {postcode}; signature needed"


def build(stop) -> RoundRobinGroupChat:
    client = agentchat_client()
    intake = AssistantAgent(
        "intake", model_client=client, tools=[find_repeat], reflect_on_tool_use=True,
        system_message="Repeat prescription intake, Hollins Pharmacy.\n"
                       "- find_repeat on the patient's number.\n"
                       "- reply: items: <items>, gp: <gp_authorised>")
    rx_check = AssistantAgent(
        "rx_check", model_client=client, tools=[check_interactions], reflect_on_tool_use=True,
        system_message="Pharmacist check. Nothing is dispensed unchecked.\n"
                       "- check_interactions on the patient.\n"
                       '- If check_interactions gives "HOLD", reply: rx: on hold, see pharmacist\n'
                       "- reply: rx: cleared")
    courier = AssistantAgent(
        "courier", model_client=client, tools=[book_delivery], reflect_on_tool_use=True,
        system_message="Home delivery desk. Only checked repeats go on the van.\n"
                       "- book_delivery for the patient's postcode.\n"
                       "- reply: delivery: cleared, to: <postcode>")
    return RoundRobinGroupChat([intake, rx_check, courier],
                               termination_condition=stop | MaxMessageTermination(14))


def seeded():
    return build(TextMentionTermination("cleared"))


def fixed():
    return build(SourceMatchTermination(["courier"]))
