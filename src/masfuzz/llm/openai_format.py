"""Translate between masfuzz's chat types and the OpenAI chat-completions wire format, which
the openai SDK, LiteLLM, vLLM, Ollama and llama.cpp servers all speak."""

from __future__ import annotations

import json
from typing import Any

from masfuzz.llm.types import ChatReply, ChatRequest, TokenUsage, ToolCallRequest
from masfuzz.ownwords import RAW_ARGUMENTS

_FINISH = {"stop": "stop", "tool_calls": "tool_calls", "function_call": "tool_calls", "length": "length"}


def request_params(request: ChatRequest, *, max_tokens_field: str = "max_tokens") -> dict[str, Any]:
    params: dict[str, Any] = {"messages": [_message(m) for m in request.messages]}
    if request.tools:
        params["tools"] = [
            {
                "type": "function",
                "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
            }
            for t in request.tools
        ]
        choice = request.tool_choice
        params["tool_choice"] = (
            choice if choice in ("auto", "required", "none") else {"type": "function", "function": {"name": choice}}
        )
    if request.response_schema is not None:
        params["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "response", "schema": request.response_schema},
        }
    if request.temperature is not None:
        params["temperature"] = request.temperature
    if request.seed is not None:
        params["seed"] = request.seed
    if request.max_tokens is not None:
        params[max_tokens_field] = request.max_tokens
    return params


def _message(m: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"role": m.role, "content": m.content}
    if m.role == "tool":
        out["tool_call_id"] = m.tool_call_id or ""
        out["content"] = m.content or ""
    elif m.name and m.role in ("user", "assistant", "system"):
        out["name"] = m.name
    if m.tool_calls:
        out["tool_calls"] = [
            {
                "id": c.id,
                "type": "function",
                "function": {"name": c.name, "arguments": json.dumps(c.arguments, default=str)},
            }
            for c in m.tool_calls
        ]
    # text even beside tool calls: OpenAI takes "" there too, and llama-cpp-python's server
    # refuses an assistant message whose content is null
    if out["content"] is None:
        out["content"] = ""
    return out


def parse_arguments(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    if not raw:
        return {}
    try:
        value = json.loads(raw, strict=False)
    except (TypeError, ValueError):
        return {RAW_ARGUMENTS: str(raw)}
    return value if isinstance(value, dict) else {RAW_ARGUMENTS: str(raw)}


class MalformedReply(ValueError):
    """The server answered, but not with a chat completion (no choices, no message, not JSON):
    a failed call like a 5xx, retried and then recorded with what the server sent."""


def excerpt(text: Any, limit: int = 200) -> str:
    """A short one-line excerpt of what a server sent, for an error message (redact it)."""
    flat = " ".join(str(text)[: limit * 4].split())
    return flat if len(flat) <= limit else flat[:limit] + f"... ({len(str(text))} characters)"


def parse_response(response: Any) -> ChatReply:
    """A `ChatReply` from an SDK response object (openai or LiteLLM: same attribute shape);
    `MalformedReply` when it is not a chat completion."""
    if isinstance(response, (str, bytes)):  # the SDK hands back a body it could not read as JSON
        raise MalformedReply(f"the reply is not a chat completion: {excerpt(response)}")
    choices = getattr(response, "choices", None)
    if not choices or getattr(choices[0], "message", None) is None:
        raise MalformedReply(f"the reply has no choices: {excerpt(_dump(response))}")
    choice = choices[0]
    message = choice.message
    try:
        calls = tuple(
            ToolCallRequest(
                id=getattr(c, "id", None) or f"call_{i}",
                name=c.function.name,
                arguments=parse_arguments(c.function.arguments),
            )
            for i, c in enumerate(getattr(message, "tool_calls", None) or ())
        )
    except (AttributeError, TypeError, ValueError):  # a tool call without a function or name
        raise MalformedReply(f"the reply has a malformed tool call: {excerpt(_dump(response))}") from None
    usage = getattr(response, "usage", None)
    finish = _FINISH.get(getattr(choice, "finish_reason", None) or "", "stop")
    if calls and finish == "stop":
        finish = "tool_calls"
    return ChatReply(
        text=getattr(message, "content", None) or None,
        tool_calls=calls,
        finish_reason=finish,
        usage=TokenUsage(
            tokens_in=int(getattr(usage, "prompt_tokens", 0) or 0),
            tokens_out=int(getattr(usage, "completion_tokens", 0) or 0),
        ),
    )


def _dump(response: Any) -> str:
    dump = getattr(response, "model_dump_json", None)
    try:
        return dump(exclude_none=True) if dump is not None else repr(response)
    except Exception:  # noqa: BLE001 - only for the message: whatever it holds, say something
        return repr(response)
