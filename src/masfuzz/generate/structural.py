"""Structural test generation as a campaign phase (structural-coverage Algorithm 1, §IV).

spec -> graph -> obligations -> objectives (R1–R4) -> bundles -> per-bundle refine loop, then
the fault re-runs of §IV-G. The bundles' loops go in rounds: each round proposes the next attempt
of every bundle still open and executes them together (as many at once as `--workers` allows). Each refine attempt and fault re-run is written to the run store as
soon as it is judged; a resumed run rebuilds every bundle's attempts from the store and goes on
from the first bundle that is not finished, so nothing is asked of the tester twice and nothing
is executed twice.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from masfuzz.campaign import BudgetExhausted, Campaign
from masfuzz.generate.leaks import forbidden_identifiers
from masfuzz.graph.objectives import Bundle, plan
from masfuzz.generate.realizer import Realizer, lift_inputs
from masfuzz.generate.refine import Attempt, Realization, Refinement, complete, judge, scenario_factory
from masfuzz.oracles.robustness import robustness_witness
from masfuzz.scenario import Fault, Provenance, Scenario



@dataclass
class StructuralPhase:
    realizer: Realizer
    sut_model: str | None
    attempts: int = 5
    merge: bool = True
    path_aware: bool = True
    fault_modes: tuple[str, ...] = ()
    criteria: tuple[str, ...] = ("C1", "C2", "C3", "C4")
    max_turns: int | None = None
    timeout: float | None = None
    # the user's stand-ins for the system's surroundings (`scenario.surroundings`), every run
    surroundings: dict[str, Any] = field(default_factory=dict)
    name: str = "structural"
    share: float = 2.0  # of the budget `masfuzz run` shares (`masfuzz.campaign.budget`)
    # the accepted scenario of each bundle witnessed: FLARE's seeds in `masfuzz run`
    witnessed: list[Scenario] = field(default_factory=list)
    unfinished: list[str] = field(default_factory=list)  # bundles the budget stopped mid-way
    _loops: list[Refinement] | None = field(default=None, init=False)  # set by the first pass
    _objectives: int = field(default=0, init=False)  # the objectives the first pass planned
    _said: set[int] = field(default_factory=set, init=False)  # bundles said to be finished
    _faulted: set[str] = field(default_factory=set, init=False)  # bundles whose faults re-ran

    def summary(self) -> dict[str, Any]:
        """The phase's part of the run's summary: what it decided, as its typed record (the
        report reads it: `masfuzz.report.records.StructuralRecord`), and the bundles whose
        attempts the budget cut short (the report says so rather than calling them unrealized)."""
        from masfuzz.report.records import PlannedBundle, StructuralRecord

        summary: dict[str, Any] = {"unfinished": list(self.unfinished)}
        if self._loops is not None:
            done = [r for r in (loop.realization() for loop in self._loops)
                    if r.passed and r.accepted is not None and r.accepted.scenario is not None]
            summary[StructuralRecord.KEY] = StructuralRecord(
                objectives=self._objectives,
                bundles=tuple(PlannedBundle(loop.bundle.id, str(loop.bundle), loop.bundle.obligation_ids)
                              for loop in self._loops),
                realized=tuple((r.bundle.id, r.accepted.scenario.id) for r in done),
                unfinished=tuple(self.unfinished)).to_data()
        return summary

    def go_on(self) -> bool:
        """One more attempt for each objective bundle not yet witnessed, for the campaign's
        next pass (the budget is left after every phase ran). A loop stopped for repeating
        itself, or whose tester failed, gets its attempt too: the next proposal is sampled
        with another seed."""
        if self._loops is None:
            return False
        more = False
        for loop in self._loops:
            if not loop.realization().passed:
                if loop.finished:
                    loop.one_more()
                more = True
        return more

    async def run(self, c: Campaign) -> None:
        make = scenario_factory(self.sut_model, seed=c.seed, max_turns=self.max_turns,
                                timeout=self.timeout, surroundings=self.surroundings)
        if self._loops is None:  # the first pass: every bundle's loop, after what is stored
            graph, objs, bundles = plan(c.spec, criteria=self.criteria, merge=self.merge)
            self._objectives = len(objs)
            forbidden = forbidden_identifiers(c.spec)
            stored = _stored_attempts(c)
            loops: list[Refinement] = []
            for b in bundles:
                prior = await _rebuild(c, b, stored.get(b.id, []))
                inputs = lift_inputs(b, c.spec, graph, forbidden, path_aware=self.path_aware)
                loops.append(Refinement.start(b, inputs, self.attempts, prior))
            self._loops = loops
        loops = self._loops
        self._say_finished(c, loops, self._said)
        try:
            await self._rounds(c, loops, make, self._said)
        finally:  # what was witnessed, and what the budget left unfinished
            self.witnessed = [r.accepted.scenario for r in (loop.realization() for loop in loops)
                              if r.passed and r.accepted is not None and r.accepted.scenario is not None]
            self.unfinished = [loop.bundle.id for loop in loops if not loop.finished]
            if self.unfinished:
                c.progress(f"structural: {len(self.unfinished)} objective bundle(s) unfinished: "
                           "the budget stopped the phase before their attempts were all made")
        realized = [r for r in (loop.realization() for loop in loops)
                    if r.passed and r.bundle.id not in self._faulted]
        if self.fault_modes:
            self._faulted.update(r.bundle.id for r in realized)
            await self._fault_reruns(c, realized)

    async def _rounds(self, c: Campaign, loops: list[Refinement], make: Any, said: set[int]) -> None:
        # Rounds: the next attempt of every bundle still open (different objectives are
        # independent; one bundle's attempts stay in sequence), recorded in bundle order: a seed
        # gives one run whatever --workers is. A round goes in chunks of as many bundles as the
        # executor runs at once, each proposed together then executed together: proposing
        # every bundle before executing any left a slow model's whole share spent on proposals
        # (the demo on a loaded machine: 10 tester calls in 5 minutes, then 1 execution).
        while opened := [loop for loop in loops if not loop.finished]:
            width = max(1, int(getattr(c.executor, "concurrency", 1) or 1))
            for i in range(0, len(opened), width):
                why = c.budget_left()
                if why is not None:  # no tester call for an attempt that could not run
                    raise c.stop(why)
                await self._chunk(c, opened[i:i + width], make)
                self._say_finished(c, loops, said)

    async def _chunk(self, c: Campaign, opened: list[Refinement], make: Any) -> None:
        """The next attempt of each of these bundles: proposed, executed, judged and kept."""
        async def proposals() -> list[Any]:
            if getattr(self.realizer, "concurrent", False):
                return list(await asyncio.gather(*(loop.propose(self.realizer, make)
                                                   for loop in opened)))
            return [await loop.propose(self.realizer, make) for loop in opened]

        steps = await c.within_budget(proposals())
        for loop, step in zip(opened, steps):  # attempts that execute nothing, kept first
            if step.attempt is not None:
                loop.keep(step.attempt)
                _record_attempt(c, loop.bundle, step.attempt)
        runs = [(loop, step) for loop, step in zip(opened, steps) if step.scenario is not None]
        stop: BudgetExhausted | None = None
        try:
            outcomes = await c.execute([step.scenario for _, step in runs])  # type: ignore[misc]
        except BudgetExhausted as exc:  # the attempts that did run are judged and kept
            stop, outcomes = exc, exc.outcomes
        for (loop, step), outcome in zip(runs, outcomes):
            if outcome is None:  # not executed: the budget ended the round first
                continue
            a = loop.judged(step, outcome.trace)
            loop.keep(a)
            _record_attempt(c, loop.bundle, a)
        if stop is not None:
            raise stop

    @staticmethod
    def _say_finished(c: Campaign, loops: list[Refinement], said: set[int]) -> None:
        for i, loop in enumerate(loops):
            if loop.finished and i not in said:
                said.add(i)
                r = loop.realization()
                status = "witnessed" if r.passed else "unrealized"
                c.progress(f"{loop.bundle}: {status} after {len(r.attempts)} attempt(s)")

    async def _fault_reruns(self, c: Campaign, realized: list[Realization]) -> None:
        """§IV-G: re-run each witnessed allowed-tool scenario with a fault in its tool and check
        the mechanical robustness witness W^F1. The re-runs are independent: submitted together."""
        runs: list[tuple[Bundle, str, str, str, Scenario]] = []
        for r in realized:
            ob = r.bundle.driver.obligation
            if ob.kind != "use_tool" or r.accepted is None or r.accepted.scenario is None:
                continue
            agent, tool = ob.endpoints
            base = r.accepted.scenario
            for mode in self.fault_modes:
                runs.append((r.bundle, agent, tool, mode, base.model_copy(update={
                    "faults": (Fault(tool=tool, mode=mode),),  # type: ignore[arg-type]
                    "provenance": Provenance(source=f"fault:{mode}", parent=base.id,
                                             seed=base.provenance.seed),
                })))
        outcomes = await c.execute([sc for *_, sc in runs])
        for (b, agent, tool, mode, sc), out in zip(runs, outcomes):
            verdict = robustness_witness(out.trace, agent=agent, tool=tool)
            if c.store is not None and c.run_id is not None:
                c.store.record_fault_run(c.run_id, bundle_id=b.id, agent=agent, tool=tool,
                                         mode=mode, scenario_id=sc.id, holds=bool(verdict.holds),
                                         reasons=list(verdict.reasons))


def _stored_attempts(c: Campaign) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    if c.store is None or c.run_id is None:
        return out
    for a in c.store.attempts(c.run_id):
        out.setdefault(a["bundle_id"], []).append(a)
    return out


async def _rebuild(c: Campaign, b: Bundle, rows: list[dict[str, Any]]) -> list[Attempt]:
    """The attempts a resumed run already made for `b`, with their traces (from the store; an
    execution lost with a crash is executed again, from the very scenario recorded)."""
    done: list[Attempt] = []
    for row in sorted(rows, key=lambda r: r["number"]):
        scenario = c.store.scenario(row["scenario_id"]) if row.get("scenario_id") else None
        if scenario is None:
            done.append(Attempt(row["number"], row["text"], row["reward"], row["verdict"],
                                leaked=row.get("leaked"), model_calls=row.get("model_calls", 0),
                                model_error=row["verdict"].startswith("tester model failed")))
            continue
        trace = await c.execute_one(scenario)
        done.append(judge(b, row["number"], row["text"], scenario, trace,
                          row.get("model_calls", 0)))
    return done


def _record_attempt(c: Campaign, b: Bundle, a: Attempt) -> None:
    if c.store is None or c.run_id is None:
        return
    c.store.record_attempt(c.run_id, bundle_id=b.id, bundle=str(b),
                           obligations=list(b.obligation_ids), number=a.number, text=a.text,
                           reward=a.reward, verdict=a.verdict, leaked=a.leaked,
                           scenario_id=a.scenario.id if a.scenario else None,
                           model_calls=a.model_calls)
