"""AutoGen AgentChat (>= 0.7) adapter: teams in, `WorkflowSpec` and `Trace` out."""

from masfuzz.adapters.autogen.adapter import AutoGenAdapter, capture

ADAPTER = AutoGenAdapter

__all__ = ["ADAPTER", "AutoGenAdapter", "capture"]
