"""`Campaign`: the one engine under every command that executes a system under test.

A campaign owns the run store and its run (claimed under a lease, so two processes never write
into one run), the seed, the budget, the executor and the progress line, and runs an ordered list
of phases. A phase is a strategy — structural generation, FLARE's fuzzing, tool fuzzing, replay
of known failures — that proposes scenarios through `campaign.execute(...)` and receives, for
each, an `Outcome`: the trace, its coverage gain and the failures first seen in it.

Scenarios submitted together run concurrently (the executor decides how many at once); their
outcomes are recorded in submission order, so a seed gives the same run whatever finishes first.
Every execution is in the store before its phase sees it, so a campaign killed at any moment
resumes by answering what was done from the store and executing only the rest.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from masfuzz.campaign.budget import Budget, BudgetExhausted
from masfuzz.campaign.recorder import Detectors, Outcome, Recorder
from masfuzz.coverage.base import CoverageMap, CoverageModel
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.store.db import RunStore

LEASE_TTL = 30.0  # seconds a run's lease lasts without renewal (a killed campaign frees it)


class Phase(Protocol):
    name: str

    async def run(self, campaign: "Campaign") -> None:
        """Propose scenarios through `campaign.execute` until done; may raise BudgetExhausted."""
        ...


class Executes(Protocol):
    async def execute(self, request: Any) -> Any: ...

    def request(self, target: Any, scenario: Scenario) -> Any: ...


@dataclass
class Campaign:
    target: Any  # masfuzz.target.Target
    spec: WorkflowSpec
    executor: Any  # a masfuzz.exec.Executor
    coverage: Sequence[CoverageModel]
    phases: Sequence[Phase] = ()
    store: RunStore | None = None
    run_id: int | None = None
    seed: int = 0
    budget: Budget = field(default_factory=Budget)
    progress: Callable[[str], None] = lambda msg: None
    tester_calls: Callable[[], int] = lambda: 0
    lease_owner: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}")
    stop_reason: str | None = None  # set when the budget ended the campaign
    detectors: Detectors | None = None  # the deterministic oracles (default: the workflow's)

    def __post_init__(self) -> None:
        self.recorder = Recorder(self.store, self.run_id, CoverageMap(self.coverage), self.spec,
                                 self.detectors)
        self._t0 = time.monotonic()
        self._renewed = self._t0

    # -- what phases call ----------------------------------------------------------------------
    async def execute(self, scenarios: Sequence[Scenario]) -> list[Outcome]:
        """Run scenarios (concurrently, as the executor allows) and record them in the given
        order. Scenarios already executed in this run are answered from the store. Raises
        BudgetExhausted, after recording what the budget allowed, when the budget runs out."""
        outcomes: dict[int, Outcome] = {}
        pending: list[int] = []
        for i, sc in enumerate(scenarios):
            hit = self.recorder.stored(sc)
            if hit is not None:
                outcomes[i] = hit
            elif sc.id not in {scenarios[j].id for j in pending}:
                pending.append(i)
        exhausted = self._exhausted()
        left = self.budget.executions_left(self.recorder.recorded)
        if exhausted is None and left is not None and left < len(pending):
            exhausted = f"{self.budget.executions} executions done"
        if exhausted is not None:
            pending = pending[:left or 0] if left else []
        tasks = {i: asyncio.ensure_future(self.executor.execute(
            self.executor.request(self.target, scenarios[i]))) for i in pending}
        try:
            for i in pending:  # record in submission order, whatever finished first
                trace = await self._within_budget(tasks[i])
                if trace is None:
                    # The wall-time budget ran out with this run under way: it is abandoned,
                    # unrecorded (not a timeout of the system), and a resumed campaign runs it.
                    exhausted = f"wall time {self.budget.wall_time:g} s used"
                    break
                outcomes[i] = self.recorder.record(scenarios[i], trace)
                self.renew_lease()
        finally:
            for task in tasks.values():
                task.cancel()
        for i, sc in enumerate(scenarios):  # a scenario submitted twice gets one execution
            if i not in outcomes:
                twin = next((o for o in outcomes.values() if o.scenario.id == sc.id), None)
                if twin is not None:
                    outcomes[i] = twin
        if exhausted is not None:
            raise BudgetExhausted(exhausted)
        return [outcomes[i] for i in range(len(scenarios))]

    async def _within_budget(self, task: "asyncio.Future[Any]") -> Any:
        """The task's trace, or None when the wall-time budget ends first."""
        left = self.time_left()
        if left is None:
            return await task
        try:
            return await asyncio.wait_for(asyncio.shield(task), left)
        except asyncio.TimeoutError:
            return None

    async def execute_one(self, scenario: Scenario) -> Any:
        """The trace of one scenario (what the refine loop's `execute` expects)."""
        return (await self.execute([scenario]))[0].trace

    def time_left(self) -> float | None:
        """Seconds of the wall-time budget left (None: no wall-time budget)."""
        if self.budget.wall_time is None:
            return None
        return max(0.0, self.budget.wall_time - self.elapsed)

    def budget_left(self) -> str | None:
        """Why the campaign may not go on, or None (phases may ask before proposing)."""
        return self._exhausted()

    # -- the run -------------------------------------------------------------------------------
    async def run(self) -> "Campaign":
        try:
            for phase in self.phases:
                self.progress(f"phase {phase.name}")
                await phase.run(self)
        except BudgetExhausted as stop:
            self.stop_reason = stop.reason
            self.progress(f"budget: {stop.reason}; the campaign stops here")
        finally:
            close = getattr(self.executor, "aclose", None)
            if close is not None:
                await close()
        return self

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self._t0

    def _exhausted(self) -> str | None:
        return self.budget.exhausted(elapsed=self.elapsed, executions=self.recorder.recorded,
                                     model_calls=self.tester_calls())

    def renew_lease(self) -> None:
        """Keep this process's lease on the run (at most every LEASE_TTL/3 s); a phase whose
        work is not executions (tool fuzzing) calls it as it goes."""
        if self.store is None or self.run_id is None:
            return
        now = time.monotonic()
        if now - self._renewed >= LEASE_TTL / 3:
            self.store.renew_lease(self.run_id, self.lease_owner, LEASE_TTL)
            self._renewed = now
