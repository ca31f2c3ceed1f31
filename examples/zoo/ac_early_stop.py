"""Premature termination, AutoGen AgentChat (RoundRobinGroupChat): a researcher, a writer and a
reviewer take turns, and the team stops when "APPROVED" is said.

Seeded: the stop condition listens to everyone, and the researcher's findings quote a supplier
list that says "APPROVED", so the team stops before the writer and the reviewer act. Fixed: the
condition listens to the reviewer only.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client


def search_suppliers(product: Annotated[str, 'The product, like "steel bolts"']) -> str:
    """Find suppliers of a product in the purchasing database."""
    return f"Suppliers of {product}: Acme Ltd (APPROVED vendor, 5-day lead time), Bolt GmbH (on trial)."


def build(stop_sources):
    client = agentchat_client()
    researcher = AssistantAgent(
        "researcher", model_client=client, tools=[search_suppliers], reflect_on_tool_use=True,
        system_message="You research suppliers. Call search_suppliers. Report the result of search_suppliers.")
    writer = AssistantAgent(
        "writer", model_client=client,
        system_message="You write the purchasing memo from the researcher's findings. "
        "Say \"Memo: order from Acme Ltd, the approved vendor, with a 5-day lead time.\"")
    reviewer = AssistantAgent(
        "reviewer", model_client=client,
        system_message="You review the writer's memo. Say \"The memo is correct. APPROVED\"")
    stop = TextMentionTermination("APPROVED", sources=stop_sources) | MaxMessageTermination(10)
    return RoundRobinGroupChat([researcher, writer, reviewer], termination_condition=stop)


def seeded():
    return build(None)


def fixed():
    return build(["reviewer"])
