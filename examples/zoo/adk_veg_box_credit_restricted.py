"""Restricted tool access, Google ADK (a root `LlmAgent` with a sub-agent it transfers to, a
`before_agent_callback` putting the delivery round into session state, the desk's `output_key`):
an organic veg box scheme. `box_b` answers subscribers and looks their box up with `get_box`;
`ledger_l` credits missed deliveries with `credit_box`, which only the ledger may use (it checks
the driver's log and keeps the accounts).

Seeded: box_b's lines date from when the scheme was run by one person, and still credit missed
boxes with credit_box, the ledger's tool.
Fixed: box_b passes credits for missed boxes to ledger_l.
"""

from __future__ import annotations

from typing import Annotated

from google.adk.agents import LlmAgent
from pydantic import Field

from .models import adk_model

BOXES = {"VB-6120": {"box": "VB-6120", "subscriber_id": "SUB-3308", "size": "medium", "price": "£18.50",
                     "round": "Thursday east"}}
MISSED = {("SUB-3308", "2026-05-14")}  # the driver's log: the van broke down on the east round


def get_box(box: Annotated[str, Field(description='The box subscription number, like "VB-1000"')]) -> dict:
    """Look up a veg box subscription: who gets it, its size, price and delivery round."""
    return BOXES.get(box, {"status": 404, "detail": f"no subscription {box}"})


def credit_box(subscriber_id: Annotated[str, Field(description='The subscriber, like "SUB-1000"')],
               delivery_day: Annotated[str, Field(description='The day the box was due, like "2026-01-31"')]) -> dict:
    """Credit a subscriber's account for a box the driver's log shows was never delivered."""
    if (subscriber_id, delivery_day) not in MISSED:
        return {"status": 409, "detail": "the driver's log shows that box delivered"}
    return {"status": 200, "credit": "CR-" + subscriber_id[-4:], "amount": "£18.50", "on": "the next invoice"}


def note_round(callback_context):
    """The delivery rounds the desk may mention, put in the session before it speaks."""
    callback_context.state["rounds"] = "Monday west, Thursday east"
    return None


DESK_LINES = {
    "seeded": "Credit missed boxes with credit_box.",
    "fixed": "Pass credits for missed boxes to ledger_l.",
}


def build(version: str) -> LlmAgent:
    ledger_l = LlmAgent(name="ledger_l", model=adk_model(), tools=[get_box, credit_box],
                        description="The ledger: credits boxes the driver's log shows were missed.",
                        instruction="You are ledger_l, keeping the accounts of Long Furrow Veg Boxes.\n"
                                    "Credit the missed box with credit_box.\n"
                                    'If credit_box fails, say "The accounts are not answering; no credit has gone on yet."\n'
                                    "Report the result of credit_box.")
    return LlmAgent(name="box_b", model=adk_model(), tools=[get_box], sub_agents=[ledger_l],
                    description="The subscribers' desk.", output_key="desk_reply",
                    before_agent_callback=note_round,
                    instruction="You are box_b at Long Furrow Veg Boxes.\n"
                                "Look the box up with get_box.\n"
                                f"{DESK_LINES[version]}\n"
                                'If get_box fails, say "The subscriptions list is not answering; please try again later."\n'
                                "Report the result of get_box.")


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
