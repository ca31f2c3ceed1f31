"""AutoGen AgentChat (>= 0.7) adapter: teams in, `WorkflowSpec` and `Trace` out."""

from typing import Any

from masfuzz.adapters.autogen.adapter import AutoGenAdapter, capture

ADAPTER = AutoGenAdapter

__all__ = ["ADAPTER", "AutoGenAdapter", "capture", "tools_of"]


def tools_of(obj: Any, notes: list[str]) -> list[Any]:
    """Tool fuzzing's hook: the tools of a team's members (or of one agent), workbenches too."""
    members = list(getattr(obj, "_participants", None) or [obj])
    out: list[Any] = []
    for member in members:
        out.extend(getattr(member, "_tools", None) or [])
        for wb in getattr(member, "_workbench", None) or []:
            out.extend(getattr(wb, "_tools", None) or [])
    return out
