"""Shrinking a failing mutant toward its seed (Hypothesis's habit, applied to FLARE's mutants).

A mutant differs from its seed by per-agent temperatures, per-agent models and the speaking
order. Each difference is reverted in turn, greedily, and the revert is kept when the failure
still reproduces; what remains is the smallest change to the seed that shows the failure, which
is what a developer wants to read ("the triage agent at temperature 0.8", not four agents'
settings and a new order).

"Reproduces" is k of n executions showing the failure's fingerprint, each with a fresh nonce
(a new sample): 1 of 1 for scripted models, which answer the same every time, and 2 of 3 for
sampled ones by default (`--reproduce K/N`). Only failures of the deterministic oracles are
shrunk: a model-judged failure could not be re-judged without the model's noise.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from masfuzz.scenario import Provenance, Scenario

Execute = Callable[[list[Scenario]], Awaitable[list[Any]]]
Detect = Callable[[Any], list[Any]]


@dataclass(frozen=True)
class Reproduce:
    k: int = 1
    n: int = 1

    @classmethod
    def parse(cls, text: str | None, sut_model: str | None) -> "Reproduce":
        """`K/N`; unset: 1/1 for a scripted model under test, 2/3 for a sampled one."""
        if not text:
            return cls(1, 1) if (sut_model or "").startswith("scripted/") else cls(2, 3)
        k, _, n = text.partition("/")
        return cls(int(k), int(n))


@dataclass
class Shrunk:
    fingerprint: str
    original: str  # the failing mutant's scenario id
    scenario: Scenario  # the smallest change to the seed that still shows the failure
    reverted: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    executions: int = 0

    def to_data(self) -> dict[str, Any]:
        return {"original": self.original, "scenario": self.scenario.id,
                "reverted": self.reverted, "kept": self.kept, "executions": self.executions}


def differences(mutant: Scenario, seed: Scenario) -> list[tuple[str, dict[str, Any]]]:
    """Each way `mutant` differs from `seed`, as (label, the update that reverts it)."""
    out = []
    for field_name, what in (("temperatures", "temperature"), ("agent_models", "model")):
        theirs, ours = getattr(mutant, field_name), getattr(seed, field_name)
        for agent in sorted(set(theirs) | set(ours)):
            if theirs.get(agent) != ours.get(agent):
                reverted = {a: v for a, v in theirs.items() if a != agent}
                if agent in ours:
                    reverted[agent] = ours[agent]
                out.append((f"{what} of {agent} ({theirs.get(agent)})", {field_name: reverted}))
    if mutant.speaking_order != seed.speaking_order:
        out.append((f"speaking order {'>'.join(mutant.speaking_order)}",
                    {"speaking_order": seed.speaking_order}))
    return out


async def shrink(mutant: Scenario, seed: Scenario, fingerprint: str, execute: Execute,
                 detect: Detect, rng: random.Random, reproduce: Reproduce) -> Shrunk:
    """Revert what `mutant` changed, one difference at a time, while `fingerprint` reproduces."""
    result = Shrunk(fingerprint, mutant.id, mutant)
    for label, _ in differences(mutant, seed):
        current = dict(differences(result.scenario, seed))
        if label not in current:
            continue
        candidate = result.scenario.model_copy(update=current[label])
        shown, runs = await _reproduces(candidate, fingerprint, execute, detect, rng, reproduce)
        result.executions += runs
        if shown is not None:
            result.scenario = shown  # an executed sample: its id is in the store
            result.reverted.append(label)
        else:
            result.kept.append(label)
    return result


async def _reproduces(candidate: Scenario, fingerprint: str, execute: Execute, detect: Detect,
                      rng: random.Random, reproduce: Reproduce) -> tuple[Scenario | None, int]:
    """The last sample that showed the failure when k of n did, else None; and the runs made."""
    hits = runs = 0
    shown = None
    for _ in range(reproduce.n):
        sample = candidate.model_copy(update={
            "nonce": rng.randrange(2**31),
            "provenance": Provenance(source="shrink", parent=candidate.provenance.parent,
                                     seed=candidate.provenance.seed)})
        [outcome] = await execute([sample])
        runs += 1
        if any(f.fingerprint == fingerprint for f in detect(outcome.trace)):
            hits, shown = hits + 1, sample
        if hits >= reproduce.k or hits + reproduce.n - runs < reproduce.k:
            break  # decided either way: no more samples needed
    return (shown if hits >= reproduce.k else None), runs
