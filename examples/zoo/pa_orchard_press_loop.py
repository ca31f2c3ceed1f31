"""Loop, PydanticAI (`deps_type` carrying the orchard's press board, a tool `prepare` function
that offers bottle collection to keyholders only): a community orchard's apple-pressing day.
`juice_w` tells members how their batch of apples is getting on by asking the press board
(`press_status`) until it says bottled. The board moves a batch on one stage each time the press
team updates it, which happens between two looks at it.

Seeded: `press_status` keeps the first status it read for a batch in the run's deps (the cache was
added so the board's slow tablet is not asked twice), and never reads again: every answer is the
first one, "pressing", and juice_w asks again and again until PydanticAI's request limit stops the
run. Fixed: a batch's status is cached only once it is final.
"""

from dataclasses import dataclass, field
from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent, RunContext
from pydantic_ai.tools import ToolDefinition

from .models import pydantic_ai_model

STAGES = ["queued", "pressing", "bottled"]
BATCH = Annotated[str, Field(description='The batch tag on the apple crates, e.g. "AP-000"')]


@dataclass
class Orchard:
    """What the orchard's pressing-day app passes its agents on every run."""
    member_tier: str = "member"
    board: dict[str, int] = field(default_factory=lambda: {"AP-117": 0})  # the press team's stage per batch
    seen: dict[str, str] = field(default_factory=dict)  # statuses already read from the board


def orchard() -> Orchard:
    return Orchard()


def read_board(deps: Orchard, batch: str) -> str:
    """The tablet by the press: each look finds the team has moved the batch on a stage."""
    stage = deps.board.get(batch)
    if stage is None:
        return "unknown"
    deps.board[batch] = min(stage + 1, len(STAGES) - 1)
    return STAGES[deps.board[batch]]


async def keyholders_only(ctx: RunContext[Orchard], tool_def: ToolDefinition) -> ToolDefinition | None:
    return tool_def if ctx.deps.member_tier == "keyholder" else None


def build(cache_final_only: bool) -> Agent:
    juice_w = Agent(pydantic_ai_model(), name="juice_w", deps_type=Orchard,
                    instructions=("You are juice_w at Millbrook Community Orchard's pressing day.\n"
                                  "If press_status says unknown, say \"No batch w/ that tag. Check the crate label?\"\n"
                                  "Check press_status until it says bottled.\n"
                                  "Report the batch."))

    @juice_w.tool
    def press_status(ctx: RunContext[Orchard], batch: BATCH) -> dict:
        """Where a batch of apples is on the press board: queued, pressing or bottled."""
        if batch in ctx.deps.seen:
            return {"batch": batch, "estado": ctx.deps.seen[batch], "from": "cache"}
        status = read_board(ctx.deps, batch)
        if not cache_final_only or status == STAGES[-1]:
            ctx.deps.seen[batch] = status
        return {"batch": batch, "estado": status, "from": "board"}

    @juice_w.tool(prepare=keyholders_only)
    def book_collection(ctx: RunContext[Orchard], batch: BATCH, slot: str) -> str:
        """Book a slot to collect bottled juice from the barn (keyholders)."""
        return f"{batch}: collect {slot} from the barn"

    return juice_w


def seeded():
    return build(cache_final_only=False)


def fixed():
    return build(cache_final_only=True)
