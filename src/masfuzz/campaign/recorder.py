"""The recorder: every execution of a campaign goes to the store the moment it completes.

It records the trace, the coverage items it exercised (the contexts) and the failures the
deterministic detectors find in it, the first execution of each failure fingerprint staying its
reproducer unless a stronger witness of the same fault comes: one the app alone is to blame for
where the first was set aside as the harness's, or one without any fault masfuzz injected where
the first had one (a fault re-run of `run`'s structural phase or a fuzzing mutant): a user should
reproduce a defect without masfuzz's faults when some run showed it so. It is also what makes a campaign resumable and duplicate-free: a scenario already
executed in this run (scenario ids are content hashes) is answered from the store, never run
again, and the store refuses a second row for the same (run, scenario).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from masfuzz.coverage.base import CoverageMap
from masfuzz.oracles.failure import Failure, merge
from masfuzz.oracles.portable import PortableJudge
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.store.db import RunStore
from masfuzz.trace import Trace


@dataclass(frozen=True)
class Outcome:
    """One execution as a phase sees it."""

    scenario: Scenario
    trace: Trace
    execution_id: int | None
    gain: frozenset[str]  # coverage items no earlier execution of the campaign exercised
    failures: tuple[Failure, ...] = ()  # failures first seen in this execution
    reused: bool = False  # answered from the store (a resumed run)


Detectors = Callable[[Trace], list[Failure]]


@dataclass
class Recorder:
    store: RunStore | None
    run_id: int | None
    coverage: CoverageMap
    spec: WorkflowSpec | None = None
    # The deterministic oracles every execution goes through (FLARE's spec-aware ones in a fuzzing
    # run); by default the workflow's detectors. A `PortableJudge` may be run where the execution
    # ran (`Campaign._run`); any other function is run here.
    detectors: Detectors | None = None
    executed: int = 0  # executions this invocation ran
    reused: int = 0  # executions this invocation answered from the store
    _done: dict[str, tuple[int | None, Trace]] = field(default_factory=dict)
    _known: dict[str, Failure] = field(default_factory=dict)  # the run's failures by fingerprint
    _fresh: list[tuple[Scenario, Trace]] = field(default_factory=list)
    _items: dict[str, set[str]] = field(default_factory=dict)  # scenario id -> stored items
    _pending_replay: set[str] = field(default_factory=set)  # stored, not yet asked for again
    _first_seen: dict[str, list[Failure]] = field(default_factory=dict)  # scenario -> failures
    _faulted: set[str] = field(default_factory=set)  # scenarios that ran with an injected fault
    # failures of the run so far by attribution (sut: the app's; harness, settings: set aside)
    failures_by: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.detectors is None:  # as data: a worker can judge with it (`Executor.judged`)
            self.detectors = PortableJudge("workflow", self.spec)
        if self.store is None or self.run_id is None:
            return
        stored = self.store.coverage_items(self.run_id)
        for eid, scenario, trace in self.store.executions(self.run_id):
            self._done[scenario.id] = (eid, trace)
            self._note_faults(scenario)
            self._items[scenario.id] = set()
        for item, scenario_ids in stored.items():
            for sid in scenario_ids:
                self._items.setdefault(sid, set()).add(item)
        # Stored executions enter the coverage map when the resumed phase asks for them again,
        # in its order (see `stored`), so each gain is what it was in the uninterrupted run. What
        # a phase never asks for again still counts as covered before anything new runs.
        self._pending_replay = set(self._done)
        for stored_failure in self.store.failures(self.run_id):
            failure = self.store.blamed(stored_failure)
            self._known[failure.fingerprint] = failure
            self._first_seen.setdefault(failure.scenario_id, []).append(failure)
            self._count(failure)

    @property
    def recorded(self) -> int:
        """Executions in the run so far, resumed ones included."""
        return len(self._done)

    def traces_this_invocation(self) -> list[tuple[Scenario, Trace]]:
        return list(self._fresh)

    def stored(self, scenario: Scenario) -> Outcome | None:
        hit = self._done.get(scenario.id)
        if hit is None:
            return None
        self.reused += 1
        eid, trace = hit
        gain = self.coverage.add(self._items.get(scenario.id, ()))
        self._pending_replay.discard(scenario.id)
        # the failures it was the first to show, as when it ran: a resumed phase sees the same
        return Outcome(scenario, trace, eid, gain, tuple(self._first_seen.get(scenario.id, ())),
                       reused=True)

    def expected_seconds(self, scenario: Scenario) -> float:
        """How long `scenario` is likely to run: its parent's recorded wall time (a mutant runs
        much like the seed it was made from), or infinity when no parent ran (a seed, a new
        input): the unknown goes first, as longest-processing-time-first scheduling wants."""
        parent = self._done.get(scenario.provenance.parent or "")
        return parent[1].usage.wall_time if parent is not None else float("inf")

    def unsettled(self) -> set[str]:
        """Items of stored executions no phase asked for again yet, not in the coverage map:
        covered all the same (see `settle_replay`)."""
        items = {i for sid in self._pending_replay for i in self._items.get(sid, ())}
        return items - self.coverage.seen

    def _count(self, failure: Failure) -> None:
        self.count_attribution(failure.attribution)

    def count_attribution(self, attribution: str) -> None:
        """One more finding of the run, by whom it is caused (a tool's, which is not a trace's,
        is counted here too, so the progress counts every phase's)."""
        self.failures_by[attribution] = self.failures_by.get(attribution, 0) + 1

    def settle_replay(self) -> None:
        """Count every stored execution no phase asked for again (a phase that changed)."""
        for sid in sorted(self._pending_replay):
            self.coverage.add(self._items.get(sid, ()))
        self._pending_replay.clear()

    def add_items(self, outcome: Outcome, items: Iterable[str]) -> frozenset[str]:
        """Coverage items a judgement added to an execution after it was recorded (the tester
        model's behaviour mapping): stored as its contexts too; returns what is new."""
        items = set(items) - self._items.get(outcome.scenario.id, set())
        if not items:
            return frozenset()
        self._items.setdefault(outcome.scenario.id, set()).update(items)
        if self.store is not None and outcome.execution_id is not None:
            self.store.add_contexts(outcome.execution_id, sorted(items))
        return self.coverage.add(items)

    def _note_faults(self, scenario: Scenario) -> None:
        if scenario.faults:
            self._faulted.add(scenario.id)

    def _strength(self, failure: Failure) -> tuple[bool, bool]:
        """How well a finding witnesses its fault: the app's own over one set aside as the
        harness's, then one of a run without an injected fault over one with."""
        return failure.attribution == "sut", failure.scenario_id not in self._faulted

    def _rewitness(self, outcome: Outcome, known: Failure, failure: Failure) -> None:
        """`failure`, a stronger witness of `known`'s fault, becomes its reproducer."""
        failure = failure.model_copy(update={
            "scenario_id": outcome.scenario.id,
            "found_by": tuple(dict.fromkeys((*failure.oracles, *known.oracles)))})
        self._known[failure.fingerprint] = failure
        self.failures_by[known.attribution] -= 1
        self._count(failure)
        if self.store is not None and self.run_id is not None:
            self.store.replace_reproducer(self.run_id, outcome.execution_id, failure, outcome.scenario.id)

    def add_failures(self, outcome: Outcome, failures: Iterable[Failure]) -> list[Failure]:
        """Failures a later oracle (the failure and judge agents) found in a recorded execution;
        returns those whose fingerprint is new to the run. One the run has already is the same
        fault found again: the stored one says this oracle found it too (`merge`), or, when
        this one witnesses it better (`_strength`), this one becomes its reproducer."""
        fresh = []
        for failure in failures:
            known = self._known.get(failure.fingerprint)
            if known is not None and self._strength(
                    failure.model_copy(update={"scenario_id": outcome.scenario.id})) > self._strength(known):
                self._rewitness(outcome, known, failure)
                continue
            if known is not None:
                merged = merge(known, failure)
                if merged != known:
                    self._known[failure.fingerprint] = merged
                    if self.store is not None and self.run_id is not None:
                        self.store.update_failure(self.run_id, merged)
                continue
            self._known[failure.fingerprint] = failure
            self._count(failure)
            fresh.append(failure)
            if self.store is not None and self.run_id is not None:
                self.store.record_failure(self.run_id, outcome.execution_id, failure,
                                          outcome.scenario.id)
        return fresh

    def findings(self, scenario: Scenario, trace: Trace) -> list[Failure]:
        """What the deterministic detectors find in one execution of `scenario`, before it is
        recorded (its proposals may go to the judge agent first: `Campaign.confirm`)."""
        return self.detectors(_of(trace, scenario))

    def record(self, scenario: Scenario, trace: Trace, found: list[Failure] | None = None,
               notes: Iterable[str] = ()) -> Outcome:
        """Store one execution with its findings (`found`, as decided; default: the detectors'
        own) and the notes on proposals the judge rejected, which are no failures."""
        trace = _of(trace, scenario)
        self.settle_replay()  # something new runs: all that was stored is covered before it
        items = self.coverage.items(trace)
        eid = None
        if self.store is not None and self.run_id is not None:
            eid = self.store.record_execution(self.run_id, scenario, trace, sorted(items),
                                              seq=len(self._done))
            for note in notes:
                self.store.record_note(self.run_id, eid, scenario.id, note)
        self._done[scenario.id] = (eid, trace)
        self._note_faults(scenario)
        self._items[scenario.id] = set(items)
        self._fresh.append((scenario, trace))
        self.executed += 1
        outcome = Outcome(scenario, trace, eid, self.coverage.add(items))
        # the first scenario that showed a failure stays its reproducer (or a stronger witness)
        fresh = self.add_failures(outcome, self.detectors(trace) if found is None else found)
        return Outcome(scenario, trace, eid, outcome.gain, tuple(fresh))


def _of(trace: Trace, scenario: Scenario) -> Trace:
    """The trace as the execution of `scenario`: the same object when it says so already (an
    executor's trace does), so the store writes the JSON the executor's redaction made of it
    (`redact.trace_json`) instead of dumping and searching a copy again."""
    if trace.scenario_id == scenario.id:
        return trace
    return trace.model_copy(update={"scenario_id": scenario.id})
