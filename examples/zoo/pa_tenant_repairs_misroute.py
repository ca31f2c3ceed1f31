"""Misrouted request, PydanticAI (the front desk's delegation tools grouped in a `FunctionToolset`
given with `toolsets=`, each running a team's agent with `usage=ctx.usage`): a housing
association's tenant line. `front_h` reads each tenant's message and passes it on with
`ask_caretakers`, whose `caretaker_k` logs jobs in the blocks' shared spaces with
`log_communal_job`, or with `ask_repairs`, whose `repairs_r` books a repairs operative into a
tenant's flat with `book_repair`.

Seeded: front_h's caretakers line dates from before the association split responsive repairs
off from the caretaking team, and still ends "... and repairs": a leaking boiler in a flat,
which the tenant asks to have repaired, goes to caretaker_k, who only looks after shared spaces;
repairs_r never hears of it.
Fixed: the caretakers line covers the shared spaces only; repairs inside a flat go to repairs_r.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent, FunctionToolset, RunContext

from .models import pydantic_ai_model

TENANCIES = {"LT-5521": {"address": "Flat 12, Linden Court", "block": "Linden Court"}}

caretaker_k = Agent(pydantic_ai_model(), name="caretaker_k",
                    instructions="You are the caretaking team at Greystone Housing.\n"
                                 "Log communal jobs with log_communal_job for communal areas, stairwells, lifts, "
                                 "bins and lighting.\n"
                                 'Say "Caretakers only look after the shared spaces of a block."')


@caretaker_k.tool_plain
def log_communal_job(block: Annotated[str, Field(description="The block, as the tenant names it")],
                     job: Annotated[str, Field(description="What needs doing, in the tenant's words")]) -> str:
    """Log a caretaking job in a block's shared spaces (stairs, lifts, bin stores, lights, door entry)."""
    return f"logged: communal job CJ-{1000 + len(block) * 37} for {block}; caretaker visits within 5 working days"


repairs_r = Agent(pydantic_ai_model(), name="repairs_r",
                  instructions="You book responsive repairs in tenants' homes for Greystone Housing.\n"
                               "Book the repair with book_repair.\n"
                               'If book_repair fails, say "The repairs diary is down; we will call you to book."')


@repairs_r.tool_plain
def book_repair(tenancy_ref: Annotated[str, Field(description='The tenancy reference on the rent statement, e.g. "LT-0000"')],
                fault: Annotated[str, Field(description="The fault, in the tenant's words")],
                day: Annotated[str, Field(description='The day the tenant is in, e.g. "2026-01-31"')]) -> dict:
    """Book a repairs operative into a tenant's home (plumbing, heating, electrics, windows, doors)."""
    tenancy = TENANCIES.get(tenancy_ref)
    if tenancy is None:
        return {"booked": False, "problem": f"no tenancy {tenancy_ref}"}
    urgent = any(w in fault.lower() for w in ("leak", "no hot water", "no heating"))
    return {"booked": True, "job": f"RJ-{day[5:7]}{day[8:]}-{'U' if urgent else 'R'}", "address": tenancy["address"],
            "slot": f"{day} 08:00-13:00", "priority": "urgent (within 24 hours)" if urgent else "routine"}


Details = Annotated[str, Field(description="The tenant's message, in their own words")]
desks = FunctionToolset()


@desks.tool
async def ask_caretakers(ctx: RunContext, details: Details) -> str:
    """Pass a tenant's message to the caretaking team."""
    return (await caretaker_k.run(details, usage=ctx.usage)).output


@desks.tool
async def ask_repairs(ctx: RunContext, details: Details) -> str:
    """Pass a tenant's message to the repairs team."""
    return (await repairs_r.run(details, usage=ctx.usage)).output


LINES = {"seeded": ["Use ask_caretakers for communal areas, stairwells, lifts, bins, lighting and repairs.",
                    "Use ask_repairs for faults inside a flat: leaks, boilers, heating, windows and doors."],
         "fixed": ["Use ask_caretakers for communal areas, stairwells, lifts, bins and lighting.",
                   "Use ask_repairs for repairs inside a flat: leaks, boilers, heating, windows and doors."]}


def build(version: str) -> Agent:
    return Agent(pydantic_ai_model(), name="front_h", toolsets=[desks],
                 instructions="You answer the tenant line at Greystone Housing.\n" + "\n".join(LINES[version])
                 + '\nIf ask_repairs fails, say "The repairs team cannot be reached; please ring 0300 555 0142."')


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
