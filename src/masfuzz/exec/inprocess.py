"""The in-process executor: open the target once, run scenarios on this event loop.

It is the fast path (no interpreter start-up, no re-import of the framework per scenario) and the
debugging one. Its timeout is an asyncio timeout (the adapter's own clock at the limit, which
keeps the run's events, then the executor's cancel `WIND_DOWN` seconds later, which cannot),
so it ends a run that waits (a model call, `asyncio.sleep`) but not one that blocks the thread (`time.sleep` in a tool, a C extension
spinning), and a system that dies takes masfuzz with it: the isolated executors are for that.
Nor can it kill a run it gives up on at its time limit: a tool blocked in a thread, or a
synchronous framework's loop in one, goes on beside the next runs. Such a run is closed
(`masfuzz.trace.RunScope`): what its code records from then on is dropped, whichever trace it
reaches, and counted in the next trace of its system (`meta.late_events`); an adapter whose
framework runs in a thread stops it at its next step (`masfuzz.trace.run_ended`); what it did to
the app's objects before that is not undone (a worker executor kills it).
What the system writes to file descriptors 1 and 2 itself is masked like masfuzz's own output.

With `code_coverage`, measured runs take turns: coverage.py traces a process, not a task, so two
runs interleaved on this loop could not be told apart. What opening the target ran is measured
once by a fresh interpreter (this process may have imported the target long before), as a worker
measures its own: the numbers are those of the isolated executors (`masfuzz.exec.codecov`).
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import Any

from masfuzz.exec import history
from masfuzz.exec.base import Executor, run_guarded
from masfuzz.exec.request import ExecutionRequest
from masfuzz.llm import settings
from masfuzz.redact import RedactingFds
from masfuzz.target import OpenedSystem, Target
from masfuzz.trace import RunScope, Trace, ended_trace, scoped_context


# Seconds an adapter is given past the limit to end a run it stopped itself (AgentChat's cancels
# the team and waits for it, up to two seconds), before the executor cancels it, events and all
WIND_DOWN = 3.0


class InProcessExecutor(Executor):
    kind = "inprocess"

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._measured: asyncio.Lock | None = None
        self._warned = False  # the system runs unsandboxed here: said on stderr, once

    def load(self, target: Target | str) -> OpenedSystem:
        """The opened target (the process's one opening of it)."""
        return Target.of(target, self.orchestration, adapter=self.adapter).open()

    async def _execute(self, request: ExecutionRequest) -> Trace:
        trace = await self._execute_here(request)
        if not self._warned:  # after a run, not before: bad input stays one line (exit 2)
            from masfuzz.report.analysis import IN_PROCESS

            self._warned = True
            print(f"masfuzz: WARNING: {IN_PROCESS}", file=sys.stderr)
        return trace

    async def _execute_here(self, request: ExecutionRequest) -> Trace:
        system = request.target.open()
        if not request.code_coverage:
            return await self._run(system, request)
        from masfuzz.exec import codecov  # only when asked: coverage off costs nothing

        await codecov.opening(request.target)
        if self._measured is None:  # created lazily, on the loop that runs scenarios
            self._measured = asyncio.Lock()
        async with self._measured:
            run = codecov.start_run(request.target, request.scenario, asyncio.get_running_loop())
            return run.attach(await self._run(system, request))

    async def _run(self, system: OpenedSystem, request: ExecutionRequest) -> Trace:
        # every run shares this process (`Target.open` opens a system once per process, so every
        # executor of it runs the same object): the run's place among its system's runs, and
        # what the earlier ones left its tools, are said in its trace (`masfuzz.exec.history`)
        place = history.begin(request.target, asyncio.get_running_loop())  # a command's own loop
        scope = RunScope(on_late=lambda: history.late(request.target))
        try:
            trace = await self._run_once(system, request, scope)
        finally:  # ended or abandoned: nothing it does later is recorded
            scope.close()
        return history.note(trace, request.target, place)

    async def _run_once(self, system: OpenedSystem, request: ExecutionRequest, scope: RunScope) -> Trace:
        limit = request.limit
        t0 = time.perf_counter()
        # The executor's limit is the run's own (as a worker's): an adapter's clock, at its
        # default when the scenario sets none, would otherwise run past it and the cancel below
        # drop the run's events. The adapter's clock starts after the executor's, so the
        # executor waits a moment longer (`WIND_DOWN`): the adapter ends the run itself, keeping
        # what its agents did, and the cancel below is only for a run that will not end
        scenario = request.scenario.model_copy(update={"timeout": limit})
        # the system's own writes to fds 1 and 2 (os.write, C code) reach no terminal unmasked
        with settings.use(request.models, request.scenario), RedactingFds():
            try:
                # in a task of its own, whose context (and every thread started with it) is
                # the run's: its recorders and late events are told from a later run's
                run = asyncio.get_running_loop().create_task(
                    run_guarded(system.run(scenario)), context=scoped_context(scope))
                ran = await asyncio.wait_for(run, limit + WIND_DOWN)
                return ran.model_copy(update={"scenario_id": request.scenario.id})
            except TimeoutError:
                return ended_trace(
                    request.scenario, "timeout", f"no result within {limit:g} s; the run was cancelled",
                    time.perf_counter() - t0, system_id=system.spec.system.id,
                    framework=system.spec.system.framework,
                )

    async def aclose(self) -> None:
        """Stop code coverage, if this executor measured it (it traces every call until then)."""
        if self._measured is not None:
            from masfuzz.exec import codecov

            codecov.stop()


__all__: list[Any] = ["InProcessExecutor"]
