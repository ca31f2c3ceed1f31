"""Coverage-driven structural test generation end to end (`masfuzz cover`).

spec -> graph -> obligations -> objectives (R1–R4) -> bundles -> per-bundle refine loop ->
suite + coverage. Every execution is written to the run store as it happens, with the
obligations its trace witnessed (the coverage contexts) and the failures the deterministic
detectors found in it (the first execution of each fingerprint is kept as its reproducer). Re-running the same command resumes:
a scenario already executed in the unfinished run is not executed again, its stored trace is used.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from masfuzz.coverage.structural import StructuralCoverage, observe
from masfuzz.generate.leaks import forbidden_identifiers
from masfuzz.generate.objectives import Bundle, bundle, objectives
from masfuzz.generate.realizer import Realizer, lift_inputs
from masfuzz.generate.refine import Realization, realize, scenario_factory
from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.graph.obligations import CRITERIA, Obligation, ObligationSpace
from masfuzz.oracles import detect
from masfuzz.scenario import Fault, Provenance, Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.store.db import RunStore
from masfuzz.trace import Trace

Execute = Callable[[Scenario], Awaitable[Trace]]


@dataclass
class FaultRun:
    bundle: str
    tool: str
    agent: str
    mode: str
    scenario: Scenario
    trace: Trace
    holds: bool
    reasons: list[str]


@dataclass
class CoverResult:
    space: ObligationSpace
    bundles: list[Bundle]
    objectives: int
    realizations: list[Realization]
    coverage: StructuralCoverage
    fault_runs: list[FaultRun] = field(default_factory=list)
    tester_calls: int = 0
    wall_time: float = 0.0
    run_id: int | None = None
    executed: int = 0  # scenarios run by this invocation
    reused: int = 0  # scenarios answered from the store (a resumed run)
    # Failures found by the detectors, one per fingerprint, with the reproducing scenario's input.
    failures: list[dict[str, Any]] = field(default_factory=list)

    @property
    def realized(self) -> list[Realization]:
        return [r for r in self.realizations if r.passed]

    @property
    def unrealized(self) -> list[Realization]:
        return [r for r in self.realizations if not r.passed]

    def calls_per_obligation(self) -> float:
        return self.tester_calls / len(self.space) if len(self.space) else 0.0


class StoredExecutor:
    """Executes scenarios through `execute`, recording each in the run store with the failures
    the detectors find in it, and answers a scenario already executed in this run from the store
    (what makes a campaign resumable)."""

    def __init__(self, execute: Execute, store: RunStore | None, run_id: int | None,
                 space: ObligationSpace, spec: WorkflowSpec | None = None) -> None:
        self._execute, self.store, self.run_id, self.space = execute, store, run_id, space
        self.spec = spec
        self._done: dict[str, Trace] = {}
        self.executed = 0
        self.reused = 0
        self.failures: list[dict[str, Any]] = []
        if store is not None and run_id is not None:
            self._done = {s.id: t for _, s, t in store.executions(run_id)}
            self.failures = store.failures(run_id)

    async def __call__(self, scenario: Scenario) -> Trace:
        if scenario.id in self._done:
            self.reused += 1
            return self._done[scenario.id]
        trace = await self._execute(scenario)
        trace = trace.model_copy(update={"scenario_id": scenario.id})
        self.executed += 1
        self._done[scenario.id] = trace
        eid = None
        if self.store is not None and self.run_id is not None:
            eid = self.store.record_execution(self.run_id, scenario, trace,
                                              witnessed_ids(trace, self.space))
        self._record_failures(scenario, trace, eid)
        return trace

    def _record_failures(self, scenario: Scenario, trace: Trace, eid: int | None) -> None:
        known = {f["fingerprint"] for f in self.failures}
        for failure in detect(trace, self.spec):
            if failure.fingerprint in known:
                continue  # the first scenario that showed it stays its reproducer
            known.add(failure.fingerprint)
            body = {**failure.model_dump(mode="json"), "input": scenario.input}
            if self.store is not None and self.run_id is not None:
                self.store.record_failure(self.run_id, eid, failure.fingerprint, failure.category,
                                          failure.root_cause, body)
            self.failures.append({"execution_id": eid, **body})


def witnessed_ids(trace: Trace, space: ObligationSpace) -> list[str]:
    obs = observe(trace)
    return [Obligation(s.kind, tuple(k)).id for s in space.sets() for k in obs.keys(s.kind)
            if tuple(k) in s]


async def cover(spec, realizer: Realizer, execute: Execute, *, sut_model: str | None,
                attempts: int = 5, merge: bool = True, path_aware: bool = True,
                fault_modes: tuple[str, ...] = (), seed: int | None = None,
                max_turns: int | None = None, timeout: float | None = None,
                store: RunStore | None = None, run_id: int | None = None,
                tester_calls: Callable[[], int] | None = None,
                progress: Callable[[str], None] | None = None,
                criteria: tuple[str, ...] = ("C1", "C2", "C3", "C4")) -> CoverResult:
    t0 = time.perf_counter()
    graph = CoordinationGraph(spec)
    space = graph.obligations()
    kinds = tuple(k for k, c in CRITERIA.items() if c in criteria)
    objs = objectives(space, kinds)
    bundles = bundle(objs, merge=merge)
    forbidden = forbidden_identifiers(spec)
    runner = StoredExecutor(execute, store, run_id, space, spec)
    make = scenario_factory(sut_model, seed=seed, max_turns=max_turns, timeout=timeout)
    realizations: list[Realization] = []
    for b in bundles:
        inputs = lift_inputs(b, spec, graph, forbidden, path_aware=path_aware)
        r = await realize(b, inputs, realizer, runner, make, attempts=attempts)
        realizations.append(r)
        if progress:
            status = "witnessed" if r.passed else "unrealized"
            progress(f"{b}: {status} after {len(r.attempts)} attempt(s)")
    coverage = StructuralCoverage(space)
    for r in realizations:
        for a in r.attempts:
            if a.trace is not None:
                coverage.add(a.trace, a.scenario.id if a.scenario else None)
    result = CoverResult(space, bundles, len(objs), realizations, coverage, run_id=run_id)
    if fault_modes:
        result.fault_runs = await fault_reruns(result, runner, fault_modes)
    result.tester_calls = tester_calls() if tester_calls else sum(r.model_calls for r in realizations)
    result.wall_time = time.perf_counter() - t0
    result.executed, result.reused = runner.executed, runner.reused
    result.failures = runner.failures
    return result


async def fault_reruns(result: CoverResult, execute: Execute, modes: tuple[str, ...]) -> list[FaultRun]:
    """§IV-G: re-run each witnessed allowed-tool scenario with a fault in its tool and check the
    mechanical robustness witness W^F1."""
    from masfuzz.adapters.faults import robustness_witness

    runs = []
    for r in result.realized:
        ob = r.bundle.driver.obligation
        if ob.kind != "use_tool" or r.accepted is None or r.accepted.scenario is None:
            continue
        agent, tool = ob.endpoints
        for mode in modes:
            base = r.accepted.scenario
            sc = base.model_copy(update={
                "faults": (Fault(tool=tool, mode=mode),),  # type: ignore[arg-type]
                "provenance": Provenance(source=f"fault:{mode}", parent=base.id,
                                         seed=base.provenance.seed),
            })
            trace = await execute(sc)
            verdict = robustness_witness(trace, agent=agent, tool=tool)
            runs.append(FaultRun(r.bundle.id, tool, agent, mode, sc, trace,
                                 bool(verdict.holds), list(verdict.reasons)))
    return runs
