"""Speaking order, OpenAI Agents SDK, agents run in plain Python: a hearing-aid repair
workshop. A repair request goes to two agents one after the other, in the app's own function:
the bench technician tests the aid and logs the diagnosis, the estimates agent prices the repair
from that diagnosis (its instructions say the diagnosis has to be logged first). Both share the
job's run context, where the diagnosis is kept.

Seeded: the function runs the estimates agent before the bench (the two calls were swapped when the
customer-facing quote was moved to the top of the reply): the price lookup finds no diagnosis
and answers 404. Fixed: the bench runs first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from agents import Agent, RunContextWrapper, Runner, function_tool

from .models import model_string

BENCH_FINDINGS = {"HA-5521": "receiver open circuit; wax guard blocked"}
PRICES = {"receiver open circuit; wax guard blocked": "receiver replacement and new wax guard, GBP 68.00"}


@dataclass
class Job:
    diagnoses: dict[str, str] = field(default_factory=dict)


@function_tool
def log_diagnosis(ctx: RunContextWrapper[Job], job_ref: str) -> str:
    """Run the bench test on an aid and log what is wrong with it.

    Args:
        job_ref: The repair job's reference on the envelope, like "HA-1000".
    """
    finding = BENCH_FINDINGS.get(job_ref, "no fault found; cleaned and retubed")
    ctx.context.diagnoses[job_ref] = finding
    return json.dumps({"code": 201, "job": job_ref, "diagnosis": finding})


@function_tool
def price_repair(ctx: RunContextWrapper[Job], job_ref: str) -> str:
    """Price a repair from its logged diagnosis.

    Args:
        job_ref: The repair job's reference on the envelope, like "HA-1000".
    """
    finding = ctx.context.diagnoses.get(job_ref)
    if finding is None:
        return json.dumps({"code": 404, "detail": f"no diagnosis logged for {job_ref}"})
    return json.dumps({"code": 200, "job": job_ref, "quote": PRICES.get(finding, "cleaning and retubing, GBP 18.00")})


bench = Agent(name="bench", model=model_string(), tools=[log_diagnosis], instructions="""\
**Bench technician.** You test hearing aids sent in for repair.
- Call log_diagnosis.
- If log_diagnosis raises an error, say "The bench log is unavailable; the aid is tested and the result is on the job card."
- Report the result of log_diagnosis.
""")

estimates = Agent(name="estimates", model=model_string(), tools=[price_repair], instructions="""\
**Estimates.** You price repairs from the bench's diagnosis, so the diagnosis has to be logged first.
- Call price_repair.
- If price_repair raises an error, say "The price list is unavailable; we will email the quote today."
- Report the result of price_repair.
""")


async def seeded(request: str) -> str:
    job = Job()
    quote = await Runner.run(estimates, request, context=job)
    diagnosis = await Runner.run(bench, request, context=job)
    return f"{quote.final_output}\n\n{diagnosis.final_output}"


async def fixed(request: str) -> str:
    job = Job()
    diagnosis = await Runner.run(bench, request, context=job)
    quote = await Runner.run(estimates, request, context=job)
    return f"{quote.final_output}\n\n{diagnosis.final_output}"
