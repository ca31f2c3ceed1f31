"""A trace as text: one readable line per event, then the usage (`masfuzz exec`, assertion
messages of `masfuzz.testing`)."""

from __future__ import annotations

import json
from typing import Any


def render_text(trace: Any) -> str:
    """One readable line per event, then the usage."""
    lines = [f"trace {trace.scenario_id} of {trace.system_id or '?'} ({trace.framework})"]
    for i, e in enumerate(trace.events):
        lines.append(f"{i:>3} {e.t:8.3f}s  {_describe(e)}")
    u = trace.usage
    lines.append(f"usage: {u.model_calls} model calls, {u.tokens_in} tokens in, "
                 f"{u.tokens_out} tokens out, {u.wall_time:.3f} s")
    return "\n".join(lines)


def _short(value: Any, limit: int = 100) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _describe(e: Any) -> str:
    kind = e.type
    if kind == "agent_turn":
        return f"agent_turn          {e.agent}"
    if kind == "message":
        # words in the user's place name their writer (a node, the app's code, a carry-over)
        who = e.agent or (f"{e.role} ({e.source})" if e.source else e.role)
        return f"message             {who}: {_short(e.content)}"
    if kind == "tool_call":
        return f"tool_call           {e.agent} -> {e.tool} {_short(e.arguments)}"
    if kind == "tool_result":
        fault = f" [fault {e.fault}]" if e.fault else ""
        return f"tool_result {e.status:<7} {e.agent} <- {e.tool}{fault}: {_short(e.payload)}"
    if kind == "delegation":
        return f"delegation          {e.from_} -> {e.to} ({e.trigger})"
    if kind == "restricted_attempt":
        return f"restricted_attempt  {e.agent} -> {e.tool} ({e.mode}) {_short(e.arguments)}"
    if kind == "error":
        return f"error               {e.agent or '-'} {e.kind}: {_short(e.message)}"
    if kind == "chat_start":
        within = f" in {e.parent}" if e.parent else ""
        carry = " with carry-over" if e.carryover else ""
        return f"chat_start {e.kind:<8} {e.chat}{within}: {e.sender} -> {e.recipient}{carry}"
    if kind == "chat_end":
        return f"chat_end            {e.chat}: {_short(e.reason) or '-'}"
    if kind == "termination":
        out = f" final: {_short(e.final_output)}" if e.final_output else ""
        detail = f" ({_short(e.detail)})" if e.detail else ""
        return f"termination         {e.reason}{detail}{out}"
    return kind
