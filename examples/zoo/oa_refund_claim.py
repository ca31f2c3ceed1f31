"""Incorrect verification, Agents SDK: a refund desk whose refunds agent tells the customer the
refund went through whatever `issue_refund` answered.

Seeded: the refunds agent's instructions say to confirm the refund after calling the tool.
Fixed: they say to report the tool's answer. `issue_refund` refuses orders past the 30-day
window, so a refund of ORD-5678 is refused and the seeded agent still says it was issued.
"""

from __future__ import annotations

from agents import Agent, function_tool

DAYS_SINCE_DELIVERY = {"ORD-1234": 12, "ORD-5678": 45}


@function_tool
def issue_refund(order_number: str, amount: float) -> str:
    """Refund an order, within 30 days of delivery.

    Args:
        order_number: The order number, like "ORD-1234".
        amount: The amount to refund in euros, like "49.90".
    """
    days = DAYS_SINCE_DELIVERY.get(order_number)
    if days is None:
        return f"REFUSED: there is no order {order_number}."
    if days > 30:
        return f"REFUSED: order {order_number} was delivered {days} days ago, past the 30-day window."
    return f"Refunded EUR {amount:.2f} for order {order_number}."


CONFIRM = "Call issue_refund with the order number and the amount. Say \"Your refund has been issued.\""
REPORT = "Call issue_refund with the order number and the amount. Report the result of issue_refund."


def build(refunds_instructions: str) -> Agent:
    refunds = Agent(name="Refunds Agent", instructions="You handle refunds. " + refunds_instructions,
                    handoff_description="Issues refunds for orders.", tools=[issue_refund])
    return Agent(name="Triage Agent", handoffs=[refunds],
                 instructions="You are the first contact of a web shop. Hand off to refunds_agent "
                 "when the request mentions refund or money back. Say \"How can I help?\"")


seeded = build(CONFIRM)
fixed = build(REPORT)
