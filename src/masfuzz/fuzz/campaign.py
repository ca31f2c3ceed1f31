"""How `masfuzz fuzz` assembles FLARE on the campaign engine: the specification, the seed pool,
the coverage models, the oracles and the loop, from the command's options.

Before the campaign: the FLARE specification (the deterministic skeleton, refined by the
Specification Agent unless `--no-spec-agent`; cached by source, workflow and model, so a resumed
run sees the same one) and the seed pool (the `--input`s plus `--seed-tasks` tasks the tester
writes). Both are part of the run's configuration, so a re-run with the same ones resumes.

During it: coverage is structural (obligations), behavioural (FLARE's agent x behaviour matrix)
and path (legal execution paths under the specification's dependencies); every execution goes
through the spec-aware deterministic oracles, whose proposals (readings of free text) the judge
agent decides before the execution is stored (`confirm`: one call for an execution that has
any); an execution that added coverage is also read by the failure and judge agents
(`--judge-rounds`; `--no-judge` turns both off). Only those: a model-backed reading of every
execution would cost two or more tester calls per run, and an execution that covered nothing
new follows a path and behaviours already judged.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from masfuzz.coverage.behaviour import BehaviourModel
from masfuzz.coverage.paths import PathModel
from masfuzz.coverage.structural import StructuralModel
from masfuzz.errors import MasfuzzError
from masfuzz.fuzz.loop import Choices, FlarePhase, steady_window
from masfuzz.fuzz.shrink import Reproduce
from masfuzz.fuzz.spec_agent import TesterStats, read_source, specification_agent
from masfuzz.fuzz.seeds import rewrite_input, seed_tasks
from masfuzz.graph.specification import FlareSpec, skeleton
from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.graph.paths import FREE_FORM
from masfuzz.oracles.portable import PortableJudge
from masfuzz.scenario import Provenance, Scenario, surroundings
from masfuzz.spec.model import WorkflowSpec


class FuzzSetup:
    def __init__(self, opts: Any, workflow: WorkflowSpec, tester: Any, *,
                 cache_dir: Path) -> None:
        """`opts`: the resolved configuration of `fuzz` or `run` (`masfuzz.options.Config`,
        a layer above this one)."""
        self.opts, self.workflow, self.tester, self.cache_dir = opts, workflow, tester, cache_dir
        self.graph = CoordinationGraph(workflow)
        # the steady paces keep a window of mutants in flight: part of what a seed reproduces
        self.choices = Choices(batch=opts.batch, pace=opts.pace,
                               window=0 if opts.pace == "batch" else steady_window(opts.workers))
        self.flare: FlareSpec = skeleton(workflow)
        self.inputs: list[str] = list(opts.input or ())
        # FLARE's null seed: the system's own task, where it has one (an AG2 program's)
        own = workflow.system.task
        self.null: list[str] = [own] if own and own not in self.inputs else []
        self.written: list[str] = []
        self.stats: dict[str, TesterStats] = {}

    # -- before the campaign ---------------------------------------------------------------------
    async def prepare(self, say: Callable[[str], None], seconds: float | None = None, *,
                      need_seed: bool = True) -> None:
        """The tester's steps before the loop, within `seconds` of the campaign's wall-time
        budget: a step the budget cuts short leaves what stood before it (the skeleton, the
        user's inputs) and says so. Without a seed at the end, bad input (exit 2), unless not
        `need_seed` (`masfuzz run`, whose structural phase may still give one)."""
        deadline = None if seconds is None else time.monotonic() + seconds
        source = read_source(self.workflow)
        if not self.opts.no_spec_agent:
            say("specification agent: refining the FLARE specification")
            result = await _within(deadline, say, specification_agent(
                self.workflow, self.tester, source=source, cache_dir=self.cache_dir,
                seed=self.opts.seed))
            if result is not None:
                self.flare, self.stats["specification"] = result.spec, result.stats
        if self.opts.map_behaviours and not self.opts.no_spec_agent:
            # atomic behaviours only a model's mapping can witness: worth asking for only then
            from masfuzz.fuzz.space_agent import space_agent

            say("space agent: splitting the tasks into atomic behaviours")
            space = await _within(deadline, say, space_agent(
                self.flare, self.workflow, self.tester, source=source, cache_dir=self.cache_dir,
                seed=self.opts.seed))
            if space is not None:
                self.flare, self.stats["space"] = space.spec, space.stats
        if self.opts.seed_tasks:
            say(f"seed writer: asking for {self.opts.seed_tasks} task(s) from the workflow's documentation")
            stats = self.stats["seed_writer"] = TesterStats()
            tasks = await _within(deadline, say, seed_tasks(
                self.workflow, self.tester, self.opts.seed_tasks, seed=self.opts.seed,
                stats=stats))
            self.written = [t for t in tasks or () if t not in self.inputs + self.null]
            say(f"seed writer: {_seeds_written(len(self.written), stats)}")
        if need_seed and not self.seeds():
            wrote = (f" (the seed writer: {_seeds_written(0, self.stats['seed_writer'])})"
                     if "seed_writer" in self.stats else "")
            raise MasfuzzError(f"fuzz: {NO_SEED}{wrote}")

    def seeds(self) -> list[str]:
        """The seed pool's texts before the campaign: the user's, the system's own, the tester's."""
        return self.inputs + self.null + self.written

    def config(self) -> dict[str, Any]:
        o = self.opts
        return {"model": o.model, "sut_model": o.sut_model,
                "seeds": self.seeds(),
                "model_pool": list(self._pool()), "strategy": o.strategy,
                "schedule": "uniform" if o.strategy == "uniform" else o.schedule, "rounds": o.rounds,
                "seed": o.seed, "max_turns": o.max_turns,
                "judge_rounds": None if o.no_judge else o.judge_rounds,
                "map_behaviours": o.map_behaviours,
                "spec_agent": not o.no_spec_agent, "sequence": self.free_form(),
                "shrink": None if o.no_shrink else vars(self.reproduce()), "code_coverage": o.code_coverage,
                "dependencies": [list(d) for d in self.flare.relationships.dependencies],
                "choices": self.choices.to_data(),
                **(surroundings(o) if o.stubs or o.run_code or o.context else {})}

    # -- the campaign's parts ----------------------------------------------------------------------
    def coverage_models(self) -> list[Any]:
        return [StructuralModel(self.graph.obligations()), BehaviourModel(self.flare),
                self.path_model()]

    def path_model(self) -> PathModel:
        return PathModel(self.workflow, self.flare.relationships.dependencies,
                         max_turns=self.opts.max_turns)

    def detectors(self) -> PortableJudge:
        """FLARE's deterministic oracles over the specification as it stands (after `prepare`),
        as data the workers can judge with."""
        return PortableJudge("flare", self.workflow, self.flare)

    def phase(self, witnessed: Sequence[Scenario] = ()) -> FlarePhase:
        """FLARE's loop on the seed pool, and after it the scenarios in `witnessed` (those the
        structural phase accepted, each reaching part of the workflow: seeds as FLARE wants them)."""
        o = self.opts
        seeds = [Scenario(input=text, sut_model=o.sut_model, max_turns=o.max_turns,
                          timeout=o.timeout, **surroundings(o), provenance=Provenance(source=source, seed=o.seed))
                 for text, source in [(t, "user") for t in self.inputs]
                 + [(t, "null") for t in self.null] + [(t, "tester:seed") for t in self.written]]
        texts = set(self.seeds())
        for sc in witnessed:
            if sc.input not in texts:
                texts.add(sc.input)
                seeds.append(sc.model_copy(update={"provenance": Provenance(
                    source="structural", parent=sc.id, seed=o.seed)}))
        agents = self.graph.reachable
        return FlarePhase(seeds, agents, participants=tuple(agents),
                          free_form=self.free_form(),
                          model_pool=self._pool(), strategy=o.strategy, schedule_name=o.schedule,
                          rounds=o.rounds,
                          choices=self.choices,
                          rewrite=self._rewrite if o.strategy == "input" else None,
                          analyse=None if o.no_judge and not o.map_behaviours else self._analyse,
                          reproduce=None if o.no_shrink else self.reproduce())

    def after(self, structural: Any) -> "SeededByStructural":
        """FLARE's phase of `masfuzz run`: built when it starts, seeded, when the pool is empty,
        with the scenarios the structural phase (`structural`, or None) witnessed."""
        return SeededByStructural(self, structural)

    def reproduce(self) -> Reproduce:
        return Reproduce.parse(self.opts.reproduce, self.opts.sut_model)

    def free_form(self) -> bool:
        """Sequence mutation applies: an LLM picks the speakers, and the user did not turn it off."""
        return self.workflow.system.pattern in FREE_FORM and not self.opts.no_sequence

    def summary(self) -> dict[str, Any]:
        return {"specification": self.flare.model_dump(mode="json"),
                "tester": {k: v.model_dump(mode="json") for k, v in self.stats.items()}}

    # -- model-backed steps ------------------------------------------------------------------------
    async def _rewrite(self, text: str, number: int) -> str:
        stats = self.stats.setdefault("input_mutator", TesterStats())
        return await rewrite_input(text, self.workflow, self.tester,
                                   seed=self.opts.seed + number, stats=stats)

    async def _analyse(self, outcome: Any) -> dict[str, Any]:
        """The tester model's readings of one execution: its behaviour mapping (with
        --map-behaviours) and, when the execution covered something new, the failure and judge
        agents' confirmed failures."""
        from masfuzz.fuzz.failure_agents import identify_failures

        items: set[str] = set()
        if self.opts.map_behaviours:
            from masfuzz.coverage.behaviour import BehaviourSpace
            from masfuzz.fuzz.behaviour_map import map_behaviours

            mapping = await map_behaviours(outcome.trace, BehaviourSpace.of(self.flare),
                                           self.tester, seed=self.opts.seed)
            self._count("behaviour_mapper", mapping.stats)
            items = mapping.covered() - set(outcome.gain)
        if self.opts.no_judge or not (outcome.gain or items):
            return {"items": items}
        report = await identify_failures(outcome.trace, self.flare, self.tester,
                                         rounds=self.opts.judge_rounds, seed=self.opts.seed)
        self._count("failure_agents", TesterStats(
            calls=report.calls, malformed=report.malformed, failures=report.model_failures,
            rejected=[_decision(r) for r in report.rejected],
            added=[f.fingerprint for f in report.failures]))
        return {"items": items, "failures": report.failures}

    def confirm(self) -> Any:
        """The judge agent's decision on every execution's proposals (`Campaign.confirm`), or
        None with `--no-judge`: the rules then decide, as without a tester."""
        from masfuzz.fuzz.failure_agents import proposal_judge

        return None if self.opts.no_judge else proposal_judge(
            self.flare, self.tester, seed=self.opts.seed,
            count=lambda stats: self._count("proposal_judge", stats))

    def _count(self, role: str, stats: TesterStats) -> None:
        total = self.stats.setdefault(role, TesterStats())
        total.calls += stats.calls
        total.malformed += stats.malformed
        total.failures += stats.failures  # what the model's server answered, for the report
        total.rejected += stats.rejected
        total.added += stats.added

    def _pool(self) -> tuple[str, ...]:
        return tuple(m.strip() for m in (self.opts.model_pool or "").split(",") if m.strip())


NO_SEED = ("no seed: give the system's task with --input TEXT (repeatable), or let the tester "
           "write some with --seed-tasks N")


def _seeds_written(kept: int, stats: TesterStats) -> str:
    """What the seed writer gave, in true counts (a weak model's tasks may all be rejected)."""
    text = f"{kept} usable task(s) written"
    if stats.rejected:
        reasons = sorted({d.reason for d in stats.rejected})
        text += f", {len(stats.rejected)} rejected ({'; '.join(reasons)})"
    if stats.malformed:
        text += f", {stats.malformed} malformed answer(s)"
    if stats.failures:
        text += f", {len(stats.failures)} failed call(s)"
    return text


@dataclass
class SeededByStructural:
    """FLARE's loop in `masfuzz run`: its seeds are the pool's; with none there (no --input, no
    usable task from the tester), the scenarios the structural phase witnessed, when it ran
    before; with no seed at all it does not run, says why (`PhaseNotRun`), and the campaign
    goes on."""

    setup: FuzzSetup
    structural: Any = None
    name: str = "fuzz"
    share: float = 2.0  # of the budget `masfuzz run` shares (`masfuzz.campaign.budget`)
    inner: FlarePhase | None = None

    async def run(self, campaign: Any) -> None:
        from masfuzz.campaign import PhaseNotRun

        if self.inner is not None:  # a further pass (`go_on`): the loop goes on
            await self.inner.run(campaign)
            return

        # the pool's seeds when there are some; else what the structural phase witnessed
        witnessed = [] if self.setup.seeds() else list(getattr(self.structural, "witnessed", ()) or ())
        if not self.setup.seeds() and not witnessed:
            why = ("the structural phase witnessed no scenario, and " if self.structural is not None
                   else "")
            raise PhaseNotRun(why + NO_SEED)
        self.inner = self.setup.phase(witnessed)
        if witnessed:
            campaign.progress(f"fuzz: no --input and no task from the tester: the {len(witnessed)} "
                              "scenario(s) the structural phase witnessed are the seeds")
        await self.inner.run(campaign)

    def go_on(self) -> bool:
        return self.inner is not None and self.inner.go_on()

    def summary(self) -> dict[str, Any]:
        return self.inner.summary() if self.inner is not None else {}


async def _within(deadline: float | None, say: Callable[[str], None], step: Any) -> Any:
    """`step`'s result, or None when the budget's deadline comes first."""
    if deadline is None:
        return await step
    try:
        return await asyncio.wait_for(step, max(0.0, deadline - time.monotonic()))
    except asyncio.TimeoutError:
        say("  the wall-time budget ran out during this step: what stood before it is kept")
        return None


def _decision(rejection: Any) -> Any:
    from masfuzz.fuzz.spec_agent import Decision

    return Decision(item=rejection.finding.clause or rejection.finding.category,
                    reason=rejection.reason)
