"""Mutation analysis: run a suite against the target and against each mutant, and score it.

Every case runs once on the target as written (the baseline) and once on each mutant, all
submitted to the executor together (its concurrency bounds how many run at once). A case fails
on a mutant when, compared with its baseline run:

- an expected witness that held on the baseline is lost (for a robustness case: the fault it
  survived on the baseline now breaks it);
- the run ends differently (another termination reason: `completed` became `crash`,
  `max_turns`, ...);
- the deterministic oracles find a failure of the system the baseline run did not have;
- the run could not be carried out at all (the model under test, or the harness, refused: a
  scripted model asked for a handoff the mutant removed).

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
from masfuzz.mutate.operators import DESCRIPTIONS
from masfuzz.oracles.detectors import detect
from masfuzz.scenario import Mutation, Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import Trace

EQUIVALENT_NOTE = ("equivalent mutants are not detected: a mutant no input can tell apart from "
                   "the target counts as a survivor, so each score is a lower bound")

Execute = Callable[[Scenario], Awaitable[Trace]]


@dataclass
class CaseRun:
    """What one case showed on one system (the target or a mutant)."""

    passed: bool = False
    lost: list[str] = field(default_factory=list)
    termination: str | None = None
    failures: dict[str, str] = field(default_factory=dict)  # fingerprint -> "category: description"
    error: str = ""  # the run could not be carried out (raised instead of giving a trace)


def observe_case(case: SuiteCase, trace: Trace, spec: WorkflowSpec | None) -> CaseRun:
    outcome = check_case(case, trace)
    failures = {f.fingerprint: f"{f.category}: {f.description}" for f in detect(trace, spec)
                if f.attribution == "sut"}
    end = trace.termination
    return CaseRun(outcome.passed, list(outcome.lost), end.reason if end else None, failures)


def why_failed(base: CaseRun, mutant: CaseRun) -> str | None:
    """Why the case fails on the mutant, judged against its baseline run; None: it does not."""
    if mutant.error:
        return f"the run could not be carried out: {mutant.error}"
    if base.passed and not mutant.passed:
        return f"lost {', '.join(mutant.lost)}"
    if mutant.termination != base.termination:
        return f"ended {mutant.termination} instead of {base.termination}"
    new = [text for key, text in mutant.failures.items() if key not in base.failures]
    if new:
        return f"new failure {new[0]}" + (f" (+{len(new) - 1} more)" if len(new) > 1 else "")
    return None


async def _observed(execute: Execute, case: SuiteCase, scenario: Scenario,
                    spec: WorkflowSpec | None) -> CaseRun:
    try:
        trace = await execute(scenario)
    except MasfuzzError as exc:
        return CaseRun(error=str(exc).splitlines()[0][:300])
    return observe_case(case, trace, spec)


async def analyse(suite: Suite, execute: Execute, spec: WorkflowSpec,
                  mutants: dict[str, list[Mutation]], problems: dict[Mutation, str | None], *,
                  sut_model: str | None = None, suite_name: str = "",
                  target: str = "") -> dict[str, Any]:
    """The mutation report's data. `mutants`: operator -> its mutants; `problems`: mutant -> why
    it cannot apply (None: it applies)."""
    cases = suite.cases
    scenarios = [c.scenario.model_copy(update={"sut_model": sut_model}) if sut_model else c.scenario
                 for c in cases]
    runnable = [m for ms in mutants.values() for m in ms if not problems.get(m)]
    jobs = [(None, i) for i in range(len(cases))] + [(m, i) for m in runnable for i in range(len(cases))]
    results = await asyncio.gather(*(
        _observed(execute, cases[i], scenarios[i].model_copy(update={"mutant": m}) if m else scenarios[i], spec)
        for m, i in jobs))
    runs: dict[Mutation | None, list[CaseRun]] = {}
    for (m, _), r in zip(jobs, results):
        runs.setdefault(m, []).append(r)
    baseline = runs.get(None, [])
    usable = [i for i, r in enumerate(baseline) if not r.error]

    operators: dict[str, Any] = {}
    surviving: list[str] = []
    for op, ms in mutants.items():
        rows = []
        for m in ms:
            if problems.get(m):
                rows.append({"mutant": m.label, "status": "not applicable", "reason": problems[m]})
                continue
            kills = [{"case": cases[i].id, "why": why}
                     for i in usable if (why := why_failed(baseline[i], runs[m][i])) is not None]
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
                                for i, r in enumerate(baseline) if r.error]},
        "executions": len(jobs),
        "score": killed / scored if scored else None, "killed": killed, "scored": scored,
        "operators": operators, "surviving": surviving, "note": EQUIVALENT_NOTE,
    }
