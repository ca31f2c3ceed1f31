"""The OpenAI Responses API wire format as a server sees it: a `POST /v1/responses` body in, a
`response` object (or its stream of events) out.

The OpenAI Agents SDK talks to its default model through this API, not chat completions, and so
do PydanticAI's `OpenAIResponsesModel` and many newer apps; an endpoint without it answers them
404 and the app dies of masfuzz's gap. The request is translated into the same `ChatRequest` the
chat-completions route makes, so the SUT model, the recording and the black-box trace see no
difference:
- `instructions` is the system prompt; `input` is a string (one user turn) or a list of items,
  translated as the Agents SDK bridge translates the SDK's (`masfuzz.llm.responses_format`);
- `tools` of type `function` are offered as tools; hosted tools (`web_search`, `file_search`,
  ...) run on OpenAI's servers, so they cannot be offered here and are left out (the record keeps
  the request as the app sent it);
- `text.format` (`json_schema`, `json_object`) is the response schema;
- `previous_response_id` continues a conversation this endpoint answered: the server keeps each
  response's whole conversation (`Conversations`) and puts it before the new input.
The reply is a `response` object with `message` and `function_call` output items, or, with
`stream: true`, the event sequence the Responses API streams (`response.created` ...
`response.completed`), whose last event carries the whole response as the SDKs expect.
"""

from __future__ import annotations

import json
import time
from typing import Any

from masfuzz.llm.responses_format import responses_messages
from masfuzz.llm.types import ChatMessage, ChatReply, ChatRequest, ToolDef
from masfuzz.serve.wire import WireError

def _items(raw: Any) -> list[ChatMessage]:
    if not isinstance(raw, (str, list)) or any(not isinstance(i, dict) for i in raw if isinstance(raw, list)):
        raise WireError("request has no 'input' (a string or a list of items, each an object)")
    return responses_messages(None, raw)


def _tools(body: dict[str, Any]) -> tuple[ToolDef, ...]:
    return tuple(
        ToolDef(name=t["name"], description=t.get("description") or "",
                parameters=t.get("parameters") or {"type": "object", "properties": {}})
        for t in body.get("tools") or ()
        if isinstance(t, dict) and t.get("type") == "function" and t.get("name"))


def _tool_choice(body: dict[str, Any]) -> str:
    choice = body.get("tool_choice", "auto")
    if isinstance(choice, dict):
        return choice.get("name") or "auto"
    return choice if choice in ("auto", "required", "none") else "auto"


def _schema(body: dict[str, Any]) -> dict[str, Any] | None:
    fmt = (body.get("text") or {}).get("format") if isinstance(body.get("text"), dict) else None
    if not isinstance(fmt, dict):
        return None
    if fmt.get("type") == "json_object":
        return {"type": "object"}
    if fmt.get("type") == "json_schema":
        return fmt.get("schema") or {"type": "object"}
    return None


class Conversations:
    """Each answered response's whole conversation, by response id, for `previous_response_id`."""

    def __init__(self) -> None:
        self._by_id: dict[str, tuple[ChatMessage, ...]] = {}

    def before(self, body: dict[str, Any]) -> tuple[ChatMessage, ...]:
        prev = body.get("previous_response_id")
        if not prev:
            return ()
        if prev not in self._by_id:
            raise WireError(f"previous_response_id {prev!r}: no response of this endpoint has it")
        return self._by_id[prev]

    def keep(self, response_id: str, request: ChatRequest, reply: ChatReply) -> None:
        said = ChatMessage(role="assistant", content=reply.text or None, tool_calls=reply.tool_calls)
        # the instructions are given anew with every request, so they are not carried over
        self._by_id[response_id] = (*(m for m in request.messages if m.role != "system"), said)


def parse_request(body: Any, *, agent: str | None, history: tuple[ChatMessage, ...] = ()) -> ChatRequest:
    if not isinstance(body, dict):
        raise WireError("request body is not a JSON object")
    instructions = body.get("instructions")
    system = (ChatMessage(role="system", content=instructions),) if instructions else ()
    messages = (*system, *history, *_items(body.get("input")))
    if not messages:
        raise WireError("request has no input")
    return ChatRequest(
        messages=messages, tools=_tools(body), tool_choice=_tool_choice(body),
        response_schema=_schema(body), temperature=body.get("temperature"),
        max_tokens=body.get("max_output_tokens"), role="sut", agent=agent,
    )


def response_id(call_no: int) -> str:
    return f"resp_masfuzz_{call_no}"


def _output(reply: ChatReply, call_no: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if reply.text or not reply.tool_calls:
        out.append({"type": "message", "id": f"msg_masfuzz_{call_no}", "status": "completed",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": reply.text or "", "annotations": []}]})
    for i, c in enumerate(reply.tool_calls):
        out.append({"type": "function_call", "id": f"fc_masfuzz_{call_no}_{i}",
                    "call_id": c.id or f"call_{call_no}_{i}", "name": c.name,
                    "arguments": json.dumps(c.arguments), "status": "completed"})
    return out


def response(reply: ChatReply | None, body: dict[str, Any], *, model: str, call_no: int,
             status: str = "completed") -> dict[str, Any]:
    """The `response` object; `reply` None for the in-progress one a stream opens with."""
    usage = None
    if reply is not None:
        usage = {"input_tokens": reply.usage.tokens_in, "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens": reply.usage.tokens_out,
                 "output_tokens_details": {"reasoning_tokens": 0},
                 "total_tokens": reply.usage.tokens_in + reply.usage.tokens_out}
    incomplete = reply is not None and reply.finish_reason == "length"
    return {
        "id": response_id(call_no), "object": "response", "created_at": int(time.time()),
        "status": "incomplete" if incomplete else status, "model": model,
        "output": _output(reply, call_no) if reply is not None else [],
        "usage": usage, "error": None,
        "incomplete_details": {"reason": "max_output_tokens"} if incomplete else None,
        "instructions": body.get("instructions"), "metadata": body.get("metadata") or {},
        "parallel_tool_calls": bool(body.get("parallel_tool_calls", True)),
        "tool_choice": body.get("tool_choice", "auto"), "tools": body.get("tools") or [],
        "temperature": body.get("temperature"), "top_p": body.get("top_p"),
        "max_output_tokens": body.get("max_output_tokens"),
        "previous_response_id": body.get("previous_response_id"),
        "text": body.get("text") or {"format": {"type": "text"}}, "truncation": "disabled",
    }


def stream_events(reply: ChatReply, body: dict[str, Any], *, model: str,
                  call_no: int) -> list[dict[str, Any]]:
    """The events a streamed response sends, in order, each numbered (`sequence_number`)."""
    events: list[dict[str, Any]] = []

    def emit(kind: str, **fields: Any) -> None:
        events.append({"type": kind, "sequence_number": len(events), **fields})

    opening = response(None, body, model=model, call_no=call_no, status="in_progress")
    emit("response.created", response=opening)
    emit("response.in_progress", response=opening)
    for n, item in enumerate(_output(reply, call_no)):
        where = {"item_id": item["id"], "output_index": n}
        if item["type"] == "message":
            part = item["content"][0]
            emit("response.output_item.added", output_index=n,
                 item={**item, "status": "in_progress", "content": []})
            emit("response.content_part.added", **where, content_index=0,
                 part={**part, "text": ""})
            if part["text"]:
                emit("response.output_text.delta", **where, content_index=0, delta=part["text"],
                     logprobs=[])
            emit("response.output_text.done", **where, content_index=0, text=part["text"],
                 logprobs=[])
            emit("response.content_part.done", **where, content_index=0, part=part)
        else:
            emit("response.output_item.added", output_index=n,
                 item={**item, "status": "in_progress", "arguments": ""})
            emit("response.function_call_arguments.delta", **where, delta=item["arguments"])
            emit("response.function_call_arguments.done", **where, name=item["name"],
                 arguments=item["arguments"])
        emit("response.output_item.done", output_index=n, item=item)
    final = response(reply, body, model=model, call_no=call_no)
    emit("response.incomplete" if final["status"] == "incomplete" else "response.completed",
         response=final)
    return events
