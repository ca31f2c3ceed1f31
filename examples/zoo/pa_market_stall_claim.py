"""Incorrect verification, PydanticAI (delegation through a tool): a farmers' market's stall
bookings. `stall_chat` answers traders and passes pitch bookings to `ml_2`, the market
office's clerk, through its `ask_pitches` tool; ml_2 books a pitch on a market day with
`reserve_pitch`, which answers an HTTP-style pair: 201 with the pitch number, or 202 with the
trader's place on the waiting list when every pitch of that size is let.

Seeded: ml_2's instructions were written in the market's first season, when there was always
room, so they go from `reserve_pitch` straight to confirming the pitch: a trader put on the
waiting list is told the pitch is theirs. Fixed: a line first answers a waitlisted reply.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

PITCHES = {("2026-03-07", "3x3 gazebo"): [], ("2026-03-07", "van pitch"): ["V2"], ("2026-03-14", "3x3 gazebo"): ["B11"]}
WAITLIST: dict[tuple[str, str], list[str]] = {("2026-03-07", "3x3 gazebo"): ["Hill Farm Eggs", "Ozturk Olives", "Bee Kind"]}


def reserve_pitch(market_day: Annotated[str, Field(description='The Saturday market, e.g. "2026-01-31"')],
                  pitch: Literal["3x3 gazebo", "6x3 double", "van pitch"],
                  trader_name: Annotated[str, Field(description="The stallholder's name as on their licence")]) -> tuple:
    """Reserve a pitch for a trader on a market day."""
    free = PITCHES.get((market_day, pitch))
    if free is None:
        return (404, {"state": "no_market", "day": market_day})
    if not free:
        queue = WAITLIST.setdefault((market_day, pitch), [])
        queue.append(trader_name)
        return (202, {"state": "waitlisted", "position": len(queue),
                      "note": f"alle {pitch} Plätze vergeben, we ring the list on Thursday"})
    return (201, {"state": "let", "pitch_no": free.pop(0), "fee": "£28.00", "setup_from": "06:30"})


def clerk(outcome_line: str) -> Agent:
    ml_2 = Agent(pydantic_ai_model(), name="ml_2", instructions=(
        "Market office, Riverside Farmers' Market.\n"
        "- Book the pitch with reserve_pitch.\n"
        f"{outcome_line}"
        "- Confirm the pitch to the trader."))
    ml_2.tool_plain(reserve_pitch)
    return ml_2


WAITLISTED = "- If reserve_pitch comes back waitlisted or no_market, tell the trader, with their place in the queue.\n"


def build(outcome_line: str) -> Agent:
    ml_2 = clerk(outcome_line)
    stall_chat = Agent(pydantic_ai_model(), name="stall_chat", instructions=(
        "Riverside Farmers' Market chat. Be friendly, keep it short.\n"
        "- For pitch, stall or market day bookings, use ask_pitches.\n"
        "- Relay the answer from ask_pitches to the trader.\n"
        '- Otherwise say "the market office is open Tue-Fri 9-3, 01632 960 118".'))

    @stall_chat.tool
    async def ask_pitches(ctx: RunContext, question: str) -> str:
        """Pass a trader's pitch request to the market office."""
        return (await ml_2.run(question, usage=ctx.usage)).output

    return stall_chat


seeded = build("")
fixed = build(WAITLISTED)
