"""What every executor provides, and the traces it records when a run does not finish by itself.

An executor takes a target (as the user names it, `file.py:attr`) and a `Scenario`, runs the
scenario through the target's adapter, and always answers with a `Trace`. A hang becomes a trace
ending in termination reason `timeout`, a dying system under test one ending in `crash`; the
caller then goes on with the next scenario. Only bad input (a target that cannot be loaded)
raises, as a `MasfuzzError`.
"""

from __future__ import annotations

import asyncio
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from masfuzz.adapters.base import Adapter
from masfuzz.adapters.loader import load_target
from masfuzz.adapters.orchestration import Orchestration
from masfuzz.adapters.target import open_target
from masfuzz.errors import MasfuzzError, TargetError
from masfuzz.llm.secrets import redact
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import ErrorEvent, TerminationEvent, Trace, Usage

DEFAULT_TIMEOUT = 60.0  # seconds per scenario when the scenario names none


class LoadedSystem:
    """A target loaded once: the adapter, the object it runs, and the extracted spec.

    `adapter` optionally names the adapter to use (`pkg.mod:Class` or `file.py:Class`) instead of
    detecting it from the object's type; the black-box adapter and test systems use this.
    `orchestration` (a coordinator, links) supplies the graph of an Agents SDK app that
    orchestrates its agents in plain Python, as every command's `--coordinator`/`--link` do.
    """

    def __init__(self, target: str, adapter: str | Adapter | None = None,
                 orchestration: Orchestration | None = None) -> None:
        self.target = target
        if adapter is None:  # a manifest or a framework object, as every command opens it
            sut = open_target(target, orchestration)
            self.adapter, self.obj, self.spec = sut.runner(), sut.obj, sut.spec
            return
        self.adapter = _adapter_instance(adapter)
        self.obj = load_target(target).obj
        if not self.adapter.accepts(self.obj):
            raise TargetError(
                f"{target}: adapter {type(self.adapter).__name__} does not accept a "
                f"{type(self.obj).__module__}.{type(self.obj).__qualname__}"
            )
        self.spec: WorkflowSpec = self.adapter.extract(self.obj, target=target)

    async def run(self, scenario: Scenario) -> Trace:
        """Run one scenario; an exception escaping the adapter is recorded as a crash."""
        t0 = time.perf_counter()
        try:
            return await self.adapter.run(self.obj, self.spec, scenario)
        except MasfuzzError:
            raise
        except Exception as exc:  # the adapter's contract says this never happens; be safe
            return ended_trace(
                scenario, "crash", f"{type(exc).__name__}: {exc}", time.perf_counter() - t0,
                system_id=self.spec.system.id, framework=self.spec.system.framework,
            )


def _adapter_instance(adapter: str | Adapter) -> Adapter:
    if isinstance(adapter, Adapter):
        return adapter
    obj = load_target(adapter).obj
    if isinstance(obj, type) and issubclass(obj, Adapter):
        return obj()
    if isinstance(obj, Adapter):
        return obj
    raise TargetError(f"{adapter}: not a masfuzz Adapter class")


def ended_trace(
    scenario: Scenario,
    kind: str,
    message: str,
    wall_time: float,
    *,
    system_id: str = "",
    framework: str = "",
    meta: dict[str, Any] | None = None,
) -> Trace:
    """The trace of a run the harness had to end: one `error` event of `kind` (timeout or
    crash) and a termination with the same reason."""
    reason = "timeout" if kind == "timeout" else "crash"
    message = redact(message)
    return Trace(
        scenario_id=scenario.id,
        system_id=system_id,
        framework=framework,
        events=(
            ErrorEvent(t=round(wall_time, 6), kind=kind, message=message),
            TerminationEvent(t=round(wall_time, 6), reason=reason, detail=message),
        ),
        usage=Usage(wall_time=round(wall_time, 6)),
        meta=meta or {},
    )


class Executor(ABC):
    """Runs scenarios against targets with bounded concurrency. Both methods are coroutines."""

    kind: str = ""

    def __init__(self, *, concurrency: int = 1, timeout: float = DEFAULT_TIMEOUT,
                 adapter: str | Adapter | None = None,
                 orchestration: Orchestration | None = None) -> None:
        if concurrency < 1:
            raise MasfuzzError(f"executor concurrency must be at least 1, not {concurrency}")
        self.concurrency = concurrency
        self.default_timeout = timeout
        self.adapter = adapter
        self.orchestration = orchestration or Orchestration()
        self._slots: asyncio.Semaphore | None = None

    def timeout_for(self, scenario: Scenario) -> float:
        return scenario.timeout if scenario.timeout else self.default_timeout

    def _semaphore(self) -> asyncio.Semaphore:
        # Created lazily so that the semaphore binds to the loop that actually runs scenarios.
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.concurrency)
        return self._slots

    async def run(self, target: str, scenario: Scenario) -> Trace:
        async with self._semaphore():
            return await self._run(target, scenario)

    @abstractmethod
    async def _run(self, target: str, scenario: Scenario) -> Trace:
        """One scenario, already holding a concurrency slot."""

    async def run_many(
        self,
        target: str,
        scenarios: Sequence[Scenario],
        *,
        on_trace: Callable[[int, Trace], None] | None = None,
    ) -> list[Trace]:
        """All scenarios, at most `concurrency` at a time; traces in the order given.
        `on_trace(index, trace)` is called as each one finishes (for progress output)."""

        async def one(i: int, sc: Scenario) -> Trace:
            trace = await self.run(target, sc)
            if on_trace is not None:
                on_trace(i, trace)
            return trace

        return list(await asyncio.gather(*(one(i, sc) for i, sc in enumerate(scenarios))))
