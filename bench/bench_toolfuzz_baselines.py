"""masfuzz's tool fuzzing against plain Hypothesis + hypothesis-jsonschema (issue 16).

Both engines call each tool the same way, through the same sandbox (a fresh `Sandbox` per tool,
engine and seed) and the same bookkeeping (`fuzzer.record`), so only the generation differs:
- hypothesis: `from_schema(tool.schema)`, drawn with Hypothesis's own `@seed`, every call through
  the framework's calling path;
- masfuzz: `fuzz_tool` (the mixture of parts, priors, tainting, steering).

Each engine's unique errors (exception type, innermost frame of the tool's code, tool) are counted
against ground truth: `toolfuzz_labels.yaml` beside this file labels each known error of each tool,
by reading the tool's code, as a real bug (the tool breaks on input its documentation allows, or
raises where its siblings return an error), a documented rejection (it refuses, as documented or
as its library's convention says, input it does not take), or the environment's (it fails on what
the sandbox takes away). Per engine and budget it prints, as medians over the seeds, the distinct
real bugs found and the non-bugs reported (rejections and the environment's, reported as the
tool's findings), apart; the errors no label names (to be labelled: read the tool); those masfuzz
set aside as its own or the settings'; the lines of the tools' code the calls ran and the time.
Then each label with how many seeds of each engine found it.

    python bench/bench_toolfuzz_baselines.py [--budgets 50] [--seeds 0,1,2,3,4] [--tools NAME,...]
        [--workers 2] [--save runs.json] [--load runs.json]

`--save` writes each engine's and seed's errors as it finishes; `--load` counts a saved run
against the labels again without running anything (after a label is added or corrected).

The tools: the shipped LangChain community tools (examples/tools/langchain_tools.py, the
`toolfuzz-langchain` extra, which includes `langchain-experimental` for the Python REPL and shell
tools) and the shipped tools of smolagents, llama-index, agno and PydanticAI
(examples/tools/library_tools.py, the `toolfuzz-libs` extra), and CrewAI's where crewai is
installed (crewai_tools.py); those not installed are skipped, with a line saying so.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from hypothesis_jsonschema import from_schema

from masfuzz.loader import load_target
from masfuzz.toolfuzz.fuzzer import GENERATING, FuzzResult, fuzz_tool, record
from masfuzz.toolfuzz.generate import draw
from masfuzz.toolfuzz.sandbox import Sandbox
from masfuzz.toolfuzz.targets import collect_tools
from masfuzz.toolfuzz.tools import FuzzTool, wrap_tool

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "tools"
LABELS = Path(__file__).with_name("toolfuzz_labels.yaml")


def load_tools(only: set[str] | None) -> list[FuzzTool]:
    tools, _ = collect_tools(load_target(str(EXAMPLES / "langchain_tools.py:TOOLS")).obj, "langchain_tools.py:TOOLS")
    try:
        from langchain_experimental.tools import PythonAstREPLTool, PythonREPLTool  # type: ignore
        from langchain_community.tools import ShellTool

        tools += [wrap_tool(PythonREPLTool()), wrap_tool(PythonAstREPLTool()), wrap_tool(ShellTool())]
    except Exception as exc:  # not installed: say so
        print(f"skip Python REPL and shell tools: {type(exc).__name__}: {str(exc)[:90]}")
    for spec in ("library_tools.py:TOOLS", "crewai_tools.py:TOOLS"):  # loaded natively, where installed
        try:
            tools += collect_tools(load_target(str(EXAMPLES / spec)).obj, spec)[0]
        except Exception as exc:
            print(f"skip {spec}: {type(exc).__name__}: {str(exc)[:90]}")
    return [t for t in tools if only is None or t.name in only]


def plain_hypothesis(tool: FuzzTool, calls: int, seed: int, box: Sandbox) -> FuzzResult:
    result = FuzzResult(tool.name, seed)
    try:
        strategy = from_schema(tool.schema)
    except Exception as exc:  # a schema hypothesis-jsonschema rejects: nothing to draw
        print(f"   hypothesis: {tool.name}: from_schema failed: {exc}")
        return result
    with GENERATING:  # Hypothesis is not to be entered by two threads at once (fuzzer.GENERATING)
        drawn = draw(strategy, calls, seed)
    for arguments in drawn:
        if isinstance(arguments, dict):
            record(result, tool, arguments, box.call(arguments))
    return result


def masfuzz(tool: FuzzTool, calls: int, seed: int, box: Sandbox) -> FuzzResult:
    return fuzz_tool(tool, calls=calls, seed=seed, sandbox=box)


ENGINES = {"hypothesis": plain_hypothesis, "masfuzz": masfuzz}


@dataclass(frozen=True)
class Label:
    """One known error of one tool, labelled by reading the tool's code (toolfuzz_labels.yaml)."""
    tool: str
    error: str  # the exception type masfuzz keys it by
    where: str  # a part of the innermost frame ("file.py:function"), or "" for any
    message: str  # a regular expression the raw message matches, or "" for any
    kind: str  # real_bug | documented_rejection | environment
    why: str

    def matches(self, tool: str, error: str, frame: str, message: str) -> bool:
        return (tool == self.tool and error == self.error and self.where in frame
                and (not self.message or re.search(self.message, message) is not None))


KINDS = ("real_bug", "documented_rejection", "environment")


def load_labels(path: Path) -> tuple[list[Label], set[str]]:
    """The labels, and every tool the file covers (one with no known error has none)."""
    data = yaml.safe_load(path.read_text())
    labels = []
    for tool, entries in (data.get("tools") or {}).items():
        for e in entries or ():
            if e["kind"] not in KINDS:
                raise SystemExit(f"{path}: {tool}: kind {e['kind']!r} is not one of {KINDS}")
            labels.append(Label(tool, e["error"], e.get("where", ""), e.get("message", ""), e["kind"],
                                e.get("why", "")))
    return labels, set(data.get("tools") or {})


def errors_of(result: FuzzResult) -> list[dict[str, str]]:
    """What one engine's run reported for one tool: every unique error, with whose it is."""
    return [{"tool": result.tool, "error": u.key.error_type, "frame": u.key.frame,
             "message": u.message[:500], "attribution": u.attribution} for u in result.unique.values()]


def count(errors: list[dict[str, str]], labels: list[Label]) -> dict[str, set]:
    """The labels a run's reported errors hit, by kind; its errors no label names; and the errors
    masfuzz set aside as its own or the settings' (not reported as the tool's)."""
    out: dict[str, set] = {k: set() for k in (*KINDS, "unlabelled", "set_aside")}
    for e in errors:
        if e["attribution"] != "sut":
            out["set_aside"].add((e["tool"], e["error"], e["frame"]))
            continue
        hit = next((lb for lb in labels if lb.matches(e["tool"], e["error"], e["frame"], e["message"])), None)
        if hit is None:
            shown = json.dumps(e["message"].splitlines()[0][:100] if e["message"] else "")  # one escaped line
            out["unlabelled"].add((e["tool"], e["error"], e["frame"], shown))
        else:
            out[hit.kind].add(hit)
    return out


def run(tools: list[FuzzTool], budgets: list[int], seeds: list[int], workers: int,
        save: Path | None = None) -> dict[str, Any]:
    """runs[budget][engine][seed] = {errors, seconds, lines}. `workers` (engine, seed) runs at
    once, each tool in a sandbox of its own (as `masfuzz tools --workers`): the same results.
    With `save`, each finished run is written there at once (a cut run keeps what it did)."""
    runs: dict[str, Any] = {}
    lock = threading.Lock()

    def one(budget: int, name: str, seed: int) -> None:
        errors: list[dict[str, str]] = []
        secs, lines = 0.0, 0
        for tool in tools:
            t0 = time.perf_counter()
            with Sandbox(tool) as box:
                result = ENGINES[name](tool, budget, seed, box)
            secs += time.perf_counter() - t0
            errors += errors_of(result)
            lines += result.lines_reached()
        print(f"   {budget} calls, {name}, seed {seed}: {len(errors)} unique errors, {secs:.0f} s", flush=True)
        with lock:
            runs.setdefault(str(budget), {}).setdefault(name, {})[str(seed)] = {
                "errors": errors, "seconds": secs, "lines": lines}
            if save is not None:
                save.write_text(json.dumps({"tools": [t.name for t in tools], "runs": runs}))

    jobs = [(b, name, s) for b in budgets for s in seeds for name in ENGINES]  # both engines per seed first
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(lambda job: one(*job), jobs))
    return runs


def report(runs: dict[str, Any], labels: list[Label], covered: set[str], tools: list[str]) -> None:
    from summary import record as record_figure  # not fuzzer.record

    labels = [lb for lb in labels if lb.tool in tools]  # those of the tools this run fuzzed
    print(f"\n{len(labels)} labels over {len(covered & set(tools))} tools "
          f"({sum(lb.kind == 'real_bug' for lb in labels)} real bugs); with no known error: "
          f"{', '.join(sorted(covered & set(tools) - {lb.tool for lb in labels})) or 'none'}; "
          f"not read yet: {', '.join(sorted(set(tools) - covered)) or 'none'}")
    print(f"\n{'calls':>5} {'engine':<11} {'real bugs':>10} {'per seed':>16} {'union':>6} "
          f"{'non-bugs':>9} {'per seed':>16} {'unlabelled':>10} {'set aside':>9} {'lines':>6} {'seconds':>8}")
    for budget, engines in runs.items():
        found: dict[str, dict[str, list[dict[str, set]]]] = {}
        for name, per in engines.items():
            seeds = sorted(per, key=int)
            counts = [count(per[s]["errors"], labels) for s in seeds]
            found[name] = {"counts": counts}  # type: ignore[dict-item]
            real = [len(c["real_bug"]) for c in counts]
            non = [len(c["documented_rejection"]) + len(c["environment"]) for c in counts]
            union = set().union(*(c["real_bug"] for c in counts))
            print(f"{budget:>5} {name:<11} {statistics.median(real):>10g} {str(real):>16} {len(union):>6} "
                  f"{statistics.median(non):>9g} {str(non):>16} "
                  f"{statistics.median(len(c['unlabelled']) for c in counts):>10g} "
                  f"{statistics.median(len(c['set_aside']) for c in counts):>9g} "
                  f"{statistics.median(per[s]['lines'] for s in seeds):>6g} "
                  f"{statistics.median(per[s]['seconds'] for s in seeds):>8.1f}")
        for kind, title in (("real_bug", "real bugs"), ("documented_rejection", "non-bugs: documented rejections"),
                            ("environment", "non-bugs: the environment's")):
            rows = [lb for lb in labels if lb.kind == kind]
            print(f"      {title} (seeds that found it, of {len(next(iter(engines.values())))}: "
                  + ", ".join(found) + ")")
            for lb in rows:
                hits = [sum(lb in c[kind] for c in found[name]["counts"]) for name in found]
                if any(hits):
                    print(f"         {str(hits):>8}  {lb.tool}: {lb.error} @ {lb.where or '*'}  -- {lb.why}")
            missed = [lb for lb in rows if not any(lb in c[kind] for name in found for c in found[name]["counts"])]
            if missed:
                print(f"         not found by either: " + "; ".join(f"{lb.tool}: {lb.error}" for lb in missed))
        unlabelled = {u for name in found for c in found[name]["counts"] for u in c["unlabelled"]}
        for tool, error, frame, message in sorted(unlabelled):
            print(f"      unlabelled: {tool}: {error} @ {frame}: {message}")
        med = {name: statistics.median(len(c["real_bug"]) for c in found[name]["counts"]) for name in found}
        non = {name: statistics.median(len(c["documented_rejection"]) + len(c["environment"])
                                       for c in found[name]["counts"]) for name in found}
        if {"masfuzz", "hypothesis"} <= set(med):
            record_figure(f"tool fuzzing at {budget} calls: labelled real bugs, masfuzz / hypothesis",
                          f"{med['masfuzz']:g} / {med['hypothesis']:g}", "more", med["masfuzz"] > med["hypothesis"],
                          note=f"median over seeds, {len(tools)} tools, labels in toolfuzz_labels.yaml")
            record_figure(f"tool fuzzing at {budget} calls: labelled non-bugs reported, masfuzz / hypothesis",
                          f"{non['masfuzz']:g} / {non['hypothesis']:g}", "fewer", None,
                          note="documented rejections and the environment's failures, median over seeds")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--budgets", default="50")
    ap.add_argument("--seeds", default="0,1,2,3,4")
    ap.add_argument("--tools", default="", help="comma list of tool names (default: all)")
    ap.add_argument("--labels", default=str(LABELS))
    ap.add_argument("--workers", type=int, default=2, help="engine-and-seed runs at once")
    ap.add_argument("--save", default="", help="write the runs' errors to this JSON file")
    ap.add_argument("--load", default="", help="count a saved run against the labels, running nothing")
    args = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    labels, covered = load_labels(Path(args.labels))
    start = time.perf_counter()
    if args.load:
        saved = json.loads(Path(args.load).read_text())
        runs, names = saved["runs"], saved["tools"]
    else:
        budgets = [int(b) for b in args.budgets.split(",")]
        seeds = [int(s) for s in args.seeds.split(",")]
        tools = load_tools(set(args.tools.split(",")) if args.tools else None)
        names = [t.name for t in tools]
        print(flush=True); print(f"{len(tools)} tools: {', '.join(names)}; seeds {seeds}")
        runs = run(tools, budgets, seeds, args.workers, Path(args.save) if args.save else None)
    report(runs, labels, covered, names)
    print(f"\ntotal {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
