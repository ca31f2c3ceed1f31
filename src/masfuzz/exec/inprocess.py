"""The in-process executor: open the target once, run scenarios on this event loop.

It is the fast path (no interpreter start-up, no re-import of the framework per scenario) and the
debugging one. Its timeout is an asyncio timeout, so it ends a run that waits (a model call,
`asyncio.sleep`) but not one that blocks the thread (`time.sleep` in a tool, a C extension
spinning), and a system that dies takes masfuzz with it: the isolated executors are for that.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from masfuzz.exec.base import Executor
from masfuzz.exec.request import ExecutionRequest
from masfuzz.llm import settings
from masfuzz.target import OpenedSystem, Target
from masfuzz.trace import Trace, ended_trace


class InProcessExecutor(Executor):
    kind = "inprocess"

    def load(self, target: Target | str) -> OpenedSystem:
        """The opened target (the process's one opening of it)."""
        return Target.of(target, self.orchestration, adapter=self.adapter).open()

    async def _execute(self, request: ExecutionRequest) -> Trace:
        system = request.target.open()
        limit = request.limit
        t0 = time.perf_counter()
        with settings.use(request.models, request.scenario):
            try:
                return await asyncio.wait_for(system.run(request.scenario), limit)
            except TimeoutError:
                return ended_trace(
                    request.scenario, "timeout", f"no result within {limit:g} s; the run was cancelled",
                    time.perf_counter() - t0, system_id=system.spec.system.id,
                    framework=system.spec.system.framework,
                )


__all__: list[Any] = ["InProcessExecutor"]
