"""Premature termination, OpenAI Agents SDK (a front agent with a function tool and a hand-off,
its `tool_use_behavior` left at `"stop_on_first_tool"`): a community nursing team's referral
line. `ward_w` takes calls from patients and carers, looks the patient up with
`patient_record`, and passes home-visit requests to `rota_r`, who books a district nurse with
`book_home_visit`.

Seeded: ward_w was cloned from the team's record-lookup bot, which only ever answered "is this
patient on our list?", and still carries its `tool_use_behavior="stop_on_first_tool"`: the run
ends with patient_record's answer as the final output, and the visit is never booked.
Fixed: ward_w runs the default tool loop, so after the look-up it hands over to rota_r.
"""

from __future__ import annotations

from agents import Agent, function_tool

from .models import model_string

PATIENTS = {"943 476 5919": {"name": "Mrs E. Pryce", "district": "Llandaff North", "gp": "Whitchurch Road Surgery"}}


@function_tool
def patient_record(nhs_number: str) -> dict:
    """Look a patient up on the community nursing caseload.

    Args:
        nhs_number: The patient's NHS number, ten digits as printed on their letters, e.g. "000 000 0000".
    """
    found = PATIENTS.get(nhs_number)
    if found is None:
        return {"on_caseload": False, "nhs_number": nhs_number}
    return {"on_caseload": True, "nhs_number": nhs_number, **found}


@function_tool
def book_home_visit(nhs_number: str, day: str, reason: str) -> dict:
    """Book a district nurse's home visit (dressings, injections, catheter care, wound checks).

    Args:
        nhs_number: The patient's NHS number, e.g. "000 000 0000".
        day: The day the visit is wanted, e.g. "2026-01-31".
        reason: What the nurse is needed for, in the caller's words.
    """
    if nhs_number not in PATIENTS:
        return {"booked": False, "why": "patient not on the caseload: the GP must refer first"}
    return {"booked": True, "visit": f"DN-{day[5:7]}{day[8:]}-07", "nurse": "Bethan (Llandaff team)",
            "window": "09:00-13:00", "nhs_number": nhs_number}


def build(**settings) -> Agent:
    rota_r = Agent(name="rota_r", model=model_string(), tools=[book_home_visit],
                   instructions="You keep the district nurses' visit rota for the Taff Community Nursing Team.\n"
                                "Book the visit with book_home_visit.\n"
                                'If book_home_visit fails, say "The rota system is down; a nurse will ring you today."')
    return Agent(name="ward_w", model=model_string(), tools=[patient_record], handoffs=[rota_r],
                 instructions="You answer the referral line of the Taff Community Nursing Team.\n"
                              "Look the patient up with patient_record.\n"
                              "Pass home visit requests to rota_r.",
                 **settings)


def seeded():
    return build(tool_use_behavior="stop_on_first_tool")


def fixed():
    return build()
