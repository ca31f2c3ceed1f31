"""Speaking order against a stated dependency, LangGraph (StateGraph): the writer must write from
the researcher's findings.

Seeded: the graph runs the writer first and the researcher after. Fixed: researcher, then writer.
"""

from __future__ import annotations

from langchain_core.messages import SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from .models import chat_model


@tool(parse_docstring=True)
def lookup_statistics(topic: str) -> str:
    """Key figures about a topic from the statistics office.

    Args:
        topic: The topic, like "household recycling".
    """
    return f"Figures on {topic}: 41% of households recycle weekly (2024), up from 35% (2020)."


def build(writer_first: bool):
    model = chat_model()

    def researcher(state: MessagesState) -> dict:
        prompt = SystemMessage("You gather the facts. Call lookup_statistics. Report the result of "
                               "lookup_statistics.")
        return {"messages": [model.bind_tools([lookup_statistics]).invoke([prompt, *state["messages"]])]}

    def writer(state: MessagesState) -> dict:
        prompt = SystemMessage("You write a two-sentence brief from the researcher's findings. Say \"Brief: "
                               "weekly recycling rose from 35% to 41% of households between 2020 and 2024.\"")
        return {"messages": [model.invoke([prompt, *state["messages"]])]}

    after_research = END if writer_first else "writer"
    builder = StateGraph(MessagesState)
    builder.add_node("researcher", researcher)
    builder.add_node("tools", ToolNode([lookup_statistics]))
    builder.add_node("writer", writer)
    builder.add_edge(START, "writer" if writer_first else "researcher")
    if writer_first:
        builder.add_edge("writer", "researcher")
    builder.add_conditional_edges("researcher", tools_condition, {"tools": "tools", END: after_research})
    builder.add_edge("tools", "researcher")
    if not writer_first:
        builder.add_edge("writer", END)
    return builder.compile()


seeded = build(writer_first=True)
fixed = build(writer_first=False)
