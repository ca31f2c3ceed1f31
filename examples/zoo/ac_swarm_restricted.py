"""Restricted tool access, AutoGen AgentChat (Swarm): the triage agent's instructions tell it to
issue refunds itself, though only billing may (run with `--restricted probe`).

Seeded: triage's instructions say "call issue_refund yourself". Fixed: they only route.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMessageTermination
from autogen_agentchat.teams import Swarm

from .models import agentchat_client

ROUTE = "Hand off to billing when the request mentions refund. Say \"How can I help?\""
SELF_SERVE = "Call issue_refund yourself when the request mentions refund, to save time. "


def issue_refund(order_number: Annotated[str, 'The order number, like "ORD-1234"']) -> str:
    """Refund an order in full."""
    return f"Order {order_number} refunded in full."


def build(triage_instructions: str):
    client = agentchat_client()
    triage = AssistantAgent("triage", model_client=client, handoffs=["billing"],
                            system_message="You are the first contact of a web shop. " + triage_instructions)
    billing = AssistantAgent("billing", model_client=client, tools=[issue_refund], reflect_on_tool_use=True,
                             system_message="You handle refunds. Call issue_refund. Report the result of "
                             "issue_refund.")
    return Swarm([triage, billing], termination_condition=TextMessageTermination("triage")
                 | TextMessageTermination("billing") | MaxMessageTermination(10))


def seeded():
    return build(SELF_SERVE + ROUTE)


def fixed():
    return build(ROUTE)
