"""Tool execution error not handled, AutoGen AgentChat (Swarm): the stock tool raises on a
product it does not list, and the raw error reaches the customer.

Seeded: `check_stock` indexes its table and raises KeyError for an unlisted SKU. Fixed: it
answers that the product is not stocked.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMessageTermination
from autogen_agentchat.teams import Swarm

from .models import agentchat_client

STOCK = {"SKU-1042": 17, "SKU-2210": 0}


SKU = Annotated[str, 'The product\'s SKU, like "SKU-1042"']


def make_check_stock(checked: bool):
    def check_stock(sku: SKU) -> str:
        """How many units are in stock."""
        if checked and sku not in STOCK:
            return f"{sku} is not a product we stock."
        return f"{sku}: {STOCK[sku]} units in stock."

    return check_stock


def build(tool):
    client = agentchat_client()
    triage = AssistantAgent("triage", model_client=client, handoffs=["inventory"],
                            system_message="You are a shop's first contact. Hand off to inventory when the "
                            "request mentions stock or available. Say \"How can I help?\"")
    inventory = AssistantAgent("inventory", model_client=client, tools=[tool], reflect_on_tool_use=True,
                               system_message="You answer stock questions. Call check_stock. Report the result "
                               "of check_stock.")
    return Swarm([triage, inventory], termination_condition=TextMessageTermination("triage")
                 | TextMessageTermination("inventory") | MaxMessageTermination(10))


def seeded():
    return build(make_check_stock(checked=False))


def fixed():
    return build(make_check_stock(checked=True))
