"""Speaking order against a stated dependency, AutoGen AgentChat (GraphFlow): the writer must
write from the researcher's findings.

Seeded: the graph's edge runs writer -> researcher, so the writer speaks first, with no findings.
Fixed: researcher -> writer.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination
from autogen_agentchat.teams import DiGraphBuilder, GraphFlow

from .models import agentchat_client


def lookup_statistics(topic: Annotated[str, 'The topic, like "household recycling"']) -> str:
    """Key figures about a topic from the statistics office."""
    return f"Figures on {topic}: 41% of households recycle weekly (2024), up from 35% (2020)."


def build(writer_first: bool):
    client = agentchat_client()
    researcher = AssistantAgent(
        "researcher", model_client=client, tools=[lookup_statistics], reflect_on_tool_use=True,
        system_message="You gather the facts. Call lookup_statistics. Report the result of lookup_statistics.")
    writer = AssistantAgent(
        "writer", model_client=client,
        system_message="You write a two-sentence brief from the researcher's findings. "
        "Say \"Brief: weekly recycling rose from 35% to 41% of households between 2020 and 2024.\"")
    first, second = (writer, researcher) if writer_first else (researcher, writer)
    builder = DiGraphBuilder()
    builder.add_node(researcher).add_node(writer)
    builder.add_edge(first, second)
    builder.set_entry_point(first)
    return GraphFlow([researcher, writer], graph=builder.build(),
                     termination_condition=MaxMessageTermination(8))


def seeded():
    return build(writer_first=True)


def fixed():
    return build(writer_first=False)
