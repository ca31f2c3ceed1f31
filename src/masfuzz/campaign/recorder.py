"""The recorder: every execution of a campaign goes to the store the moment it completes.

It records the trace, the coverage items it exercised (the contexts) and the failures the
deterministic detectors find in it, the first execution of each failure fingerprint staying its
reproducer. It is also what makes a campaign resumable and duplicate-free: a scenario already
executed in this run (scenario ids are content hashes) is answered from the store, never run
again, and the store refuses a second row for the same (run, scenario).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from masfuzz.coverage.base import CoverageMap
from masfuzz.oracles import detect
from masfuzz.oracles.failure import Failure
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


@dataclass
class Recorder:
    store: RunStore | None
    run_id: int | None
    coverage: CoverageMap
    spec: WorkflowSpec | None = None
    executed: int = 0  # executions this invocation ran
    reused: int = 0  # executions this invocation answered from the store
    _done: dict[str, tuple[int | None, Trace]] = field(default_factory=dict)
    _fingerprints: set[str] = field(default_factory=set)
    _fresh: list[tuple[Scenario, Trace]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.store is None or self.run_id is None:
            return
        for eid, scenario, trace in self.store.executions(self.run_id):
            self._done[scenario.id] = (eid, trace)
            self.coverage.add(self.coverage.items(trace))
        self._fingerprints = {f.fingerprint for f in self.store.failures(self.run_id)}

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
        return Outcome(scenario, trace, eid, frozenset(), (), reused=True)

    def record(self, scenario: Scenario, trace: Trace) -> Outcome:
        trace = trace.model_copy(update={"scenario_id": scenario.id})
        items = self.coverage.items(trace)
        eid = None
        if self.store is not None and self.run_id is not None:
            eid = self.store.record_execution(self.run_id, scenario, trace, sorted(items),
                                              seq=len(self._done))
        self._done[scenario.id] = (eid, trace)
        self._fresh.append((scenario, trace))
        self.executed += 1
        fresh = []
        for failure in detect(trace, self.spec):
            if failure.fingerprint in self._fingerprints:
                continue  # the first scenario that showed it stays its reproducer
            self._fingerprints.add(failure.fingerprint)
            fresh.append(failure)
            if self.store is not None and self.run_id is not None:
                self.store.record_failure(self.run_id, eid, failure, scenario.id)
        return Outcome(scenario, trace, eid, self.coverage.add(items), tuple(fresh))
