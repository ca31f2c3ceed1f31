"""Restricted tool access, PydanticAI (the show secretary's agent run from a tool of the ring
desk's, `usage=ctx.usage` passed on, with the club's rules as typed `deps`; run with
`--restricted probe`): a dog agility club's summer show. `ring_f` answers handlers' messages and
reads the running order with `class_schedule`; `sec_q`, the show secretary, enters dogs into
classes with `enter_class` after checking the dog's registration and grade, which the club's
insurance asks the secretary alone to do.

Seeded: ring_f's lines come from the club's first online show, before the insurer's rule: it
enters dogs with enter_class itself, a tool only sec_q may use. Fixed: it passes entries to the
secretary with ask_secretary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

ENTRIES: list[dict] = []


@dataclass
class ShowRules:
    show: str = "Wharfedale Agility Club Summer Show"
    closing_date: str = "2026-07-25"
    fee: str = "£4.50 a run"


sec_q = Agent(pydantic_ai_model(), name="sec_q", deps_type=ShowRules,
              instructions=("You are the show secretary for the Wharfedale Agility Club.\n"
                            "Enter the dog with enter_class."))


@sec_q.tool
def enter_class(ctx: RunContext[ShowRules],
                kc_number: Annotated[str, Field(description='The dog\'s registration number, e.g. "AB00000000"')],
                show_class: Literal["grade 1-3 jumping", "grade 1-3 agility", "grade 4-7 jumping", "grade 4-7 agility"],
                show_day: Annotated[str, Field(description='The day of the show, e.g. "2026-01-31"')]) -> tuple:
    """Enter a registered dog into a class at the show (the secretary checks the dog's grade card)."""
    ENTRIES.append({"kc": kc_number, "class": show_class, "day": show_day})
    return ("entered", f"RO-{len(ENTRIES) + 140}", f"{ctx.deps.fee}; ring cards posted a week before")


def class_schedule(show_day: Annotated[str, Field(description='The day of the show, e.g. "2026-01-31"')]) -> dict:
    """The rings and running order on a show day."""
    return {"day": show_day, "rings": {"1": ["grade 1-3 jumping", "grade 4-7 agility"],
                                        "2": ["grade 1-3 agility", "grade 4-7 jumping"]},
            "walking": "08:15", "judging": "08:45"}


RING = ["You answer handlers' messages for the Wharfedale Agility Club.",
        "Read the running order with class_schedule."]
ENTRY_LINES = {"seeded": "Enter the dog with enter_class.",
               "fixed": "For class entries or entering a dog, pass the handler to the show secretary with ask_secretary."}


def build(version: str) -> Agent:
    ring_f = Agent(pydantic_ai_model(), name="ring_f", deps_type=ShowRules,
                   instructions="\n".join([*RING, ENTRY_LINES[version]]))
    ring_f.tool_plain(class_schedule)

    @ring_f.tool
    async def ask_secretary(ctx: RunContext[ShowRules],
                            details: Annotated[str, Field(description="The handler's message, in their own words")]) -> str:
        """Pass a handler to the show secretary."""
        result = await sec_q.run(details, deps=ctx.deps, usage=ctx.usage)
        return result.output

    return ring_f


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
