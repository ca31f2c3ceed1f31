"""Mutation analysis: run a suite against the target and against each mutant, and score it.

Every case runs once on the target as written (the baseline) and once on each mutant. A case's
baseline runs first; its runs on the mutants follow, all submitted to the executor together
with every other case's (its concurrency, --workers, bounds how many run at once). Each run on
a mutant is bounded relative to its case's baseline, as PIT and mutmut bound theirs: at most
`factor` x the baseline's time + `constant` seconds (`MutantLimits`), never more than the run's
own limit (the scenario's `timeout`, else --timeout). A mutant that removes the only thing that
ends a run (`remove_termination`) so stops soon after the target would have ended, instead of
running to --timeout; that run is a kill (it did not end as the target does). The defaults,
`--mutant-timeout-factor 2` and `--mutant-timeout-const 60` (300 with an embedded local/
model), are wider than PIT's 1.25 and 4 s: PIT bounds deterministic CPU time, while two runs of
one case on a model differ by far more (latency, retries on a rate limit, answers of another
length), and a baseline answered from the model cache takes next to no time while a mutant
whose prompts differ waits for the model: the constant is a few model calls' worth.

A case fails on a mutant when, compared with its baseline run:

- an expected witness that held on the baseline is lost (for a robustness case: the fault it
  survived on the baseline now breaks it);
- the run ends differently (another termination reason: `completed` became `crash`,
  `max_turns`, ...);
- the deterministic oracles find a failure of the system the baseline run did not have;
- the run could not be carried out at all (the model under test, or the harness, refused: a
  scripted model asked for a handoff the mutant removed).

A case whose baseline could not run is not counted, and is not run on the mutants.

A mutant is killed when at least one case fails on it, survived otherwise, and not applicable
when the target's adapter cannot apply it. The score of an operator is killed / (killed +
survived). Equivalent mutants (ones no input can tell apart from the target) are not detected:
they count as survivors, so a score is a lower bound.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from masfuzz.errors import MasfuzzError
from masfuzz.generate.suite import Suite, SuiteCase, check_case
from masfuzz.spec.mutants import DESCRIPTIONS
from masfuzz.oracles.detectors import detect
from masfuzz.scenario import Mutation, Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import Trace

EQUIVALENT_NOTE = ("equivalent mutants are not detected: a mutant no input can tell apart from "
                   "the target counts as a survivor, so each score is a lower bound")

Execute = Callable[[Scenario], Awaitable[Trace]]


BY_BASELINE, BY_RUN = "baseline", "run"  # which bound a run on a mutant had (`TimeLimit.bound`)


@dataclass(frozen=True)
class MutantLimits:
    """How long a case may run on a mutant: `factor` x its baseline's time + `constant` seconds,
    at most `run_limit` (the run's own limit, --timeout, when the scenario sets none)."""

    factor: float
    constant: float
    run_limit: float

    def for_case(self, scenario: Scenario, baseline_seconds: float) -> "TimeLimit":
        own = scenario.timeout or self.run_limit
        relative = self.factor * baseline_seconds + self.constant
        if relative < own:
            return TimeLimit(relative, BY_BASELINE,
                             f"{self.factor:g}x the baseline's {baseline_seconds:.1f} s + {self.constant:g} s")
        return TimeLimit(own, BY_RUN, f"the run's time limit, {own:g} s")

    def as_dict(self) -> dict[str, Any]:
        return {"factor": self.factor, "constant": self.constant, "run_limit": self.run_limit}


@dataclass(frozen=True)
class TimeLimit:
    """The time limit of one case's runs on the mutants, and which bound it is."""

    seconds: float
    bound: str  # BY_BASELINE or BY_RUN
    text: str  # the rule, in words: "2x the baseline's 3.1 s + 60 s"


@dataclass
class CaseRun:
    """What one case showed on one system (the target or a mutant)."""

    passed: bool = False
    lost: list[str] = field(default_factory=list)
    termination: str | None = None
    failures: dict[str, str] = field(default_factory=dict)  # fingerprint -> "category: description"
    error: str = ""  # the run could not be carried out (raised instead of giving a trace)
    seconds: float = 0.0  # the run's own time (its trace's wall time: no wait for a worker)


def observe_case(case: SuiteCase, trace: Trace, spec: WorkflowSpec | None) -> CaseRun:
    outcome = check_case(case, trace)
    failures = {f.fingerprint: f"{f.category}: {f.description}" for f in detect(trace, spec)
                if f.attribution == "sut"}
    end = trace.termination
    return CaseRun(outcome.passed, list(outcome.lost), end.reason if end else None, failures,
                   seconds=trace.usage.wall_time)


def timed_out(base: CaseRun, mutant: CaseRun) -> bool:
    """The run on the mutant was ended by its time limit where the baseline's ended by itself."""
    return not mutant.error and mutant.termination == "timeout" and base.termination != "timeout"


def why_failed(base: CaseRun, mutant: CaseRun, limit: TimeLimit) -> str | None:
    """Why the case fails on the mutant, judged against its baseline run (`limit`: the time
    limit the run on the mutant had); None: it does not."""
    if mutant.error:
        return f"the run could not be carried out: {mutant.error}"
    if timed_out(base, mutant):  # first: what it lost, it lost by being cut short
        if limit.bound == BY_BASELINE:
            return f"ran past {limit.text}: did not end as the target does (timeout)"
        return f"ended timeout ({limit.text}) instead of {base.termination}"
    if base.passed and not mutant.passed:
        return f"lost {', '.join(mutant.lost)}"
    if mutant.termination != base.termination:
        return f"ended {mutant.termination} instead of {base.termination}"
    new = [text for key, text in mutant.failures.items() if key not in base.failures]
    if new:
        return f"new failure {new[0]}" + (f" (+{len(new) - 1} more)" if len(new) > 1 else "")
    return None


def _kill(case: str, base: CaseRun, mutant: CaseRun, limit: TimeLimit) -> dict[str, Any] | None:
    """The kill row of a case that fails on a mutant (None: it does not); one the time limit
    ended says which bound it had (`baseline`: relative to the baseline, `run`: the run's own)."""
    why = why_failed(base, mutant, limit)
    if why is None:
        return None
    row = {"case": case, "why": why}
    if timed_out(base, mutant):
        row["bound"] = limit.bound
    return row


async def _observed(execute: Execute, case: SuiteCase, scenario: Scenario,
                    spec: WorkflowSpec | None) -> CaseRun:
    try:
        trace = await execute(scenario)
    except MasfuzzError as exc:
        return CaseRun(error=str(exc).splitlines()[0][:300])
    return observe_case(case, trace, spec)


async def analyse(suite: Suite, execute: Execute, spec: WorkflowSpec,
                  mutants: dict[str, list[Mutation]], problems: dict[Mutation, str | None], *,
                  limits: MutantLimits, sut_model: str | None = None, suite_name: str = "",
                  target: str = "") -> dict[str, Any]:
    """The mutation report's data. `mutants`: operator -> its mutants; `problems`: mutant -> why
    it cannot apply (None: it applies); `limits`: how long a case may run on a mutant."""
    cases = suite.cases
    scenarios = [c.scenario.model_copy(update={"sut_model": sut_model}) if sut_model else c.scenario
                 for c in cases]
    runnable = [m for ms in mutants.values() for m in ms if not problems.get(m)]

    async def case_runs(i: int) -> tuple[CaseRun, TimeLimit | None, dict[Mutation, CaseRun]]:
        base = await _observed(execute, cases[i], scenarios[i], spec)
        if base.error:
            return base, None, {}
        limit = limits.for_case(scenarios[i], base.seconds)
        on = scenarios[i].model_copy(update={"timeout": limit.seconds})
        results = await asyncio.gather(*(
            _observed(execute, cases[i], on.model_copy(update={"mutant": m}), spec) for m in runnable))
        return base, limit, dict(zip(runnable, results))

    per_case = await asyncio.gather(*(case_runs(i) for i in range(len(cases))))
    baseline = [base for base, _, _ in per_case]
    usable = [i for i, r in enumerate(baseline) if not r.error]

    operators: dict[str, Any] = {}
    surviving: list[str] = []
    for op, ms in mutants.items():
        rows = []
        for m in ms:
            if problems.get(m):
                rows.append({"mutant": m.label, "status": "not applicable", "reason": problems[m]})
                continue
            kills = [_kill(cases[i].id, baseline[i], per_case[i][2][m], per_case[i][1])  # type: ignore[arg-type]
                     for i in usable]
            kills = [k for k in kills if k is not None]
            rows.append({"mutant": m.label, "status": "killed" if kills else "survived",
                         "killed_by": kills})
            if not kills:
                surviving.append(m.label)
        killed = sum(r["status"] == "killed" for r in rows)
        survived = sum(r["status"] == "survived" for r in rows)
        na = [r for r in rows if r["status"] == "not applicable"]
        scored = killed + survived
        operators[op] = {
            "description": DESCRIPTIONS.get(op, ""),
            "mutants": len(rows), "killed": killed, "survived": survived,
            "not_applicable": len(na), "score": killed / scored if scored else None,
            "status": ("scored" if scored else
                       "not applicable" if na else f"no mutant on {spec.system.id}"),
            **({"reason": na[0]["reason"]} if na and not scored else {}),
            "results": rows,
        }
    killed = sum(o["killed"] for o in operators.values())
    scored = killed + sum(o["survived"] for o in operators.values())
    return {
        "suite": suite_name, "target": target, "framework": spec.system.framework,
        "cases": len(cases),
        "baseline": {"runs": len(baseline), "usable": len(usable),
                     "errors": [{"case": cases[i].id, "error": r.error}
                                for i, r in enumerate(baseline) if r.error],
                     "times": [{"case": cases[i].id, "seconds": round(baseline[i].seconds, 3),
                                "mutant_limit": round(limit.seconds, 3), "bound": limit.bound}
                               for i, (_, limit, _) in enumerate(per_case) if limit is not None]},
        "mutant_time_limit": limits.as_dict(),
        "executions": len(baseline) + len(usable) * len(runnable),
        "score": killed / scored if scored else None, "killed": killed, "scored": scored,
        "operators": operators, "surviving": surviving, "note": EQUIVALENT_NOTE,
    }
