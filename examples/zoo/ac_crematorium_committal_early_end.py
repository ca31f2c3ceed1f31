"""Premature termination, AutoGen AgentChat (RoundRobinGroupChat): a crematorium's arrangements
office. `c_intake` finds the funeral director's provisional booking with `find_booking`, `referee`
(the medical referee's check) goes through the statutory forms with `check_forms`, and `chapel`
books the service and committal with `book_committal`.

Seeded: the team was first built for the forms check alone, when the chapel diary was kept on
paper; its `SourceMatchTermination` still names the referee, so the run ends as soon as the
forms are cleared, before the chapel desk books the service the funeral director asked for.
Fixed: the team stops once the chapel desk, the last stage, has answered.
"""

from __future__ import annotations

from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

REF = Annotated[str, 'The crematorium\'s provisional reference, e.g. "CR-00000"']
PROVISIONAL = {"CR-88213": {"deceased": "Arthur Pennock", "director": "Hartley & Sons", "held_until": "2026-03-06"}}
CHAPELS = {"east chapel": 80, "west chapel": 30, "committal only": 10}
BOOKED = {("2026-03-19", "west chapel")}


def find_booking(reference: REF) -> dict:
    """The provisional booking a funeral director holds."""
    found = PROVISIONAL.get(reference)
    return {"http": 200, "booking": found | {"reference": reference}} if found else {"http": 404, "booking": None}


def check_forms(reference: REF) -> tuple:
    """The medical referee's check of the statutory cremation forms for a booking."""
    return ("CLEARED", f"{reference}: Cr4 und Cr5 vollständig, keine Einwände des medical referee")


def book_committal(reference: REF,
                   day: Annotated[str, 'The day of the service, e.g. "2026-01-31"'],
                   chapel: Literal["east chapel", "west chapel", "committal only"]) -> str:
    """Book the service and committal in the chapel diary."""
    if (day, chapel) in BOOKED:
        return f"FULL - {chapel} taken on {day}"
    BOOKED.add((day, chapel))
    return f"booked {chapel} {day} 11:30 (seats {CHAPELS[chapel]}); committal ref {reference}/C1"


def build(stop) -> RoundRobinGroupChat:
    client = agentchat_client()
    c_intake = AssistantAgent(
        "c_intake", model_client=client, tools=[find_booking], reflect_on_tool_use=True,
        system_message="Arrangements office, Fernbank Crematorium.\n"
                       "1. The provisional booking is to be looked up by means of find_booking.\n"
                       "2. The result of find_booking is to be restated for the file.")
    referee = AssistantAgent(
        "referee", model_client=client, tools=[check_forms], reflect_on_tool_use=True,
        system_message="Medical referee's desk. No cremation proceeds without the forms.\n"
                       "1. The statutory forms are to be checked by means of check_forms.\n"
                       '2. Where check_forms reports WITHHELD, state "Authority to cremate is withheld; the '
                       'funeral director will be contacted."\n'
                       "3. The result of check_forms is to be set out and the file referred to the chapel desk.")
    chapel = AssistantAgent(
        "chapel", model_client=client, tools=[book_committal], reflect_on_tool_use=True,
        system_message="Chapel diary. Services are booked only once the forms are cleared.\n"
                       "1. The service is to be booked by means of book_committal.\n"
                       "2. Where book_committal reports FULL, the funeral director is to be told the chapel "
                       "could not be booked.\n"
                       "3. Confirm the service to the funeral director.")
    return RoundRobinGroupChat([c_intake, referee, chapel],
                               termination_condition=stop | MaxMessageTermination(12))


def seeded():
    return build(SourceMatchTermination(["referee"]))


def fixed():
    return build(SourceMatchTermination(["chapel"]))
