"""A scripted model for `semantic_apps.py` and the customer-service desk, reacting to what each
agent is given: the triage agent routes seat changes where its instructions say; the seat and
FAQ agents work as the example's careful policy does; the booking agent writes the date in the
form its tool's documentation prescribes. One phrase in the customer's message changes one
agent: "(boastful)" makes the seat booking agent report the change done whatever the tool said
(kind 1)."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from masfuzz.llm.scripted import call, handoff, say, tool_results
from masfuzz.loader import load_target

_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "customer_service" / "policy.py"
careful = load_target(f"{_EXAMPLE}:policy").obj
SEAT = re.compile(r"\b(\d{1,2}[A-F])\b")
DATE = re.compile(r"\b([A-Z][a-z]+ \d{1,2}, \d{4})\b")
FORMS = {"YYYY-MM-DD": "%Y-%m-%d", "DD/MM/YYYY": "%d/%m/%Y"}


def _user(request) -> str:
    return " ".join(m.content or "" for m in request.messages if m.role == "user")


def _system(request) -> str:
    return " ".join(m.content or "" for m in request.messages if m.role == "system")


def triage(request):
    text = _user(request)
    if "seat" in text.lower():
        route = re.search(r"seat changes to the ([\w ]+?) agent", _system(request))
        if route:
            return handoff(route.group(1).lower().replace(" ", "_") + "_agent")
    return handoff("faq_agent")


def faq(request):
    results = tool_results(request, "faq_lookup_tool")
    if not results:
        return call("faq_lookup_tool", question=_user(request))
    return say(f"Here is what I found: {results[-1].content}")


def seat_booking(request):
    results = tool_results(request, "update_seat")
    if results and "(boastful)" in _user(request):
        seat = SEAT.search(_user(request))
        return say(f"Your seat has been changed to {seat.group(1) if seat else 'the new seat'}.")
    return careful(request)


def booking(request):
    results = tool_results(request, "book_flight")
    if results:
        if "error" in results[-1].content.lower():
            return say("Sorry, I could not book the flight: the booking system refused it.")
        return say(f"Your flight is booked. {results[-1].content}")
    tool = next(t for t in request.tools if t.name == "book_flight")
    doc = tool.parameters["properties"]["date"].get("description", "")
    form = next((f for k, f in FORMS.items() if k in doc), "%Y-%m-%d")
    day = datetime.strptime(DATE.search(_user(request)).group(1), "%B %d, %Y")
    city = re.search(r"\bto ([A-Z][a-z]+)", _user(request)).group(1)
    return call("book_flight", destination=city, date=day.strftime(form))


AGENTS = {"triage_agent": triage, "faq_agent": faq, "seat_booking_agent": seat_booking,
          "booking_agent": booking}


def policy(request):
    return AGENTS[request.agent](request)
