"""Incorrect verification, OpenAI Agents SDK (a handoff to an agent whose `instructions` are a
function of the run context, an `output_guardrail` on its reply, `AgentHooks` keeping the shop's
counter log): a cheese shop's Christmas order line. `counter` passes whole-wheel and half-wheel
orders to `cave_7`, which holds a wheel from the maturing room with `hold_wheel`. The room answers
with a dataclass: HELD with a collection slip, or SOLD_OUT with a note (the cave's German
supplier's wording).

Seeded: cave_7's instructions, written when the shop only took orders for wheels it had already
set aside, go from `hold_wheel` to "Let the customer know they're all set" whatever the room said.
Fixed: a sentence first answers a SOLD_OUT with an honest explanation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from agents import (Agent, GuardrailFunctionOutput, RunContextWrapper, AgentHooks, function_tool, handoff,
                    output_guardrail)

from .models import model_string

# the maturing room's stock: wheels by cheese and size, as the cave's board shows them
CAVE = {("stilton", "half"): 3, ("stilton", "whole"): 0, ("cheddar", "whole"): 2, ("cheddar", "half"): 5}
SLIPS: list[str] = []


@dataclass
class Hold:
    status: str
    slip: str | None = None
    notes: list[str] = field(default_factory=list)


@function_tool
def hold_wheel(cheese: Literal["stilton", "cheddar", "wensleydale"], size: Literal["whole", "half"],
               collect_on: str) -> Hold:
    """Hold a wheel from the maturing room for collection.

    Args:
        cheese: Which cheese.
        size: A whole wheel (about 8 kg) or a half.
        collect_on: The collection day, e.g. "2026-12-23".
    """
    if CAVE.get((cheese, size), 0) <= 0:
        return Hold("SOLD_OUT", notes=[f"kein {cheese} {size} wheel mehr bis Januar", "half wheels still in"])
    CAVE[(cheese, size)] -= 1
    SLIPS.append(collect_on)
    return Hold("HELD", f"CW-{3300 + len(SLIPS)}", [f"collect {collect_on} from the back door"])


@output_guardrail
async def no_trade_prices(ctx: RunContextWrapper, agent: Agent, output: str) -> GuardrailFunctionOutput:
    """The cave's staff see trade prices; they must never reach a retail customer."""
    return GuardrailFunctionOutput(output_info=None, tripwire_triggered="trade price" in str(output).lower())


class CounterLog(AgentHooks):
    """The shop's counter log: which desk dealt with each order, for the Saturday staff."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    async def on_start(self, context, agent) -> None:
        self.lines.append(f"start {agent.name}")

    async def on_tool_end(self, context, agent, tool, result) -> None:
        self.lines.append(f"{agent.name} {tool.name}: {str(result)[:60]}")


CAVE_LINES = """You look after the maturing room at Hartley's Cheesemongers, {season}.
Hold the wheel with hold_wheel.
{sold_out}Let the customer know they're all set."""

SOLD_OUT = "If hold_wheel says SOLD_OUT, explain that the wheel could not be held and why.\n"


def build(sold_out: str) -> Agent:
    def cave_lines(ctx: RunContextWrapper, agent: Agent) -> str:
        # the season line changes with the shop's calendar; the rest is the cave's standing order
        return CAVE_LINES.format(season="Christmas orders", sold_out=sold_out)

    cave_7 = Agent(name="cave_7", model=model_string(), tools=[hold_wheel], instructions=cave_lines,
                   output_guardrails=[no_trade_prices], hooks=CounterLog())
    return Agent(name="counter", model=model_string(), handoffs=[handoff(cave_7)],
                 instructions=("You answer the order line at Hartley's Cheesemongers.\n"
                               "Pass the customer to cave_7 for wheel, half wheel or whole cheese orders."))



def seeded():
    return build("")


def fixed():
    return build(SOLD_OUT)
