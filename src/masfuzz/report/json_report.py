"""Versioned JSON report: the analysis as data, for CI and other tools."""

from __future__ import annotations

import json
from typing import Any

from masfuzz import __version__
from masfuzz.report.analysis import Analysis, warnings
from masfuzz.report.base import Reporter

REPORT_FORMAT_VERSION = 1
LIST_LIMIT = 10_000  # per criterion; beyond it the list is cut and marked truncated


class JsonReporter(Reporter):
    format = "json"

    def render(self, analysis: Analysis, *, obligations: bool = False) -> str:
        return json.dumps(self.data(analysis, obligations=obligations), indent=2) + "\n"

    def data(self, analysis: Analysis, *, obligations: bool = False) -> dict[str, Any]:
        spec = analysis.spec
        data: dict[str, Any] = {
            "format": "masfuzz-report",
            "format_version": REPORT_FORMAT_VERSION,
            "masfuzz_version": __version__,
        }
        if spec is not None and analysis.structure is not None and analysis.space is not None:
            data["system"] = spec.system.model_dump(mode="json")
            data["structure"] = {
                **{k: v for k, v in vars(analysis.structure).items()},
                "restrict_mode": spec.permissions.restrict_mode,
                "by_criterion": analysis.space.counts(),
            }
            data["notes"] = list(spec.notes)
        if analysis.coverage is not None:
            data["coverage"] = {
                "scenarios": analysis.scenarios,
                "criteria": {
                    r.criterion: {"kind": r.kind, "covered": r.covered, "total": r.total,
                                  "ratio": r.ratio}
                    for r in analysis.criteria()
                },
                "total": vars(analysis.coverage.total()),
                "gated": {"criteria": "C1+C2+C4", "covered": analysis.gated()[0],
                          "total": analysis.gated()[1], "percent": round(analysis.coverage_percent(), 3)},
                "unexpected": analysis.coverage.unexpected,
            }
        if obligations and analysis.space is not None:
            data["obligations"] = self._obligations(analysis)
        data["failures"] = analysis.failures  # always there: [] says none was found
        if warnings(analysis):
            data["warnings"] = warnings(analysis)
        data.update(analysis.extra)
        return data

    def _obligations(self, analysis: Analysis) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for oset in analysis.space.sets():
            items = []
            for i, ob in enumerate(oset):
                if i == LIST_LIMIT:
                    break
                item: dict[str, Any] = {"id": ob.id, "kind": ob.kind, "endpoints": list(ob.endpoints)}
                if analysis.coverage is not None:
                    item["witnessed_by"] = analysis.coverage.witnessed(ob)
                items.append(item)
            out[oset.criterion] = {"total": len(oset), "truncated": len(oset) > LIST_LIMIT,
                                   "items": items}
        return out
