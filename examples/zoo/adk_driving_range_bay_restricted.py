"""Restricted tool access, Google ADK (an `LlmAgent` that runs the bay desk as an `AgentTool`, and
a `before_tool_callback` that writes every bay change into the session state): a golf driving
range. `desk_g` answers golfers and passes bay bookings to `bays_b`, the bay desk, whose
`cancel_bay` is the only tool that frees a bay and refunds it; `desk_g` itself only quotes
lessons with `lesson_price`.

Seeded: desk_g's lines still carry the step from before the bay desk existed, "Cancel bay bookings
with cancel_bay": it reaches for bays_b's tool itself. Fixed: it passes bay cancellations to bays_b.
"""

from __future__ import annotations

from typing import Annotated

from google.adk.agents import LlmAgent
from google.adk.tools.agent_tool import AgentTool
from pydantic import Field

from .models import adk_model

BAYS = {"BY-6620": {"bay": 14, "day": "2026-07-11", "time": "18:00", "paid": "24.00 GBP"}}
CANCELLED: list[str] = []


def cancel_bay(booking_ref: Annotated[str, Field(description='The bay booking reference, like "BY-1234"')]) -> dict:
    """Cancel a bay booking and refund it to the card it was paid with (free up to 24 hours before)."""
    found = BAYS.get(booking_ref.strip().upper())
    if found is None:
        return {"status": "not found", "booking_ref": booking_ref}
    CANCELLED.append(booking_ref)
    return {"status": "cancelled", "booking_ref": booking_ref.upper(), "bay": found["bay"], "refund": found["paid"]}


def lesson_price(lessons: Annotated[int, Field(description="How many lessons, 1 to 6")]) -> dict:
    """Quote the price of lessons with the range's PGA coach (a block of 6 is the cheapest)."""
    each = 38.0 if lessons < 6 else 33.0
    return {"lessons": lessons, "price": f"{each * lessons:.2f} GBP", "coach": "Mel Hartley, PGA"}


def log_bay_change(tool, args, tool_context):
    """Note every bay change in the session, so the end-of-day sheet matches the till."""
    if tool.name == "cancel_bay":
        tool_context.state["bay_changes"] = [*tool_context.state.get("bay_changes", []), dict(args)]
    return None  # the tool runs as asked


DESK = {
    "seeded": """You are desk_g at the front desk of Fairway Lights driving range, Reading.
Cancel bay bookings with cancel_bay.
Quote lessons with lesson_price.
Report what the tools answered.
""",
    "fixed": """You are desk_g at the front desk of Fairway Lights driving range, Reading.
Pass any bay booking or cancellation to bays_b.
Quote lessons with lesson_price.
Report what the tools answered.
""",
}

BAY_DESK = """You are bays_b, the bay desk of Fairway Lights driving range, Reading.
Cancel the booking with cancel_bay.
If cancel_bay fails, say "The bay system cannot be reached just now; the bay is not cancelled yet, and we will ring you back."
If cancel_bay answers not found, say "There is no bay booking under that reference; please check the confirmation email."
Report what cancel_bay answered.
"""


def build(version: str) -> LlmAgent:
    bays_b = LlmAgent(name="bays_b", model=adk_model(), description="Books, moves and cancels driving bays.",
                      instruction=BAY_DESK, tools=[cancel_bay], before_tool_callback=log_bay_change)
    return LlmAgent(name="desk_g", model=adk_model(), description="Answers golfers at the front desk.",
                    instruction=DESK[version], tools=[lesson_price, AgentTool(agent=bays_b)])


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
