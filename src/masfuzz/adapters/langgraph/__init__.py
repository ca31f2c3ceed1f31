"""LangGraph adapter: compiled graphs in, `WorkflowSpec` and `Trace` out."""

from masfuzz.adapters.langgraph.adapter import LangGraphAdapter

ADAPTER = LangGraphAdapter

__all__ = ["ADAPTER", "LangGraphAdapter"]
