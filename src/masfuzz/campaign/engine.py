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

The campaign owns its numbers: `snapshot()` is a `Status` (executions against the budget,
coverage C1..C4, failures, model calls, tokens, cost, elapsed time and ETA), handed to the
`status` callback after every recorded execution, at every phase change and at the end. The
`progress` callback receives the campaign's lines of text (a phase starts, the budget ends it).
Neither may break the campaign: a callback that raises is dropped, with one line saying so.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from masfuzz.campaign.budget import PARTS, Budget, BudgetExhausted
from masfuzz.campaign.recorder import Detectors, Outcome, Recorder
from masfuzz.campaign.status import Criterion, Status
from masfuzz.coverage.base import CoverageMap, CoverageModel
from masfuzz.coverage.structural import CriterionTally
from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.store.db import RunStore

LEASE_TTL = 30.0  # seconds a run's lease lasts without renewal (a killed campaign frees it)


@dataclass(frozen=True)
class _NoUsage:
    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost: float | None = None


NO_USAGE = _NoUsage()  # a campaign told nothing of its tester's usage


class Phase(Protocol):
    name: str
    # A phase may also say which parts of the budget it spends (`spends`, a tuple of
    # masfuzz.campaign.budget.PARTS): all of them when it does not.

    async def run(self, campaign: "Campaign") -> None:
        """Propose scenarios through `campaign.execute` until done; may raise BudgetExhausted."""
        ...


def _spends(phase: Phase) -> tuple[str, ...]:
    return tuple(getattr(phase, "spends", PARTS))


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
    # The tester's usage so far (calls, tokens_in, tokens_out, cost: a model ledger's total);
    # its calls are what a model-call budget counts.
    tester_usage: Callable[[], Any] = lambda: NO_USAGE
    status: Callable[[Status], None] | None = None  # the numbers, as they change
    lease_owner: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}")
    stop_reason: str | None = None  # set when the budget ended the campaign
    detectors: Detectors | None = None  # the deterministic oracles (default: the workflow's)

    def __post_init__(self) -> None:
        self.recorder = Recorder(self.store, self.run_id, CoverageMap(self.coverage), self.spec,
                                 self.detectors)
        self._t0 = time.monotonic()
        self._renewed = self._t0
        self.phase: str | None = None
        # coverage C1..C4 counted as the map gains it, over the obligations the report counts
        self._tally = CriterionTally(CoordinationGraph(self.spec).obligations())
        self.recorder.coverage.listeners.append(self._tally.add)
        self._sut = [0, 0, 0]  # model calls, tokens in, tokens out of this invocation's runs

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
        if outcomes:
            self._emit("execution")
        exhausted = self._exhausted()
        left = self.budget.executions_left(self.recorder.recorded)
        if exhausted is None and left is not None and left < len(pending):
            exhausted = f"{self.budget.executions} executions done"
        if exhausted is not None:
            pending = pending[:left or 0] if left else []
        # Started longest expected first (the executor's slots are handed out in the order
        # tasks start): a batch lasts as long as its last execution, and starting the long ones
        # first keeps the workers busy to the end. Recording stays in submission order below,
        # so the order runs start in never changes a result.
        started = sorted(pending, key=lambda i: -self.recorder.expected_seconds(scenarios[i]))
        tasks = {i: asyncio.ensure_future(self.executor.execute(
            self.executor.request(self.target, scenarios[i]))) for i in started}
        try:
            for i in pending:  # record in submission order, whatever finished first
                trace = await self._within_budget(tasks[i])
                if trace is None:
                    # The wall-time budget ran out with this run under way: it is abandoned,
                    # unrecorded (not a timeout of the system), and a resumed campaign runs it.
                    exhausted = f"wall time {self.budget.wall_time:g} s used"
                    break
                outcomes[i] = self.recorder.record(scenarios[i], trace)
                self._count_usage(trace)
                self.renew_lease()
                self._emit("execution")
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

    def budget_left(self, spends: tuple[str, ...] = PARTS) -> str | None:
        """Why the campaign may not go on spending the budget's parts `spends` (all of them by
        default), or None (phases may ask before proposing)."""
        return self._exhausted(spends)

    # -- the run -------------------------------------------------------------------------------
    async def run(self) -> "Campaign":
        try:
            for phase in self.phases:
                if self.stop_reason is not None:  # a part of the budget is spent: it ends the
                    why = self.budget_left(_spends(phase))  # phases that spend that part
                    if why is not None:
                        self.progress(f"budget: {why}; phase {phase.name} does not run")
                        continue
                self.phase = phase.name
                self.progress(f"phase {phase.name}")
                self._emit("phase")
                try:
                    await phase.run(self)
                except BudgetExhausted as stop:
                    self.stop_reason = stop.reason
                    self.progress(f"budget: {stop.reason}; phase {phase.name} stops here")
        finally:
            close = getattr(self.executor, "aclose", None)
            if close is not None:
                await close()
        self._emit("end")
        return self

    # -- the numbers ---------------------------------------------------------------------------
    def snapshot(self, event: str = "execution") -> Status:
        """The campaign's numbers now (see `Status`)."""
        usage = self.tester_usage()
        # stored executions no phase asked for again count as covered, as the report counts them
        counts = self._tally.counts(also=self.recorder.unsettled())
        failures = self.recorder.failures_by
        return Status(
            event=event, phase=self.phase, executions=self.recorder.recorded,
            executed=self.recorder.executed, reused=self.recorder.reused, budget=self.budget,
            elapsed=self.elapsed,
            criteria=tuple(Criterion(c, *counts[c]) for c in sorted(counts)),
            failures=failures.get("sut", 0),
            set_aside=sum(n for who, n in failures.items() if who != "sut"),
            tester_calls=usage.calls, sut_calls=self._sut[0],
            tokens_in=usage.tokens_in + self._sut[1], tokens_out=usage.tokens_out + self._sut[2],
            cost=usage.cost, stop_reason=self.stop_reason)

    def _emit(self, event: str) -> None:
        if self.status is None:
            return
        try:
            self.status(self.snapshot(event))
        except Exception as exc:  # a display must never break a campaign
            self.status = None
            self.progress(f"progress display stopped: {type(exc).__name__}: {exc}")

    def _count_usage(self, trace: Any) -> None:
        usage = getattr(trace, "usage", None)
        if usage is not None:
            self._sut[0] += usage.model_calls
            self._sut[1] += usage.tokens_in
            self._sut[2] += usage.tokens_out

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self._t0

    def _exhausted(self, spends: tuple[str, ...] = PARTS) -> str | None:
        return self.budget.exhausted(elapsed=self.elapsed, executions=self.recorder.recorded,
                                     model_calls=self.tester_usage().calls, spends=spends)

    def renew_lease(self) -> None:
        """Keep this process's lease on the run (at most every LEASE_TTL/3 s); a phase whose
        work is not executions (tool fuzzing) calls it as it goes."""
        if self.store is None or self.run_id is None:
            return
        now = time.monotonic()
        if now - self._renewed >= LEASE_TTL / 3:
            self.store.renew_lease(self.run_id, self.lease_owner, LEASE_TTL)
            self._renewed = now
