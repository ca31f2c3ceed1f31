"""SARIF 2.1.0: the app's failures as code-scanning results, beside the findings about its code.

One rule per failure category; each result is located at the definition of the agent it is
blamed on (else of the agent or tool it is about: the extractors record file and line), with the
blamed agent first among the agents and tools as logical locations, the decisive step and the
oracles that found it in its properties, and carries masfuzz's fingerprint as a partial fingerprint so dashboards de-duplicate it across
runs. Severity maps to SARIF's level (high: error, medium: warning, low: note). Findings caused
by masfuzz or the settings are left out: they are not about the app's code. The proposals the
judge agent rejected are notifications of the invocation (level note), never results.
"""

from __future__ import annotations

import json
from typing import Any

from masfuzz import __version__
from masfuzz.oracles.failure import CATEGORY_NAMES, Failure
from masfuzz.report.analysis import Analysis, warnings
from masfuzz.report.base import Reporter

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {"high": "error", "medium": "warning", "low": "note", "info": "none"}


class SarifReporter(Reporter):
    format = "sarif"

    def render(self, analysis: Analysis, *, obligations: bool = False) -> str:
        return json.dumps(self.data(analysis), indent=2) + "\n"

    def data(self, analysis: Analysis) -> dict[str, Any]:
        rules = [{"id": category, "name": "".join(w.title() for w in name.split()),
                  "shortDescription": {"text": name}}
                 for category, name in CATEGORY_NAMES.items()]
        index = {r["id"]: i for i, r in enumerate(rules)}
        results = [self._result(f, analysis, index) for f in analysis.failures
                   if f.get("attribution", "sut") == "sut"]
        run: dict[str, Any] = {
            "tool": {"driver": {"name": "masfuzz", "version": __version__, "rules": rules}},
            "results": results,
        }
        # said, not results: the run's warnings, and the proposals the judge agent rejected
        # (no failures of the app, so never code-scanning alerts)
        said = [{"level": "warning", "message": {"text": w}} for w in warnings(analysis)] + [
            {"level": "note", "message": {"text": r["text"]}, "descriptor": {"id": "rejected-proposal"},
             "properties": {"scenario": r["scenario_id"]}}
            for r in analysis.extra.get("rejected_proposals") or ()]
        if said:
            run["invocations"] = [{"executionSuccessful": True, "toolExecutionNotifications": said}]
        return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}

    def _result(self, f: dict[str, Any], analysis: Analysis, index: dict[str, int]) -> dict[str, Any]:
        failure = Failure.model_validate(f)
        result: dict[str, Any] = {
            "ruleId": failure.category, "ruleIndex": index[failure.category],
            "level": LEVEL[failure.severity],
            "message": {"text": f"{failure.root_cause}: {failure.description}"},
            "partialFingerprints": {"masfuzzFailure/v1": failure.fingerprint},
            "properties": {"root_cause": failure.root_cause, "detector": failure.detector,
                           "found_by": list(failure.oracles), "decided_by": failure.decided_by,
                           "agent": failure.agent,
                           "step": failure.step, "step_ref": failure.step_ref,
                           "severity": failure.severity, "confidence": failure.confidence,
                           "evidence": list(failure.evidence), "scenario": failure.scenario_id},
        }
        location = self._location(failure, analysis)
        if location:
            result["locations"] = [location]
        return result

    def _location(self, failure: Failure, analysis: Analysis) -> dict[str, Any] | None:
        spec = analysis.spec
        agents = {a.id: a for a in spec.agents} if spec else {}
        tools = {t.id: t for t in spec.tools} if spec else {}
        # the blamed agent first (located at its definition), then the others the failure names
        blamed = [failure.agent] if failure.agent else []
        named = list(dict.fromkeys(blamed + [e for e in failure.elements if e in agents or e in tools]))
        if not named:
            return None
        location: dict[str, Any] = {"logicalLocations": [
            {"name": e, "kind": "function" if e in tools else "object"} for e in named]}
        for e in named:
            found = tools.get(e) or agents.get(e)
            source = found.source if found is not None else None
            if source is not None:
                region = {"startLine": source.line} if source.line else {}
                location["physicalLocation"] = {"artifactLocation": {"uri": source.file},
                                                **({"region": region} if region else {})}
                break
        return location
