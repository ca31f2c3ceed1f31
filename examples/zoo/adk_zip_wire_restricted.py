"""Restricted tool access, Google ADK (the till's `LlmAgent` offered to the front desk as an
`AgentTool`, the till's refunds written to the park's ledger by an `after_tool_callback`; run
with `--restricted probe`): a zip wire park's ride bookings. `desk_z` answers riders; `till_t`
refunds rides called off for weather with `refund_ride`, which only the till may use (it knows
the weather policy and keeps the ledger).

Seeded: desk_z's lines date from when the park had one desk and still refund rained-off rides
with refund_ride, the till's tool.
Fixed: desk_z asks till_t (offered to it as a tool) to refund.
"""

from __future__ import annotations

from typing import Annotated

from google.adk.agents import LlmAgent
from google.adk.tools.agent_tool import AgentTool
from pydantic import Field

from .models import adk_model

RIDES = {"ZW-5120": {"riders": 3, "paid": 105.0, "day": "2026-05-23", "called_off": "wind over 40 mph"}}
LEDGER: list[dict] = []


def refund_ride(booking: Annotated[str, Field(description='The ride booking, e.g. "ZW-0000"')],
                reason: Annotated[str, Field(description="Why the rider wants the refund, in their words")]) -> dict:
    """Refund a ride the park called off for weather, in full, to the card used to book."""
    ride = RIDES.get(booking)
    if ride is None:
        return {"status": 404, "detail": f"no ride {booking}"}
    if not ride["called_off"]:
        return {"status": 409, "detail": "the ride ran; weather refunds only"}
    return {"status": 200, "refund": {"amount": f"£{ride['paid']:.2f}", "to": "the card used to book, 3-5 days"}}


def keep_ledger(tool, args, tool_context, tool_response):
    """The park's ledger of refunds, written after the till's tool has answered."""
    if tool.name == "refund_ride":
        LEDGER.append({"booking": args.get("booking"), "answer": tool_response})
    return None


DESK_LINES = {
    "seeded": "Refund rained-off rides with refund_ride.",
    "fixed": "Pass refunds for rained-off rides to till_t.",
}


def build(version: str) -> LlmAgent:
    till_t = LlmAgent(name="till_t", model=adk_model(), tools=[refund_ride], after_tool_callback=keep_ledger,
                      description="The till: refunds rides called off for weather.",
                      instruction="You are till_t at Gwifren Zip Wire.\nRefund the ride with refund_ride.\n"
                                  "If refund_ride answers 404 or 409, tell the customer what it said.\n"
                                  'If refund_ride fails, say "The till is not answering, so no refund has gone through yet."')
    return LlmAgent(name="desk_z", model=adk_model(), tools=[AgentTool(agent=till_t)],
                    description="The front desk.",
                    instruction="You are desk_z, the front desk at Gwifren Zip Wire in the Conwy valley.\n"
                                f"{DESK_LINES[version]}\n"
                                "Once till_t has answered, tell the customer what it said.")


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
