"""Misrouted request, Google ADK (LLM-driven `transfer_to_agent` between sub-agents, a function
tool that runs code): a pipe band's learner scheme. `door_d` reads each message and transfers
it: lessons to `tutor_t`, who prices a block of lessons in a Python snippet (`run_python`, a
subprocess in a scratch folder) and books it with `book_lessons`; kit to `kit_k`, who hires out
practice chanters and pipes with `hire_kit`. Neither can do the other's work.

Seeded: door_d's routing lines were copied from the band's shop template, and the lessons line
still names kit_k: a request for lessons goes to the kit desk, which hires a chanter. Fixed: the
lessons line names tutor_t.
"""

from __future__ import annotations

from typing import Annotated

from google.adk.agents import LlmAgent
from pydantic import Field

from .models import adk_model
from .scratch import run_snippet

BOOKED: list[str] = []


def run_python(code: Annotated[str, Field(description="The Python source to run")]) -> dict:
    """Run a short Python snippet in a scratch folder; answers its exit code and what it printed."""
    done = run_snippet(code, "pipes-")
    return {"exit": {"code": done.returncode}, "printed": done.stdout, "errors": done.stderr[-600:]}


def book_lessons(lessons: Annotated[int, Field(description="How many weekly lessons in the block")],
                 cost: Annotated[float, Field(description="The block's price in pounds, as worked out")]) -> dict:
    """Book a block of weekly practice-chanter lessons with the band's tutor."""
    BOOKED.append(str(lessons))
    return {"booking": f"PB-{880 + len(BOOKED)}", "tutor": "Pipe Major Alasdair Reid",
            "first_lesson": "Tuesday 19:00, Leith Drill Hall", "cost": cost}


def hire_kit(item: Annotated[str, Field(description='What to hire, like "practice chanter"')]) -> dict:
    """Hire out a practice chanter or a set of pipes by the month."""
    return {"hired": item, "per_month": "£12.00", "collect": "band hall, Thursday band night"}


TUTOR = """You run the learner scheme of the Leith Thistle Pipe Band.
In Python, work out `cost = round(lessons * 18.0 * (0.9 if lessons >= 8 else 1), 2)` (ten per cent off a block of eight or more).
Book the block with book_lessons.
Reply "Computed cost: £{cost} for {lessons} lessons. Booking {booking} with {tutor}, first lesson {first_lesson}."
"""

KIT = """You look after the band's hire kit.
Hire the kit with hire_kit.
Reply "Sorted: {hired} on hire at {per_month} a month, collect at the {collect}."
"""


def verbatim(text: str):
    """An instruction provider: ADK fills `{name}` from session state in a string instruction,
    and the reply templates here keep their braces for the agent."""
    return lambda _context: text


def build(lessons_to: str) -> LlmAgent:
    tutor_t = LlmAgent(name="tutor_t", model=adk_model(), description="Books learners' lessons.",
                       instruction=verbatim(TUTOR), tools=[run_python, book_lessons])
    kit_k = LlmAgent(name="kit_k", model=adk_model(), description="Hires out chanters and pipes.",
                     instruction=verbatim(KIT), tools=[hire_kit])
    return LlmAgent(
        name="door_d", model=adk_model(), description="The band's front door.",
        instruction=("You read the messages that come in to the Leith Thistle Pipe Band.\n"
                     f"Send anything about lessons, tuition or learning to {lessons_to}.\n"
                     "Send anything about hiring, buying or borrowing pipes to kit_k.\n"),
        sub_agents=[tutor_t, kit_k])


def seeded():
    return build("kit_k")


def fixed():
    return build("tutor_t")
