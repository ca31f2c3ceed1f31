"""Documented rejections: a tool refusing, as its documentation says it does, input it does not
take. `raise ValueError("hour must be between 8 and 17")` under a docstring that says "an hour
outside office hours raises ValueError" is the tool's error handling — the agent is told what
it did wrong and asks again — not a runtime error: it is shown with the returned error
messages, never counted as a unique error.

A raised exception is a documented rejection only when all of these hold, so that a bug is never
hidden behind one:
- the tool's own code raised it, by a `raise` statement of that very exception type on the line
  that raised (a `ValueError` out of `float()` or `date.fromisoformat()` is a library refusing
  what the tool failed to handle: a finding);
- the tool's documentation (its description, or an argument's) says it raises that type;
- the message does not name, as the value refused, an argument that is one of the
  documentation's own quoted examples (a tool that refuses its own documented example, `e.g.
  "+44 20 7946 0958"`, is broken, whatever it says; one refusing the hour of a call whose room is
  the documented "Fjord" is not).
"""

from __future__ import annotations

import linecache
import os
import re
from typing import Any

from masfuzz.toolfuzz.sandbox import CallOutcome
from masfuzz.toolfuzz.tools import FuzzTool

_QUOTED = re.compile(r"\"([^\"]{2,200})\"|'([^']{2,200})'")


def documented_rejection(tool: FuzzTool, outcome: CallOutcome, arguments: dict[str, Any]) -> bool:
    """Whether this failed call is the tool refusing, as documented, input it does not take."""
    if outcome.status != "error" or not outcome.frames or not outcome.error_type.isidentifier():
        return False
    filename, line, _ = outcome.frames[-1]
    root = tool.own_code_root
    if not root or not (filename == root or filename.startswith(root + os.sep)):
        return False
    if not _raises_here(filename, line, outcome.error_type):
        return False
    doc = documentation(tool)
    if not re.search(rf"\b(?i:raise[sd]?)\b[^.;]{{0,40}}\b{re.escape(outcome.error_type)}\b", doc):
        return False
    examples = {a or b for a, b in _QUOTED.findall(doc)}
    refused = [v for v in arguments.values() if isinstance(v, str) and v.strip() in examples]
    return not any(v.strip() in (outcome.message or "") for v in refused)


def documentation(tool: FuzzTool) -> str:
    """What the agent reads about the tool: its description and its arguments' descriptions."""
    parts = [tool.description or ""]

    def walk(node: Any, depth: int = 0) -> None:
        if depth > 8:
            return
        if isinstance(node, dict):
            if isinstance(node.get("description"), str):
                parts.append(node["description"])
            for v in node.values():
                walk(v, depth + 1)
        elif isinstance(node, list):
            for v in node:
                walk(v, depth + 1)

    walk(tool.schema)
    return " ".join(" ".join(p.split()) for p in dict.fromkeys(parts))


def _raises_here(filename: str, line: int, error_type: str) -> bool:
    """Whether the statement at `line` (or one begun a few lines above it, a `raise` spread over
    several lines) raises `error_type` by name."""
    for n in range(line, max(0, line - 3), -1):
        text = linecache.getline(filename, n).strip()
        if text.startswith("raise "):
            return re.match(rf"raise\s+(?:\w+\.)*{re.escape(error_type)}\b", text) is not None
        if n < line and text.endswith((")", ":")) and not text.endswith("("):
            return False  # an earlier, finished statement: the line that raised is not a raise
    return False
