"""How model calls are made: one serialisable value instead of process-wide configuration.

`ModelSettings` is what a user chose for every model call of an invocation (cache, per-call
timeout, retries, the *name* of the variable holding the API key, the connection bound). It
travels inside every `ExecutionRequest`, so a subprocess or Ray worker makes its calls exactly as
the parent would; the key's value is read from the environment where the call is made and never
enters the value itself (it would otherwise land in a request file, a store or a log).

The clients the adapters build for the agents under test come from `sut_client(model)`: the
settings in force are those of the execution running in this context (`use(settings)`, set by the
executor around a run), and clients are pooled per (model string, settings), so an embedded model
loads once per process however many scenarios run.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from masfuzz.errors import MasfuzzError
from masfuzz.llm.cache import ResponseCache
from masfuzz.llm.client import DEFAULT_MAX_CONNECTIONS
from masfuzz.llm.retry import DEFAULT_MAX_RETRIES
from masfuzz.llm.sampling import sampling
from masfuzz.llm.types import Role

DEFAULT_MODEL_TIMEOUT = 120.0


class ModelSettings(BaseModel):
    """Every option of a model call. Frozen and hashable: it keys the client pool."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # The response cache file; None (the library default) caches nothing. The commands' option
    # table defaults it to DEFAULT_PATH.
    cache: str | None = None
    timeout: float = DEFAULT_MODEL_TIMEOUT  # seconds one attempt of a model call may take
    retries: int = Field(default=DEFAULT_MAX_RETRIES, ge=0)
    api_key_env: str | None = None  # the variable holding the key, never the key
    max_connections: int = Field(default=DEFAULT_MAX_CONNECTIONS, ge=1)

    def api_key(self) -> str | None:
        """The key's value, read now from the named variable (None: the provider's default)."""
        if not self.api_key_env:
            return None
        value = os.environ.get(self.api_key_env)
        if not value:
            raise MasfuzzError(f"--api-key-env: the environment variable {self.api_key_env} is not set")
        return value

    def open_cache(self) -> ResponseCache | None:
        return _cache(self.cache)

    def client(self, model_string: str, *, role: Role = "sut", ledger: Any = None) -> Any:
        """A fresh `ManagedClient` for `model_string` made with these settings."""
        from masfuzz.llm.client import get_client, set_max_connections

        set_max_connections(self.max_connections)
        return get_client(model_string, role=role, cache=_cache(self.cache), ledger=ledger,
                          timeout=self.timeout, api_key=self.api_key(),
                          max_retries=self.retries)


_caches: dict[str, ResponseCache] = {}
_lock = threading.Lock()


def _cache(path: str | None) -> ResponseCache | None:
    if path is None:
        return None
    key = str(Path(path).resolve())
    with _lock:
        if key not in _caches:
            _caches[key] = ResponseCache(path)
        return _caches[key]


DEFAULT_SETTINGS = ModelSettings()
_current: contextvars.ContextVar[ModelSettings] = contextvars.ContextVar(
    "masfuzz_model_settings", default=DEFAULT_SETTINGS)


@contextlib.contextmanager
def use(settings: ModelSettings | None, scenario: Any = None) -> Iterator[ModelSettings]:
    """Make `settings` the ones in force for model calls made in this context (an execution),
    and the scenario's sampling (per-agent temperatures, its nonce) that of its SUT calls
    (`masfuzz.llm.sampling`; a run also puts it in force itself, to note what its calls ran
    with)."""
    token = _current.set(settings or DEFAULT_SETTINGS)
    try:
        with sampling(scenario) if scenario is not None else contextlib.nullcontext():
            yield _current.get()
    finally:
        _current.reset(token)


def current() -> ModelSettings:
    return _current.get()


class ClientPool:
    """One SUT client per (model string, settings), kept across runs in this process."""

    def __init__(self) -> None:
        self._clients: dict[tuple[str, ModelSettings], Any] = {}
        self._lock = threading.Lock()
        self._make: Any = None  # (model string, settings) -> client, instead of settings.client

    def route(self, make: Any) -> None:
        """Make every SUT client with `make(model_string, settings)` from now on (a worker's
        calls through the model proxy, `masfuzz.llm.proxy`); clients made before are dropped."""
        with self._lock:
            self._make = make
            self._clients.clear()

    def get(self, model_string: str, settings: ModelSettings | None = None) -> Any:
        settings = settings or current()
        key = (model_string, settings)
        with self._lock:
            client = self._clients.get(key)
            if client is None:
                client = self._clients[key] = (self._make(model_string, settings) if self._make
                                               else settings.client(model_string, role="sut"))
            return client


SUT_CLIENTS = ClientPool()


def sut_client(model_string: str) -> Any:
    """The client driving agents under test with `model_string`, under the settings in force.
    Every adapter gets its SUT clients here."""
    return SUT_CLIENTS.get(model_string)
