"""The generation part of a `cover` report: bundles, attempts, unrealized objectives, model
calls per obligation, suite sizes and fault robustness. Data first; text is rendered from it."""

from __future__ import annotations

from typing import Any


def generation_data(result: Any, *, suite_path: str | None = None) -> dict[str, Any]:
    n_obl = len(result.space)
    return {
        "objectives": result.objectives,
        "bundles": len(result.bundles),
        "suite_size": {"bundled": len(result.bundles), "one_per_objective": result.objectives,
                       "cases_written": len(result.realized) + len(result.fault_runs)},
        "realized": [{"bundle": str(r.bundle), "obligations": list(r.bundle.obligation_ids),
                      "attempts": len(r.attempts), "scenario": r.accepted.scenario.id,
                      "input": r.accepted.text}
                     for r in result.realized],
        "unrealized": [{"bundle": str(r.bundle), "obligations": list(r.bundle.obligation_ids),
                        "attempts": [{"text": a.text, "verdict": a.verdict} for a in r.attempts]}
                       for r in result.unrealized],
        "tester_model_calls": result.tester_calls,
        "tester_calls_per_obligation": round(result.tester_calls / n_obl, 3) if n_obl else 0.0,
        "fault_runs": [{"agent": f.agent, "tool": f.tool, "mode": f.mode, "holds": f.holds,
                        "reasons": f.reasons, "scenario": f.scenario.id}
                       for f in result.fault_runs],
        "wall_time": round(result.wall_time, 3),
        "executions": {"run": result.executed, "reused_from_store": result.reused},
        "suite": suite_path,
        "run_id": result.run_id,
    }


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
    for r in data["unrealized"]:
        out.append(f"  UNREALIZED  {r['bundle']}  after {len(r['attempts'])} attempt(s)")
        for i, a in enumerate(r["attempts"], 1):
            out.append(f"      {i}. {a['text']!r} -> {a['verdict']}")
    if data["fault_runs"]:
        out.append("  fault robustness (W^F1, §IV-G)")
        for f in data["fault_runs"]:
            mark = "holds" if f["holds"] else "FAILS: " + "; ".join(f["reasons"])
            out.append(f"    {f['agent']} -> {f['tool']} under {f['mode']}: {mark}")
    if data.get("suite"):
        out.append(f"  suite written to {data['suite']} ({s['cases_written']} case(s))")
    return "\n".join(out) + "\n"
