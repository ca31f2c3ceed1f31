"""Speaking order, AutoGen AgentChat RoundRobinGroupChat: a carpet fitter's online enquiries.
`front_h` opens a job for the customer's address (`open_job`); then the estimates desks work the
job out: `survey_m` measures the rooms from the floor plans on file (`measure_rooms`) and
`quote_q` prices the job from the area survey_m has measured (`quote_job`). The round ends when
its last member has spoken.

Seeded: the estimates desks are listed in name order, quote first, so quote_q speaks before
anything is measured: it has no area to price and asks the customer for one, and the
measurements come after the quote was needed. Fixed: survey_m is listed before quote_q.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import SourceMatchTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

PLANS = {"HX3 6AT": {"job": "CF-2231", "rooms": {"lounge": 18.4, "hall": 6.2, "stairs (13 treads)": 4.1}}}
PRICES = {"twist pile": 24.50, "loop pile": 19.00}


def open_job(postcode: Annotated[str, 'The address\'s postcode, e.g. "HX1 1AA"']) -> dict:
    """Open a fitting job for an address and fetch its floor plans."""
    plan = PLANS.get(postcode)
    if plan is None:
        return {"postcode": postcode, "job": None, "plans": "none on file - a surveyor will visit"}
    return {"postcode": postcode, "job": plan["job"], "plans": "on file"}


def measure_rooms(job: Annotated[str, 'The job number, e.g. "CF-1000"']) -> dict:
    """Measure a job's rooms from its floor plans (square metres, with 10% waste)."""
    plan = next((p for p in PLANS.values() if p["job"] == job), None)
    if plan is None:
        return {"job": job, "status": 404, "detail": "no plans for this job"}
    total = round(sum(plan["rooms"].values()) * 1.1, 1)
    return {"job": job, "total_m2": total, "rooms": plan["rooms"]}


def quote_job(job: Annotated[str, 'The job number, e.g. "CF-1000"'],
              area_m2: Annotated[float, "The floor area measured, in square metres"]) -> str:
    """Price a job: twist pile carpet, underlay and fitting for the measured area."""
    per_m2 = PRICES["twist pile"] + 6.50
    return f"{job}: {area_m2} m2 at {per_m2:.2f}/m2 fitted = {area_m2 * per_m2:.2f} GBP incl. underlay, gripper, door bars"


def build(desk_order: list[str]) -> RoundRobinGroupChat:
    client = agentchat_client()
    members = {
        "survey_m": AssistantAgent(
            "survey_m", model_client=client, tools=[measure_rooms], max_tool_iterations=3,
            description="Measures a job's rooms from the floor plans.",
            system_message="You measure rooms for Calder Carpets from the floor plans on file.\n"
                           "Measure the rooms with measure_rooms.\n"
                           'If measure_rooms raises an error, say "The plans are not to hand; a surveyor will visit."\n'
                           "In your summary, mark a step ✅ only when its result says it went through; otherwise ❌ "
                           "with the reason."),
        "quote_q": AssistantAgent(
            "quote_q", model_client=client, tools=[quote_job], max_tool_iterations=3,
            description="Prices a job from the area survey_m has measured.",
            system_message="You price carpet jobs for Calder Carpets, from the area survey_m has measured.\n"
                           "Price the job with quote_job.\n"
                           'If quote_job raises an error, say "The price list is offline; we will email a quote."\n'
                           "In your summary, mark a step ✅ only when its result says it went through; otherwise ❌ "
                           "with the reason."),
    }
    front_h = AssistantAgent(
        "front_h", model_client=client, tools=[open_job], max_tool_iterations=3,
        description="Opens jobs for enquiries.",
        system_message="You answer enquiries to Calder Carpets, Halifax.\n"
                       "Open the job with open_job.\n"
                       'If open_job raises an error, say "Our job system is offline; we will call you back."\n'
                       "In your summary, mark a step ✅ only when its result says it went through; otherwise ❌ "
                       "with the reason.")
    order = [front_h] + [members[n] for n in desk_order]
    return RoundRobinGroupChat(order, termination_condition=SourceMatchTermination([desk_order[-1]]))


def seeded():
    return build(sorted(["survey_m", "quote_q"]))


def fixed():
    return build(["survey_m", "quote_q"])
