"""`masfuzz tools` on the blind tool zoo (bench/tool_zoo): per tool, the labelled real bugs found
and missed and the non-bugs reported as the tool's; overall recall and false findings, for
runtime and correctness failures apart.

The zoo's tools were written as strangers write tools — plain functions, LangChain `@tool`s, an
Agents SDK `function_tool`, a PydanticAI `Tool`, an MCP server — each seeded one with a fixed
twin (`NAME_fixed`), and some that reject, as documented, input their documentation excludes.
Their ground truth is in `toolfuzz_labels.yaml` (`tools:` for runtime errors, by the rules of
`bench_toolfuzz_baselines.py`; `correctness:` for documentation that makes answers wrong).

Runtime: each file is fuzzed as `masfuzz tools FILE` would, --calls calls a tool, for each seed.
A reported error of the tool's own (attribution `sut`) that a `real_bug` label names is found; one
a `documented_rejection` or `environment` label names, or that no label names, is a false
finding (the unlabelled are listed: read the tool, label them). Correctness: the tools of the
`correctness:` labels with `--correctness`, the tester and the agent being the zoo's scripted
models (tool_zoo/policies.py, which act on each tool's documentation); a tool with an erroneous
prompt set, or a documented example it answers otherwise, is flagged.

    python bench/bench_toolfuzz_zoo.py [--calls 60] [--seeds 0] [--workers 2] [--only FILE,...]
        [--no-correctness] [--zoo DIR]

`--zoo` points at another zoo folder (bench/tool_zoo2, written apart from the first): its files
are every module but `policies.py` (the scripted models) and `__init__.py`, a `*_server.py` one
being an MCP server over stdio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_toolfuzz_baselines import LABELS, load_labels  # noqa: E402

from masfuzz.api import tools  # noqa: E402

ZOO = HERE / "tool_zoo"
FILES = ["hr_leave.py", "music.py", "invoicing.py", "documents.py", "shipping.py", "kitchen.py",
         "finance.py", "contacts.py", "marine.py", "venue_server.py"]
POLICIES = f"scripted/{ZOO / 'policies.py'}"


def use_zoo(folder: Path) -> None:
    """Bench another zoo folder: its modules, its own scripted models."""
    global ZOO, FILES, POLICIES
    ZOO = folder.resolve()
    FILES = sorted(p.name for p in ZOO.glob("*.py") if p.name not in ("__init__.py", "policies.py"))
    POLICIES = f"scripted/{ZOO / 'policies.py'}"


def _zoo_name() -> str:
    """The summary's name for the zoo benched ("tool zoo" for the first, as it always was)."""
    return "tool zoo" if ZOO.name == "tool_zoo" else ZOO.name.replace("_", " ")


def is_server(name: str) -> bool:
    return name == "venue_server.py" or name.endswith("_server.py")


def target_of(name: str) -> str:
    path = ZOO / name
    return f"mcp:{sys.executable} {path}" if is_server(name) else str(path)


def runtime(files: list[str], calls: int, seeds: list[int], workers: int) -> dict[str, list[list[dict]]]:
    """errors[tool] = per seed, the tool's reported errors (those set aside as masfuzz's or the
    settings' included, with their attribution)."""
    errors: dict[str, list[list[dict]]] = {}
    for name in files:
        for seed in seeds:
            t0 = time.perf_counter()
            data = tools(target_of(name), calls=calls, seed=seed, workers=workers, store=":memory:")
            for t in data["tools"]:
                errors.setdefault(t["tool"], []).append(t["errors"])
            print(f"   {name}, seed {seed}: {len(data['tools'])} tools, {time.perf_counter() - t0:.0f} s",
                  file=sys.stderr, flush=True)
    return errors


def score_runtime(errors: dict[str, list[list[dict]]]) -> None:
    labels, covered = load_labels(LABELS)
    print(f"\nRUNTIME  {'tool':<26} {'bugs':>4} {'found':>5} {'missed':>6} {'false':>5}  (medians over seeds)")
    totals = {"bugs": 0, "found": [], "false": [], "unlabelled": set()}
    per_seed_found: list[int] = []
    per_seed_false: list[int] = []
    for tool, seeds in errors.items():
        mine = [lb for lb in labels if lb.tool == tool]
        bugs = [lb for lb in mine if lb.kind == "real_bug"]
        found, false, notes = [], [], []
        for i, reported in enumerate(seeds):
            hit, wrong = set(), 0
            for e in reported:
                if e["attribution"] != "sut":
                    continue  # set aside as masfuzz's or the settings': not reported as the tool's
                lb = next((lb for lb in mine if lb.matches(tool, e["error_type"], e["frame"], e["message"])), None)
                if lb is not None and lb.kind == "real_bug":
                    hit.add(lb)
                else:
                    wrong += 1
                    why = lb.kind if lb else "UNLABELLED"
                    notes.append(f"{why}: {e['error_type']} @ {e['frame']}: {e['message'][:90]!r}")
                    if lb is None:
                        totals["unlabelled"].add((tool, e["error_type"], e["frame"]))
            found.append(len(hit))
            false.append(wrong)
            while len(per_seed_found) <= i:
                per_seed_found.append(0)
                per_seed_false.append(0)
            per_seed_found[i] += len(hit)
            per_seed_false[i] += wrong
        missed = [lb for lb in bugs if all(lb not in _hits(tool, s, mine) for s in seeds)]
        print(f"         {tool:<26} {len(bugs):>4} {statistics.median(found):>5g} "
              f"{statistics.median(len(bugs) - f for f in found):>6g} {statistics.median(false):>5g}"
              + ("" if tool in covered else "   (no labels: read it)"))
        for lb in missed:
            print(f"            missed: {lb.error} @ {lb.where or '*'} -- {lb.why}")
        for n in sorted(set(notes)):
            print(f"            false:  {n}")
        totals["bugs"] += len(bugs)
    found_m = statistics.median(per_seed_found) if per_seed_found else 0
    false_m = statistics.median(per_seed_false) if per_seed_false else 0
    recall = found_m / totals["bugs"] if totals["bugs"] else 0.0
    print(f"RUNTIME total: {totals['bugs']} labelled real bugs, found {found_m:g} (recall {recall:.0%}), "
          f"false findings {false_m:g} ({len(totals['unlabelled'])} of them unlabelled); per seed found "
          f"{per_seed_found}, false {per_seed_false}")
    from summary import record

    record(f"{_zoo_name()}: runtime recall on labelled real bugs", f"{recall:.0%}", "more", None,
           note=f"{totals['bugs']} bugs, bench/{ZOO.name}")
    record(f"{_zoo_name()}: runtime false findings", false_m, "fewer", None,
           note="documented rejections and unlabelled errors reported as the tool's")


def _hits(tool: str, reported: list[dict], mine: list) -> set:
    return {lb for e in reported if e["attribution"] == "sut" for lb in mine
            if lb.kind == "real_bug" and lb.matches(tool, e["error_type"], e["frame"], e["message"])}


def correctness(seed: int, workers: int) -> None:
    truth = yaml.safe_load(LABELS.read_text()).get("correctness") or {}
    by_file: dict[str, list[str]] = {}
    for name in truth:
        for f in FILES:
            if not is_server(f) and f"def {name}(" in (ZOO / f).read_text():
                by_file.setdefault(f, []).append(name)
    print(f"\nCORRECTNESS {'tool':<24} {'defect':>6} {'flagged':>7} {'sets':>4}  verdict")
    found = missed = false = 0
    for f, names in by_file.items():
        data = tools(target_of(f), tool=names, calls=5, seed=seed, workers=workers, store=":memory:",
                     correctness=True, model=f"{POLICIES}:tester", sut_model=f"{POLICIES}:agent", no_cache=True)
        for t in data["tools"]:
            c = t["correctness"] or {}
            flagged = bool(c.get("erroneous_sets") or c.get("wrong_examples"))
            defect = bool(truth[t["tool"]]["defect"])
            verdict = ("found" if flagged else "MISSED") if defect else ("FALSE" if flagged else "ok")
            found += defect and flagged
            missed += defect and not flagged
            false += flagged and not defect
            checks = "; ".join(f"args {'=' if s['arguments_consistent'] else '!='} out "
                               f"{'=' if s['outputs_consistent'] else '!='} oracle {s['scores']}"
                               for s in c.get("sets", []))
            checks += "".join(f"; example {e['call']} {'agrees' if e['agrees'] else 'WRONG'}"
                              for e in c.get("examples", []))
            print(f"            {t['tool']:<24} {str(defect):>6} {str(flagged):>7} {len(c.get('sets', [])):>4}  "
                  f"{verdict}  [{checks}]")
    defects = found + missed
    print(f"CORRECTNESS total: {defects} labelled defects, found {found} (recall "
          f"{found / defects if defects else 0:.0%}), false findings {false}")
    from summary import record

    record(f"{_zoo_name()}: correctness recall on labelled doc defects", f"{found}/{defects}", "more", None)
    record(f"{_zoo_name()}: correctness false findings", false, "fewer", None)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=60)
    ap.add_argument("--seeds", default="0")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", default="", help="comma list of zoo files (default: all)")
    ap.add_argument("--no-correctness", action="store_true")
    ap.add_argument("--zoo", default="", help="another zoo folder (default: bench/tool_zoo)")
    args = ap.parse_args()
    if args.zoo:
        use_zoo(Path(args.zoo))
    files = [f for f in FILES if not args.only or f in args.only.split(",")]
    seeds = [int(s) for s in args.seeds.split(",")]
    start = time.perf_counter()
    score_runtime(runtime(files, args.calls, seeds, args.workers))
    if not args.no_correctness:
        correctness(seeds[0], args.workers)
    print(f"\ntotal {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
