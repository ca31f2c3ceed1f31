"""Speaking order, PydanticAI programmatic hand-off: a bike workshop's service desk is a plain
async function that runs two agents on a customer's message, sharing the job's notes as their
`deps`. insp_m records the mechanic's inspection (`record_inspection`); price_t prices the job
from those notes (`price_job`), which its instructions say in their own way: "once the
workshop's inspection notes exist".

Seeded: the function runs price_t first (the quote used to be a flat service fee, priced before
anyone looked at the bike): price_job finds no notes and prices nothing. Fixed: insp_m, then
price_t.
"""

from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

JOB = Annotated[str, Field(description='The workshop job, like "bk-000"')]
PARTS = {"chain": 24.00, "cassette": 41.50, "brake pads": 18.00}

insp_m = Agent(pydantic_ai_model(), name="insp_m", deps_type=dict,
               instructions="you write up the mechanic's inspection at Spoke & Sprocket. If record_inspection "
                            "raises an error, say \"The workshop tablet is down; the mechanic's notes are on the "
                            "job card.\" Call record_inspection. Report the result of record_inspection.")
price_t = Agent(pydantic_ai_model(), name="price_t", deps_type=dict,
                instructions="you quote jobs at Spoke & Sprocket; once the workshop's inspection notes exist, "
                             "the quote comes from them. If price_job raises an error, say \"The till is down; "
                             "we will text you the quote.\" Call price_job. Report the result of price_job.")


@insp_m.tool
def record_inspection(ctx: RunContext[dict], job: JOB) -> dict:
    """Record what the mechanic found on a bike booked in for a service."""
    ctx.deps[job] = ["chain", "cassette"]  # worn past the gauge
    return {"job": job, "worn": ctx.deps[job], "frame": "no cracks"}


@price_t.tool
def price_job(ctx: RunContext[dict], job: JOB) -> dict:
    """Price a service job: labour plus the parts its inspection notes call for."""
    parts = ctx.deps.get(job, [])
    total = 45.00 + sum(PARTS[p] for p in parts)
    return {"job": job, "parts_priced": len(parts), "total": f"£{total:.2f}" if parts else None}


@price_t.tool_plain
def opening_hours(day: Annotated[str, Field(description='The day, like "saturday"')]) -> str:
    """When the workshop is open on a day."""
    return f"{day}: 09:00-17:30"


async def seeded(message: str) -> str:
    notes: dict = {}
    quote = await price_t.run(message, deps=notes)
    inspection = await insp_m.run(message, deps=notes)
    return f"{inspection.output}\n{quote.output}"


async def fixed(message: str) -> str:
    notes: dict = {}
    inspection = await insp_m.run(message, deps=notes)
    quote = await price_t.run(message, deps=notes)
    return f"{inspection.output}\n{quote.output}"
