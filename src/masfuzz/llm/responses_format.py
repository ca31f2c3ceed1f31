"""The OpenAI Responses API's input items as chat messages: one translation for the two places
that receive them, the Agents SDK bridge (the SDK hands its model Responses-format items) and the
loopback endpoint's `/v1/responses` route (apps send them over HTTP).

Messages (roles user, system, developer, assistant; content a string or text parts) become chat
messages; `function_call` items join the assistant turn that made them (parallel calls are one
turn) and `function_call_output` items are tool results named after their call; items a chat
model cannot see (reasoning, hosted tools' internals, item references) are left out. Items may be
dicts or the SDKs' pydantic objects.
"""

from __future__ import annotations

import json
from typing import Any

from masfuzz.llm.types import ChatMessage, ToolCallRequest


def responses_messages(system: str | None, items: str | list[Any]) -> list[ChatMessage]:
    out: list[ChatMessage] = []
    if system:
        out.append(ChatMessage(role="system", content=system))
    if isinstance(items, str):
        out.append(ChatMessage(role="user", content=items))
        return out
    names: dict[str, str] = {}
    for item in items:
        item = item if isinstance(item, dict) else _as_dict(item)
        kind = item.get("type")
        role = item.get("role")
        if kind == "function_call":
            call_id = str(item.get("call_id") or "")
            names[call_id] = str(item.get("name") or "")
            call = ToolCallRequest(id=call_id, name=names[call_id],
                                   arguments=loads_arguments(item.get("arguments")))
            if out and out[-1].role == "assistant" and not out[-1].content:
                last = out.pop()  # parallel calls: one assistant turn
                out.append(last.model_copy(update={"tool_calls": last.tool_calls + (call,)}))
            else:
                out.append(ChatMessage(role="assistant", tool_calls=(call,)))
        elif kind == "function_call_output":
            call_id = str(item.get("call_id") or "")
            out.append(ChatMessage(role="tool", content=content_text(item.get("output")),
                                   tool_call_id=call_id, name=names.get(call_id)))
        elif role in ("user", "assistant", "system", "developer") and kind in (None, "message"):
            out.append(ChatMessage(role="system" if role == "developer" else role,
                                   content=content_text(item.get("content"))))
    return out


def _as_dict(item: Any) -> dict[str, Any]:
    dump = getattr(item, "model_dump", None)
    return dump(exclude_unset=True) if callable(dump) else {}


def content_text(content: Any) -> str:
    """A content field's text: a string, or its parts' text (or refusal) joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            part = part if isinstance(part, dict) else _as_dict(part)
            text = part.get("text") or part.get("refusal")
            if text:
                parts.append(str(text))
        return "".join(parts)
    return str(content)


def loads_arguments(raw: Any) -> dict[str, Any]:
    """A call's arguments: JSON text (or a dict) as a dict; what is not a JSON object is kept
    under `_raw` / `_value` so the call is still recorded as the model made it."""
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw or "{}")
    except (TypeError, ValueError):
        return {"_raw": raw}
    return value if isinstance(value, dict) else {"_value": value}
