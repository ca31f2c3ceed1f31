"""FLARE's coverage-guided fuzzing loop (§3.3) as a campaign phase.

The seed pool holds the system's tasks (the user's `--input`s and the tasks the tester model
wrote from the workflow's documentation), each with the default model configuration and the
default speaking order. Every round picks one seed by weight and makes one mutant of it:

- configuration mutation (Strategy 1) on one random agent: identity, temperature scaling, model
  family switching over `--model-pool`, or both (joint), the operator picked by weight;
- sequence mutation (Strategy 2), applied independently, only for free-form teams (an LLM
  selects the speakers): a permutation of the participants drawn uniformly. Fixed-order, handoff
  and graph systems keep their order, as the paper requires.

The input is invariant (§3.3.3), and every mutant carries a fresh execution nonce (sent as the
request seed), so even an identity mutant is a new sample rather than a cached answer. When a
mutant adds cumulative coverage of any kind the campaign measures (behaviour, path, structure)
the seed's and the operator's weights rise by a fixed step, otherwise they fall, within clamps.

Strategies, measured in one harness: `flare` (the above), `uniform` (the same loop with the
weights never moving: the ablation the paper lacks) and `input` (no configuration or order
mutation; the tester model rewrites the user input, LLM-Fuzzer style: the paper's strongest
baseline).

Rounds go in batches (`Choices.batch`, `--batch`): a batch's mutants are all drawn from the
weights as they stand, executed together (as many at once as `--workers` allows) and recorded
in the order drawn; the weights move after the batch, mutant by mutant in that order
(batch-synchronous). Everything random comes from one `random.Random(seed)`, so the same
`--seed` with scripted models gives the same run whatever `--workers` is; a resumed run
re-proposes the same mutants, which the store answers, and so ends as the uninterrupted one.
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


@dataclass(frozen=True)
class Choices:
    """The numbers FLARE leaves open, as masfuzz chose them (recorded in the run's config)."""

    initial_weight: float = 0.5  # every seed and operator starts equal (the paper: w_init)
    step: float = 0.1  # the fixed step of a reward or a penalty
    low: float = 0.05  # clamps: nothing is ever starved or certain
    high: float = 1.0
    temperatures: tuple[float, ...] = (0.0, 0.4, 0.8, 1.2)  # what temperature scaling draws
    sequence_rate: float = 0.5  # how often a free-form mutant also gets a new speaking order
    # mutants proposed from one state of the weights and executed together (up to --workers at
    # once); the weights move after the batch, so a seed gives one run whatever --workers is
    batch: int = 8

    def to_data(self) -> dict[str, Any]:
        return {**asdict(self), "temperatures": list(self.temperatures)}


@dataclass
class Weights:
    """Selection weights that a coverage gain raises and a miss lowers, clamped."""

    values: dict[str, float]
    choices: Choices

    @classmethod
    def of(cls, keys: list[str], choices: Choices) -> "Weights":
        return cls({k: choices.initial_weight for k in keys}, choices)

    def pick(self, rng: random.Random) -> str:
        keys = list(self.values)
        return rng.choices(keys, weights=[self.values[k] for k in keys])[0]

    def reward(self, key: str, gained: bool) -> None:
        c = self.choices
        value = self.values[key] + (c.step if gained else -c.step)
        self.values[key] = round(min(c.high, max(c.low, value)), 6)


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
           number: int = 0) -> tuple[Scenario, Mutation]:
    """One mutant of `seed`: configuration mutation of one random agent, and for free-form teams
    possibly a new speaking order. The input is never touched."""
    agent = rng.choice(agents)
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
    if free_form and len(participants) > 1 and rng.random() < choices.sequence_rate:
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
    seed_weights: Weights = field(init=False)
    operator_weights: Weights = field(init=False)
    history: list[dict[str, Any]] = field(default_factory=list)
    shrunk: dict[str, dict[str, Any]] = field(default_factory=dict)  # fingerprint -> result
    _rng: random.Random | None = field(default=None, init=False)  # set when the loop starts
    _next: int = field(default=1, init=False)  # the next round's number
    _seeded: bool = field(default=False, init=False)  # its seeds were run and judged

    def __post_init__(self) -> None:
        self.seed_weights = Weights.of([str(i) for i in range(len(self.seeds))], self.choices)
        self.operator_weights = Weights.of(list(OPERATORS), self.choices)

    def go_on(self) -> bool:
        """One more batch of rounds for the campaign's next pass (the budget is left after
        every phase ran): the loop goes on from where it stopped, with its weights."""
        if self._rng is None:
            return False  # it never started
        if self._seeded:
            self.rounds = max(self.rounds, self._next - 1) + max(1, self.choices.batch)
        return True  # (else the budget stopped it among its seeds: they come first again)

    async def run(self, c: Any) -> None:
        if self._rng is None:
            self._rng = random.Random(c.seed)
        if not self._seeded:  # the seeds themselves first, together (those run: from the store)
            outcomes = await c.execute(self.seeds)
            for number, outcome in enumerate(outcomes):
                await self._judge(c, outcome, {"round": 0, "seed": number, "operator": "seed",
                                               "mutation": "seed"})
            self._seeded = True
        rng = self._rng
        while self._next <= self.rounds:
            numbers = range(self._next, min(self._next + max(1, self.choices.batch), self.rounds + 1))
            self._next = numbers.stop
            proposed = [await self._propose(rng, number) for number in numbers]  # in draw order
            outcomes = await c.execute([mutant for _, _, _, mutant, _ in proposed])
            judged = []
            for (number, s, op, _, mutation), outcome in zip(proposed, outcomes):
                entry = {"round": number, "seed": int(s), "operator": op,
                         "mutation": mutation.describe() if mutation else "input rewritten"}
                judged.append((entry, await self._judge(c, outcome, entry)))
            for (number, s, op, _, _), (entry, gained) in zip(proposed, judged):
                if self.strategy == "flare":  # after the batch, in the order drawn
                    self.seed_weights.reward(s, gained)
                    self.operator_weights.reward(op, gained)
                c.progress(f"round {number}/{self.rounds}: seed {s}, {entry['mutation']} -> "
                           + (f"{len(entry['gain'])} new item(s)" if gained else "nothing new")
                           + (f", {len(entry['failures'])} new failure(s)" if entry["failures"] else ""))
            for (_, s, _, _, _), outcome in zip(proposed, outcomes):
                await self._shrink(c, outcome, self.seeds[int(s)])

    async def _propose(self, rng: random.Random, number: int
                       ) -> tuple[int, str, str, Scenario, Mutation | None]:
        """Round `number`'s mutant, drawn from the weights as they stand."""
        s = self.seed_weights.pick(rng)
        seed = self.seeds[int(s)]
        if self.strategy == "input":
            return number, s, "input", await self._rewritten(seed, rng, number), None
        op = self.operator_weights.pick(rng)
        mutant, mutation = mutate(seed, op, self.agents, rng, choices=self.choices,
                                  model_pool=self.model_pool, participants=self.participants,
                                  free_form=self.free_form, number=number)
        return number, s, op, mutant, mutation

    async def _judge(self, c: Any, outcome: Any, entry: dict[str, Any]) -> bool:
        """Coverage and failures of one execution, the model-backed oracles' included; a row of
        the history. Returns whether cumulative coverage grew (the feedback)."""
        gain, failures = set(outcome.gain), [f.fingerprint for f in outcome.failures]
        if self.analyse is not None and not outcome.reused and c.budget_left() is None:
            extra = await _bounded(self.analyse(outcome), c.time_left())
            gain |= c.recorder.add_items(outcome, extra.get("items", ()))
            failures += [f.fingerprint for f in c.recorder.add_failures(outcome,
                                                                        extra.get("failures", ()))]
        entry.update(scenario=outcome.scenario.id, gain=sorted(gain), failures=failures)
        self.history.append(entry)
        return bool(gain)

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
        return {"strategy": self.strategy, "rounds": sum(1 for h in self.history if h["round"]),
                "seeds": [s.id for s in self.seeds],
                "seed_weights": self.seed_weights.values,
                "operator_weights": self.operator_weights.values, "history": self.history,
                "shrunk": self.shrunk}
