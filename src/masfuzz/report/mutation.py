"""The mutation analysis of a suite (`masfuzz mutate`): its data (`masfuzz.mutate.analysis`)
rendered as text. Data first; `--format json` prints the data itself."""

from __future__ import annotations

from typing import Any


def _score(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def mutation_text(data: dict[str, Any]) -> str:
    """Per operator: killed/scored and the score (or why it was not scored); then the overall
    score, the surviving mutants and the cases the baseline could not run."""
    out = [f"masfuzz mutate {data['target']} --suite {data['suite']}  "
           f"({data['cases']} case(s), {data['framework']}, {data['executions']} execution(s))"]
    width = max([len(op) for op in data["operators"]] + [8])
    out.append(f"{'operator'.ljust(width)}  killed/scored  score")
    for op, o in data["operators"].items():
        if o["status"] != "scored":
            reason = o.get("reason") or o["status"]
            out.append(f"{op.ljust(width)}  {'-':>13}  {'-':>5}  {reason}")
            continue
        extra = f"  ({o['not_applicable']} not applicable)" if o["not_applicable"] else ""
        out.append(f"{op.ljust(width)}  {o['killed']:>6}/{o['killed'] + o['survived']:<6}  "
                   f"{_score(o['score']):>5}  {o['description']}{extra}")
    out.append(f"mutation score: {_score(data['score'])} ({data['killed']} of {data['scored']} "
               "scored mutant(s) killed)")
    if data["surviving"]:
        out.append("surviving mutants:")
        out += [f"  {label}" for label in data["surviving"]]
    t = data["mutant_time_limit"]
    out.append(f"time limit on a mutant: {t['factor']:g}x the case's time on the target + "
               f"{t['constant']:g} s, at most {t['run_limit']:g} s (a run past it is a kill)")
    for e in data["baseline"]["errors"]:
        out.append(f"note: case {e['case']} could not run on the target itself and is not "
                   f"counted: {e['error']}")
    out.append(f"note: {data['note']}")
    return "\n".join(out) + "\n"


def killed_text(data: dict[str, Any]) -> str:
    """Which case killed each killed mutant, and why (the first case; the count of the rest)."""
    out = []
    for o in data["operators"].values():
        for r in o["results"]:
            if r["status"] == "killed":
                first = r["killed_by"][0]
                more = f" (+{len(r['killed_by']) - 1} case(s))" if len(r["killed_by"]) > 1 else ""
                out.append(f"  {r['mutant']}: {first['case']} {first['why']}{more}")
    return ("killed mutants:\n" + "\n".join(out) + "\n") if out else ""
