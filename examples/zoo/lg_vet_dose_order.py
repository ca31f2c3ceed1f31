"""Speaking order, LangGraph StateGraph of LangChain agents (`create_agent`): a small-animal vet's clinic
hands out worming treatment at its counter. `reception` checks the pet in (which opens today's
visit record), `nurse` weighs it on the scales and writes the weight to the record, and
`dispensary` doses the wormer by today's weight (`dose_wormer` answers a tuple: a status word and
a note). The graph is wired from the clinic's `COUNTER_FLOW`, a list of (from, to) steps.

Seeded: the flow is the one written when the counter only handed out repeat flea treatment, a
fixed dose, and the pet was weighed afterwards "for the record": dispensary runs before nurse and
finds no weight for today (`("HOLD", "geen gewicht vandaag ...")`; the clinic's software is
Dutch). Fixed: the nurse weighs the pet before the dispensary doses it.
"""

from __future__ import annotations

from langchain.agents import create_agent
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph

from .models import chat_model

PATIENTS = {"VC-2231": {"name": "Biscuit", "species": "dog", "breed": "Border Terrier", "scales_kg": 8.6}}
TODAY: dict[str, dict] = {}  # patient -> today's visit record


def dose_for(kg: float) -> str:
    return "Milbemax small dog, 1 tablet" if kg <= 5 else f"Milbemax dog, {1 if kg <= 25 else 2} tablet(s)"


@tool(parse_docstring=True)
def check_in(patient: str) -> str:
    """Check a pet in at the counter and open today's visit record.

    Args:
        patient: The pet's clinic number, like "VC-1000".
    """
    pet = PATIENTS.get(patient)
    if pet is None:
        return f"{patient}: not registered with the practice."
    TODAY[patient] = {"weight_kg": None}
    return f"Checked in {pet['name']} ({patient}), {pet['breed']}; visit open, last weighed 2025-11-02."


@tool(parse_docstring=True)
def record_weight(patient: str) -> str:
    """Weigh the pet on the counter scales and write the weight to today's visit record.

    Args:
        patient: The pet's clinic number, like "VC-1000".
    """
    visit = TODAY.setdefault(patient, {"weight_kg": None})
    visit["weight_kg"] = PATIENTS.get(patient, {}).get("scales_kg", 0.0)
    return f"{patient} weighs {visit['weight_kg']} kg today."


@tool(parse_docstring=True)
def dose_wormer(patient: str) -> tuple[str, str]:
    """Dose the pet's wormer from today's weight and hand it over the counter.

    Args:
        patient: The pet's clinic number, like "VC-1000".
    """
    kg = TODAY.get(patient, {}).get("weight_kg")
    if kg is None:
        return "HOLD", f"geen gewicht vandaag for {patient}: nothing dispensed"
    return "OK", f"{dose_for(kg)} for {kg} kg handed over; next dose due in 3 months"


PROMPTS = {
    "reception": ("You are on reception at Meadowbank Veterinary Clinic.\n"
                  "Call check_in.\n"
                  'If check_in raises an error, say "Our system is slow this morning - please take a seat."\n'
                  "Report the result of check_in.", [check_in]),
    "nurse": ("You are the veterinary nurse at the counter.\n"
              "Call record_weight.\n"
              'If record_weight raises an error, say "The scales are playing up; I will weigh your pet on the big ones."\n'
              "Report the result of record_weight.", [record_weight]),
    "dispensary": ("You hand out preventive treatment at the counter; the dose follows the weight the nurse "
                   "records at today's visit.\n"
                   "Call dose_wormer.\n"
                   'If dose_wormer raises an error, say "The dispensary system is down; the vet will dose by hand."\n'
                   'If dose_wormer answers HOLD, say "We need to weigh your pet before we can give the wormer."\n'
                   "Report the result of dose_wormer.", [dose_wormer]),
}

COUNTER_FLOW_REPEATS = [(START, "reception"), ("reception", "dispensary"), ("dispensary", "nurse"), ("nurse", END)]
COUNTER_FLOW = [(START, "reception"), ("reception", "nurse"), ("nurse", "dispensary"), ("dispensary", END)]


def build(flow: list[tuple[str, str]]):
    model = chat_model()
    graph = StateGraph(MessagesState)
    for name, (prompt, tools) in PROMPTS.items():
        graph.add_node(name, create_agent(model, tools, system_prompt=prompt, name=name))
    for source, target in flow:
        graph.add_edge(source, target)
    return graph.compile()


def seeded():
    return build(COUNTER_FLOW_REPEATS)


def fixed():
    return build(COUNTER_FLOW)
