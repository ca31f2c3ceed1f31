"""Every model call of a PydanticAI app is masfuzz's, an agent built while the run goes included.

A run overrides the model of every agent of the walk (`agent.override`, a context variable of
that agent object). An app also builds agents while it runs: a tool whose body says
`Agent("openai:gpt-4o", ...)` and runs it, a fresh agent per request. That object did not exist
when the run's overrides were entered, so it would call its own provider: the provider masfuzz
refuses ("model not injected"), and the run's crash would read as the app's.

Every agent run goes through `Agent.iter` (`run`, `run_sync` and the streaming runs call it).
While a masfuzz run is in progress, a function that overrides an agent for the run is in a
context variable, which the tasks and threads the app starts copy; `Agent.iter` is replaced once
by one that enters that override around the app's own run for an agent the walk did not
override. Outside a masfuzz run it passes every call through unchanged.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractContextManager
from contextvars import ContextVar
from typing import Any

# agent -> the context manager that gives it masfuzz's model and recording for this run
_OVERRIDE: ContextVar[Callable[[Any], AbstractContextManager[Any]] | None] = ContextVar(
    "masfuzz_pai_built_agents", default=None)


def _install() -> None:
    from pydantic_ai import Agent

    original = Agent.iter
    if getattr(original, "masfuzz_original", None) is not None:
        return

    @contextlib.asynccontextmanager
    async def iter(self: Any, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        override = _OVERRIDE.get()
        with override(self) if override is not None else contextlib.nullcontext():
            async with original(self, *args, **kwargs) as agent_run:
                yield agent_run

    iter.masfuzz_original = original  # type: ignore[attr-defined]
    iter.__doc__ = original.__doc__
    Agent.iter = iter  # type: ignore[method-assign]


@contextlib.contextmanager
def built_agents_overridden(override: Callable[[Any], AbstractContextManager[Any]]) -> Iterator[None]:
    """Within the block, an agent the app builds and runs is entered into `override(agent)`
    for its run (which gives a walk's agent, already overridden, a null context)."""
    _install()
    token = _OVERRIDE.set(override)
    try:
        yield
    finally:
        _OVERRIDE.reset(token)
