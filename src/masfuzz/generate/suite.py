"""The suite file: realized scenarios with the structural evidence they must keep producing.

A versioned YAML (or JSON) document. Each case holds the exact `Scenario` (input, models, seed,
faults, restricted mode), the obligation ids whose witnesses it produced, and the attempt
history that led to it; unrealized bundles are kept with every attempt, so the next person can
see what was tried. `replay` re-executes the cases and says which witnesses still hold.
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from masfuzz.coverage.structural import observe
from masfuzz.errors import MasfuzzError
from masfuzz.graph.obligations import Obligation
from masfuzz.scenario import Scenario
from masfuzz.trace import Trace

SUITE_FORMAT = "masfuzz-suite"
SUITE_FORMAT_VERSION = 1


@dataclass
class SuiteCase:
    id: str
    kind: str  # "witness" | "fault"
    title: str
    scenario: Scenario
    expected: list[str]  # obligation ids (witness cases) or ["robust::agent::tool"] (fault)
    attempts: list[dict[str, Any]]


@dataclass
class Suite:
    target: str
    system: dict[str, Any]
    models: dict[str, str | None]
    seed: int | None
    cases: list[SuiteCase]
    unrealized: list[dict[str, Any]]
    created: str = ""
    # `--coordinator`/`--link` of an app that orchestrates agents in plain Python: part of the
    # system under test, so a replay builds the same graph
    orchestration: dict[str, Any] | None = None

    def to_data(self) -> dict[str, Any]:
        return {
            "format": SUITE_FORMAT,
            "format_version": SUITE_FORMAT_VERSION,
            "created": self.created or _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "target": self.target,
            **({"orchestration": self.orchestration} if self.orchestration else {}),
            "system": self.system,
            "models": self.models,
            "seed": self.seed,
            "cases": [
                {"id": c.id, "kind": c.kind, "title": c.title, "expected": c.expected,
                 "scenario": c.scenario.model_dump(mode="json", exclude_defaults=True),
                 "attempts": c.attempts}
                for c in self.cases
            ],
            "unrealized": self.unrealized,
        }

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = self.to_data()
        if path.suffix == ".json":
            path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        else:
            path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100),
                            encoding="utf-8")
        return path


def load_suite(path: str | Path) -> Suite:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MasfuzzError(f"{path}: no such suite file") from None
    try:
        data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (ValueError, yaml.YAMLError) as exc:
        raise MasfuzzError(f"{path}: not a readable suite: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict) or data.get("format") != SUITE_FORMAT:
        raise MasfuzzError(f"{path}: not a masfuzz suite (format: {SUITE_FORMAT} missing)")
    if data.get("format_version") != SUITE_FORMAT_VERSION:
        raise MasfuzzError(
            f"{path}: suite format_version {data.get('format_version')!r}, this masfuzz reads "
            f"{SUITE_FORMAT_VERSION}"
        )
    cases = []
    for i, c in enumerate(data.get("cases") or []):
        try:
            cases.append(SuiteCase(c["id"], c.get("kind", "witness"), c.get("title", ""),
                                   Scenario.model_validate(c["scenario"]), list(c["expected"]),
                                   list(c.get("attempts") or [])))
        except (KeyError, TypeError, ValueError) as exc:
            raise MasfuzzError(f"{path}: cases[{i}]: malformed case ({exc})") from None
    return Suite(data.get("target", ""), data.get("system") or {}, data.get("models") or {},
                 data.get("seed"), cases, list(data.get("unrealized") or []), data.get("created", ""),
                 data.get("orchestration") or None)


@dataclass
class CaseOutcome:
    case: SuiteCase
    trace: Trace
    held: list[str]
    lost: list[str]
    detail: str = ""

    @property
    def passed(self) -> bool:
        return not self.lost


def check_case(case: SuiteCase, trace: Trace) -> CaseOutcome:
    """Do the case's expected witnesses still hold in this trace?"""
    if case.kind == "fault":
        from masfuzz.adapters.faults import robustness_witness

        [exp] = case.expected
        _, agent, tool = exp.split("::")
        v = robustness_witness(trace, agent=agent, tool=tool)
        held, lost = ([exp], []) if v.holds else ([], [exp])
        return CaseOutcome(case, trace, held, lost, "; ".join(v.reasons))
    obs = observe(trace)
    held = [e for e in case.expected if obs.witnesses(Obligation.parse(e))]
    lost = [e for e in case.expected if e not in held]
    return CaseOutcome(case, trace, held, lost)


def suite_from_result(result: Any, *, target: str, spec: Any, models: dict[str, str | None],
                      seed: int | None, orchestration: dict[str, Any] | None = None) -> Suite:
    """The suite of a `cover` run: one case per realized bundle, one per fault re-run, and
    every unrealized bundle with its attempts."""

    def attempt_log(r: Any) -> list[dict[str, Any]]:
        return [{"attempt": a.number, "text": a.text, "reward": a.reward, "verdict": a.verdict}
                for a in r.attempts]

    cases: list[SuiteCase] = []
    unrealized: list[dict[str, Any]] = []
    for r in result.realizations:
        acc = r.accepted
        if acc is not None and acc.scenario is not None:
            cases.append(SuiteCase(acc.scenario.id, "witness", str(r.bundle), acc.scenario,
                                   list(r.bundle.obligation_ids), attempt_log(r)))
        else:
            unrealized.append({"bundle": str(r.bundle), "obligations": list(r.bundle.obligation_ids),
                               "attempts": attempt_log(r)})
    for f in result.fault_runs:
        cases.append(SuiteCase(f.scenario.id, "fault", f"W^F1 {f.agent}->{f.tool} under {f.mode}",
                               f.scenario, [f"robust::{f.agent}::{f.tool}"],
                               [{"holds": f.holds, "reasons": f.reasons}]))
    return Suite(target, {"id": spec.system.id, "framework": spec.system.framework}, models,
                 seed, cases, unrealized, orchestration=orchestration or None)
