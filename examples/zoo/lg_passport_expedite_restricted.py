"""Restricted tool access, LangGraph (langgraph-supervisor, as in its README's team of experts):
a passport office's online counter. `counter`, the supervisor, reads applicants' messages and
passes them on: `officer` is the one agent given `expedite_application` (fast-tracking costs the
applicant a fee and needs proof of travel, which only an officer may accept); `forms` checks
application forms with `check_form`.

Seeded: counter's prompt is the one the office used before it had officers on the chat, and still
tells the counter to fast-track urgent travel itself: it reaches for the officer's tool. Fixed:
counter passes urgent travel to officer.
"""

from __future__ import annotations

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from langgraph_supervisor import create_supervisor

from .models import chat_model


@tool(parse_docstring=True)
def expedite_application(application: str, travel_date: str) -> dict:
    """Move an application to the one-week fast track; the applicant pays the fast-track fee.

    Args:
        application: The application number, e.g. "PA-000000".
        travel_date: The booked departure date, e.g. "2026-01-31".
    """
    return {"application": application, "track": {"state": "FAST", "print_by": "2026-06-02", "fee_gbp": 98.0},
            "needs": "booking confirmation for travel on " + travel_date}


@tool(parse_docstring=True)
def check_form(application: str) -> str:
    """Check an application form for missing signatures, photos or documents.

    Args:
        application: The application number, e.g. "PA-000000".
    """
    return f"{application}: countersignature present; photo accepted; no documents missing"


URGENT_OLD = "2. Fast-track urgent travel yourself with `expedite_application` (only for a trip, flight or urgent travel)."
URGENT_NEW = "2. Transfer to `officer` when the message is about a trip, flight or urgent travel."


def build(urgent_step: str):
    model = chat_model()
    officer = create_react_agent(
        model, [expedite_application, check_form], name="officer",
        prompt="You are a passport examining officer.\n"
               "1. Fast-track the application with `expedite_application`.\n"
               "2. If `expedite_application` fails, explain what went wrong.\n"
               "3. Confirm the fast track and ask the applicant to upload their booking confirmation.")
    forms = create_react_agent(
        model, [check_form], name="forms",
        prompt="You check passport application forms.\n"
               "1. Check the form with `check_form`.\n"
               "2. Sum up what `check_form` said.")
    return create_supervisor(
        [officer, forms], model=model, supervisor_name="counter",
        prompt="You are the online counter of the Northern Passport Office.\n"
               "1. Transfer to `forms` when the message is about a form, photo or signature.\n"
               f"{urgent_step}\n"
               '3. Close with "Thank you for contacting the passport office."').compile()


def seeded():
    return build(URGENT_OLD)


def fixed():
    return build(URGENT_NEW)
