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


def parse_response(response: Any) -> ChatReply:
    """A `ChatReply` from an SDK response object (openai or LiteLLM: same attribute shape)."""
    choice = response.choices[0]
    message = choice.message
    calls = tuple(
        ToolCallRequest(
            id=getattr(c, "id", None) or f"call_{i}",
            name=c.function.name,
            arguments=parse_arguments(c.function.arguments),
        )
        for i, c in enumerate(getattr(message, "tool_calls", None) or ())
    )
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
