"""The suite file: realized scenarios with the structural evidence they must keep producing.

A versioned YAML (or JSON) document. Each case holds the exact `Scenario` (input, models, seed,
faults, restricted mode), the obligation ids whose witnesses it produced, and the attempt
history that led to it; unrealized bundles are kept with every attempt, so the next person can
see what was tried. `replay` re-executes the cases and says which witnesses still hold.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from masfuzz.coverage.structural import observe
from masfuzz.errors import MasfuzzError
from masfuzz.safeload import load_json, load_yaml
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
        """Write the suite atomically: a reader (or a crash) never sees half a file."""
        from masfuzz.redact import redact_data

        path = Path(path)
        data = redact_data(self.to_data())  # model strings may carry credentials
        if path.suffix == ".json":
            text = json.dumps(data, indent=2) + "\n"
        else:
            text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
        except OSError as exc:  # a folder masfuzz may not write, a full disk: the run is in the store
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise MasfuzzError(f"{path}: cannot write the suite ({exc.strerror or exc}); the run is kept in "
                               "the run store: give a --suite PATH masfuzz can write, or `masfuzz report` "
                               "the store") from None
        return path


def load_suite(path: str | Path) -> Suite:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MasfuzzError(f"{path}: no such suite file") from None
    except UnicodeDecodeError as exc:
        raise MasfuzzError(f"{path}: not a readable suite: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise MasfuzzError(f"{path}: cannot read the suite ({exc.strerror or exc})") from None
    try:
        data = load_json(text) if path.suffix == ".json" else load_yaml(text)[0]
    except (ValueError, yaml.YAMLError) as exc:
        raise MasfuzzError(f"{path}: not a readable suite: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict) or data.get("format") != SUITE_FORMAT:
        raise MasfuzzError(f"{path}: not a masfuzz suite (format: {SUITE_FORMAT} missing)")
    if data.get("format_version") != SUITE_FORMAT_VERSION:
        raise MasfuzzError(
            f"{path}: suite format_version {data.get('format_version')!r}, this masfuzz reads "
            f"{SUITE_FORMAT_VERSION}"
        )
    for key, kind, name in (("cases", list, "a list"), ("unrealized", list, "a list"),
                            ("system", dict, "a mapping"), ("models", dict, "a mapping"),
                            ("target", str, "a string")):
        if data.get(key) is not None and not isinstance(data[key], kind):
            raise MasfuzzError(f"{path}: {key}: {name} is expected, not {type(data[key]).__name__}")
    cases = []
    for i, c in enumerate(data.get("cases") or []):
        try:
            scenario = Scenario.model_validate(c["scenario"])
            if scenario.input is None:  # only a black-box command carries its own task
                raise ValueError("the scenario has no input")
            cases.append(SuiteCase(c["id"], c.get("kind", "witness"), c.get("title", ""),
                                   scenario, list(c["expected"]), list(c.get("attempts") or [])))
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
        from masfuzz.oracles.robustness import robustness_witness

        [exp] = case.expected
        _, agent, tool = exp.split("::")
        v = robustness_witness(trace, agent=agent, tool=tool)
        # A robustness case checks for regressions against what the campaign saw: one that
        # failed then is a known finding, not a witness lost on the first replay.
        recorded = bool(case.attempts[0].get("holds", True)) if case.attempts else True
        if v.holds:
            return CaseOutcome(case, trace, [exp], [], "" if recorded else "fixed: it failed when recorded")
        if not recorded:
            return CaseOutcome(case, trace, [exp], [], "still fails, as recorded (a known finding): "
                               + "; ".join(v.reasons))
        return CaseOutcome(case, trace, [], [exp], "; ".join(v.reasons))
    obs = observe(trace)
    held = [e for e in case.expected if obs.witnesses(Obligation.parse(e))]
    lost = [e for e in case.expected if e not in held]
    return CaseOutcome(case, trace, held, lost)


def suite_from_run(store: Any, run_id: int, generation: dict[str, Any], *, target: Any,
                   spec: Any, models: dict[str, str | None], seed: int | None) -> Suite:
    """The suite of a `cover` run, from the store: one case per realized bundle, one per
    scenario kept for what it witnessed beyond the realized bundles (`incidental`), one per fault
    re-run, and every unrealized bundle with its attempts. `target` is a `masfuzz.target.Target`
    (its graph options travel with the suite, so replay and pytest build the same system)."""
    logs: dict[str, list[dict[str, Any]]] = {}
    for a in store.attempts(run_id):
        logs.setdefault(a["bundle"], []).append(
            {"attempt": a["number"], "text": a["text"], "reward": a["reward"], "verdict": a["verdict"]})
    cases: list[SuiteCase] = []
    for r in generation["realized"]:
        scenario = store.scenario(r["scenario"])
        cases.append(SuiteCase(scenario.id, "witness", r["bundle"], scenario,
                               list(r.get("witnessed", r["obligations"])),
                               logs.get(r["bundle"], [])))
    for w in generation.get("incidental", []):
        scenario = store.scenario(w["scenario"])
        cases.append(SuiteCase(scenario.id, "witness", "witnessed by an attempt for another objective",
                               scenario, list(w["obligations"]), []))
    unrealized = [{"bundle": u["bundle"], "obligations": list(u["obligations"]),
                   "attempts": logs.get(u["bundle"], [])} for u in generation["unrealized"]]
    for f in generation["fault_runs"]:
        scenario = store.scenario(f["scenario"])
        cases.append(SuiteCase(scenario.id, "fault", f"W^F1 {f['agent']}->{f['tool']} under {f['mode']}",
                               scenario, [f"robust::{f['agent']}::{f['tool']}"],
                               [{"holds": f["holds"], "reasons": f["reasons"]}]))
    return Suite(target.ref, {"id": spec.system.id, "framework": spec.system.framework}, models,
                 seed, cases, unrealized, orchestration=target.orchestration.to_data() or None)
