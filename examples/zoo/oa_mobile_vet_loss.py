"""Information loss at a hand-over, OpenAI Agents SDK (`handoff(..., input_filter=...)`): a mobile
vet's call line. `reception` hears the owner out and hands home-visit requests to `rounds`, the
vet's driver-planner, who books a visit with `book_home_visit`.

Seeded: the handoff's input filter was written to keep the planner's context short: it keeps
only the items of the current turn (`new_items`) and clears `input_history`, which is where the
owner's message, with the pet's practice number and the postcode, lives. rounds has to ask for
the number. Fixed: the filter is the SDK's `handoff_filters.remove_all_tools`, which drops tool
chatter but keeps the conversation.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents import Agent, HandoffInputData, function_tool, handoff
from agents.extensions import handoff_filters

from .models import model_string

ROUND = {"BS6": "Tuesday", "BS7": "Tuesday", "BS9": "Thursday"}
PATIENTS = {"PV-55821": "Biscuit (rabbit)", "PV-40977": "Mabel (cat)"}
VISITS: list[str] = []


@dataclass
class Visit:
    code: int
    patient: str | None
    day: str | None
    message: str


@function_tool
def book_home_visit(practice_no: str, postcode: str, reason: str) -> Visit:
    """Book the vet's van to call at the owner's home on its round.

    Args:
        practice_no: The pet's number on the practice's records, e.g. "PV-12345".
        postcode: Where the van calls, e.g. "BS6 5AB".
        reason: Why the pet needs seeing, in the owner's words.
    """
    if practice_no not in PATIENTS:
        return Visit(404, None, None, f"no patient {practice_no} on file")
    day = ROUND.get(postcode.split()[0])
    if day is None:
        return Visit(409, PATIENTS[practice_no], None, f"{postcode} is off the van's rounds")
    VISITS.append(practice_no)
    return Visit(201, PATIENTS[practice_no], day, f"visit HV-{800 + len(VISITS)} on the {day} round, 10:00-13:00")


def short_context(data: HandoffInputData) -> HandoffInputData:
    """Seeded: keep the planner's context to this turn's items only."""
    return data.clone(input_history=())


def build(input_filter) -> Agent:
    rounds = Agent(name="rounds", model=model_string(), tools=[book_home_visit], instructions=(
        "You plan the home-visit round for Whiteladies Mobile Vets.\n"
        "Book the visit with book_home_visit.\n"
        "If book_home_visit fails, explain why the visit could not be booked.\n"
        "Confirm the visit."))
    return Agent(name="reception", model=model_string(), instructions=(
        "You answer the phone for Whiteladies Mobile Vets.\n"
        "Transfer to rounds for home visits, call-outs or a visit from the van.\n"
        'Otherwise say "The surgery line opens at eight."'),
        handoffs=[handoff(rounds, input_filter=input_filter)])


def seeded():
    return build(short_context)


def fixed():
    return build(handoff_filters.remove_all_tools)
