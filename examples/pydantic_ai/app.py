"""A PydanticAI flight desk: a support agent that delegates to agents through its tools.

The pattern of PydanticAI's "agent delegation" (docs/multi-agent-applications.md): a tool of the
support agent runs another agent with `await other.run(..., usage=ctx.usage)` and takes its
answer back. `ask_seat_desk` runs the seat agent, whose typed answer (`SeatChange`) comes
through PydanticAI's output tool; `consult` picks a specialist from a dict, so either specialist
may be run. Test it with

    masfuzz inspect examples/pydantic_ai/app.py:support_agent
    masfuzz exec examples/pydantic_ai/app.py:support_agent --sut-model \\
        scripted/examples/pydantic_ai/policy.py:policy --input "Move booking ABC123 to seat 14C"
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from pydantic_ai import Agent, ModelRetry, RunContext

MODEL = "openai:gpt-4o-mini"
BOOKINGS = {"ABC123": {"passenger": "Ada Lovelace", "flight": "PA101", "seat": "22F"}}
TAKEN = {"14A", "14B"}


class SeatChange(BaseModel):
    """The seat the seat desk chose."""

    row: int = Field(ge=1, le=30)
    seat: Literal["A", "B", "C", "D", "E", "F"]


support_agent = Agent(
    MODEL,
    name="support_agent",
    instructions=("You are the flight desk's support agent. Look bookings up with lookup_booking. "
                  "For seat changes ask the seat desk (ask_seat_desk); for refunds or baggage "
                  "consult the specialist (consult). Answer the customer in one short paragraph."),
    model_settings={"temperature": 0.2},
)

seat_agent = Agent(
    MODEL,
    name="seat_agent",
    output_type=SeatChange,
    instructions="You are the seat desk. Check the seat map, then answer with the seat chosen.",
)

refund_agent = Agent(MODEL, name="refund_agent",
                     instructions="You decide refunds. Quote the refund policy tool's answer.")
baggage_agent = Agent(MODEL, name="baggage_agent",
                      instructions="You answer baggage questions in one sentence.")

SPECIALISTS = {"refund": refund_agent, "baggage": baggage_agent}


@support_agent.tool_plain
def lookup_booking(booking_ref: str) -> dict[str, str]:
    """Look a booking up by its six-character reference."""
    if booking_ref not in BOOKINGS:
        raise ModelRetry(f"no booking {booking_ref!r}: ask the customer for the reference")
    return BOOKINGS[booking_ref]


@support_agent.tool
async def ask_seat_desk(ctx: RunContext, request: str) -> str:
    """Ask the seat desk to choose a seat for the customer's request."""
    result = await seat_agent.run(request, usage=ctx.usage)
    return f"seat {result.output.row}{result.output.seat} reserved"


@support_agent.tool
async def consult(ctx: RunContext, topic: Literal["refund", "baggage"], question: str) -> str:
    """Consult the refund or the baggage specialist."""
    specialist = SPECIALISTS.get(topic)
    if specialist is None:
        return f"no specialist for {topic!r}"
    result = await specialist.run(question, usage=ctx.usage)
    return result.output


@seat_agent.tool_plain
def seat_map(row: int) -> str:
    """The free seats of a row."""
    free = [f"{row}{s}" for s in "ABCDEF" if f"{row}{s}" not in TAKEN]
    return ", ".join(free) or "row full"


@refund_agent.tool_plain
def refund_policy(fare: str) -> str:
    """The refund policy of a fare class."""
    return "refundable minus a 50 EUR fee" if fare.lower() == "flex" else "not refundable"
