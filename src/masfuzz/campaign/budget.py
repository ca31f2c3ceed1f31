"""A campaign's budget: wall time, executions and model calls, whichever runs out first.

Each part binds the phases that spend it: every phase spends wall time; the executions and the
tester's model calls are spent by the phases that run the system under test or ask the tester
(a phase's `spends`, all three when it does not say). Tool fuzzing calls tools, not the system,
and is bounded by its `--calls` per tool: an executions budget spent by the earlier phases does
not keep it from running.

Phases share the budget (`share_limits`): each phase may spend, of each part it spends, its
`share` (a weight) of what is left, against the weights of the phases after it that spend the
same part. What a phase leaves unspent is left for the phases after it; the last phase that
spends a part may spend all that is left of it. So a phase that would use the whole budget (FLARE's
loop always finds more to try) cannot starve the phases after it, and a short budget still
reaches each of them."""

from __future__ import annotations

import math
from dataclasses import dataclass

from masfuzz.errors import MasfuzzError


class BudgetExhausted(Exception):
    """Raised into a phase when the campaign may not execute more; the campaign ends cleanly."""

    def __init__(self, reason: str, *, share: bool = False, outcomes: list | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.share = share  # only the phase's share is spent: the phases after it still run
        # what the stopped `Campaign.execute` did record, by submitted scenario (None: not run)
        self.outcomes = outcomes or []


PARTS = ("wall_time", "executions", "model_calls")


@dataclass(frozen=True)
class Budget:
    wall_time: float | None = None  # seconds of this invocation
    executions: int | None = None  # executions recorded in the run (resumed ones count)
    model_calls: int | None = None  # tester model calls of this invocation

    def __post_init__(self) -> None:
        for name in PARTS:
            value = getattr(self, name)
            if value is not None and (not math.isfinite(value) or value <= 0):
                raise MasfuzzError(f"budget {name.replace('_', '-')}: must be a positive number, "
                                   f"not {value!r}")

    def exhausted(self, *, elapsed: float, executions: int, model_calls: int,
                  spends: tuple[str, ...] = PARTS) -> str | None:
        """Why no more of the parts `spends` names may be spent, or None."""
        if self.wall_time is not None and elapsed >= self.wall_time:  # every phase spends time
            return f"wall time {self.wall_time:g} s used"
        if "executions" in spends and self.executions is not None and executions >= self.executions:
            return f"{self.executions} executions done"
        if "model_calls" in spends and self.model_calls is not None and model_calls >= self.model_calls:
            return f"{self.model_calls} tester model calls made"
        return None

    def limited(self) -> bool:
        """Does any part of it end a campaign?"""
        return any(getattr(self, part) is not None for part in PARTS)

    def executions_left(self, executions: int) -> int | None:
        return None if self.executions is None else max(0, self.executions - executions)


def share_limits(budget: Budget, used: dict[str, float],
                 phases: list[tuple[tuple[str, ...], float]]) -> dict[str, float]:
    """The limits of the first of `phases` (each its `spends` and its share's weight, the phase
    starting now first, then those after it): for each limited part it spends, what is `used`
    of it so far plus its weight's part of what is left, among the phases that spend that part."""
    spends, weight = phases[0]
    limits: dict[str, float] = {}
    for part in PARTS:
        limit = getattr(budget, part)
        if limit is None or part not in spends:
            continue
        weights = sum(w for s, w in phases if part in s)
        left = max(0.0, limit - used[part])
        mine = left * (weight / weights if weights else 1.0)
        # a count is spent whole: a share of 0.4 executions is one (never more than is left)
        limits[part] = used[part] + (mine if part == "wall_time" else min(left, math.ceil(mine)))
    return limits
