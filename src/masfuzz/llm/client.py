"""`get_client(model_string)`: one entry point to every provider.

The provider answers; the `ManagedClient` around it adds what every caller needs and no
provider should repeat: the caller's role stamped on each request, the response cache, the
global bound on open connections (`--max-connections`), the timeout, and the accounting.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from typing import Any

from masfuzz.errors import MasfuzzError, ModelCallFailed, ModelError
from masfuzz.llm.accounting import Ledger, price_of
from masfuzz.llm.cache import ResponseCache, cache_key
from masfuzz.llm.modelstring import ModelSpec, parse_model_string
from masfuzz.redact import redact
from masfuzz.trace import model_call
from masfuzz.llm.types import ChatReply, ChatRequest, Role

DEFAULT_MAX_CONNECTIONS = 4


class ConnectionLimit:
    """A process-wide bound on concurrent calls to networked providers. asyncio semaphores
    belong to one event loop, and a sync CLI may run several loops in turn: one per loop."""

    def __init__(self, limit: int = DEFAULT_MAX_CONNECTIONS) -> None:
        self.limit = limit
        self._per_loop: weakref.WeakKeyDictionary[Any, asyncio.Semaphore] = weakref.WeakKeyDictionary()

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


CONNECTIONS = ConnectionLimit()


def set_max_connections(limit: int) -> None:
    """What `--max-connections` sets: open requests to networked providers, process-wide."""
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
                with model_call(request.agent):
                    reply = await self._complete(request, timeout if timeout is not None else self.timeout)
            else:
                reply = await self._complete(request, timeout if timeout is not None else self.timeout)
            return reply
        finally:
            self.ledger.record(
                request.role,
                request.agent,
                reply,
                time.perf_counter() - start,
                price_of(self.spec.provider, self.spec.model),
            )

    async def _complete(self, request: ChatRequest, timeout: float | None) -> ChatReply:
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
        reply = await self._call_provider(request, timeout)
        if key is not None and reply.finish_reason != "error":
            self.cache.put(key, self.spec.provider, self.spec.model, self.spec.base_url, reply)
        return reply

    async def _call_provider(self, request: ChatRequest, timeout: float | None) -> ChatReply:
        start = time.perf_counter()

        async def bounded() -> ChatReply:
            if getattr(self.provider, "uses_network", False):
                async with CONNECTIONS.semaphore():
                    return await self.provider.complete(request, timeout=timeout)
            return await self.provider.complete(request, timeout=timeout)

        try:
            reply = await asyncio.wait_for(bounded(), timeout) if timeout else await bounded()
        except (asyncio.TimeoutError, TimeoutError):
            raise ModelCallFailed(f"{self.model_string}: no reply within {timeout:g} s") from None
        except MasfuzzError:
            raise
        except Exception as exc:  # a provider bug or an SDK error not mapped: still one line
            first = str(exc).splitlines()[0] if str(exc) else ""
            key = getattr(self.provider, "_key", None)
            raise ModelError(f"{self.model_string}: {type(exc).__name__}: {redact(first, key)}") from None
        if not reply.latency:
            reply = reply.model_copy(update={"latency": time.perf_counter() - start})
        return reply

    async def aclose(self) -> None:
        close = getattr(self.provider, "aclose", None)
        if close is not None:
            await close()


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
    raise ModelError(f"model string {spec.display!r}: no provider {spec.provider!r}")  # pragma: no cover
