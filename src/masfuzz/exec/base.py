"""What every executor provides.

An executor takes an `ExecutionRequest` (target, scenario, model settings), runs the scenario
through the target's adapter, and always answers with a `Trace`. A hang becomes a trace ending in
termination reason `timeout`, a dying system under test one ending in `crash`; the caller then
goes on with the next scenario. Only bad input (a target that cannot be loaded) raises, as a
`MasfuzzError`. Every trace leaves the executor through one redaction (`Executor.execute`).
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from masfuzz.errors import MasfuzzError
from masfuzz.exec.request import DEFAULT_TIMEOUT, ExecutionRequest
from masfuzz.exec.sandbox import SandboxSettings
from masfuzz.redact import redact_trace
from masfuzz.llm.settings import ModelSettings
from masfuzz.scenario import Scenario
from masfuzz.target import Orchestration, Target
from masfuzz.sutenv import Refusal, sut_environment
from masfuzz.trace import (
    APP_BOUND, HARNESS_CAUSE, NOT_INJECTED_CALLS, USER_BOUND, Trace, ended_trace, running_tool,
)

if TYPE_CHECKING:  # a judging request's parts; the worker imports the detectors when it judges
    from masfuzz.oracles.failure import Failure
    from masfuzz.oracles.portable import PortableJudge

__all__ = ["DEFAULT_TIMEOUT", "Executor", "ExecutionRequest", "ended_trace", "redact_trace"]


async def run_guarded(run: Awaitable[Trace]) -> Trace:
    """Await a run of the system under test in its own environment (`masfuzz.sutenv`): a model
    call of a client masfuzz did not replace reached the refusal there, and the trace says how
    many (`meta.not_injected_calls`, judged by the oracles as the harness's finding)."""
    before = Refusal.hits()
    with sut_environment():
        trace = await run
    refused = Refusal.hits() - before
    if refused:
        trace = trace.model_copy(update={"meta": {**trace.meta, NOT_INJECTED_CALLS: refused}})
    return trace


class Executor(ABC):
    """Runs execution requests with bounded concurrency. Its methods are coroutines.

    `sandbox` says how the isolated executors' workers are confined (the in-process executor
    cannot be). `timeout`, `models`, `code_coverage`, `persistent` (runs a worker's forked process
    may serve, `ExecutionRequest.persistent`) and the target options (`adapter`, `orchestration`)
    are the defaults of the requests `run(target, scenario)` builds; `execute(request)` takes a
    request whole.
    """

    kind: str = ""

    def __init__(self, *, concurrency: int = 1, timeout: float | None = DEFAULT_TIMEOUT,
                 adapter: Any = None, orchestration: Orchestration | None = None,
                 models: ModelSettings | None = None, code_coverage: bool = False,
                 sandbox: SandboxSettings | None = None, persistent: int = 1) -> None:
        if concurrency < 1:
            raise MasfuzzError(f"executor concurrency must be at least 1, not {concurrency}")
        if persistent < 1:
            raise MasfuzzError(f"executor persistent runs must be at least 1, not {persistent}")
        self.persistent = persistent
        self.concurrency = concurrency
        self.default_timeout = timeout or DEFAULT_TIMEOUT
        self.adapter = adapter
        self.orchestration = orchestration or Orchestration()
        self.models = models or ModelSettings()
        self.code_coverage = code_coverage
        # the OS sandbox of the workers (`masfuzz.exec.sandbox`); on unless the user said no
        self.sandbox = sandbox or SandboxSettings()
        self._slots: asyncio.Semaphore | None = None

    def request(self, target: Target | str, scenario: Scenario) -> ExecutionRequest:
        return ExecutionRequest(Target.of(target, self.orchestration, adapter=self.adapter),
                                scenario, self.models, self.default_timeout, self.code_coverage,
                                self.persistent)

    def _semaphore(self) -> asyncio.Semaphore:
        # Created lazily so that the semaphore binds to the loop that actually runs scenarios.
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.concurrency)
        return self._slots

    async def run(self, target: Target | str, scenario: Scenario) -> Trace:
        return await self.execute(self.request(target, scenario))

    async def execute(self, request: ExecutionRequest) -> Trace:
        async with self._semaphore():
            trace = await self._execute(request)
        return self.finished(request, trace)

    async def judged(self, request: ExecutionRequest,
                     judge: PortableJudge) -> tuple[Trace, list[Failure] | None]:
        """The execution of `request`, and the failures `judge` finds in its trace when this
        executor judged it where it ran (the pool's workers, `PoolExecutor.judged`): None here,
        and the caller judges the trace itself."""
        return await self.execute(request), None

    def will_judge(self, judge: PortableJudge) -> None:
        """Told before the runs start that they will be judged with `judge` (`judged`): an
        executor that judges where they run may make it ready there once (the pool's template,
        `PoolExecutor.will_judge`). Nothing here."""

    def finished(self, request: ExecutionRequest, trace: Trace) -> Trace:
        """The trace as it leaves the executor: what the run's end means said in its meta, and
        every known secret masked."""
        meta = {**trace.meta, "executor": self.kind}
        end = trace.termination
        if request.scenario.max_turns is not None and end is not None and end.reason == "max_turns" \
                and APP_BOUND not in meta:
            # the user's bound, not the app's: a message limit (an AG2 group's max_round,
            # AgentChat's MaxMessageTermination) is always the app's, and an adapter that saw
            # the app's or its framework's own turn bound stop the run says so (`APP_BOUND`)
            meta[USER_BOUND] = request.scenario.max_turns
        hung = running_tool(trace.events) if end is not None and end.reason == "timeout" else None
        if hung is not None and any(f.tool == hung.tool and f.mode == "timeout" for f in request.scenario.faults):
            # the injected fault itself: masfuzz made the tool hang until its own time limit
            meta.setdefault(HARNESS_CAUSE, f"masfuzz made {hung.tool} hang (--fault {hung.tool}=timeout) "
                                           "until its time limit ended the run: the injected fault, "
                                           "not the app's doing")
        return redact_trace(trace.model_copy(update={"meta": meta}))

    async def call(self, step: Awaitable[Any]) -> Any:
        """A request of another kind than an execution (FLARE's model-backed reading of one:
        behaviour mapping, the failure and judge agents): it takes one of the same slots, so
        `concurrency` bounds what runs at once of both kinds. Its model calls go through the
        same client and its `max_connections`, as the proxied calls of the workers' runs do."""
        async with self._semaphore():
            return await step

    @abstractmethod
    async def _execute(self, request: ExecutionRequest) -> Trace:
        """One request, already holding a concurrency slot."""

    async def run_many(
        self,
        target: Target | str,
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

    async def aclose(self) -> None:
        """Release what the executor holds (worker processes); it may be used again after."""
