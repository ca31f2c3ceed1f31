"""The fuzzing part of a run (FLARE): its Table-1 row and Table-2 root causes, rebuilt from the
store alone — the coverage items every execution recorded (behaviours and paths, the model's
mappings included), the FLARE specification the run used (kept in its summary), the failures,
and the per-execution code coverage when it was measured. No model is called.

Table 1's columns: statement and branch coverage of the target's own code (SC, BC), inter-agent
(path) coverage and intra-agent (behaviour) coverage with anomalies (A) and without (N), and the
failures by symptom: agent relationships (AR), system termination (ST), agent task execution
(TE), tool invocation (TI, restricted tool calls included: FLARE's tool misuse 1) and runtime
crashes (RC).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from masfuzz.oracles.failure import SYMPTOMS

FORMAT_VERSION = 1
SHOWN_ENTRIES = 20  # corpus entries the text report lists (the JSON has them all)


def fuzz_section(store: Any, run_id: int, spec: Any, info: dict[str, Any],
                 failures: list[dict[str, Any]]) -> dict[str, Any]:
    from masfuzz.coverage.behaviour import BehaviourSpace
    from masfuzz.coverage.paths import PathModel, path_item
    from masfuzz.graph.specification import FlareSpec, skeleton

    summary = info.get("summary") or {}
    loop = summary.get("fuzz") or {}
    stored = loop.get("specification")
    flare = FlareSpec.model_validate(stored) if stored else skeleton(spec)
    items = store.coverage_items(run_id)
    space = BehaviourSpace.of(flare)
    behaviour = space.coverage(set(items))
    config = info.get("config") or {}
    paths = PathModel(spec, flare.relationships.dependencies, max_turns=config.get("max_turns"))
    covered, total, truncated = paths.coverage(items)
    own = [f for f in failures if f.get("attribution", "sut") == "sut"]
    symptoms = Counter(SYMPTOMS.get(f["category"], "other") for f in own)
    history = loop.get("history", [])
    return {
        "format_version": FORMAT_VERSION,
        "strategy": loop.get("strategy"),
        "schedule": loop.get("schedule"),
        "table1": {
            **_code(store, run_id),
            "path": {"covered": covered, "total": total, "capped": truncated},
            "behaviour": {k: {"covered": c, "total": t} for k, (c, t) in behaviour.items()},
            "failures": {k: symptoms.get(k, 0) for k in ("AR", "ST", "TE", "TI", "RC")},
            # findings caused by masfuzz or by the user's settings: shown, never counted above
            "set_aside": dict(sorted(Counter(f["attribution"] for f in failures
                                             if f.get("attribution", "sut") != "sut").items())),
        },
        "root_causes": dict(sorted(Counter(f["root_cause"] for f in own).items())),
        "paths_covered": sorted(i for i in items if i.startswith("path::")
                                and i in {path_item(p) for p in paths.space.paths}),
        "behaviours_covered": sorted(set(items) & set(space.ids())),
        "seeds": len(loop.get("seeds", [])),
        "rounds": loop.get("rounds", 0),
        "rounds_with_gain": sum(1 for h in history if h["round"] and h["gain"]),
        "seed_weights": loop.get("seed_weights", {}),
        "operator_weights": loop.get("operator_weights", {}),
        "corpus": _with_lineage(store.corpus(run_id)),
        "dependencies": [list(d) for d in flare.relationships.dependencies],
        "tester": {role: {k: s.get(k) for k in ("calls", "malformed", "cached")}
                   | {"rejected": len(s.get("rejected", [])),
                      "failed": len(s.get("failures", [])),
                      "last_failure": (s.get("failures") or [None])[-1]}
                   for role, s in (loop.get("tester") or {}).items()},
        "shrunk": loop.get("shrunk", {}),
        "usage": store.usage(run_id),
        "history": history,
    }


def _with_lineage(corpus: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each corpus entry with its lineage: the entries from its seed down to it."""
    parents = {e["entry"]: e["parent"] for e in corpus}
    out = []
    for e in corpus:
        line = [e["entry"]]
        while parents.get(line[-1]) is not None and len(line) <= len(corpus):
            line.append(parents[line[-1]])
        out.append({**e, "lineage": line[::-1]})
    return out


def _code(store: Any, run_id: int) -> dict[str, Any]:
    """SC and BC over every execution that measured them (None when none did)."""
    records = [t.meta["code_coverage"] for _, _, t in store.executions(run_id)
               if "code_coverage" in t.meta]
    if not records:
        return {"sc": None, "bc": None}
    from masfuzz.coverage.code import code_coverage

    cov = code_coverage(records)
    return {"sc": cov["sc"], "bc": cov["bc"], "code_files": sorted(cov["files"])}


def fuzz_text(data: dict[str, Any]) -> str:
    row = data["table1"]
    a, n = row["behaviour"]["A"], row["behaviour"]["N"]
    path = row["path"]
    weights = ", ".join(f"{k} {v:.2f}" for k, v in data["operator_weights"].items())
    fails = " ".join(f"{k} {v}" for k, v in row["failures"].items())
    # a run whose FLARE phase never started has no strategy: "(None)" read as one
    strategy = f" ({data['strategy']})" if data.get("strategy") else " (not run)"
    lines = [
        "", f"fuzzing{strategy}: {data['seeds']} seed(s), {data['rounds']} rounds, "
        f"{data['rounds_with_gain']} found something new",
        f"  SC {_pct(row['sc'])}  BC {_pct(row['bc'])}  "
        f"paths {path['covered']}/{path['total']}{'+ (capped)' if path['capped'] else ''}  "
        f"behaviours A {a['covered']}/{a['total']} N {n['covered']}/{n['total']}  failures {fails}"
        + _set_aside(row.get("set_aside", {})),
    ]
    if data["root_causes"]:
        lines.append("  root causes: " + ", ".join(f"{k} {v}" for k, v in data["root_causes"].items()))
    if weights:
        schedule = f" ({data['schedule']} schedule)" if data.get("schedule") else ""  # older runs: none
        lines.append(f"  operator weights{schedule}: {weights}")
    lines += corpus_lines(data.get("corpus", []))
    for role, s in data["tester"].items():
        lines.append(f"  {role}: {s['calls']} call(s), {s.get('failed', 0)} failed, "
                     f"{s['malformed']} malformed, {s['rejected']} rejected"
                     + (", cached" if s.get("cached") else "")
                     + (f" (last failure: {s['last_failure']})" if s.get("last_failure") else ""))
    for fingerprint, r in data.get("shrunk", {}).items():
        lines.append(f"  shrunk {fingerprint}: {r['scenario']} reproduces it with only "
                     f"{', '.join(r['kept']) or 'a new sample of the seed'}"
                     + (f" (reverted: {', '.join(r['reverted'])})" if r["reverted"] else ""))
    lines += usage_lines(data.get("usage", []))
    return "\n".join(lines) + "\n"


def corpus_lines(corpus: list[dict[str, Any]]) -> list[str]:
    """The corpus as it grew: how many seeds, and each mutant that joined, what it found and
    the mutations back to its seed."""
    joined = [e for e in corpus if e["parent"] is not None]
    if not corpus:
        return []
    lines = [f"  corpus: {len(corpus)} entries ({len(corpus) - len(joined)} seed(s), "
             f"{len(joined)} mutant(s) that added coverage)"]
    for e in joined[:SHOWN_ENTRIES]:
        shown = ", ".join(e["gain"][:3]) + (f" and {len(e['gain']) - 3} more" if len(e["gain"]) > 3 else "")
        lines.append(f"    entry {e['entry']} (round {e['round']}, lineage "
                     f"{' > '.join(map(str, e['lineage']))}): {e['mutation']}; found {shown}")
    if len(joined) > SHOWN_ENTRIES:
        lines.append(f"    and {len(joined) - SHOWN_ENTRIES} more (all in --format json)")
    return lines


def usage_lines(usage: list[dict[str, Any]]) -> list[str]:
    """Model use per role: the tester per agent role (calls, tokens, model time); the system
    under test per agent (calls), and its runs' tokens and time as a whole (traces count those
    per run, not per agent)."""
    out = []
    for u in usage_rows(usage):
        if u["role"] == "sut" and u["agent"] != "-":
            out.append(f"  model use, sut {u['agent']}: {u['calls']} call(s) to {u['model']}")
        else:
            who = "sut, all agents" if u["role"] == "sut" else f"tester {u['agent']}"
            # answered from the cache: counted as calls, no tokens or model time spent on them
            cached = f" ({u['cache_hits']} from the cache)" if u.get("cache_hits") else ""
            out.append(f"  model use, {who}: {u['calls']} call(s){cached}, {u['tokens_in']} tokens in, "
                       f"{u['tokens_out']} out, {u['seconds'] or 0:.1f} s")
    return out


def usage_rows(usage: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The usage rows as reports show them: the system's row for all its agents ("-") carries
    the calls counted per agent when its runs did not count them."""
    per_agent = sum(u["calls"] or 0 for u in usage if u["role"] == "sut" and u["agent"] != "-")
    return [{**u, "calls": u["calls"] or per_agent} if u["role"] == "sut" and u["agent"] == "-" else u
            for u in usage]


def _set_aside(counts: dict[str, int]) -> str:
    return f" (set aside, not the app's: {', '.join(f'{n} {who}' for who, n in counts.items())})" \
        if counts else ""


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"
