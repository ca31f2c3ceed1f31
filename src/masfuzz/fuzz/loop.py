"""FLARE's coverage-guided fuzzing loop (§3.3) as a campaign phase.

The corpus starts as the system's tasks (the user's `--input`s and the tasks the tester model
wrote from the workflow's documentation), each with the default model configuration and the
default speaking order. Every round picks one entry by its energy and makes one mutant of it:

- configuration mutation (Strategy 1) on one agent: identity, temperature scaling, model family
  switching over `--model-pool`, or both (joint), the operator (and under the default schedule
  the agent) picked by weight;
- sequence mutation (Strategy 2), applied independently, only for free-form teams (an LLM
  selects the speakers): a permutation of the participants drawn uniformly. Fixed-order, handoff
  and graph systems keep their order, as the paper requires.

A mutant that adds cumulative coverage of any kind the campaign measures (behaviour, path,
structure, code) joins the corpus with its configuration and order (§3.3.1: "updates coverage
and the seed corpus"), so mutations stack: coverage that needs two agents' settings changed at
once is reached one gain at a time. An identity mutant, or one whose configuration an entry
already has, never joins (it adds no setting to build on). Each entry keeps its lineage (the
entry it was made from, back to a seed).

The input is invariant (§3.3.3), and every mutant carries a fresh execution nonce (sent as the
request seed), so even an identity mutant is a new sample rather than a cached answer.

How entries, operators and agents are picked is the schedule (`--schedule`, `Schedule`):
`flare` (the default) gives energy to entries that are recent and productive and weighs
operators and (agent, operator) pairs by their smoothed success rates; `paper` is the paper's
rule (a fixed step up on a gain, down on a miss, clamped); `uniform` never weighs anything.
The paper's rule is a symmetric random walk per key when gains are rare first-time events, so
its weights carry no signal: every weight sits at its floor after a few dozen executions.

Strategies: `flare` (the above), `uniform` (the same loop under the `uniform` schedule: the
ablation the paper lacks) and `input` (no configuration or order mutation; the tester model
rewrites the user input, LLM-Fuzzer style: the paper's strongest baseline).

The pace (`Choices.pace`, `--pace`) says when mutants are drawn and learnt from:

- `batch` (the default): a batch's mutants (`Choices.batch`, `--batch`) are all drawn from the
  weights and corpus as they stand, executed together (as many at once as `--workers` allows)
  and recorded in the order drawn; the weights move and the corpus grows after the batch,
  mutant by mutant in that order. The same `--seed` and `--batch` with scripted models give
  the same run whatever `--workers` is, but a batch lasts as long as its slowest run.
- `steady`: `Choices.window` mutants in flight (`steady_window`: `--workers` and three quarters
  more, waiting for a worker; 1 with one worker); mutant n is drawn as soon as
  mutant n - window was learnt from, and each is recorded, read and learnt from in draw order
  (a slow run holds up the records behind it, not the workers): the same `--seed` and
  `--workers` give the same run.
- `free`: as many in flight, a mutant drawn whenever one was learnt from, each learnt from as
  it ends, nothing waiting for anything; the run depends on which execution ends first.

Everything random comes from one `random.Random(seed)` (shrinking has its own streams). A
resumed run re-proposes the same mutants, which the store answers with the gains they had, and
so grows the same corpus and ends as the uninterrupted one, under `batch` and `steady`; under
`free` it goes on from what was stored, but not necessarily as the uninterrupted run would have.
The model-backed reading of an execution (behaviour mapping, the failure and judge agents) is a
request like the execution itself: it takes one of the executor's slots (`dispatched`,
`Executor.call`: `--workers` bounds both kinds together; their model calls share the client's
`max_connections`) and starts as soon as its execution is recorded, while the rest of the batch
still runs; it is used in draw order. A batch's shrinking runs beside the next batch, whose
records wait for it, so the store's order is the same whatever ends first.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from masfuzz.fuzz.shrink import Reproduce, differences, shrink
from masfuzz.scenario import Provenance, Scenario

OPERATORS = ("identity", "temperature", "model", "joint")
STRATEGIES = ("flare", "uniform", "input")
SCHEDULES = ("flare", "paper", "uniform")
PACES = ("batch", "steady", "free")


@dataclass(frozen=True)
class Choices:
    """The numbers FLARE leaves open, as masfuzz chose them (recorded in the run's config)."""

    initial_weight: float = 0.5  # every seed and operator starts equal (the paper: w_init)
    step: float = 0.1  # `paper`: the fixed step of a reward or a penalty
    low: float = 0.05  # `paper`: clamps, so nothing is ever starved or certain
    high: float = 1.0
    temperatures: tuple[float, ...] = (0.0, 0.4, 0.8, 1.2)  # what temperature scaling draws
    # how often a free-form mutant also gets a new speaking order: a new order undoes the one a
    # stacked entry was built on (bench deep-team, seeds 0-19: 0.5 -> 65 executions to every
    # item under flare, 0.3 -> 47.5; under uniform 137.5 -> 158.5)
    sequence_rate: float = 0.3
    # mutants proposed from one state of the weights and executed together (up to --workers at
    # once); the weights move after the batch, so a seed gives one run whatever --workers is
    batch: int = 8
    # `flare`: an entry's energy is halved for each of its descendants that joined, down to
    # this share (an entry its children have outgrown is still picked now and then)
    recency: float = 0.5
    recency_floor: float = 0.1
    # `flare`: an entry's energy is multiplied by this for each generation between it and its
    # seed: a deeper entry stands on more stacked changes, so it is where the next link of a
    # chain is (bench deep-team, seeds 100-299: 59.5 executions to every item -> 51.5)
    depth: float = 3.0
    grow: bool = True  # mutants that add coverage join the corpus (False: the seeds only)
    # `flare`: a setting the entry already changed (an agent's, the order) is changed again this
    # many times less often than one it has not: stacking builds on what made the entry
    restack: float = 3.0
    # `flare`: a configuration mutant the campaign already ran is drawn again, up to this many
    # times (a new sample of a tried configuration is the identity operator's job)
    redraws: int = 8
    # `--pace`: batch (the rounds go in batches of `batch`), steady or free (`window` mutants
    # in flight, a new one drawn as soon as one is done; see `FlarePhase._steady`)
    pace: str = "batch"
    window: int = 0  # steady and free: mutants in flight (`steady_window`); batch: unused

    def to_data(self) -> dict[str, Any]:
        return {**asdict(self), "temperatures": list(self.temperatures)}


def steady_window(workers: int) -> int:
    """The mutants the steady paces keep in flight at `workers` workers: one a worker, and
    three quarters as many again waiting for one, so that a worker that ends a run starts its
    next at once. A mutant holds its place in the window from its draw to its learning: its
    wait for a worker, its run, then its judging and record (120-210 ms at 16 workers on 2
    loaded cores, against 1.0-1.6 s a run), and under `steady` the wait for every mutant drawn
    before it to be learnt from (a slow run holds up the learning behind it). With a quarter
    as many waiting, those places filled with ended runs not yet learnt from and the workers
    waited for the next draw (16-37 of 240 slot-seconds of a 200-execution campaign at 16
    workers, `bench/bench_workers.py`); with three quarters, 5. Those waiting are drawn as many
    mutants earlier, from staler weights, still fewer than a batch draws at once (twice
    `workers`). One worker keeps one mutant in flight."""
    return workers if workers <= 1 else workers + -(-3 * workers // 4)


@dataclass
class Weights:
    """The paper's selection weights: a coverage gain raises a key by a fixed step, a miss
    lowers it, within clamps."""

    values: dict[str, float]
    choices: Choices

    @classmethod
    def of(cls, keys: list[str], choices: Choices) -> "Weights":
        return cls({k: choices.initial_weight for k in keys}, choices)

    def add(self, key: str) -> None:
        self.values.setdefault(key, self.choices.initial_weight)

    def pick(self, rng: random.Random) -> str:
        keys = list(self.values)
        return rng.choices(keys, weights=[self.values[k] for k in keys])[0]

    def reward(self, key: str, gained: bool) -> None:
        c = self.choices
        value = self.values[key] + (c.step if gained else -c.step)
        self.values[key] = round(min(c.high, max(c.low, value)), 6)


@dataclass
class Rates:
    """Smoothed success rates: (gains + 1) / (tries + 2) per key, Laplace's rule, so an
    untried key stands at 1/2 and one that never paid decays as 1/n without reaching 0."""

    tries: dict[str, int] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)

    def rate(self, key: str) -> float:
        return (self.wins.get(key, 0) + 1) / (self.tries.get(key, 0) + 2)

    def pick(self, rng: random.Random, keys: list[str], scale: Callable[[str], float] = lambda k: 1.0
             ) -> str:
        return rng.choices(keys, weights=[self.rate(k) * scale(k) for k in keys])[0]

    def reward(self, key: str, gained: bool) -> None:
        self.tries[key] = self.tries.get(key, 0) + 1
        self.wins[key] = self.wins.get(key, 0) + int(gained)

    def values(self, keys: list[str]) -> dict[str, float]:
        return {k: round(self.rate(k), 6) for k in keys}


class Schedule:
    """Which corpus entry, operator and agent a round mutates, and what a gain or a miss
    teaches it. `uniform`: nothing is weighed (every pick as likely as the others)."""

    name = "uniform"

    def __init__(self, choices: Choices, entries: int) -> None:
        self.choices = choices
        self.entries = Weights.of([str(i) for i in range(entries)], choices)
        self.operators = Weights.of(list(OPERATORS), choices)

    def joined(self, entry: int, parent: int) -> None:
        """Entry `entry`, a mutant of entry `parent`, joined the corpus."""
        self.entries.add(str(entry))

    def entry(self, rng: random.Random) -> int:
        return int(self.entries.pick(rng))

    def operator(self, rng: random.Random, entry: int) -> str:
        return self.operators.pick(rng)

    def agent(self, rng: random.Random, operator: str, agents: list[str], parent: Scenario) -> str:
        return rng.choice(agents)

    def sequence_rate(self, parent: Scenario) -> float:
        """How likely a free-form mutant of `parent` gets a new speaking order."""
        return self.choices.sequence_rate

    def redraws(self) -> int:
        """How often a mutant whose configuration already ran is drawn again (0: never)."""
        return 0

    def reward(self, entry: int, operator: str, mutation: "Mutation | None", gained: bool) -> None:
        pass

    def weights(self) -> dict[str, dict[str, float]]:
        return {"seed_weights": self.entries.values, "operator_weights": self.operators.values}


class PaperSchedule(Schedule):
    """FLARE's rule as the paper states it: a fixed step up on a gain, down on a miss, per
    entry and per operator, clamped; agents drawn uniformly."""

    name = "paper"

    def reward(self, entry: int, operator: str, mutation: "Mutation | None", gained: bool) -> None:
        self.entries.reward(str(entry), gained)
        self.operators.reward(operator, gained)


class FlareSchedule(Schedule):
    """masfuzz's default. Energy, in two steps: a seed's share (the smoothed success rate of the
    mutants made from it and its descendants), then, within that seed's tree, an entry's
    smoothed success rate times its recency (halved for each of its own descendants that
    joined, down to `recency_floor`), so a new entry, one gain closer to what needs stacked
    changes, is mutated most until it stops paying or a child takes over from it. Operators and
    (agent, operator) pairs are picked by their smoothed success rates: the identity operator,
    which cannot add a setting, and an agent whose settings change nothing fade instead of
    walking at random.

    Why per seed and per descendant (measured by replaying the loop, bench/bench_flare.py): with
    recency over the whole corpus, one seed's run of gains starved the other seeds (shallow
    fixture: the seat request's tree got 29% of the picks, so the item only it reaches came a
    median 112 executions in, against 60 under uniform picks), and an unrelated entry joining
    took the energy from the entry one step from the next item of a chain."""

    name = "flare"

    def __init__(self, choices: Choices, entries: int) -> None:
        super().__init__(choices, entries)
        self.parents: list[int | None] = [None] * entries
        self.roots = list(range(entries))  # each entry's seed
        self.entry_rates, self.root_rates = Rates(), Rates()
        self.operator_rates, self.agent_rates = Rates(), Rates()
        self.resamples = Rates()  # per entry: did a resample of it (identity, no new order) pay
        # the energies as the rates and corpus stand: a round's redraws (up to `redraws`) pick
        # an entry each from the same ones, and they were most of a draw's CPU, which a worker
        # waiting for its next mutant waits for
        self._energies: list[float] | None = None

    def joined(self, entry: int, parent: int) -> None:
        self.parents.append(parent)
        self.roots.append(self.roots[parent])
        self._energies = None

    def energies(self) -> list[float]:
        """Every entry's chance of being picked."""
        if self._energies is None:
            self._energies = self._energies_now()
        return self._energies

    def _energies_now(self) -> list[float]:
        c = self.choices
        children = [0] * len(self.parents)
        for e, parent in enumerate(self.parents):
            while parent is not None:  # every ancestor of e is outgrown once more
                children[parent] += 1
                parent = self.parents[parent]
        depth: list[int] = []
        for parent in self.parents:  # (a parent always comes before its children)
            depth.append(0 if parent is None else depth[parent] + 1)
        own = [self.entry_rates.rate(str(e)) * max(c.recency_floor, c.recency ** children[e])
               * c.depth ** depth[e] for e in range(len(self.parents))]
        seeds = sorted(set(self.roots))
        total = sum(self.root_rates.rate(str(r)) for r in seeds)
        tree = {r: sum(w for w, root in zip(own, self.roots) if root == r) for r in seeds}
        return [self.root_rates.rate(str(r)) / total * w / tree[r] for w, r in zip(own, self.roots)]

    def entry(self, rng: random.Random) -> int:
        energies = self.energies()
        return rng.choices(range(len(energies)), weights=energies)[0]

    def operator(self, rng: random.Random, entry: int) -> str:
        """By the operators' rates, the identity's times how its resamples of this entry paid:
        a resample is always the entry's own configuration, so each miss is a direct sample of
        that one configuration (a temperature change's misses say little of the ones untried).
        The identity's global rate stays up where a new order drawn beside it adds a path, so
        without this an entry whose resamples never pay (a deterministic model) spent more than
        a quarter of its picks on them (bench deep-team, between its second and third item)."""
        return self.operator_rates.pick(
            rng, list(OPERATORS),
            lambda op: 2 * self.resamples.rate(str(entry)) if op == "identity" else 1.0)

    def agent(self, rng: random.Random, operator: str, agents: list[str], parent: Scenario) -> str:
        changed = set(parent.temperatures) | set(parent.agent_models)
        restack = self.choices.restack
        return self.agent_rates.pick(
            rng, [f"{a}:{operator}" for a in agents],
            lambda key: 1 / restack if key.rpartition(":")[0] in changed else 1.0).rpartition(":")[0]

    def sequence_rate(self, parent: Scenario) -> float:
        rate = self.choices.sequence_rate
        return rate / self.choices.restack if parent.speaking_order else rate

    def redraws(self) -> int:
        return self.choices.redraws

    def reward(self, entry: int, operator: str, mutation: "Mutation | None", gained: bool) -> None:
        self._energies = None
        self.entry_rates.reward(str(entry), gained)
        self.root_rates.reward(str(self.roots[entry]), gained)
        self.operator_rates.reward(operator, gained)
        if operator == "identity" and (mutation is None or not mutation.order):
            self.resamples.reward(str(entry), gained)
        if mutation is not None:
            self.agent_rates.reward(f"{mutation.agent}:{operator}", gained)

    def weights(self) -> dict[str, dict[str, float]]:
        return {"seed_weights": {str(e): round(w, 6) for e, w in enumerate(self.energies())},
                "operator_weights": self.operator_rates.values(list(OPERATORS)),
                "agent_weights": {k: round(self.agent_rates.rate(k), 6)
                                  for k in sorted(self.agent_rates.tries)}}


def schedule_for(name: str, choices: Choices, entries: int) -> Schedule:
    return {"flare": FlareSchedule, "paper": PaperSchedule, "uniform": Schedule}[name](choices, entries)


@dataclass
class Entry:
    """One member of the corpus: a seed (`parent` None, round 0) or a mutant that added
    coverage, with what it added and the mutation that made it from its parent entry."""

    scenario: Scenario
    parent: int | None = None
    round: int = 0
    mutation: str = "seed"
    gain: tuple[str, ...] = ()

    def to_data(self, number: int) -> dict[str, Any]:
        return {"entry": number, "scenario": self.scenario.id, "parent": self.parent,
                "round": self.round, "mutation": self.mutation, "gain": list(self.gain)}


def configuration(scenario: Scenario) -> str:
    """What a corpus entry is to the loop: its input, configuration and order (not its nonce,
    which every mutant draws anew)."""
    return scenario.model_copy(update={"nonce": None, "provenance": Provenance()}).id


@dataclass(frozen=True)
class Mutation:
    """What one mutant changed relative to its seed: what shrinking reverts."""

    operator: str
    agent: str | None = None
    temperature: float | None = None
    model: str | None = None
    order: tuple[str, ...] = ()  # a new speaking order (sequence mutation), or ()

    def describe(self) -> str:
        parts = [self.operator]
        if self.agent and self.operator != "identity":
            changes = [f"temperature {self.temperature:g}" if self.temperature is not None else "",
                       f"model {self.model}" if self.model else ""]
            parts.append(f"{self.agent}: " + ", ".join(c for c in changes if c))
        if self.order:
            parts.append("order " + ">".join(self.order))
        return "; ".join(parts)


def mutate(seed: Scenario, operator: str, agents: list[str], rng: random.Random, *,
           choices: Choices, model_pool: tuple[str, ...] = (),
           participants: tuple[str, ...] = (), free_form: bool = False,
           number: int = 0, agent: str | None = None,
           sequence_rate: float | None = None) -> tuple[Scenario, Mutation]:
    """One mutant of `seed`: configuration mutation of one agent (`agent`, or a random one),
    and for free-form teams possibly a new speaking order. The input is never touched."""
    agent = agent if agent is not None else rng.choice(agents)
    temperatures, models = dict(seed.temperatures), dict(seed.agent_models)
    if operator == "model" and not model_pool:
        operator = "temperature"  # nothing to switch to: scale the temperature instead
    temperature = model = None
    if operator in ("temperature", "joint"):
        temperature = temperatures[agent] = rng.choice(choices.temperatures)
    if operator in ("model", "joint") and model_pool:
        model = models[agent] = rng.choice(model_pool)
    order = seed.speaking_order
    new_order: tuple[str, ...] = ()
    rate = choices.sequence_rate if sequence_rate is None else sequence_rate
    if free_form and len(participants) > 1 and rng.random() < rate:
        new_order = order = tuple(rng.sample(participants, len(participants)))
    mutation = Mutation(operator, agent, temperature, model, new_order)
    source = f"mutator:{operator}" + ("+sequence" if new_order else "")
    return seed.model_copy(update={
        "temperatures": temperatures, "agent_models": models, "speaking_order": order,
        "nonce": rng.randrange(2**31),
        "provenance": Provenance(source=source, parent=seed.id, seed=seed.provenance.seed,
                                 attempt=number)}), mutation


async def _bounded(step: Awaitable[dict[str, Any]], seconds: float | None) -> dict[str, Any]:
    """A model-backed analysis within what is left of the wall-time budget: one cut short
    adds nothing (the execution and its deterministic findings are already stored)."""
    if seconds is None:
        return await step
    try:
        return await asyncio.wait_for(step, seconds)
    except asyncio.TimeoutError:
        return {}


async def dispatched(c: Any, step: Awaitable[Any]) -> Any:
    """A model-backed step run as a request to the campaign's workers: it holds one of the
    executor's slots (`Executor.call`) as an execution does, so `--workers` bounds executions
    and readings together; without an executor (a replayed campaign) it just runs."""
    executor = getattr(c, "executor", None)
    return await (executor.call(step) if executor is not None else step)


# What the phase asks of its surroundings, so the loop stays a pure strategy:
# rewrite(text, number) -> a new user input (the `input` strategy's tester call);
# analyse(outcome) -> coverage items and failures a model-backed oracle adds to an execution.
Rewrite = Callable[[str, int], Awaitable[str]]
Analyse = Callable[[Any], Awaitable[dict[str, Any]]]


@dataclass
class FlarePhase:
    seeds: list[Scenario]
    agents: list[str]  # whose configuration may be mutated
    participants: tuple[str, ...] = ()  # the team's members in their default order
    free_form: bool = False  # sequence mutation applies
    model_pool: tuple[str, ...] = ()
    strategy: str = "flare"
    rounds: int = 20
    choices: Choices = field(default_factory=Choices)
    rewrite: Rewrite | None = None
    analyse: Analyse | None = None
    reproduce: Reproduce | None = None  # shrink failing mutants under this rule (None: never)
    name: str = "fuzz"
    schedule_name: str = "flare"  # `--schedule`; the `uniform` strategy means `uniform`
    corpus: list[Entry] = field(init=False)
    schedule: Schedule = field(init=False)
    history: list[dict[str, Any]] = field(default_factory=list)
    shrunk: dict[str, dict[str, Any]] = field(default_factory=dict)  # fingerprint -> result
    _known: set[str] = field(default_factory=set, init=False)  # the corpus's configurations
    _tried: set[str] = field(default_factory=set, init=False)  # configurations proposed so far
    _rng: random.Random | None = field(default=None, init=False)  # set when the loop starts
    _next: int = field(default=1, init=False)  # the next round's number
    _seeded: bool = field(default=False, init=False)  # its seeds were run and judged

    def __post_init__(self) -> None:
        if self.strategy == "uniform":
            self.schedule_name = "uniform"
        self.corpus = [Entry(s) for s in self.seeds]
        self._known = {configuration(s) for s in self.seeds}
        self._tried = set(self._known)
        self.schedule = schedule_for(self.schedule_name, self.choices, len(self.corpus))

    def go_on(self) -> bool:
        """One more batch of rounds for the campaign's next pass (the budget is left after
        every phase ran): the loop goes on from where it stopped, with its weights and corpus."""
        if self._rng is None:
            return False  # it never started
        if self._seeded:
            self.rounds = max(self.rounds, self._next - 1) + max(1, self.choices.batch)
        return True  # (else the budget stopped it among its seeds: they come first again)

    async def run(self, c: Any) -> None:
        if self._rng is None:
            self._rng = random.Random(c.seed)
        # the first mutants run beside the seeds: nothing a draw reads comes from the seeds'
        # results (the schedule learns from mutants only, and the corpus's scenarios are known
        # before they run), so the draws are those made after the seeds, and those mutants are
        # recorded after them, as before; the workers do not wait for the slowest seed (with
        # two seeds and 16 workers, 14 of them did, an execution's time)
        seeding = None if self._seeded else self._seed(c)
        if self.choices.pace == "batch":
            await self._batches(c, self._rng, seeding)
        else:
            await self._steady(c, self._rng, seeding)

    async def _seed(self, c: Any) -> None:
        """The seeds themselves, together (those run: from the store), recorded and judged
        before any mutant is: the corpus's first entries, round 0 of the history."""
        outcomes = await c.execute(self.seeds)
        readings = await asyncio.gather(*(self._reading(c, o) for o in outcomes))
        for number, (outcome, extra) in enumerate(zip(outcomes, readings)):
            row = {"round": 0, "seed": number, "operator": "seed", "mutation": "seed"}
            self._judge(c, outcome, row, extra)
            self.history.append(row)
            self.corpus[number].gain = tuple(sorted(outcome.gain))
            self._record(c, number)
        self._seeded = True

    async def _batches(self, c: Any, rng: random.Random, seeding: Awaitable[None] | None = None) -> None:
        """Batch-synchronous rounds: a batch drawn from the weights as they stand, its requests
        dispatched to the workers, learnt from in draw order.

        Each mutant's execution and then its reading are requests of their own (`_dispatch`):
        a mutant is read as soon as it is recorded, while the rest of the batch still runs.
        The batch's shrinking (`_shrinks`) runs while the next batch executes and is read;
        that batch is recorded after the last shrinking execution, so the store's order (the
        batch, its shrinking, the next batch) and every gain are the same whatever finishes
        first."""
        # the last batch's shrinking under way (before the first batch: the seeds, `seeding`)
        shrinking: asyncio.Future[Any] | None = None if seeding is None else asyncio.ensure_future(seeding)
        seeded = shrinking
        try:
            while self._next <= self.rounds:
                numbers = range(self._next, min(self._next + max(1, self.choices.batch), self.rounds + 1))
                self._next = numbers.stop
                proposed = [await self._propose(rng, number) for number in numbers]  # in draw order
                tasks = self._dispatch(c, [p.mutant for p in proposed], after=shrinking)
                outcomes = []
                try:
                    for p, task in zip(proposed, tasks):
                        outcome, extra = await task
                        row = self._row(p)
                        self._learn(c, p, outcome, row, self._judge(c, outcome, row, extra))
                        outcomes.append(outcome)
                finally:  # the budget or an interrupt: those behind cannot be recorded in order
                    for task in tasks:
                        task.cancel()
                    await asyncio.gather(*tasks, return_exceptions=True)
                shrinking = asyncio.ensure_future(self._shrinks(
                    c, [(o, self.root(p.entry)) for p, o in zip(proposed, outcomes)]))
            if shrinking is not None:
                await shrinking
        except Exception:
            # the budget ran out: the seeds (run beside the first batch) were started within
            # it, claimed it first and come first in the records, so they end and are recorded
            # as when they ran alone, and their stop is the phase's
            if seeded is not None:
                [ended] = await asyncio.gather(seeded, return_exceptions=True)
                if isinstance(ended, Exception):
                    raise ended from None
            if shrinking is not None and not shrinking.done():
                shrinking.cancel()
            raise
        except BaseException:
            if shrinking is not None and not shrinking.done():
                shrinking.cancel()
            raise

    def _dispatch(self, c: Any, mutants: list[Scenario], *,
                  after: "asyncio.Future[Any] | None") -> "list[asyncio.Task[Any]]":
        """Each mutant's execution, then its model-backed reading, as requests to the workers,
        all at once (the executor's slots bound how many run): a task per mutant answering
        (outcome, reading). Mutant n is recorded after mutant n - 1 (and the first after
        `after`), so records keep the draw order; its reading starts as soon as it is recorded."""
        loop = asyncio.get_running_loop()
        recorded: list[asyncio.Future[Any]] = [loop.create_future() for _ in mutants]
        befores = [after, *recorded[:-1]]
        # started longest expected first (the slots go in the order requests start, and a
        # batch lasts as long as its last execution); recorded in draw order all the same
        expected = getattr(getattr(c, "recorder", None), "expected_seconds", lambda sc: 0.0)
        tasks: dict[int, asyncio.Task[Any]] = {}
        for i in sorted(range(len(mutants)), key=lambda i: -expected(mutants[i])):
            tasks[i] = asyncio.ensure_future(
                self._executed_and_read(c, mutants[i], befores[i], recorded[i]))
        return [tasks[i] for i in range(len(mutants))]

    async def _executed_and_read(self, c: Any, mutant: Scenario, before: "asyncio.Future[Any] | None",
                                 recorded: "asyncio.Future[Any]") -> tuple[Any, dict[str, Any]]:
        try:
            [outcome] = await c.execute([mutant], after=before)
            if before is not None:
                await before  # (answered from the store, `execute` did not wait for it)
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError):
                recorded.cancel()
            elif not recorded.done():  # the mutants behind it learn why they were not recorded
                recorded.set_exception(exc)
                recorded.exception()  # (retrieved: the batch's loop raises it from this task)
            raise
        recorded.set_result(None)
        return outcome, await self._reading(c, outcome)

    async def _shrinks(self, c: Any, outcomes: list[tuple[Any, Scenario]]) -> None:
        """A batch's shrinking, mutant by mutant in draw order (each shrinking's executions are
        recorded in turn, so the store's order does not depend on timing)."""
        for outcome, seed in outcomes:
            await self._shrink(c, outcome, seed)

    async def _steady(self, c: Any, rng: random.Random, seeding: Awaitable[None] | None = None) -> None:
        """The steady paces: `Choices.window` mutants in flight, a new one drawn as soon as one
        is done, from the weights and corpus as they stand; nothing waits for a batch.

        `seeding` (the seeds' executions, `_seed`, when they have not run yet) runs beside the
        first mutants, which are recorded after it (`run`).

        `steady`: each mutant is recorded, read and shrunk after the one drawn before it, and
        the schedule learns from them in that order, here, one at a time: mutant n is drawn
        right after mutant n - window was learnt from, so a seed and a window give one run
        whatever finishes first (a slow run holds up the records behind it, not the workers;
        the model-backed readings go one at a time). `free`: each mutant is recorded, read,
        learnt from and shrunk as it ends, all at once, and a mutant is drawn whenever a worker
        is free: the run depends on which execution ends first."""
        ordered = self.choices.pace == "steady"
        window = max(1, self.choices.window)
        running: list[tuple[Proposal, asyncio.Task[Any]]] = []
        seeded = asyncio.ensure_future(seeding) if seeding is not None else None

        async def one(p: Proposal, before: "asyncio.Future[Any] | None") -> Any:
            [outcome] = await c.execute([p.mutant], after=before)
            if before is not None:
                await before  # (answered from the store, `execute` did not wait for it)
            row = self._row(p)
            gained = self._judge(c, outcome, row, await self._reading(c, outcome))
            if not ordered:
                self._learn(c, p, outcome, row, gained)
            await self._shrink(c, outcome, self.root(p.entry))
            return outcome, row, gained

        try:
            while self._next <= self.rounds or running:
                if seeded is not None and seeded.done():
                    seeded.result()  # the seeds' error (the budget) stops the drawing
                if self._next <= self.rounds and len(running) < window:
                    proposal = await self._propose(rng, self._next)
                    self._next += 1
                    before = (asyncio.shield(running[-1][1]) if ordered and running else
                              asyncio.shield(seeded) if seeded is not None and not seeded.done() else None)
                    running.append((proposal, asyncio.ensure_future(one(proposal, before))))
                    continue
                if ordered:  # the oldest, learnt from in draw order
                    proposal, task = running.pop(0)
                    self._learn(c, proposal, *await task)
                    continue
                await asyncio.wait([t for _, t in running], return_when=asyncio.FIRST_COMPLETED)
                for done in [r for r in running if r[1].done()]:
                    running.remove(done)
                    done[1].result()  # a run's error (the budget) stops the drawing
            if seeded is not None:
                await seeded  # (no round left to draw: the seeds alone)
        except Exception:
            # the budget: what is under way was started within it, and ends and is recorded
            await asyncio.gather(*(t for _, t in running), *([seeded] if seeded else []),
                                 return_exceptions=True)
            raise
        except BaseException:  # interrupted: what is under way is dropped (a resume runs it)
            for task in [t for _, t in running] + ([seeded] if seeded else []):
                task.cancel()
            raise

    def _join(self, c: Any, p: "Proposal", outcome: Any, row: dict[str, Any]) -> None:
        """The mutant joins the corpus when its configuration is new to the corpus: an identity
        mutant (its parent's configuration, a new sample), a rewrite that came back unchanged or
        a configuration drawn again adds nothing to build on. Not when the corpus is kept to
        the seeds (`Choices.grow`)."""
        key = configuration(p.mutant)
        if not self.choices.grow or key in self._known:
            return
        self._known.add(key)
        number = len(self.corpus)
        new = Entry(outcome.scenario, parent=p.entry, round=p.number, mutation=row["mutation"],
                    gain=tuple(row["gain"]))
        self.corpus.append(new)
        self.schedule.joined(number, p.entry)
        row["joined"] = number
        self._record(c, number)

    def _record(self, c: Any, number: int) -> None:
        """The entry written down as it joins (the report shows the corpus from the store)."""
        if getattr(c, "store", None) is not None and c.run_id is not None:
            c.store.record_corpus_entry(c.run_id, self.corpus[number].to_data(number))

    def root(self, number: int) -> Scenario:
        """The seed an entry descends from (what shrinking reduces a mutant toward)."""
        while self.corpus[number].parent is not None:
            number = self.corpus[number].parent
        return self.corpus[number].scenario

    def lineage(self, number: int) -> list[int]:
        """The entries from the seed down to `number`."""
        out = [number]
        while self.corpus[out[-1]].parent is not None:
            out.append(self.corpus[out[-1]].parent)
        return out[::-1]

    async def _propose(self, rng: random.Random, number: int) -> "Proposal":
        """Round `number`'s mutant, drawn from the schedule and corpus as they stand."""
        # Whether the round draws a new order is decided once, against each redraw's entry's
        # rate: were it drawn anew at each redraw, a new order (always a configuration not run
        # yet) would end the redraws far more often than its rate says, and undo the order an
        # entry's gain stands on (bench deep-team: a third of the productive entry's picks).
        coin = rng.random() if self.free_form and self.strategy != "input" and self.schedule.redraws() \
            else None
        for attempt in range(self.schedule.redraws() + 1):
            e = self.schedule.entry(rng)
            parent = self.corpus[e].scenario
            if self.strategy == "input":
                return Proposal(number, e, "input", await self._rewritten(parent, rng, number), None)
            op = self.schedule.operator(rng, e)
            agent = self.schedule.agent(rng, op, self.agents, parent)
            rate = self.schedule.sequence_rate(parent)
            mutant, mutation = mutate(parent, op, self.agents, rng, choices=self.choices,
                                      model_pool=self.model_pool, participants=self.participants,
                                      free_form=self.free_form, number=number, agent=agent,
                                      sequence_rate=rate if coin is None else float(coin < rate))
            key = configuration(mutant)
            if key not in self._tried or (op == "identity" and attempt == 0):
                break
        self._tried.add(key)
        return Proposal(number, e, op, mutant, mutation)

    async def _reading(self, c: Any, outcome: Any) -> dict[str, Any]:
        """The model-backed oracles' reading of one execution (its behaviour mapping, the
        failure and judge agents' failures), within the budget; {} without them."""
        if self.analyse is None or outcome.reused or c.budget_left() is not None:
            return {}
        return await dispatched(c, _bounded(self.analyse(outcome), c.time_left()))

    def _judge(self, c: Any, outcome: Any, row: dict[str, Any], extra: dict[str, Any]) -> bool:
        """Coverage and failures of one execution, `extra` (its reading) included, into its
        history `row`. Returns whether cumulative coverage grew (the feedback)."""
        gain, failures = set(outcome.gain), [f.fingerprint for f in outcome.failures]
        if extra:
            gain |= c.recorder.add_items(outcome, extra.get("items", ()))
            failures += [f.fingerprint for f in c.recorder.add_failures(outcome,
                                                                        extra.get("failures", ()))]
        row.update(scenario=outcome.scenario.id, gain=sorted(gain), failures=failures)
        return bool(gain)

    @staticmethod
    def _row(p: "Proposal") -> dict[str, Any]:
        return {"round": p.number, "seed": p.entry, "operator": p.operator,
                "mutation": p.mutation.describe() if p.mutation else "input rewritten"}

    def _learn(self, c: Any, p: "Proposal", outcome: Any, row: dict[str, Any], gained: bool) -> None:
        """One mutant's feedback: its history row, the schedule's reward, the corpus."""
        self.history.append(row)
        self.schedule.reward(p.entry, p.operator, p.mutation, gained)
        if gained:
            self._join(c, p, outcome, row)
        c.progress(f"round {p.number}/{self.rounds}: entry {p.entry}, {row['mutation']} -> "
                   + (f"{len(row['gain'])} new item(s)" if gained else "nothing new")
                   + (f", joined the corpus as entry {row['joined']}" if "joined" in row else "")
                   + (f", {len(row['failures'])} new failure(s)" if row["failures"] else ""))

    async def _shrink(self, c: Any, outcome: Any, seed: Scenario) -> None:
        """Reduce the mutant toward its seed for each deterministic failure it showed first."""
        if self.reproduce is None or not differences(outcome.scenario, seed):
            return
        for failure in outcome.failures:
            if failure.detector == "failure_agent" or failure.fingerprint in self.shrunk:
                continue
            # its own random stream: shrinking never shifts the loop's draws
            rng = random.Random(f"{c.seed}:{failure.fingerprint}")
            result = await shrink(outcome.scenario, seed, failure.fingerprint, c.execute,
                                  c.recorder.detectors, rng, self.reproduce)
            self.shrunk[failure.fingerprint] = result.to_data()
            if result.reverted:
                c.progress(f"  shrunk {failure.fingerprint}: reverted {', '.join(result.reverted)}"
                           f"; needs {', '.join(result.kept) or 'nothing but a new sample'}")

    async def _rewritten(self, seed: Scenario, rng: random.Random, number: int) -> Scenario:
        text = await self.rewrite(seed.input, number) if self.rewrite else seed.input
        return seed.model_copy(update={
            "input": text, "nonce": rng.randrange(2**31),
            "provenance": Provenance(source="mutator:input", parent=seed.id,
                                     seed=seed.provenance.seed, attempt=number)})

    def summary(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "schedule": self.schedule.name,
                "rounds": sum(1 for h in self.history if h["round"]),
                "seeds": [s.id for s in self.seeds], **self.schedule.weights(),
                "corpus": [e.to_data(n) for n, e in enumerate(self.corpus)],
                "history": self.history, "shrunk": self.shrunk}


@dataclass(frozen=True)
class Proposal:
    """One round's mutant as drawn: its number, the corpus entry it was made from, the
    operator (the schedule's pick) and the mutation (None: an input rewrite)."""

    number: int
    entry: int
    operator: str
    mutant: Scenario
    mutation: Mutation | None
