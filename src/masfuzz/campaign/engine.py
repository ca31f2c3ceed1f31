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

Phases share the budget (`masfuzz.campaign.budget.share_limits`, a phase's `share`; an execution
under way when its phase's wall-time share ends is finished within the whole budget), and no phase
ends silently: each leaves a `PhaseResult` (done, stopped by the budget, not run and why, or
failed; the executions it ran, the failures and the obligations it was first to find), which the
run's summary and every report show.

A limited budget is spent, not just respected: when every phase has run and some of the budget
is left, the phases that can do more of their work (`go_on()`: FLARE's further rounds, further
refine attempts on the objectives the structural phase has not met) go on, in order, sharing
what is left, pass after pass, until the budget is spent or a pass executes nothing. A phase's
first pass is sized by its own options (`--rounds`, `--attempts`); an unlimited budget runs each
phase once. A phase that cannot run says why by
raising `PhaseNotRun` (no seed, no sandbox); one that breaks on masfuzz's own error (any exception
but bad input, a `MasfuzzError`) is recorded as failed and the next phase runs; one that ran but
left some of its work undone for masfuzz's own reasons lists it in its `problems`.

The lease on the run is the invocation's (`campaign.session.open_campaign` claims, renews and
releases it), not the engine's.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from masfuzz.campaign.budget import PARTS, Budget, BudgetExhausted, share_limits
from masfuzz.campaign.recorder import Detectors, Outcome, Recorder
from masfuzz.campaign.status import Criterion, Status
from masfuzz.coverage.base import CoverageMap, CoverageModel
from masfuzz.coverage.structural import CriterionTally
from masfuzz.errors import MasfuzzError
from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.oracles.failure import Failure, undecided
from masfuzz.oracles.portable import PortableJudge
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.store.db import RunStore

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
    # masfuzz.campaign.budget.PARTS): all of them when it does not; and it may go on when the
    # budget is left after every phase (`go_on()`: sets up more of its work and says whether
    # there is any; its next `run` then does it).

    async def run(self, campaign: "Campaign") -> None:
        """Propose scenarios through `campaign.execute` until done; may raise BudgetExhausted."""
        ...


def _spends(phase: Phase) -> tuple[str, ...]:
    return tuple(getattr(phase, "spends", PARTS))


def _share(phase: Phase) -> float:
    """A phase's weight in the budget's shares (`share`, 1 when it does not say)."""
    return float(getattr(phase, "share", 1.0))


Confirm = Callable[[Any, list[Failure]], Awaitable[tuple[list[Failure], list[str]]]]


class PhaseNotRun(Exception):
    """Raised by a phase that cannot run (why: no seed, no sandbox): the campaign goes on."""


@dataclass(frozen=True)
class PhaseResult:
    """How one phase of a campaign ended: `done`, `stopped` (by the budget or by its share of
    it), `not run` (the budget was spent before it, or it could not run), or `failed`
    (masfuzz's own error, or work of it left undone for masfuzz's own reasons: `problems`)."""

    phase: str
    status: str
    reason: str = ""
    problems: tuple[str, ...] = ()
    executions: int = 0  # executions it ran (answered from the store included)
    failures: int = 0  # the system's failures it was the first to find
    met: int = 0  # obligations (C1..C4) it was the first to witness
    passes: int = 1  # 2 and more: it went on with the budget left after every phase

    def as_dict(self) -> dict[str, Any]:
        return {"phase": self.phase, "status": self.status, "reason": self.reason,
                "problems": list(self.problems), "executions": self.executions,
                "failures": self.failures, "met": self.met, "passes": self.passes}

    def then(self, later: "PhaseResult") -> "PhaseResult":
        """This phase's result after it went on once more (`later`): the counts of both, how
        the later pass ended."""
        return PhaseResult(self.phase, later.status, later.reason, self.problems + later.problems,
                           self.executions + later.executions, self.failures + later.failures,
                           self.met + later.met, self.passes + later.passes)


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
    stop_reason: str | None = None  # set when the budget ended the campaign
    detectors: Detectors | None = None  # the deterministic oracles (default: the workflow's)
    # The judge agent's decision on the detectors' proposals of one execution, before anything
    # of it is stored (`masfuzz.fuzz.failure_agents.confirm_proposals` under the command's
    # tester): (trace, failures) -> (failures decided, notes on those it rejected). None: the
    # rules decide (`--no-judge`, or a command without a tester).
    confirm: Confirm | None = None
    results: list[PhaseResult] = field(default_factory=list)  # how each phase ended, in order
    # when the command began (`time.monotonic()`): its start-up (loading the system and its
    # models, the control check, FLARE's preparation) is spent of the wall-time budget too
    started: float | None = None

    def __post_init__(self) -> None:
        self.recorder = Recorder(self.store, self.run_id, CoverageMap(self.coverage), self.spec,
                                 self.detectors)
        self._t0 = time.monotonic() if self.started is None else self.started
        self.phase: str | None = None
        # coverage C1..C4 counted as the map gains it, over the obligations the report counts
        self._tally = CriterionTally(CoordinationGraph(self.spec).obligations())
        self.recorder.coverage.listeners.append(self._tally.add)
        self._sut = [0, 0, 0]  # model calls, tokens in, tokens out of this invocation's runs
        self._limits: dict[str, float] = {}  # the running phase's share of the budget
        self._in_flight = 0  # executions started and not yet recorded (calls may overlap)
        if isinstance(self.recorder.detectors, PortableJudge):  # before any run: its workers
            will_judge = getattr(self.executor, "will_judge", None)  # may make it ready once
            if will_judge is not None:
                will_judge(self.recorder.detectors)

    # -- what phases call ----------------------------------------------------------------------
    async def execute(self, scenarios: Sequence[Scenario], *,
                      after: Awaitable[Any] | None = None) -> list[Outcome]:
        """Run scenarios (concurrently, as the executor allows) and record them in the given
        order. Scenarios already executed in this run are answered from the store. Raises
        BudgetExhausted, after recording what the budget allowed, when the budget runs out.

        Calls may overlap (FLARE's steady pace keeps one per free worker): an execution under
        way counts against the executions budget, so overlapping calls never run more than it
        allows; `after`, when given, is awaited before the first of these is recorded (the
        call made before this one, so records keep the order the calls were made in)."""
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
        left = self._executions_left()
        if exhausted is None and left is not None and left < len(pending):
            exhausted = self._why_executions()
        if exhausted is not None:
            pending = pending[:left or 0] if left else []
        self._in_flight += len(pending)
        unrecorded = set(pending)
        # Started longest expected first (the executor's slots are handed out in the order
        # tasks start): a batch lasts as long as its last execution, and starting the long ones
        # first keeps the workers busy to the end. Recording stays in submission order below,
        # so the order runs start in never changes a result.
        started = sorted(pending, key=lambda i: -self.recorder.expected_seconds(scenarios[i]))
        tasks = {i: asyncio.ensure_future(self._run(scenarios[i])) for i in started}
        try:
            for i in pending:  # record in submission order, whatever finished first
                ran = await self._within_budget(tasks[i])
                if after is not None:
                    await after
                    after = None
                if ran is None:
                    # The wall-time budget ran out with this run under way: it is abandoned,
                    # unrecorded (not a timeout of the system), and a resumed campaign runs it.
                    exhausted = self._exhausted() or f"wall time {self.budget.wall_time:g} s used"
                    break
                trace, judged = ran
                found, notes = await self._decided(scenarios[i], trace, judged)
                outcomes[i] = self.recorder.record(scenarios[i], trace, found, notes)
                unrecorded.discard(i)
                self._in_flight -= 1
                self._count_usage(trace)
                self._emit("execution")
        finally:
            self._in_flight -= len(unrecorded)
            for task in tasks.values():
                task.cancel()
        for i, sc in enumerate(scenarios):  # a scenario submitted twice gets one execution
            if i not in outcomes:
                twin = next((o for o in outcomes.values() if o.scenario.id == sc.id), None)
                if twin is not None:
                    outcomes[i] = twin
        if exhausted is not None:
            # what did run is handed over with the stop: the phase keeps it (an attempt judged)
            raise BudgetExhausted(exhausted, share=self._share_only(exhausted),
                                  outcomes=[outcomes.get(i) for i in range(len(scenarios))])
        return [outcomes[i] for i in range(len(scenarios))]

    async def _run(self, scenario: Scenario) -> tuple[Any, list[Failure] | None]:
        """One execution, and its detectors' findings when the executor judged it where it ran
        (`Executor.judged`: the pool's workers, while this process records the others); else
        None, and the recorder judges it here."""
        request = self.executor.request(self.target, scenario)
        judge = self.recorder.detectors
        if isinstance(judge, PortableJudge) and hasattr(self.executor, "judged"):
            return await self.executor.judged(request, judge)
        return await self.executor.execute(request), None

    async def _decided(self, scenario: Scenario, trace: Any,
                       judged: list[Failure] | None = None) -> tuple[list[Failure], list[str]]:
        """The execution's findings as they are to be stored: the detectors' (`judged`, when the
        executor ran them on this very trace), each proposal put to the judge (`confirm`)
        first. The judge's calls are the tester's, so the model-call budget counts them; with
        that budget spent, the wall-time budget ending during the call, or the call breaking,
        the rule decides the proposals and says why: a proposal is never lost, and the campaign
        goes on."""
        found = judged if judged is not None and trace.scenario_id == scenario.id \
            else self.recorder.findings(scenario, trace)
        if self.confirm is None or not any(f.for_the_judge for f in found):
            return found, []
        spent = self.budget_left(("model_calls",))
        if spent is not None:
            return undecided(found, f"budget: {spent}"), []
        step = self.confirm(trace.model_copy(update={"scenario_id": scenario.id}), found)
        left = self.time_left(whole=True)
        try:
            return await (step if left is None else asyncio.wait_for(step, left))
        except asyncio.TimeoutError:
            return undecided(found, f"wall time {self.budget.wall_time:g} s used during its call"), []
        except Exception as exc:  # masfuzz's or the model layer's own failure: said, not fatal
            return undecided(found, f"{type(exc).__name__}: {exc}"), []

    async def _within_budget(self, task: "asyncio.Future[Any]") -> Any:
        """The task's trace, or None when the wall-time budget ends first. A run under way when
        the running phase's share ends is finished within the whole budget: what it has done is
        paid for, and thrown away it is lost (in the demo, the run that had reached the FAQ
        agent's lookup, the first of C2, was abandoned with its last model call under way);
        the phase then stops at its next step, and the phases after it share what is left."""
        for left in (self.time_left(), self.time_left(whole=True)):
            if left is None:
                return await task
            try:
                return await asyncio.wait_for(asyncio.shield(task), left)
            except asyncio.TimeoutError:
                continue
        return None

    async def within_budget(self, step: Any) -> Any:
        """`step`'s result (a coroutine: a tester's proposal), or BudgetExhausted when the
        wall-time budget (of the running phase's share) ends first: a slow model's call must
        not outlast the budget (the demo's realizer call waited out its 600 s model timeout
        after the budget had ended). The step is cancelled: a local model stops generating."""
        left = self.time_left()
        if left is None:
            return await step
        try:
            return await asyncio.wait_for(step, left)
        except asyncio.TimeoutError:
            raise self.stop(self._exhausted() or f"wall time {self.budget.wall_time:g} s used") from None

    async def execute_one(self, scenario: Scenario) -> Any:
        """The trace of one scenario (what the refine loop's `execute` expects)."""
        return (await self.execute([scenario]))[0].trace

    def time_left(self, *, whole: bool = False) -> float | None:
        """Seconds of the wall-time budget (of the running phase's share, or the `whole`
        budget's) left (None: no wall-time budget)."""
        if self.budget.wall_time is None:
            return None
        share = self.budget.wall_time if whole else self._limits.get("wall_time", self.budget.wall_time)
        limit = min(self.budget.wall_time, share)
        return max(0.0, limit - self.elapsed)

    def budget_left(self, spends: tuple[str, ...] = PARTS) -> str | None:
        """Why the campaign may not go on spending the budget's parts `spends` (all of them by
        default), or None (phases may ask before proposing)."""
        return self._exhausted(spends)

    # -- the run -------------------------------------------------------------------------------
    async def run(self) -> "Campaign":
        try:
            for i, phase in enumerate(self.phases):
                await self._run_phase(phase, self.phases[i:])
            await self._go_on()
        finally:
            close = getattr(self.executor, "aclose", None)
            if close is not None:
                await close()
        self.phase = None
        self._emit("end")
        return self

    async def _go_on(self) -> None:
        """The budget left after every phase ran, spent by the phases that can do more (see
        the module's docstring): pass after pass, while a pass executes something."""
        if not self.budget.limited():
            return  # nothing says when to stop
        while self._exhausted() is None:
            ready = [p for p in self.phases if self._may_go_on(p)]
            if not ready:
                return
            before = self._ran()
            self.progress(f"budget left after every phase: {', '.join(p.name for p in ready)} go on")
            for i, phase in enumerate(ready):
                await self._run_phase(phase, ready[i:], again=True)
            if self._ran() == before:
                return  # a pass that executed nothing would be followed by another like it

    def _ran(self) -> int:
        """Executions this campaign has had: run now or answered from the store."""
        return self.recorder.recorded + self.recorder.reused

    def _may_go_on(self, phase: Phase) -> bool:
        """Did `phase` end well (done, or stopped by its share only), and has it more to do?"""
        result = next((r for r in self.results if r.phase == phase.name), None)
        if result is None or result.status not in ("done", "stopped"):
            return False
        if result.status == "stopped" and self.stop_reason is not None:
            return False  # the whole budget stopped it
        go_on = getattr(phase, "go_on", None)
        return go_on is not None and bool(go_on())

    async def _run_phase(self, phase: Phase, rest: Sequence[Phase], *, again: bool = False) -> None:
        """Run one phase within its share of the budget, and record how it ended (`again`: a
        further pass of a phase that ran, merged into its result)."""
        why = self.budget_left(_spends(phase))  # a part of the budget is spent: it ends the
        if why is not None:  # phases that spend that part
            self.stop_reason = self.stop_reason or why
            if not again:
                self.progress(f"budget: {why}; phase {phase.name} does not run")
                self.results.append(PhaseResult(phase.name, "not run", f"budget: {why}"))
            return
        self.phase = phase.name
        self._limits = share_limits(self.budget, self._used(),
                                    [(_spends(p), _share(p)) for p in rest])
        self.progress(f"phase {phase.name}" + (" goes on" if again else ""))
        start = (self._ran(), self.recorder.failures_by.get("sut", 0), sum(self._tally.covered.values()))
        self._emit("phase")
        status, reason = "done", ""
        try:
            await phase.run(self)
        except BudgetExhausted as stop:
            status, reason = "stopped", f"budget: {stop.reason}"
            if not stop.share:
                self.stop_reason = stop.reason
            self.progress(f"budget: {stop.reason}; phase {phase.name} stops here")
        except PhaseNotRun as why:
            status, reason = "not run", str(why)
            self.progress(f"phase {phase.name} does not run: {why}")
        except MasfuzzError:  # bad input or settings: the command's one line, exit 2
            raise
        except Exception as exc:  # masfuzz's own failure: said, and the next phase runs
            status, reason = "failed", f"masfuzz failed: {type(exc).__name__}: {exc}"
            self.progress(f"phase {phase.name} FAILED ({reason}); the campaign goes on")
        finally:
            self._limits = {}
        problems = tuple(getattr(phase, "problems", ()) or ())
        if problems and status != "failed":
            status = "failed"
            reason = "; ".join(filter(None, [reason, f"{len(problems)} part(s) not done: masfuzz failed"]))
        result = PhaseResult(phase.name, status, reason, () if again else problems,
                             self._ran() - start[0],
                             self.recorder.failures_by.get("sut", 0) - start[1],
                             sum(self._tally.covered.values()) - start[2])
        if again:
            i = next(i for i, r in enumerate(self.results) if r.phase == phase.name)
            self.results[i] = self.results[i].then(result)
        else:
            self.results.append(result)
        self.progress(f"{phase.name} {status}: {result.executions} execution(s), {result.failures} "
                      f"new failure(s), {result.met} obligation(s) met first")

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
            cost=usage.cost, stop_reason=self.stop_reason,
            not_done=tuple((r.phase, r.status) for r in self.results if r.status != "done"))

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

    def _used(self) -> dict[str, float]:
        return {"wall_time": self.elapsed, "executions": self.recorder.recorded,
                "model_calls": self.tester_usage().calls}

    def _exhausted(self, spends: tuple[str, ...] = PARTS) -> str | None:
        used = self._used()
        why = self.budget.exhausted(elapsed=used["wall_time"], executions=int(used["executions"]),
                                    model_calls=int(used["model_calls"]), spends=spends)
        if why is not None:
            return why
        for part, limit in self._limits.items():  # the running phase's share
            if part in spends and used[part] >= limit:
                return self._share_spent(part)
        return None

    def _share_spent(self, part: str) -> str:
        limit = self._limits[part]
        words = (f"{limit:.1f} s of wall time" if part == "wall_time" else
                 f"{int(limit)} {'executions' if part == 'executions' else 'tester model calls'}")
        return f"phase {self.phase}'s share of the budget used ({words})"

    def _share_only(self, why: str) -> bool:
        return why.startswith(f"phase {self.phase}'s share")

    def stop(self, why: str) -> BudgetExhausted:
        """The exception a phase raises to stop for `why` (from `budget_left`)."""
        return BudgetExhausted(why, share=self._share_only(why))

    def _executions_left(self) -> int | None:
        used = self.recorder.recorded + self._in_flight
        left = self.budget.executions_left(used)
        if "executions" in self._limits:
            share = max(0, int(self._limits["executions"]) - used)
            left = share if left is None else min(left, share)
        return left

    def _why_executions(self) -> str:
        # executions under way count as spent, as `_executions_left` counts them: the seeds of
        # FLARE run beside its first mutants, and the one that took the last execution left
        # the whole budget spent, not only the phase's share
        whole = self.budget.executions_left(self.recorder.recorded + self._in_flight)
        if "executions" in self._limits and (whole is None or self._executions_left() < whole):
            return self._share_spent("executions")
        return f"{self.budget.executions} executions done"

