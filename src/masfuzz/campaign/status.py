"""`Status`: a running campaign's numbers at one moment, as the engine counts them.

The engine hands one to its `status` callback after every recorded execution, at every phase
change and at the end; how it is shown (a live panel on a terminal, plain lines in a CI log) is
the command line's business. The numbers are the run's, counted the way the report counts them:
executions in the run (resumed ones included), structural coverage C1..C4 over the workflow's
obligations, failures by fingerprint (the app's apart from those set aside as the harness's or
the settings'). Model calls, tokens and cost are this invocation's: the tester's from its ledger,
the system under test's as its traces counted them; cost is the tester's, and None when a price
is unknown (never a guess).
"""

from __future__ import annotations

from dataclasses import dataclass

from masfuzz.campaign.budget import Budget

EVENTS = ("phase", "execution", "end")


@dataclass(frozen=True)
class Criterion:
    name: str  # C1..C4
    covered: int
    total: int


@dataclass(frozen=True)
class Status:
    event: str  # one of EVENTS: what just happened
    phase: str | None  # the phase under way (None before the first)
    executions: int  # executions in the run, resumed ones included (what the budget counts)
    executed: int  # executions this invocation ran
    reused: int  # executions this invocation answered from the store
    budget: Budget
    elapsed: float  # seconds since the campaign started
    criteria: tuple[Criterion, ...]  # structural coverage, C1..C4
    failures: int  # the app's failures in the run (distinct fingerprints)
    set_aside: int  # findings caused by masfuzz or by the settings, not the app
    tester_calls: int  # tester model calls this invocation (what the budget counts)
    sut_calls: int  # model calls of the system under test this invocation, as its traces say
    tokens_in: int  # tester and system under test together, where the models report them
    tokens_out: int
    cost: float | None  # the tester's cost in USD; None when a model's price is unknown
    stop_reason: str | None = None  # why the budget ended the campaign
    # the phases so far that did not simply end done: (phase, status), status as `PhaseResult`'s
    not_done: tuple[tuple[str, str], ...] = ()

    @property
    def eta(self) -> float | None:
        """Seconds until the binding budget limit runs out, at the rate so far (None: no limit,
        or no rate to go by yet)."""
        found = self._eta()
        return found[0] if found else None

    @property
    def eta_limit(self) -> str | None:
        """Which limit the ETA is against: "wall time", "executions" or "model calls"."""
        found = self._eta()
        return found[1] if found else None

    def _eta(self) -> tuple[float, str] | None:
        b = self.budget
        estimates: list[tuple[float, str]] = []
        if b.wall_time is not None:
            estimates.append((max(0.0, b.wall_time - self.elapsed), "wall time"))
        if b.executions is not None and self.executed > 0 and self.elapsed > 0:
            left = max(0, b.executions - self.executions)
            estimates.append((left * self.elapsed / self.executed, "executions"))
        if b.model_calls is not None and self.tester_calls > 0 and self.elapsed > 0:
            left = max(0, b.model_calls - self.tester_calls)
            estimates.append((left * self.elapsed / self.tester_calls, "model calls"))
        return min(estimates, key=lambda e: e[0]) if estimates else None

    @property
    def used(self) -> float | None:
        """The fraction of the budget used, by the limit nearest to running out (None: no
        limit)."""
        b = self.budget
        fractions = [f for f in (
            self.elapsed / b.wall_time if b.wall_time else None,
            self.executions / b.executions if b.executions else None,
            self.tester_calls / b.model_calls if b.model_calls else None) if f is not None]
        return min(1.0, max(fractions)) if fractions else None
