"""What a scenario changes in its agents' model calls, and what those calls actually ran with.

FLARE's configuration mutation (§3.3.3) gives one agent another temperature
(`Scenario.temperatures`) or another model family (`Scenario.agent_models`, which the adapters
honour when they pick each agent's client). The temperature and the execution nonce are applied
here, by the client every SUT call passes (`ManagedClient.complete` -> `sut_request`), whatever
the framework; the same place notes the model and temperature each agent's calls ran with, so a
run can say in its trace what a mutation reached (`AgentSettings.as_meta`).

Both are scoped to one execution by `sampling(scenario)`, a context variable: concurrent runs on
one event loop keep apart, and the framework threads a run starts (which copy the context) still
count as that run.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Iterator
from typing import Any

from masfuzz.llm.types import ChatRequest


class AgentSettings:
    """The model string and temperature of every SUT call of one run, per agent."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # AG2 and sync LangGraph nodes call from threads
        self._seen: dict[str, dict[str, list[Any]]] = {}
        self._calls: dict[str, int] = {}

    def note(self, agent: str, model: str, temperature: float | None) -> None:
        with self._lock:
            seen = self._seen.setdefault(agent, {"model": [], "temperature": []})
            for key, value in (("model", model), ("temperature", temperature)):
                if value not in seen[key]:
                    seen[key].append(value)
            self._calls[agent] = self._calls.get(agent, 0) + 1

    def as_meta(self) -> dict[str, dict[str, Any]]:
        """{agent: {"model": ..., "temperature": ..., "calls": n}}. A value is a list (in the
        order first seen) only when the agent's calls differed in it; temperature None means
        the provider's default."""
        with self._lock:
            return {agent: {**{k: v[0] if len(v) == 1 else list(v) for k, v in seen.items()},
                            "calls": self._calls[agent]}
                    for agent, seen in self._seen.items()}


_scenario: contextvars.ContextVar[Any] = contextvars.ContextVar("masfuzz_sampling", default=None)
_ran: contextvars.ContextVar[AgentSettings | None] = contextvars.ContextVar(
    "masfuzz_agent_settings", default=None)


@contextlib.contextmanager
def sampling(scenario: Any) -> Iterator[AgentSettings]:
    """Put `scenario`'s sampling in force for the SUT calls made in this context, and note what
    they ran with in the `AgentSettings` yielded (fresh for each scope)."""
    log = AgentSettings()
    tokens = (_scenario.set(scenario), _ran.set(log))
    try:
        yield log
    finally:
        _ran.reset(tokens[1])
        _scenario.reset(tokens[0])


def _update(agent: str | None) -> dict[str, Any]:
    """What the execution in force changes in a SUT request of `agent`: its temperature, and
    the execution nonce as the seed."""
    scenario = _scenario.get()
    if scenario is None:
        return {}
    update: dict[str, Any] = {}
    if agent is not None and agent in scenario.temperatures:
        update["temperature"] = scenario.temperatures[agent]
    if scenario.nonce is not None:
        update["seed"] = scenario.nonce
    return update


def sut_request(model_string: str, request: ChatRequest) -> ChatRequest:
    """`request` as the execution in force sends it to `model_string`, noted for its agent.
    A call no adapter named belongs to no agent and is not noted."""
    update = _update(request.agent)
    if update:
        request = request.model_copy(update=update)
    log = _ran.get()
    if log is not None and request.agent is not None:
        log.note(request.agent, model_string, request.temperature)
    return request
