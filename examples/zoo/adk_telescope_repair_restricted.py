"""Restricted tool access, Google ADK (`SequentialAgent` of two `LlmAgent`s, the first's note kept
in the session state by `output_key` and put into the second's instruction as `{intake}`): a
telescope repair workshop. `desk_t` takes the customer's telescope in and writes the intake
note; `bench_b`, the optician, books the bench (`book_bench`, which holds a collimation slot and
the workshop's laser) from that note. Only the bench books the bench: it knows which jobs need
the laser.

Seeded: desk_t's lines still carry the step from when the owner ran the shop alone and booked the
bench from the counter: "Book the bench with book_bench", bench_b's tool.
Fixed: the desk writes the note and leaves the booking to the bench.
"""

from __future__ import annotations

from typing import Annotated

from google.adk.agents import LlmAgent, SequentialAgent
from pydantic import Field

from .models import adk_model

BENCH: dict[str, str] = {}


def book_bench(model_code: Annotated[str, Field(description='The telescope\'s model code, e.g. "NS8SE"')],
               drop_off_date: Annotated[str, Field(description='The day it comes in, e.g. "2026-01-31"')]) -> dict:
    """Hold a bench slot for a telescope (collimation and drive check), with the laser if the optics need it."""
    slot = f"TB-{len(BENCH) + 210}"
    BENCH[slot] = model_code
    return {"bench": {"state": "CONFIRMED", "slot": slot, "laser": model_code.upper().startswith("NS")},
            "ready_in_days": 6}


INTAKE_LINES = {
    "seeded": ("You are desk_t at the Stargazer Optical workshop counter.\n"
               "Book the bench with book_bench.\n"
               "Write the intake note with model code, fault and drop-off date."),
    "fixed": ("You are desk_t at the Stargazer Optical workshop counter.\n"
              "Write the intake note with model code, fault and drop-off date."),
}

BENCH_LINES = """You are bench_b, the optician at Stargazer Optical.
Intake note from the counter:
{intake}
Book the bench with book_bench.
Give the table."""


def build(version: str) -> SequentialAgent:
    desk_t = LlmAgent(name="desk_t", model=adk_model(), output_key="intake",
                      description="Takes telescopes in at the counter.", instruction=INTAKE_LINES[version])
    bench_b = LlmAgent(name="bench_b", model=adk_model(), output_key="booking",
                       description="Books the optician's bench.", instruction=BENCH_LINES, tools=[book_bench])
    return SequentialAgent(name="stargazer_workshop", sub_agents=[desk_t, bench_b])


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
