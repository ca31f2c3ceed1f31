"""A campaign's budget: wall time, executions and model calls, whichever runs out first."""

from __future__ import annotations

import math
from dataclasses import dataclass

from masfuzz.errors import MasfuzzError


class BudgetExhausted(Exception):
    """Raised into a phase when the campaign may not execute more; the campaign ends cleanly."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Budget:
    wall_time: float | None = None  # seconds of this invocation
    executions: int | None = None  # executions recorded in the run (resumed ones count)
    model_calls: int | None = None  # tester model calls of this invocation

    def __post_init__(self) -> None:
        for name in ("wall_time", "executions", "model_calls"):
            value = getattr(self, name)
            if value is not None and (not math.isfinite(value) or value <= 0):
                raise MasfuzzError(f"budget {name.replace('_', '-')}: must be a positive number, "
                                   f"not {value!r}")

    def exhausted(self, *, elapsed: float, executions: int, model_calls: int) -> str | None:
        """Why no more may be spent, or None."""
        if self.wall_time is not None and elapsed >= self.wall_time:
            return f"wall time {self.wall_time:g} s used"
        if self.executions is not None and executions >= self.executions:
            return f"{self.executions} executions done"
        if self.model_calls is not None and model_calls >= self.model_calls:
            return f"{self.model_calls} tester model calls made"
        return None

    def less_time(self, spent: float) -> "Budget":
        """This budget with `spent` seconds already used (by work before the campaign)."""
        if self.wall_time is None:
            return self
        return Budget(max(self.wall_time - spent, 1e-9), self.executions, self.model_calls)

    def executions_left(self, executions: int) -> int | None:
        return None if self.executions is None else max(0, self.executions - executions)
