"""Misrouted request, PydanticAI delegation through tools: a scaffolding hire yard's office.
`yard` answers contractors and passes each matter to a colleague through its tools: `ask_hire`
runs hire_d, who extends or ends hire contracts, and `ask_safety` runs insp_r, who books the
weekly scaffold inspections and tags.

Seeded: yard's referral table is written from a dict of topics per desk in which "extension",
"extend" and "off-hire" were filed under the inspectors (both go out to site), so an extension
request goes to insp_r, whose tools cannot touch a contract. Fixed: those topics are the hire
desk's.
"""

from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

CONTRACT = Annotated[str, Field(description='The hire contract number, e.g. "SH-00000"')]
CONTRACTS = {"SH-55120": {"site": "27 Harbour Row", "ends": "2026-04-03", "weekly": 412.50}}


def extend_hire(contract: CONTRACT,
                weeks: Annotated[int, Field(description="How many more weeks of hire")]) -> dict:
    """Extend a scaffold hire contract by whole weeks and return the new end date and weekly rate."""
    found = CONTRACTS.get(contract)
    if found is None:
        return {"status": 404, "contract": contract}
    return {"status": 200, "contract": contract, "ends": f"2026-04-{3 + 7 * weeks:02d}"
            if 3 + 7 * weeks <= 30 else "2026-05-01", "weekly_gbp": found["weekly"]}


def off_hire(contract: CONTRACT) -> str:
    """End a hire and book the strike-down crew."""
    return f"{contract}: strike-down booked for the first Monday after notice"


def book_inspection(contract: CONTRACT) -> str:
    """Book the statutory seven-day scaffold inspection and new tag."""
    return f"{contract}: inspector on site Tuesday, tag valid 7 days"


hire_d = Agent(pydantic_ai_model(), name="hire_d", instructions=(
    "Hire desk, Norcross Scaffolding. Contracts only.\n"
    "1. Extensions are to be made by means of extend_hire (applies to requests concerning extension, extend or "
    "more weeks).\n"
    "2. Off-hire notices are to be entered by means of off_hire (applies to requests concerning off-hire, "
    "strike or collection).\n"
    "3. Where extend_hire reports 404, state \"No hire contract is held under that number.\"\n"
    "4. Confirm the contract change to the contractor."))
hire_d.tool_plain(extend_hire)
hire_d.tool_plain(off_hire)

insp_r = Agent(pydantic_ai_model(), name="insp_r", instructions=(
    "Scaffold inspections, Norcross Scaffolding.\n"
    "1. Inspections are to be booked by means of book_inspection.\n"
    "2. Confirm the inspection to the contractor."))
insp_r.tool_plain(book_inspection)

HIRE_TOPICS = "quotes, delivery, invoices, end, strike-down or collection"
SAFETY_TOPICS = "inspection, tags or loose boards"
MOVED = "extension, extend or off-hire"  # the topics filed under the wrong desk in the seeded table


def build(hire_topics: str, safety_topics: str) -> Agent:
    yard = Agent(pydantic_ai_model(), name="yard", instructions=(
        "Office of Norcross Scaffolding, hire yard.\n"
        f"- Requests concerning {hire_topics} are referred by means of ask_hire.\n"
        f"- Requests concerning {safety_topics} are referred by means of ask_safety.\n"
        "- The result of ask_hire is to be restated to the contractor.\n"
        "- The result of ask_safety is to be restated to the contractor."))

    @yard.tool
    async def ask_hire(ctx: RunContext, question: str) -> str:
        """Pass a matter to the hire desk (contracts, quotes, deliveries, invoices)."""
        return (await hire_d.run(question, usage=ctx.usage)).output

    @yard.tool
    async def ask_safety(ctx: RunContext, question: str) -> str:
        """Pass a matter to the scaffold inspectors."""
        return (await insp_r.run(question, usage=ctx.usage)).output

    return yard


seeded = build(HIRE_TOPICS, f"{MOVED}, {SAFETY_TOPICS}")
fixed = build(f"{MOVED}, {HIRE_TOPICS}", SAFETY_TOPICS)
