"""Information loss at a hand-over, Agents SDK: the triage agent's handoff to the replacements
agent passes a filtered history, and the filter drops what the customer said.

Seeded: the handoff's `input_filter` keeps only the items of the current turn (a filter written to
save tokens), so the order number the customer gave never reaches the replacements agent, which
has to ask for it again. Fixed: the handoff passes the history unfiltered.
"""

from __future__ import annotations

import dataclasses

from agents import Agent, HandoffInputData, function_tool, handoff


@function_tool
def ship_replacement(order_number: str) -> str:
    """Ship a replacement for a damaged order.

    Args:
        order_number: The order number, like "ORD-1234".
    """
    return f"Replacement for order {order_number} ships tomorrow, tracking TRK-{order_number[-4:]}."


def fresh_context(data: HandoffInputData) -> HandoffInputData:
    """Start the specialist with this turn's items only."""
    return dataclasses.replace(data, input_history=())


def build(input_filter) -> Agent:
    replacements = Agent(
        name="Replacements Agent", handoff_description="Ships replacements for damaged orders.",
        instructions="You ship replacements. Call ship_replacement with the customer's order number. "
        "Report the result of ship_replacement.",
        tools=[ship_replacement])
    return Agent(name="Triage Agent", handoffs=[handoff(replacements, input_filter=input_filter)],
                 instructions="You are the first contact of a web shop. Hand off to replacements_agent "
                 "when the request mentions damaged or broken. Say \"How can I help?\"")


seeded = build(fresh_context)
fixed = build(None)
