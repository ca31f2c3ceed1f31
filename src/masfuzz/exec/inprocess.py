"""The in-process executor: load the target once, run scenarios on this event loop.

It is the fast path (no interpreter start-up, no re-import of the framework per scenario). Its
timeout is an asyncio timeout, so it ends a run that waits (a model call, `asyncio.sleep`) but
not one that blocks the thread (`time.sleep` in a tool, a C extension spinning): use the
subprocess executor for systems that may hang that way, or may die.
"""

from __future__ import annotations

import asyncio
import time

from masfuzz.adapters.base import Adapter
from masfuzz.adapters.orchestration import Orchestration
from masfuzz.exec.base import DEFAULT_TIMEOUT, Executor, LoadedSystem, ended_trace
from masfuzz.scenario import Scenario
from masfuzz.trace import Trace


class InProcessExecutor(Executor):
    kind = "inprocess"

    def __init__(self, *, concurrency: int = 1, timeout: float = DEFAULT_TIMEOUT,
                 adapter: str | Adapter | None = None,
                 orchestration: Orchestration | None = None) -> None:
        super().__init__(concurrency=concurrency, timeout=timeout, adapter=adapter,
                         orchestration=orchestration)
        self._systems: dict[str, LoadedSystem] = {}

    def load(self, target: str) -> LoadedSystem:
        """The loaded target, imported and extracted on first use only."""
        system = self._systems.get(target)
        if system is None:
            system = self._systems[target] = LoadedSystem(target, self.adapter,
                                                                self.orchestration)
        return system

    async def _run(self, target: str, scenario: Scenario) -> Trace:
        system = self.load(target)
        limit = self.timeout_for(scenario)
        t0 = time.perf_counter()
        try:
            return await asyncio.wait_for(system.run(scenario), limit)
        except TimeoutError:
            return ended_trace(
                scenario, "timeout", f"no result within {limit:g} s; the run was cancelled",
                time.perf_counter() - t0, system_id=system.spec.system.id,
                framework=system.spec.system.framework, meta={"executor": self.kind},
            )
