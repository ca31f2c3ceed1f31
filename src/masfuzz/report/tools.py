"""The tool-fuzzing part of a run (ToolFuzz), rebuilt from the findings in the store."""

from __future__ import annotations

from typing import Any


def tools_section(findings: list[dict[str, Any]], info: dict[str, Any]) -> dict[str, Any] | None:
    if not findings and info["command"] != "tools":
        return None
    return {"findings": findings, "summary": (info.get("summary") or {}).get("tools", {})}
