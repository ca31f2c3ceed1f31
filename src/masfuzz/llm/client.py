"""`get_client(model_string)`: one entry point to every provider.

The provider answers; the `ManagedClient` around it adds what every caller needs and no
provider should repeat: the caller's role stamped on each request, the response cache, the
global bound on open connections (`--max-connections`), the timeout, and the accounting.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import fcntl
import os
import shutil
import tempfile
import time
import weakref
from collections.abc import AsyncIterator
from typing import Any

from masfuzz.errors import MasfuzzError, ModelCallFailed, ModelError
from masfuzz.llm.accounting import Ledger, price_of
from masfuzz.llm.cache import ResponseCache, cache_key
from masfuzz.proc import own_folder
from masfuzz.llm.modelstring import ModelSpec, parse_model_string
from masfuzz.redact import redact, redact_data
from masfuzz.trace import model_call
from masfuzz.llm.types import ChatReply, ChatRequest, Role

DEFAULT_MAX_CONNECTIONS = 4


SLOTS_ENV = "MASFUZZ_CONNECTION_SLOTS"  # the folder of slot files a worker process shares
SLOT_POLL = 0.005  # seconds between two looks for a free slot held by another process


class ConnectionLimit:
    """The bound on model calls at once (`--max-connections`).

    In one process: an asyncio semaphore (they belong to one event loop, and a sync CLI may run
    several loops in turn: one per loop). Across the worker processes of a campaign, and the
    campaign's own process: `limit` slot files in one folder, a call holding an exclusive lock
    on one of them (the kernel frees a killed worker's). The folder exists once a process starts
    workers (`shared_folder`); the workers find it in their environment (`SLOTS_ENV`)."""

    def __init__(self, limit: int = DEFAULT_MAX_CONNECTIONS) -> None:
        self.limit = limit
        self._per_loop: weakref.WeakKeyDictionary[Any, asyncio.Semaphore] = weakref.WeakKeyDictionary()
        self._folder: str | None = os.environ.get(SLOTS_ENV) or None
        self._own = False

    def set(self, limit: int) -> None:
        if limit < 1:
            raise MasfuzzError(f"--max-connections must be at least 1, not {limit}")
        self.limit = limit
        self._per_loop.clear()

    def semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        sem = self._per_loop.get(loop)
        if sem is None:
            sem = self._per_loop[loop] = asyncio.Semaphore(self.limit)
        return sem

    def shared_folder(self) -> str:
        """The slot folder this process and the workers it starts share (made on first use,
        removed when the process ends)."""
        if self._folder is None:
            self._folder, self._own = own_folder("masfuzz-slots-"), True
            atexit.register(shutil.rmtree, self._folder, True)
        return self._folder

    @contextlib.asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        """One call's connection: a place in this process's semaphore, and with workers about,
        one of the shared slots."""
        async with self.semaphore():
            if self._folder is None:
                yield
                return
            fd = await self._slot(self._folder)
            try:
                yield
            finally:
                os.close(fd)  # closing the file releases its lock

    async def _slot(self, folder: str) -> int:
        while True:
            for i in range(self.limit):
                fd = os.open(os.path.join(folder, f"slot-{i}"), os.O_RDWR | os.O_CREAT, 0o600)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return fd
                except OSError:
                    os.close(fd)
            await asyncio.sleep(SLOT_POLL)


CONNECTIONS = ConnectionLimit()


def set_max_connections(limit: int) -> None:
    """What `--max-connections` sets: model calls at once, process-wide (and across the worker
    processes this one starts)."""
    CONNECTIONS.set(limit)


class ManagedClient:
    """A `ModelClient`: a provider plus role, cache, concurrency bound, timeout, accounting."""

    def __init__(
        self,
        provider: Any,
        spec: ModelSpec,
        *,
        role: Role = "sut",
        cache: ResponseCache | None = None,
        ledger: Ledger | None = None,
        timeout: float | None = None,
    ) -> None:
        self.provider = provider
        self.spec = spec
        self.model_string = spec.display
        self.role = role
        self.cache = cache
        self.ledger = ledger if ledger is not None else Ledger()
        self.timeout = timeout

    async def complete(self, request: ChatRequest, *, timeout: float | None = None) -> ChatReply:
        if "role" not in request.model_fields_set:
            request = request.model_copy(update={"role": self.role})
        if request.role == "sut":
            from masfuzz.llm.sampling import sut_request

            request = sut_request(self.model_string, request)
        start = time.perf_counter()
        reply: ChatReply | None = None
        try:
            if request.role == "sut":
                with model_call(request.agent) as streamed:
                    reply = await self.answer(request, timeout if timeout is not None else self.timeout)
                    streamed.update(tokens_in=reply.usage.tokens_in, tokens_out=reply.usage.tokens_out)
            else:
                reply = await self.answer(request, timeout if timeout is not None else self.timeout)
            return reply
        finally:
            self.ledger.record(
                request.role,
                request.agent,
                reply,
                time.perf_counter() - start,
                price_of(self.spec.provider, self.spec.model),
            )

    async def answer(self, request: ChatRequest, timeout: float | None) -> ChatReply:
        """The reply to `request` as it stands: from the cache, else the provider (within the
        connection bound and `timeout`), secrets masked. No role stamping, sampling or activity
        report: `complete` adds those, or a worker did before its call came here through the
        model proxy (`masfuzz.llm.proxy`)."""
        key = None
        if self.cache is not None:
            scope_of = getattr(self.provider, "cache_scope", None)
            key = cache_key(
                self.spec.provider,
                self.spec.model,
                self.spec.base_url,
                request,
                scope_of(request) if scope_of else None,
            )
            hit = self.cache.get(key)
            if hit is not None:
                return hit
        # masked before it is kept or used: a reply echoing a secret must not reach the cache
        # file, and a cached repeat must be the same reply as the first
        reply = redact_reply(await self._call_provider(request, timeout), getattr(self.provider, "_key", None))
        if key is not None and reply.finish_reason != "error":
            self.cache.put(key, self.spec.provider, self.spec.model, self.spec.base_url, reply)
        return reply

    async def _call_provider(self, request: ChatRequest, timeout: float | None) -> ChatReply:
        start = time.perf_counter()

        async def bounded() -> ChatReply:
            async with CONNECTIONS.held():
                return await self.provider.complete(request, timeout=timeout)

        # A provider that bounds each attempt itself gets the timeout per attempt (its retries
        # and their backoff come on top); any other call is bounded here as a whole.
        own = getattr(self.provider, "times_each_attempt", False)
        try:
            reply = await asyncio.wait_for(bounded(), timeout) if timeout and not own else await bounded()
        except (asyncio.TimeoutError, TimeoutError):
            raise ModelCallFailed(f"{self.model_string}: no reply within {timeout:g} s") from None
        except MasfuzzError:
            raise
        except Exception as exc:  # a provider bug or an SDK error not mapped: this call failed
            first = str(exc).splitlines()[0] if str(exc) else ""
            key = getattr(self.provider, "_key", None)
            raise ModelCallFailed(f"{self.model_string}: {type(exc).__name__}: {redact(first, key)}") from None
        if not reply.latency:
            reply = reply.model_copy(update={"latency": time.perf_counter() - start})
        return reply

    async def aclose(self) -> None:
        close = getattr(self.provider, "aclose", None)
        if close is not None:
            await close()


def redact_reply(reply: ChatReply, key: str | None = None) -> ChatReply:
    """The reply with every known secret masked in its text and tool-call arguments."""
    data = reply.model_dump(mode="json")
    clean = redact_data(data, key)
    return reply if clean is data else ChatReply.model_validate(clean)  # the same object: nothing masked


def get_client(
    model_string: str,
    *,
    role: Role = "sut",
    cache: ResponseCache | None = None,
    ledger: Ledger | None = None,
    timeout: float | None = None,
    api_key: str | None = None,
    max_retries: int | None = None,
    **provider_options: Any,
) -> ManagedClient:
    """The client for a model string (see `masfuzz.llm.modelstring` for the forms).

    `role` is stamped on requests that do not set their own; `cache` (None: no cache) answers
    repeats; `ledger` collects accounting (a fresh one if not given, at `client.ledger`);
    `timeout` bounds each call; `api_key` and `max_retries` go to networked providers. A
    command's choices for all of these travel as `masfuzz.llm.settings.ModelSettings`.
    """
    spec = parse_model_string(model_string)
    provider = _make_provider(spec, api_key=api_key, max_retries=max_retries, **provider_options)
    return ManagedClient(provider, spec, role=role, cache=cache, ledger=ledger, timeout=timeout)


def _make_provider(spec: ModelSpec, **options: Any) -> Any:
    options = {k: v for k, v in options.items() if v is not None}
    if spec.provider == "scripted":
        from masfuzz.llm.scripted import ScriptedClient

        return ScriptedClient.load(spec.display, spec.model)
    if spec.provider in ("openai", "openai-compatible"):
        from masfuzz.llm.openai_compat import OpenAIClient

        return OpenAIClient(spec, **options)
    if spec.provider == "litellm":
        from masfuzz.llm.litellm_client import LiteLLMClient

        return LiteLLMClient(spec, **options)
    if spec.provider == "local":
        from masfuzz.llm.local import LocalClient

        return LocalClient(spec, **options)
    from masfuzz.plugins import load  # a plugin's provider (`masfuzz.providers`)

    return load("masfuzz.providers", spec.provider)(spec, **options)
