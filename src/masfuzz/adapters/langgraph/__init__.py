"""LangGraph adapter: compiled graphs in, `WorkflowSpec` and `Trace` out."""

from typing import Any

from masfuzz.adapters.langgraph.adapter import LangGraphAdapter

ADAPTER = LangGraphAdapter

__all__ = ["ADAPTER", "LangGraphAdapter", "tools_of"]


def tools_of(app: Any, notes: list[str]) -> list[Any]:
    """Tool fuzzing's hook: the graph's tools, as `inspect` counts them, with the parameters
    LangGraph injects bound (`tools.graph_tools`)."""
    from masfuzz.adapters.langgraph.tools import graph_tools

    return graph_tools(app, notes)
