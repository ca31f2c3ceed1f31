"""Misrouted request, Agents SDK: triage sends refunds to the shipping agent, whose tool tracks
parcels, while the billing agent's tool issues refunds.

Seeded: triage's routing rules list "refund" under the shipping agent. Fixed: under billing.
"""

from __future__ import annotations

from agents import Agent, function_tool


@function_tool
def track_parcel(tracking_number: str) -> str:
    """Where a parcel is.

    Args:
        tracking_number: The parcel's tracking number, like "TRK-88231".
    """
    return f"Parcel {tracking_number} is at the local depot, out for delivery tomorrow."


@function_tool
def refund_order(order_number: str, amount: float) -> str:
    """Refund an order.

    Args:
        order_number: The order number, like "ORD-1234".
        amount: The amount to refund in euros, like "49.90".
    """
    return f"Refunded EUR {amount:.2f} for order {order_number}."


def build(shipping_words: str, billing_words: str) -> Agent:
    shipping = Agent(name="Shipping Agent", handoff_description="Tracks parcels.", tools=[track_parcel],
                     instructions="You track parcels. Call track_parcel. Report the result of track_parcel.")
    billing = Agent(name="Billing Agent", handoff_description="Refunds orders and answers invoice "
                    "questions.", tools=[refund_order],
                    instructions="You handle billing. Call refund_order. Report the result of refund_order.")
    return Agent(name="Triage Agent", handoffs=[shipping, billing],
                 instructions=f"You route customers. Hand off to shipping_agent when the request "
                 f"mentions {shipping_words}. Hand off to billing_agent when the request mentions "
                 f"{billing_words}. Say \"How can I help?\"")


seeded = build("delivery, parcel or refund", "invoice")
fixed = build("delivery or parcel", "refund or invoice")
