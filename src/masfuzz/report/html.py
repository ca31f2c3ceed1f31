"""The HTML report: one self-contained file a person opens in a browser, offline or as a CI
artifact. Everything is inline (styles, the script, the SVG drawings) and the page's content
security policy forbids fetching anything, so what it shows is what the file holds.

It renders the same `Analysis` the other reporters do: the coordination graph coloured by
coverage, the obligation table with the scenarios that witnessed each obligation, coverage over
the campaign, FLARE's path and behaviour coverage, the failures grouped by category and root
cause with who and when (the blamed agent, the decisive event marked in the trace) and the trace
events that show them, and the tool-fuzzing findings with the arguments
that reproduce them. The view model is built here; `templates/report.html.j2` lays it out.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from typing import Any

from masfuzz import __version__
from masfuzz.report import graph_svg, plot_svg
from masfuzz.report.analysis import Analysis, warnings
from masfuzz.report.base import Reporter
from masfuzz.report.fuzzing import usage_rows
from masfuzz.report.json_report import LIST_LIMIT
from masfuzz.report.text import oracles, who_and_when
from masfuzz.report.phases import phase_lines, phase_words, phases_of
from masfuzz.trace import Trace

EVENT_TEXT_LIMIT = 4000  # characters of one event shown; the store keeps the whole of it


class HtmlReporter(Reporter):
    format = "html"

    def render(self, analysis: Analysis, *, obligations: bool = False) -> str:
        import jinja2

        env = jinja2.Environment(loader=jinja2.PackageLoader("masfuzz.report", "templates"),
                                 autoescape=True, trim_blocks=True, lstrip_blocks=True,
                                 undefined=jinja2.StrictUndefined)
        return env.get_template("report.html.j2").render(page=page(analysis))


def page(a: Analysis) -> dict[str, Any]:
    """Everything the template shows, as plain data."""
    run = a.extra.get("run") or {}
    own = [f for f in a.failures if f.get("attribution", "sut") == "sut"]
    criteria = a.criteria()
    return {
        "title": f"masfuzz report: {run.get('target') or (a.spec.system.id if a.spec else 'tools')}",
        "version": __version__,
        "run": {**run, "started": _when(run.get("started")), "finished": _when(run.get("finished")),
                "config": json.dumps(run.get("config") or {}, indent=1, sort_keys=True)} if run else None,
        "system": a.spec.system.model_dump(mode="json") if a.spec else None,
        "notes": list(a.spec.notes) if a.spec else [],
        "warnings": warnings(a),
        "scenarios": a.scenarios,
        "criteria": [{"id": r.criterion, "name": a.criterion_name(r.criterion), "covered": r.covered,
                      "total": r.total, "percent": _pct(r.covered, r.total)} for r in criteria],
        "gated": {"covered": a.gated()[0], "total": a.gated()[1],
                  "percent": f"{a.coverage_percent():.1f}"} if a.coverage else None,
        "failure_count": len(own),
        "set_aside_count": len(a.failures) - len(own),
        "graph": graph_svg.render(a.graph, a.coverage) if a.graph else None,
        "graph_nodes": len(a.graph.agents) + len(a.graph.tools) if a.graph else 0,
        "plot": plot_svg.render(a.timeline, {r.criterion: r.total for r in criteria}),
        "plot_flare": plot_svg.render_flare(a.timeline, _flare_totals(a.extra.get("fuzz"))),
        "obligations": _obligations(a),
        "fuzz": a.extra.get("fuzz"),
        "generation": a.extra.get("generation"),
        "replayed": a.extra.get("replayed") or [],
        # every phase with how it ended; shown when one did not simply end done
        "phases": [{**p, "words": phase_words(p)} for p in phases_of(a)],
        "phases_shown": bool(phase_lines(phases_of(a))),
        "groups": _groups(own, a.traces),
        "set_aside": _groups([f for f in a.failures if f not in own], a.traces),
        "rejected": a.extra.get("rejected_proposals") or [],
        "tools": _tools(a.extra.get("tools")),
        "usage": usage_rows(a.extra.get("usage") or []),
    }


def _flare_totals(fuzz: dict[str, Any] | None) -> dict[str, int]:
    if not fuzz:
        return {}
    row = fuzz["table1"]
    # behaviours as FLARE's column A counts them: the anomalies included
    return {"paths": row["path"]["total"], "behaviours": row["behaviour"]["A"]["total"]}


def _obligations(a: Analysis) -> list[dict[str, Any]]:
    if a.space is None:
        return []
    rows = []
    for oset in a.space.sets():
        for i, ob in enumerate(oset):
            if i == LIST_LIMIT:  # a closed-world C3 can be |agents| x |tools|: the JSON's cap
                rows.append({"criterion": oset.criterion, "id": None, "more": len(oset) - LIST_LIMIT})
                break
            rows.append({"criterion": oset.criterion, "id": ob.id, "kind": ob.kind,
                         "endpoints": " → ".join(ob.endpoints),
                         "status": graph_svg.status(a.coverage, ob),
                         "witnesses": a.coverage.witnessed(ob) if a.coverage else []})
    return rows


def _groups(failures: list[dict[str, Any]], traces: dict[int, Trace]) -> list[dict[str, Any]]:
    """Failures by category, then root cause; each with its trace's events."""
    by: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for f in failures:
        by[(f["category"], f.get("root_cause") or "-")].append(f)
    out = []
    for (category, cause), members in sorted(by.items()):
        items = []
        for f in members:
            trace = traces.get(f.get("execution_id"))
            evidence = set(f.get("evidence") or ())
            items.append({
                **{k: f.get(k) for k in ("fingerprint", "detector", "description", "severity",
                                         "confidence", "attribution", "because", "scenario_id",
                                         "input", "clause", "agent", "step", "step_ref", "decided_by",
                                         "shared_process")},
                "who_and_when": who_and_when(f), "found_by": oracles(f),
                # the text report's words, as JUnit's skip message has them
                "why_set_aside": "" if f.get("attribution", "sut") == "sut"
                else f"caused by the {f['attribution']}, not the app",
                "elements": list(f.get("elements") or ()),
                "configuration": json.dumps(f.get("configuration") or {}, sort_keys=True)
                if f.get("configuration") else "",
                "events": _events(trace, evidence, f.get("step")) if trace else [],
                "termination": (trace.termination.reason if trace and trace.termination else None),
            })
        out.append({"category": category, "root_cause": cause, "failures": items})
    return out


def _events(trace: Trace, evidence: set[int], step: int | None = None) -> list[dict[str, Any]]:
    rows = []
    for i, e in enumerate(trace.events):
        d = e.model_dump(mode="json", by_alias=True)
        kind = d.pop("type")
        t = d.pop("t", 0.0)
        who = d.pop("agent", None) or ""
        if kind == "message":
            text = f"[{d.get('role')}] {d.get('content', '')}"
        elif kind in ("tool_call", "restricted_attempt"):
            text = f"{d.get('tool')}({json.dumps(d.get('arguments') or {}, ensure_ascii=False)})"
        elif kind == "tool_result":
            text = f"{d.get('tool')} → {d.get('status')}: {d.get('payload', '')}" + (
                f" (injected fault: {d['fault']})" if d.get("fault") else "")
        elif kind == "delegation":
            who, text = d.get("from", ""), f"→ {d.get('to')} ({d.get('trigger')})"
        elif kind == "error":
            text = f"{d.get('kind')}: {d.get('message', '')}"
        elif kind == "agent_turn":
            text = ""
        elif kind == "termination":
            text = f"{d.get('reason')}" + (f": {d['detail']}" if d.get("detail") else "")
        else:
            text = json.dumps(d, ensure_ascii=False, sort_keys=True)
        if len(text) > EVENT_TEXT_LIMIT:
            text = text[:EVENT_TEXT_LIMIT] + f"… ({len(text) - EVENT_TEXT_LIMIT} more characters)"
        rows.append({"index": i, "t": f"{t:.2f}", "type": kind, "agent": who, "text": text,
                     "evidence": i in evidence, "decisive": i == step})
    return rows


def _tools(section: dict[str, Any] | None) -> dict[str, Any] | None:
    if not section:
        return None
    findings = []
    for f in section.get("findings") or []:
        findings.append({**{k: f.get(k) for k in ("tool", "kind", "exception", "message", "frame",
                                                  "user_request", "confirmed", "fingerprint", "because")},
                         "attribution": f.get("attribution", "sut"),
                         "arguments": json.dumps(f.get("arguments"), ensure_ascii=True, default=str)})
    session = section.get("session") or {}
    handled = [{"tool": t.get("tool"), "count": h.get("count"), "message": h.get("message", ""),
                "arguments": json.dumps(h.get("arguments"), ensure_ascii=True, default=str)}
               for t in session.get("tools", []) for h in t.get("returned_errors") or []]
    return {"findings": findings, "own": sum(1 for f in findings if f["attribution"] == "sut"),
            "handled": handled, "tools": [
                {k: t.get(k) for k in ("tool", "kind", "calls", "ok", "failed", "blocked", "unique_errors")}
                for t in session.get("tools", [])]}


def _pct(covered: int, total: int) -> str:
    return f"{100 * covered / total:.1f}" if total else "100.0"


def _when(stamp: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(stamp)) if stamp else "-"
