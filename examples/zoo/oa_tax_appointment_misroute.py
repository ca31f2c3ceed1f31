"""Misrouted request, Agents SDK: a city tax office's web assistant. front passes requests for an
appointment to appt_desk, who books them (`book_appointment`); anything else goes to info_k, who
answers from the office's hours and forms and books nothing. Online booking went live behind a
feature flag: the handoff to appt_desk is offered only while the flag is on (`is_enabled`).

Seeded: the handoff reads the flag under a misspelt key ("online-appointments" for
"online_appointments"), so it is never offered: front's rule for appointments has nothing to hand
to, its fallback sends the request to info_k, whose tools cannot book one, while appt_desk's can.
Fixed: the handoff reads the flag's own key.
"""

from typing import Annotated

from agents import Agent, function_tool, handoff

from .models import model_string

FEATURES = {"online_appointments": True, "chat_uploads": False}
FREE = {"2026-03-04": ["08:30", "11:00"], "2026-03-05": ["14:15"]}


@function_tool
def book_appointment(taxpayer: Annotated[str, 'The tax number, like "TX-000000"'],
                     day: Annotated[str, 'The day wanted, like "2026-01-15"']) -> dict:
    """Book a 20-minute appointment with a caseworker on a day, at its first free time."""
    times = FREE.get(day) or []
    if not times:
        return {"taxpayer": taxpayer, "day": day, "booked": None, "note": "slot taken"}
    return {"taxpayer": taxpayer, "day": day, "booked": times[0], "room": "2.14", "bring": "photo ID, the letter"}


@function_tool
def office_hours(day: Annotated[str, 'The day, like "2026-01-15"']) -> str:
    """The tax office's opening hours on a day."""
    return f"{day}: 08:00-12:00, and 14:00-18:00 on Thursdays"


@function_tool
def find_form(topic: Annotated[str, 'What the form is for, like "change of address"']) -> list[str]:
    """The office's forms about a topic."""
    return []


DOWN = " If {} raises an error, say \"Our information pages are down; please ring 0341 555 200.\""
INFO_K = ("you answer general questions about the Lindenau tax office." + DOWN.format("office_hours")
          + DOWN.format("find_form") + " Call office_hours when the request mentions open, hours or closed. "
          "Call find_form when the request mentions form. Report the result of office_hours. Report the result "
          "of find_form. Say \"Thanks for your message - for anything we cannot answer here, ring 0341 555 200 "
          "(ext. 12).\"")
info_k = Agent(name="info_k", model=model_string(), tools=[office_hours, find_form], instructions=INFO_K)
appt_desk = Agent(name="appt_desk", model=model_string(), tools=[book_appointment, office_hours],
                  instructions="you book appointments at the Lindenau tax office. If book_appointment raises "
                               "an error, say \"The booking system is down; please ring 0341 555 200 (ext. 12).\" "
                               "Call book_appointment. Report the result of book_appointment.")


def build(flag: str) -> Agent:
    return Agent(
        name="front", model=model_string(),
        instructions="you read messages to the Lindenau tax office. Hand off to appt_desk when the request "
                     "mentions appointment, caseworker or see someone. Hand off to info_k.",
        handoffs=[handoff(appt_desk, is_enabled=lambda ctx, agent: FEATURES.get(flag, False)), info_k])


def seeded():
    return build("online-appointments")


def fixed():
    return build("online_appointments")
