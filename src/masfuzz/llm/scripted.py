"""Scripted models: a plain Python policy answers each chat request, deterministically.

A policy is any callable `policy(request: ChatRequest)` (sync or async) returning

- a `str` (a text reply), or `say(text)`;
- a tool call, `call("update_seat", confirmation_number="ABC123", new_seat="12A")`;
- a handoff, `handoff("Seat Booking Agent")`, resolved against the tools the request offers;
- a list of tool calls and handoffs (parallel tool calls);
- a full `ChatReply`.

It sees everything a real model would be sent (the messages, the tools offered, tool choice)
plus who is asking: `request.agent` (which agent of the system under test, set by the adapters)
and `request.role` (`"sut"` or `"tester"`). It is a real provider behind `ModelClient`, named by
`scripted/path/to/file.py:policy` or `scripted/pkg.mod:policy`, used by every deterministic test
and shippable with an example system.

    from masfuzz.llm.scripted import say, call, handoff, last_user_text, tool_results

    def policy(request):
        if request.agent == "Triage Agent":
            return handoff("Seat Booking Agent")
        if not tool_results(request, "update_seat"):
            return call("update_seat", confirmation_number="ABC123", new_seat="12A")
        return say("Your seat is changed.")

Tool-call ids are derived from a hash of the conversation, so the same run gives the same ids.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import inspect
import json
import math
import re
import threading
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from masfuzz.errors import MasfuzzError, ModelError
from masfuzz.llm.ids import deterministic_call_id, tool_names_by_call_id
from masfuzz.llm.types import (
    ChatReply,
    ChatRequest,
    TokenUsage,
    ToolCallRequest,
    ToolDef,
)

__all__ = [
    "Handoff",
    "ScriptedClient",
    "ToolResult",
    "call",
    "called",
    "handoff",
    "last_user_text",
    "offered",
    "say",
    "tool_names",
    "tool_results",
]


# --- builders a policy returns -------------------------------------------------------------


def say(text: str) -> ChatReply:
    """A text reply."""
    return ChatReply(text=text, finish_reason="stop")


def call(tool_name: str, /, **arguments: Any) -> ToolCallRequest:
    """A call of `tool_name` with these arguments. The tool need not be offered: a real model
    can ask for a tool it was not given, and that is what restricted-tool tests need."""
    return ToolCallRequest(name=tool_name, arguments=arguments)


@dataclass(frozen=True)
class Handoff:
    """A request to hand control to another agent; resolved to the offered tool that does it."""

    agent: str


def handoff(agent_name: str) -> Handoff:
    return Handoff(agent_name)


# --- helpers a policy reads the request with -----------------------------------------------


@dataclass(frozen=True)
class ToolResult:
    name: str | None  # the tool that produced it, when the conversation tells
    content: str
    call_id: str | None


def last_user_text(request: ChatRequest) -> str:
    """The newest user message's text ('' if there is none)."""
    for msg in reversed(request.messages):
        if msg.role == "user" and msg.content:
            return msg.content
    return ""


def tool_results(request: ChatRequest, tool: str | None = None) -> list[ToolResult]:
    """Tool messages already in the conversation, oldest first (only `tool`'s if given), so a
    policy can decide "I already called the tool, now answer"."""
    names = tool_names_by_call_id(request)
    found = [
        ToolResult(m.name or names.get(m.tool_call_id or ""), m.content or "", m.tool_call_id)
        for m in request.messages
        if m.role == "tool"
    ]
    return [r for r in found if tool is None or r.name == tool]


def called(request: ChatRequest, tool: str) -> bool:
    """True if an assistant turn in the conversation already asked for `tool`."""
    return any(c.name == tool for m in request.messages if m.role == "assistant" for c in m.tool_calls)


def tool_names(request: ChatRequest) -> list[str]:
    return [t.name for t in request.tools]


def offered(request: ChatRequest, tool: str) -> bool:
    return tool in tool_names(request)


# --- the provider --------------------------------------------------------------------------


Policy = Callable[[ChatRequest], Any]


class ScriptedClient:
    """A `ModelClient` whose answers come from a policy callable."""

    provider = "scripted"
    base_url = None
    uses_network = False

    def __init__(self, policy: Policy, model_string: str) -> None:
        if not callable(policy):
            raise ModelError(f"{model_string}: the policy is a {type(policy).__name__}, not a callable")
        self.policy = policy
        self.model_string = model_string
        self.model = model_string.partition("/")[2]
        self.fingerprint = _source_fingerprint(policy)

    @classmethod
    def load(cls, model_string: str, target: str) -> "ScriptedClient":
        from masfuzz.loader import load_target

        try:
            obj = load_target(target).obj
        except MasfuzzError as exc:
            msg = str(exc)
            msg = msg[len(target) + 2 :] if msg.startswith(target + ": ") else msg
            raise ModelError(f"{model_string}: {msg}") from None
        return cls(obj, model_string)

    def cache_scope(self, request: ChatRequest) -> dict[str, Any]:
        # Unlike a real model, a policy sees who is asking, and its answers change when its file
        # is edited: both are part of the answer's key.
        return {"agent": request.agent, "role": request.role, "policy": self.fingerprint}

    async def complete(self, request: ChatRequest, *, timeout: float | None = None) -> ChatReply:
        try:
            result = self.policy(request) if _is_async(self.policy) else await _in_thread(self.policy, request)
            if inspect.isawaitable(result):
                result = await result
        except MasfuzzError:
            raise
        except Exception as exc:
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            raise ModelError(
                f"{self.model_string}: the policy raised {type(exc).__name__}: {exc} "
                f"({Path(frame.filename).name}:{frame.lineno})"
                + (f", asked by agent {request.agent!r}" if request.agent else "")
            ) from exc
        return self._to_reply(result, request)

    def _to_reply(self, result: Any, request: ChatRequest) -> ChatReply:
        text: str | None = None
        calls: list[ToolCallRequest | Handoff] = []
        finish = None
        if isinstance(result, ChatReply):
            text, calls, finish = result.text, list(result.tool_calls), result.finish_reason
        elif isinstance(result, str):
            text = result
        elif isinstance(result, (ToolCallRequest, Handoff)):
            calls = [result]
        elif isinstance(result, (list, tuple)) and all(
            isinstance(x, (ToolCallRequest, Handoff)) for x in result
        ):
            calls = list(result)
        else:
            raise ModelError(
                f"{self.model_string}: the policy returned {type(result).__name__}; expected "
                "a str, say(...), call(...), handoff(...), a list of calls, or a ChatReply"
            )
        resolved = tuple(
            self._with_id(self._resolve(c, request), i, request) for i, c in enumerate(calls)
        )
        if finish is None or (resolved and finish == "stop"):
            finish = "tool_calls" if resolved else "stop"
        return ChatReply(
            text=text,
            tool_calls=resolved,
            finish_reason=finish,
            usage=TokenUsage(
                tokens_in=estimate_tokens(_request_text(request)),
                tokens_out=estimate_tokens((text or "") + "".join(_call_text(c) for c in resolved)),
            ),
        )

    def _resolve(self, c: ToolCallRequest | Handoff, request: ChatRequest) -> ToolCallRequest:
        if isinstance(c, ToolCallRequest):
            return c
        tool = resolve_handoff(c.agent, request.tools)
        if tool is None:
            offered_names = ", ".join(t.name for t in request.tools) or "none"
            raise ModelError(
                f"{self.model_string}: the policy asked for a handoff to {c.agent!r}"
                + (f" from agent {request.agent!r}" if request.agent else "")
                + f", but no offered tool hands off to it (tools offered: {offered_names})"
            )
        return ToolCallRequest(name=tool.name, arguments={})

    def _with_id(self, c: ToolCallRequest, index: int, request: ChatRequest) -> ToolCallRequest:
        if c.id:
            return c
        return c.model_copy(update={"id": deterministic_call_id(request, index, c)})


def _is_async(policy: Any) -> bool:
    return inspect.iscoroutinefunction(inspect.unwrap(policy)) or inspect.iscoroutinefunction(
        getattr(policy, "__call__", None))


async def _in_thread(policy: Any, request: ChatRequest) -> Any:
    """A plain policy runs in a thread of its own (daemon: never waited for), as a model's
    answer is computed elsewhere: one that takes long (sleeps past a run's time limit) blocks no
    event loop, and masfuzz's loop answers every worker's model calls (`masfuzz.llm.proxy`)."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    context = contextvars.copy_context()

    def settle(result: Any, error: BaseException | None) -> None:
        if not future.done():
            future.set_exception(error) if error is not None else future.set_result(result)

    def run() -> None:
        try:
            result, error = context.run(policy, request), None
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            result, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, name="masfuzz-scripted-policy", daemon=True).start()
    return await future


def resolve_handoff(agent: str, tools: tuple[ToolDef, ...]) -> ToolDef | None:
    """The offered tool that hands control to `agent`: declared by the adapter (`handoff_to`),
    else named `transfer_to_<agent>` (exactly, or in the Agents SDK's snake-case form), with or
    without the number AG2 gives each `OnCondition` of an agent (`transfer_to_crew_c_1`)."""
    for t in tools:
        if t.handoff_to == agent:
            return t
    wanted = {f"transfer_to_{agent}", "transfer_to_" + re.sub(r"\W+", "_", agent).strip("_").lower()}
    return next((t for t in tools if t.name in wanted), None) \
        or next((t for t in tools if re.sub(r"_\d+$", "", t.name) in wanted), None)


def _source_fingerprint(policy: Any) -> str | None:
    try:
        source = Path(inspect.getfile(inspect.unwrap(policy) if inspect.isroutine(policy) else type(policy)))
        return hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    except (TypeError, OSError):
        return None


def estimate_tokens(text: str) -> int:
    """About four characters per token: a scripted model has no tokenizer."""
    return math.ceil(len(text) / 4)


def _request_text(request: ChatRequest) -> str:
    parts = [m.content or "" for m in request.messages]
    parts += [_call_text(c) for m in request.messages for c in m.tool_calls]
    parts += [json.dumps(t.model_dump(mode="json"), sort_keys=True) for t in request.tools]
    return "".join(parts)


def _call_text(c: ToolCallRequest) -> str:
    return c.name + json.dumps(c.arguments, sort_keys=True, default=str)
