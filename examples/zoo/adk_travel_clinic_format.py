"""Tool specification mismatch, Google ADK (the clinic's nurse desk held by reception as an
`AgentTool`; an `after_tool_callback` keeps the day's bookings in session state): a pharmacy's
travel vaccination clinic. `reception_v` answers the web chat and asks `jabs_j`, the nurse desk,
to book jabs; jabs_j books a nurse's appointment with `book_jab`, whose date parameter documents
the clinic card's day-first "21/05/2026".

Seeded: book_jab's parser came with the pharmacy chain's booking API, which sends ISO dates, and
was never changed when the clinic's own form (and its docstring) kept day/month/year: a date
written as documented is answered `{"status": 422, ...}`, and jabs_j says sorry.
Fixed: book_jab parses the day/month/year it documents.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from google.adk.agents import LlmAgent
from google.adk.tools.agent_tool import AgentTool
from pydantic import Field

from .models import adk_model

PATIENTS = {"TC-6120": "Mr O. Adeyemi"}
COURSES = {"typhoid": "1 injection", "hepatitis A": "1 injection, booster at 6-12 months",
           "yellow fever": "1 injection (certificate issued)", "rabies": "3 injections over 3-4 weeks"}


def iso_day(text: str) -> date:
    return date.fromisoformat(text)


def card_day(text: str) -> date:
    return datetime.strptime(text, "%d/%m/%Y").date()


def remember(tool, args, tool_context, tool_response):
    """Keep the day's bookings in session state for the nurse's end-of-day list."""
    if tool.name == "book_jab" and isinstance(tool_response, dict) and tool_response.get("status") == 201:
        tool_context.state["booked_today"] = [*tool_context.state.get("booked_today", []), tool_response["appointment"]]
    return None


def build(parse) -> LlmAgent:
    def book_jab(patient_ref: Annotated[str, Field(description='The patient\'s clinic reference, e.g. "TC-0000"')],
                 vaccine: Literal["typhoid", "hepatitis A", "yellow fever", "rabies"],
                 appointment_date: Annotated[str, Field(description='The appointment day as on the clinic card, '
                                                                    'day/month/year, e.g. "21/05/2026"')]) -> dict:
        """Book a nurse's travel vaccination appointment (20 minutes; bring your itinerary)."""
        if patient_ref not in PATIENTS:
            return {"status": 404, "detail": f"no patient {patient_ref}"}
        try:
            day = parse(appointment_date)
        except ValueError:
            return {"status": 422, "detail": [{"field": "appointment_date", "msg": "invalid date",
                                               "input": appointment_date}]}
        return {"status": 201, "appointment": f"TV-{day:%m%d}-3", "day": day.isoformat(), "time": "10:40",
                "vaccine": vaccine, "course": COURSES[vaccine]}

    jabs_j = LlmAgent(name="jabs_j", model=adk_model(), description="The nurse desk: books vaccination appointments.",
                      instruction="You book the travel clinic's vaccination appointments at Marsh Lane Pharmacy.\n"
                                  "Book the appointment with book_jab.\n"
                                  'If book_jab says 422, say "Sorry, the clinic diary would not take that date."\n'
                                  'If book_jab fails, say "The clinic diary is down; the pharmacist will call you."',
                      tools=[book_jab], after_tool_callback=remember)
    return LlmAgent(name="reception_v", model=adk_model(),
                    instruction="You answer the web chat at Marsh Lane Pharmacy's travel clinic.\n"
                                "Book vaccinations with jabs_j.\n"
                                'If jabs_j fails, say "The clinic cannot be reached; please ring the pharmacy."',
                    tools=[AgentTool(agent=jabs_j)])


def seeded():
    return build(iso_day)


def fixed():
    return build(card_day)
