"""The OpenAI chat-completions wire format as a server sees it: a request body in, a reply out.

`masfuzz.llm.openai_format` translates in the client's direction; this is the other side, for
apps that talk to masfuzz's loopback endpoint. Both tool forms are understood: `tools` /
`tool_choice` / `tool_calls` / role `tool`, and the legacy `functions` / `function_call` /
role `function` that AutoGen 0.2-era apps still send. The reply uses the form it was asked in.
"""

from __future__ import annotations

import json
import time
from typing import Any

from masfuzz.errors import MasfuzzError
from masfuzz.llm.openai_format import parse_arguments
from masfuzz.llm.types import ChatMessage, ChatReply, ChatRequest, ToolCallRequest, ToolDef


class WireError(MasfuzzError):
    """A request body the endpoint cannot understand (answered with HTTP 400)."""


def _content(raw: Any) -> str | None:
    """Message content: a string, or a list of parts whose text parts are joined."""
    if raw is None or isinstance(raw, str):
        return raw
    if isinstance(raw, list):
        return "\n".join(
            str(p.get("text", "")) for p in raw if isinstance(p, dict) and p.get("type") in ("text", "input_text")
        )
    return str(raw)


def _messages(body: dict[str, Any]) -> tuple[ChatMessage, ...]:
    raw = body.get("messages")
    if not isinstance(raw, list) or not raw:
        raise WireError("request has no 'messages' list")
    out: list[ChatMessage] = []
    pending_function: list[str] = []  # legacy calls awaiting a role=function answer, in order
    for i, m in enumerate(raw):
        if not isinstance(m, dict):
            raise WireError(f"messages[{i}] is not an object")
        role = m.get("role")
        if role == "developer":
            role = "system"
        calls = [
            ToolCallRequest(id=c.get("id", ""), name=c.get("function", {}).get("name", ""),
                            arguments=parse_arguments(c.get("function", {}).get("arguments")))
            for c in m.get("tool_calls") or () if isinstance(c, dict)
        ]
        if isinstance(m.get("function_call"), dict):
            fc = m["function_call"]
            call_id = f"fn_{i}"
            calls.append(ToolCallRequest(id=call_id, name=fc.get("name", ""),
                                         arguments=parse_arguments(fc.get("arguments"))))
            pending_function.append(call_id)
        if role == "function":  # a legacy function result: answer the oldest open call
            call_id = pending_function.pop(0) if pending_function else f"fn_{i}"
            out.append(ChatMessage(role="tool", content=_content(m.get("content")) or "",
                                   name=m.get("name"), tool_call_id=call_id))
            continue
        if role not in ("system", "user", "assistant", "tool"):
            raise WireError(f"messages[{i}] has unknown role {role!r}")
        out.append(ChatMessage(role=role, content=_content(m.get("content")), name=m.get("name"),
                               tool_calls=tuple(calls), tool_call_id=m.get("tool_call_id")))
    return tuple(out)


def _tools(body: dict[str, Any]) -> tuple[ToolDef, ...]:
    defs: list[dict[str, Any]] = []
    for t in body.get("tools") or ():
        if isinstance(t, dict) and t.get("type", "function") == "function" and "function" in t:
            defs.append(t["function"])
    defs += [f for f in body.get("functions") or () if isinstance(f, dict)]
    return tuple(
        ToolDef(name=d["name"], description=d.get("description") or "",
                parameters=d.get("parameters") or {"type": "object", "properties": {}})
        for d in defs if d.get("name")
    )


def _tool_choice(body: dict[str, Any]) -> str:
    choice = body.get("tool_choice", body.get("function_call", "auto"))
    if isinstance(choice, dict):
        return choice.get("function", {}).get("name") or choice.get("name") or "auto"
    return choice if choice in ("auto", "required", "none") else "auto"


def _response_schema(body: dict[str, Any]) -> dict[str, Any] | None:
    fmt = body.get("response_format")
    if not isinstance(fmt, dict):
        return None
    if fmt.get("type") == "json_object":
        return {"type": "object"}
    if fmt.get("type") == "json_schema":
        return (fmt.get("json_schema") or {}).get("schema") or {"type": "object"}
    return None


def parse_request(body: Any, *, agent: str | None) -> ChatRequest:
    if not isinstance(body, dict):
        raise WireError("request body is not a JSON object")
    return ChatRequest(
        messages=_messages(body), tools=_tools(body), tool_choice=_tool_choice(body),
        response_schema=_response_schema(body), temperature=body.get("temperature"),
        seed=body.get("seed"), max_tokens=body.get("max_completion_tokens", body.get("max_tokens")),
        role="sut", agent=agent,
    )


def legacy(body: dict[str, Any]) -> bool:
    """The app asked in the legacy `functions` form, so it expects `function_call` back."""
    return bool(body.get("functions")) and not body.get("tools")


def _message_out(reply: ChatReply, use_legacy: bool) -> dict[str, Any]:
    msg: dict[str, Any] = {"role": "assistant", "content": reply.text}
    if reply.tool_calls and use_legacy:
        c = reply.tool_calls[0]  # the legacy form has room for one call
        msg["function_call"] = {"name": c.name, "arguments": json.dumps(c.arguments)}
    elif reply.tool_calls:
        msg["tool_calls"] = [
            {"id": c.id or f"call_{i}", "type": "function",
             "function": {"name": c.name, "arguments": json.dumps(c.arguments)}}
            for i, c in enumerate(reply.tool_calls)
        ]
    return msg


def _finish(reply: ChatReply, use_legacy: bool) -> str:
    if reply.tool_calls:
        return "function_call" if use_legacy else "tool_calls"
    return "length" if reply.finish_reason == "length" else "stop"


def completion(reply: ChatReply, *, model: str, call_no: int, use_legacy: bool) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-masfuzz-{call_no}", "object": "chat.completion",
        "created": int(time.time()), "model": model,
        "choices": [{"index": 0, "message": _message_out(reply, use_legacy),
                     "finish_reason": _finish(reply, use_legacy), "logprobs": None}],
        "usage": {"prompt_tokens": reply.usage.tokens_in,
                  "completion_tokens": reply.usage.tokens_out,
                  "total_tokens": reply.usage.tokens_in + reply.usage.tokens_out},
    }


def stream_chunks(reply: ChatReply, *, model: str, call_no: int, use_legacy: bool,
                  include_usage: bool) -> list[dict[str, Any]]:
    """The reply as `chat.completion.chunk` objects: role, text, tool calls, finish."""
    base = {"id": f"chatcmpl-masfuzz-{call_no}", "object": "chat.completion.chunk",
            "created": int(time.time()), "model": model}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish,
                                     "logprobs": None}]}

    out = [chunk({"role": "assistant", "content": ""})]
    if reply.text:
        out.append(chunk({"content": reply.text}))
    msg = _message_out(reply, use_legacy)
    if "function_call" in msg:
        out.append(chunk({"function_call": msg["function_call"]}))
    for i, c in enumerate(msg.get("tool_calls", ())):
        out.append(chunk({"tool_calls": [{"index": i, **c}]}))
    out.append(chunk({}, _finish(reply, use_legacy)))
    if include_usage:
        out.append({**base, "choices": [], "usage": completion(
            reply, model=model, call_no=call_no, use_legacy=use_legacy)["usage"]})
    return out
