"""Misrouted request, PydanticAI (agent delegation through tools, `system_prompt` functions that read
the run's `deps`): a furniture restorer's enquiry desk. `front_f` passes each enquiry to one of two
benches through its tools: `ask_bench_p` runs `bench_p`, the French polisher, who books stripping,
repolishing, veneer and ring-mark work with `book_polish`; `ask_bench_u` runs `bench_u`, the
upholsterer, who books seats, webbing and fabric with `book_upholstery`. Each agent's
`system_prompt` function adds the workshop's current lead times from the deps
(`--context ...:workshop`).

Seeded: front_f's routing lines date from when the workshop sorted jobs by the piece of furniture
(chairs to the upholsterer, tables and cabinets to the polisher): the chair line comes first, so a
rocking chair that only needs its finish stripped and French polished goes to bench_u, who can
only offer a re-cover, and bench_p never hears of it. Fixed: the lines sort jobs by the work.
"""

from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model


@dataclass
class Workshop:
    """What the workshop's diary server passes its agents on every run."""
    lead_weeks: dict[str, int] = field(default_factory=lambda: {"polish": 5, "upholstery": 8})
    diary: list[str] = field(default_factory=list)


def workshop() -> Workshop:
    return Workshop()


WOOD = Literal["oak", "mahogany", "walnut", "pine", "teak"]
FRONT_SEEDED = ("You answer enquiries for Ashdown Restorations.\n"
                "Use ask_bench_u for chairs, sofas, stools or settees.\n"
                "Use ask_bench_p for tables, cabinets, chests or anything else.")
FRONT_FIXED = ("You answer enquiries for Ashdown Restorations.\n"
               "Use ask_bench_p for polishing, stripping, finish, veneer, scratches or ring marks.\n"
               "Use ask_bench_u for upholstery, fabric, webbing, springs, cushions or anything else.")


def build(front_lines: str) -> Agent:
    bench_p = Agent(pydantic_ai_model(), name="bench_p", deps_type=Workshop,
                    instructions="You are the French polishing bench at Ashdown Restorations.\n"
                                 "Book the work with book_polish.\n"
                                 "Report what book_polish said.")
    bench_u = Agent(pydantic_ai_model(), name="bench_u", deps_type=Workshop,
                    instructions="You are the upholstery bench at Ashdown Restorations.\n"
                                 "Book the work with book_upholstery.\n"
                                 "Report what book_upholstery said.")
    front_f = Agent(pydantic_ai_model(), name="front_f", deps_type=Workshop, instructions=front_lines)

    @bench_p.system_prompt
    def polish_lead(ctx: RunContext[Workshop]) -> str:
        return f"The polishing bench is booked {ctx.deps.lead_weeks['polish']} weeks ahead."

    @bench_u.system_prompt
    def upholstery_lead(ctx: RunContext[Workshop]) -> str:
        return f"The upholstery bench is booked {ctx.deps.lead_weeks['upholstery']} weeks ahead."

    @bench_p.tool
    def book_polish(ctx: RunContext[Workshop], wood: WOOD,
                    work: Literal["strip", "repolish", "veneer", "rings"],
                    piece: Annotated[str, Field(description="The piece of furniture, in the customer's words")]) -> dict:
        """Book a French polishing job on the workshop diary."""
        ctx.deps.diary.append(piece)
        return {"diary": {"state": "pencilled", "ref": f"AR-{2200 + len(ctx.deps.diary)}",
                          "start": f"in {ctx.deps.lead_weeks['polish']} weeks"}, "work": work, "wood": wood}

    @bench_u.tool
    def book_upholstery(ctx: RunContext[Workshop], fabric: Literal["velvet", "linen", "leather", "tapestry"],
                        piece: Annotated[str, Field(description="The piece of furniture, in the customer's words")]) -> str:
        """Book a re-cover on the upholstery diary (fabric chosen from the pattern books)."""
        ctx.deps.diary.append(piece)
        return f"re-cover of {piece} in {fabric}: on the list, {ctx.deps.lead_weeks['upholstery']} weeks"

    @front_f.system_prompt
    def front_lead(ctx: RunContext[Workshop]) -> str:
        return "Lead times this month: " + ", ".join(f"{k} {v} weeks" for k, v in ctx.deps.lead_weeks.items()) + "."

    @front_f.tool
    async def ask_bench_p(ctx: RunContext[Workshop], message: str) -> str:
        """Pass the customer's enquiry to the French polishing bench."""
        return (await bench_p.run(message, deps=ctx.deps, usage=ctx.usage)).output

    @front_f.tool
    async def ask_bench_u(ctx: RunContext[Workshop], message: str) -> str:
        """Pass the customer's enquiry to the upholstery bench."""
        return (await bench_u.run(message, deps=ctx.deps, usage=ctx.usage)).output

    return front_f


def seeded():
    return build(FRONT_SEEDED)


def fixed():
    return build(FRONT_FIXED)
