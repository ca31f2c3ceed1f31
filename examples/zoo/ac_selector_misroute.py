"""Misrouted request, AutoGen AgentChat (SelectorGroupChat): the selector picks the agent whose
description fits the request, and the descriptions of billing and shipping were swapped.

Seeded: the shipping agent is described as the one that refunds orders, so a refund goes to the
agent that can only track parcels. Fixed: each agent has its own description.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMessageTermination
from autogen_agentchat.teams import SelectorGroupChat

from .models import agentchat_client

SELECTOR_PROMPT = """You route a web shop's customers. The roles:
{roles}

The conversation so far:
{history}

Select the role from {participants} that can serve the request. Only return the role.
"""

BILLING = "Refunds an order and answers invoice questions."
SHIPPING = "Tracks a parcel and answers delivery questions."


def track_parcel(tracking_number: Annotated[str, 'The tracking number, like "TRK-88231"']) -> str:
    """Where a parcel is."""
    return f"Parcel {tracking_number} is at the local depot, out for delivery tomorrow."


def refund_order(order_number: Annotated[str, 'The order number, like "ORD-1234"'],
                 amount: Annotated[float, 'The amount in euros, like "49.90"']) -> str:
    """Refund an order."""
    return f"Refunded EUR {amount:.2f} for order {order_number}."


def build(billing_description: str, shipping_description: str):
    client = agentchat_client()
    billing = AssistantAgent(
        "billing_agent", model_client=client, tools=[refund_order], reflect_on_tool_use=True,
        description=billing_description,
        system_message="You handle billing. Call refund_order. Report the result of refund_order.")
    shipping = AssistantAgent(
        "shipping_agent", model_client=client, tools=[track_parcel], reflect_on_tool_use=True,
        description=shipping_description,
        system_message="You track parcels. Call track_parcel. Report the result of track_parcel.")
    return SelectorGroupChat([billing, shipping], model_client=client, selector_prompt=SELECTOR_PROMPT,
                             termination_condition=TextMessageTermination("billing_agent")
                             | TextMessageTermination("shipping_agent") | MaxMessageTermination(8))


def seeded():
    return build(SHIPPING, BILLING)


def fixed():
    return build(BILLING, SHIPPING)
