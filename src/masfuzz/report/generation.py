"""The generation part of a `cover` report: bundles, attempts, unrealized objectives, model
calls per obligation, suite sizes and fault robustness. Data first; text is rendered from it."""

from __future__ import annotations

from typing import Any

from masfuzz.report.records import PlannedBundle, StructuralRecord


def generation_section(store: Any, run_id: int, spec: Any, info: dict[str, Any],
                       usage: list[dict[str, Any]]) -> dict[str, Any]:
    """The structural phase's part of a run: the bundles it planned and which it realized, as
    its record says (`StructuralRecord`), each bundle's recorded attempts, and the fault
    re-runs."""
    summary = info.get("summary") or {}
    record = StructuralRecord.of_summary(summary) or _replanned(spec, info, store, run_id)
    by_bundle: dict[str, list[dict[str, Any]]] = {}
    for a in store.attempts(run_id):
        by_bundle.setdefault(a["bundle_id"], []).append(a)
    accepted = dict(record.realized)
    realized, unrealized = [], []
    for b in record.bundles:
        tried = sorted(by_bundle.get(b.id, []), key=lambda a: a["number"])
        if b.id in accepted:
            chosen = next((a for a in reversed(tried) if a["scenario_id"] == accepted[b.id]), tried[-1])
            realized.append({"bundle": b.label, "obligations": list(b.obligations),
                             "attempts": len(tried), "scenario": accepted[b.id],
                             "input": chosen["text"]})
        else:
            unrealized.append({"bundle": b.label, "obligations": list(b.obligations),
                               "attempts": [{"text": a["text"], "verdict": a["verdict"]}
                                            for a in tried], "unfinished": b.id in record.unfinished})
    faults = [{"agent": f["agent"], "tool": f["tool"], "mode": f["mode"], "holds": bool(f["holds"]),
               "reasons": list(f["reasons"]), "scenario": f["scenario_id"]}
              for f in store.fault_runs(run_id)]
    shown = witnessed_by_scenario(store.coverage_items(run_id), {f["scenario"] for f in faults})
    for r in realized:  # what the accepted scenario showed, its own bundle's and beyond: its case
        r["witnessed"] = list(dict.fromkeys([*r["obligations"], *shown.get(r["scenario"], [])]))
    incidental = incidental_witnesses(shown, realized)
    seen = {ob: w["scenario"] for w in incidental for ob in w["obligations"]}
    for u in unrealized:  # what other scenarios showed of it, kept in the suite all the same
        u["witnessed_by"] = {ob: seen[ob] for ob in u["obligations"] if ob in seen}
    tester_calls = sum(u["calls"] for u in usage if u["role"] == "tester")
    n_obl = record.objectives
    return {
        "objectives": n_obl,
        "bundles": len(record.bundles),
        "suite_size": {"bundled": len(record.bundles), "one_per_objective": n_obl,
                       "cases_written": len(realized) + len(incidental) + len(faults)},
        "realized": realized,
        "incidental": incidental,
        "unrealized": unrealized,
        "tester_model_calls": tester_calls,
        "tester_calls_per_obligation": round(tester_calls / n_obl, 3) if n_obl else 0.0,
        "fault_runs": faults,
        "wall_time": round(float(summary.get("wall_time", 0.0)), 3),
        "executions": summary.get("executions", {"run": 0, "reused_from_store": 0}),
        "stopped": _stopped(summary),
        "suite": summary.get("suite"),
        "run_id": run_id,
    }


def _replanned(spec: Any, info: dict[str, Any], store: Any, run_id: int) -> StructuralRecord:
    """The record of a run stored before its structural phase wrote one: its bundles planned
    again from its configuration, a bundle realized when its last attempt was accepted."""
    from masfuzz.graph.objectives import plan

    config, summary = info["config"], info.get("summary") or {}
    criteria = tuple(c.strip() for c in str(config.get("criteria", "C1,C2,C3,C4")).split(","))
    _, objs, bundles = plan(spec, criteria=criteria, merge=config.get("bundle", True))
    last: dict[str, dict[str, Any]] = {}
    for a in sorted(store.attempts(run_id), key=lambda a: a["number"]):
        last[a["bundle_id"]] = a
    return StructuralRecord(
        objectives=len(objs),
        bundles=tuple(PlannedBundle(b.id, str(b), b.obligation_ids) for b in bundles),
        realized=tuple((b.id, last[b.id]["scenario_id"]) for b in bundles
                       if b.id in last and last[b.id]["reward"] == 1),
        unfinished=tuple(summary.get("unfinished") or ()))


def _stopped(summary: dict[str, Any]) -> str | None:
    """Why the budget stopped the structural phase (its own result, where the run kept one)."""
    for p in summary.get("phases") or ():
        if p["phase"] == "structural":
            return p["reason"].removeprefix("budget: ") if p["status"] == "stopped" else None
    return summary.get("stopped")


def witnessed_by_scenario(contexts: dict[str, list[str]], fault_scenarios: set[str]) -> dict[str, list[str]]:
    """scenario id -> the obligations its execution witnessed (a fault re-run tests robustness,
    it is no witness)."""
    from masfuzz.graph.obligations import Obligation

    shown: dict[str, list[str]] = {}
    for item, sids in contexts.items():
        if Obligation.is_id(item):
            for sid in sids:
                if sid not in fault_scenarios:
                    shown.setdefault(sid, []).append(item)
    return shown


def incidental_witnesses(shown: dict[str, list[str]], realized: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Scenarios to keep beyond the realized bundles' so that the suite reproduces every
    obligation the run witnessed: an obligation seen only in an attempt that was not accepted
    (a bundle's failed attempt reached it) would otherwise count as covered with nothing to
    replay it. Greedy: the scenario witnessing the most still-unkept obligations first (the
    first such in execution order on a tie)."""
    kept = {r["scenario"] for r in realized}
    left = {ob for obs in shown.values() for ob in obs} - {ob for r in realized for ob in r["witnessed"]}
    out = []
    while left:
        sid = max((s for s in shown if s not in kept), key=lambda s: len(left & set(shown[s])), default=None)
        if sid is None or not left & set(shown[sid]):
            break
        obs = [ob for ob in shown[sid] if ob in left]
        out.append({"scenario": sid, "obligations": obs})
        kept.add(sid)
        left -= set(obs)
    return out


def generation_text(data: dict[str, Any]) -> str:
    s = data["suite_size"]
    out = [
        "",
        f"generation: {data['objectives']} objectives -> {data['bundles']} bundles "
        f"(suite size bundled {s['bundled']} vs one per objective {s['one_per_objective']})",
        f"  tester model calls: {data['tester_model_calls']}  "
        f"({data['tester_calls_per_obligation']:.2f} per obligation)",
        f"  wall time: {data['wall_time']:.1f} s; executions: {data['executions']['run']} run, "
        f"{data['executions']['reused_from_store']} reused from the store",
    ]
    for r in data["realized"]:
        out.append(f"  witnessed   {r['bundle']}  [{r['attempts']} attempt(s)] {r['input']!r}")
    for w in data.get("incidental", []):
        out.append(f"  witnessed   {', '.join(w['obligations'])} by {w['scenario']}, an attempt "
                   "made for another objective (kept in the suite)")
    for r in data["unrealized"]:
        seen = r.get("witnessed_by") or {}
        note = f"; witnessed all the same by {', '.join(sorted(set(seen.values())))}" if seen else ""
        if r.get("unfinished"):  # not given all its attempts: the budget ended the phase
            out.append(f"  UNFINISHED  {r['bundle']}  after {len(r['attempts'])} attempt(s): the "
                       f"budget stopped the phase before its last attempt{note}")
        else:
            out.append(f"  UNREALIZED  {r['bundle']}  after {len(r['attempts'])} attempt(s){note}")
        for i, a in enumerate(r["attempts"], 1):
            out.append(f"      {i}. {a['text']!r} -> {a['verdict']}")
    if data["fault_runs"]:
        out.append("  fault robustness (W^F1, §IV-G)")
        for f in data["fault_runs"]:
            mark = "holds" if f["holds"] else "FAILS: " + "; ".join(f["reasons"])
            out.append(f"    {f['agent']} -> {f['tool']} under {f['mode']}: {mark}")
    if data.get("stopped"):
        out.append(f"  stopped early: {data['stopped']}")
    if data.get("suite"):
        out.append(f"  suite written to {data['suite']} ({s['cases_written']} case(s))")
    return "\n".join(out) + "\n"
