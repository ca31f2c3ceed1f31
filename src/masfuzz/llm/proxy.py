"""The model proxy: the system under test's model calls, made by a worker process, answered by
masfuzz.

A worker of the pool (`masfuzz.exec.worker`) runs the user's code, possibly in the OS sandbox,
where there is no network and no key: it must not call a provider itself. Its SUT clients
(`ClientPool.route`) are `ManagedClient`s around a `ProxyProvider`, which sends each call over
the worker's protocol channel as a `{"model_request": {...}}` line and waits for the matching
`{"model_reply": {...}}` on its input. The worker's side still does what belongs to the run
(the scenario's temperature and nonce, the note of what each agent ran with, the activity
reports the pool counts a killed run's model use from); the parent answers with its own client
for the same model string and settings (`answer`): the provider, its key, the response cache,
the `--max-connections` bound and the redaction stay in masfuzz, and an embedded local model is
loaded once, in masfuzz, instead of once per worker.

A failed call is answered with the error's class and message, raised again in the worker as
the same `MasfuzzError` class, so the adapters see what a direct call would have raised.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
from collections.abc import Callable
from typing import Any

from masfuzz import errors
from masfuzz.errors import MasfuzzError, ModelCallFailed
from masfuzz.llm.types import ChatReply, ChatRequest

REQUEST_KEY, REPLY_KEY = "model_request", "model_reply"


class ProxiedCalls:
    """The worker's side: the calls sent and not yet answered, each awaited on the event loop
    that made it (frameworks call from threads with loops of their own)."""

    def __init__(self, send: Callable[[dict[str, Any]], None]) -> None:
        self.send = send
        self._ids = itertools.count(1)
        self._pending: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Future[ChatReply]]] = {}
        self._lock = threading.Lock()
        self._closed: str | None = None

    async def ask(self, model_string: str, request: ChatRequest, timeout: float | None) -> ChatReply:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[ChatReply] = loop.create_future()
        with self._lock:
            if self._closed is not None:
                raise ModelCallFailed(f"{model_string}: {self._closed}")
            call_id = next(self._ids)
            self._pending[call_id] = (loop, future)
        try:
            self.send({REQUEST_KEY: {"id": call_id, "model": model_string, "timeout": timeout,
                                     "request": request.model_dump(mode="json")}})
            return await future
        finally:
            with self._lock:
                self._pending.pop(call_id, None)

    def deliver(self, message: Any) -> None:
        """A `model_reply` from the parent (called from the thread reading the channel)."""
        if not isinstance(message, dict):
            return
        with self._lock:
            entry = self._pending.get(message.get("id"))  # type: ignore[arg-type]
        if entry is not None:
            entry[0].call_soon_threadsafe(_settle, entry[1], message)

    def close(self, why: str) -> None:
        """The channel ended: every waiting call fails with `why`, and later ones at once."""
        with self._lock:
            self._closed = why
            pending = list(self._pending.values())
        for loop, future in pending:
            loop.call_soon_threadsafe(_settle, future, {"error": {"type": "ModelCallFailed", "message": why}})


def _settle(future: asyncio.Future[ChatReply], message: dict[str, Any]) -> None:
    if future.done():
        return
    if "error" in message:
        error = message["error"] if isinstance(message["error"], dict) else {}
        kind = getattr(errors, str(error.get("type")), None)
        if not (isinstance(kind, type) and issubclass(kind, MasfuzzError)):
            kind = ModelCallFailed
        future.set_exception(kind(str(error.get("message", "the model call failed"))))
        return
    try:
        future.set_result(ChatReply.model_validate(message.get("reply")))
    except ValueError as exc:
        future.set_exception(ModelCallFailed(f"masfuzz sent an unreadable model reply ({exc})"))


class ProxyProvider:
    """A provider whose answers come from the process that started this one."""

    times_each_attempt = True  # the answering process bounds each attempt (and retries)

    def __init__(self, model_string: str, calls: ProxiedCalls) -> None:
        self.model_string, self.calls = model_string, calls

    async def complete(self, request: ChatRequest, *, timeout: float | None = None) -> ChatReply:
        return await self.calls.ask(self.model_string, request, timeout)


def proxied_client(calls: ProxiedCalls) -> Callable[[str, Any], Any]:
    """The factory `ClientPool.route` takes: a SUT client for a model string whose calls go
    through `calls` (no cache, no timeout of its own: the answering side has both)."""
    from masfuzz.llm.client import ManagedClient
    from masfuzz.llm.modelstring import parse_model_string

    def make(model_string: str, settings: Any) -> Any:
        return ManagedClient(ProxyProvider(model_string, calls), parse_model_string(model_string),
                             role="sut")

    return make


def refused(message: Any, why: str) -> str:
    """The `model_reply` line refusing a `model_request` (the call is not made): `why`."""
    call_id = message.get("id") if isinstance(message, dict) else None
    return _failed(call_id, "ModelCallFailed", why)


def _failed(call_id: Any, kind: str, why: str) -> str:
    return json.dumps({REPLY_KEY: {"id": call_id, "error": {"type": kind, "message": why}}})


async def answer(message: Any, settings: Any) -> str:
    """The parent's side: the `model_reply` line (without its newline) for one
    `model_request`, made with this process's client for the model string under `settings` (the
    request's `ModelSettings`). The reply is dumped once, straight to JSON (a dict of it dumped
    again was a tenth of masfuzz's own CPU per execution at 16 workers)."""
    from masfuzz.llm.settings import SUT_CLIENTS

    call_id = message.get("id") if isinstance(message, dict) else None
    try:
        if not isinstance(message, dict) or not isinstance(message.get("model"), str):
            raise ModelCallFailed(f"a worker sent an unreadable model request ({message!r:.80})")
        try:
            request = ChatRequest.model_validate(message.get("request"))
        except ValueError as exc:
            raise ModelCallFailed(f"a worker sent an unreadable model request ({exc})") from None
        timeout = message.get("timeout")
        client = SUT_CLIENTS.get(message["model"], settings)
        reply = await client.answer(request, float(timeout) if timeout else client.timeout)
        return f'{{"{REPLY_KEY}":{{"id":{json.dumps(call_id)},"reply":{reply.model_dump_json()}}}}}'
    except MasfuzzError as exc:
        return _failed(call_id, type(exc).__name__, str(exc))
    except Exception as exc:  # masfuzz's own failure (a cache it cannot write): the call failed
        return _failed(call_id, "ModelCallFailed", f"{type(exc).__name__}: {exc}")
