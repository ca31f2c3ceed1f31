"""Misrouted request, Google ADK (LLM-driven transfer, `transfer_to_agent`, from a coordinator to
its `sub_agents`, each with an `output_key` note in the session state): a piano shop. `desk_d`
reads customers' messages and transfers them; `tuner_t` books tunings with `book_tuning`;
`hire_h` hires pianos out for events with `book_hire` (delivery and collection included).

Seeded: the desk's routing line dates from when the tuner also ran the small hire fleet: it still
sends anything about tuning or hire to tuner_t, above the newer line for hire_h, so a concert hire
goes to the tuner, who books a tuning. Fixed: hire goes to hire_h.
"""

from __future__ import annotations

from typing import Annotated, Literal

from google.adk.agents import LlmAgent
from pydantic import Field

from .models import adk_model

FLEET = {"upright": 3, "baby grand": 1}
HIRES: list[str] = []


def book_tuning(postcode: Annotated[str, Field(description='Where the piano is, like "LA6 2AH"')],
                visit_date: Annotated[str, Field(description='The day of the visit, like "2026-01-31"')]) -> dict:
    """Book a tuner's visit to tune a piano at home (95 pounds)."""
    return {"status": "booked", "visit": visit_date, "postcode": postcode, "tuner": "Ros", "fee": "95.00 GBP"}


def book_hire(piano: Annotated[Literal["upright", "baby grand"], Field(description="The piano hired")],
              event_date: Annotated[str, Field(description='The day of the event, like "2026-01-31"')],
              postcode: Annotated[str, Field(description='The venue\'s postcode, like "LA6 2AH"')]) -> dict:
    """Hire a piano out for an event: delivered the day before, collected the day after, tuned on site."""
    if FLEET.get(piano, 0) < 1:
        return {"status": "unavailable", "piano": piano, "reason": "none free that week"}
    HIRES.append(piano)
    return {"status": "booked", "hire": f"PH-{270 + len(HIRES)}", "piano": piano, "event": event_date,
            "price": "240.00 GBP" if piano == "upright" else "520.00 GBP"}


ROUTES = {
    "seeded": ("Transfer anything about tuning or hire to tuner_t.\n"
               "Transfer anything about hire, events or concerts to hire_h.\n"),
    "fixed": ("Transfer anything about tuning to tuner_t.\n"
              "Transfer anything about hire, events or concerts to hire_h.\n"),
}

TUNER = """You are tuner_t, the tuner at Lune Valley Pianos.
Book each visit with book_tuning.
If book_tuning raises an error, say "The diary is not answering; we will ring you with a day."
Reply "A tuning is booked at {postcode} on {visit} with {tuner}, {fee}."
"""

HIRE = """You are hire_h, who runs the hire fleet at Lune Valley Pianos.
Book each piano with book_hire.
If book_hire answers unavailable, say "The {piano} could not be hired: {reason}."
If book_hire raises an error, say "The hire diary is not answering, so the {piano} is not booked yet; we will ring you."
Reply "The {piano} is booked for {event} under {hire}: {price}, delivered the day before and collected the day after."
"""


def build(version: str) -> LlmAgent:
    # the desks' lines are given as functions, so ADK leaves their reply {placeholders} alone
    tuner_t = LlmAgent(name="tuner_t", model=adk_model(), description="Books piano tunings.", instruction=lambda context: TUNER,
                       tools=[book_tuning], output_key="tuning_note")
    hire_h = LlmAgent(name="hire_h", model=adk_model(), description="Hires pianos out for events.",
                      instruction=lambda context: HIRE, tools=[book_hire], output_key="hire_note")
    return LlmAgent(name="desk_d", model=adk_model(), description="Reads customers' messages.",
                    instruction="You are desk_d at Lune Valley Pianos, Kirkby Lonsdale.\n" + ROUTES[version],
                    sub_agents=[tuner_t, hire_h])


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
