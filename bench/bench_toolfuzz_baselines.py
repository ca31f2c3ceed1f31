"""masfuzz's tool fuzzing against plain Hypothesis + hypothesis-jsonschema (issue 16).

Both engines call each tool the same way, through the same sandbox (a fresh `Sandbox` per tool,
engine and seed) and the same bookkeeping (`fuzzer.record`), so only the generation differs:
- hypothesis: `from_schema(tool.schema)`, drawn with Hypothesis's own `@seed`, every call through
  the framework's calling path;
- masfuzz: `fuzz_tool` (the mixture of parts, priors, tainting, steering).

A real (bug, tool) pair is a runtime error, contract violation, crash or hang of the tool's own
(attribution "sut"), keyed by (exception type, innermost tool frame, tool). Other reported items:
failures caused by the sandbox or its settings, and kinds of error message the tool returned
(its error handling, not a finding). Per engine and budget it prints the real pairs of the median
seed, their union over seeds, the other items, the lines of the tools' own code the calls ran
(summed over the tools) and the time, then the pairs one engine found that the other did not (in
any seed).

    python bench/bench_toolfuzz_baselines.py [--budgets 50,200] [--seeds 0,1,2] [--tools NAME,...]

The tools are the shipped LangChain community tools (examples/tools/langchain_tools.py, the
`toolfuzz-langchain` extra, which includes `langchain-experimental` for the Python REPL and shell tools; they
are added when it is installed and skipped, with a line saying so, when it is not.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from hypothesis_jsonschema import from_schema

from masfuzz.loader import load_target
from masfuzz.toolfuzz.fuzzer import FuzzResult, fuzz_tool, record
from masfuzz.toolfuzz.generate import draw
from masfuzz.toolfuzz.sandbox import Sandbox
from masfuzz.toolfuzz.targets import collect_tools
from masfuzz.toolfuzz.tools import FuzzTool, wrap_tool

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "tools"


def load_tools(only: set[str] | None) -> list[FuzzTool]:
    tools, _ = collect_tools(load_target(str(EXAMPLES / "langchain_tools.py:TOOLS")).obj, "langchain_tools.py:TOOLS")
    try:
        from langchain_experimental.tools import PythonAstREPLTool, PythonREPLTool  # type: ignore
        from langchain_community.tools import ShellTool

        tools += [wrap_tool(PythonREPLTool()), wrap_tool(PythonAstREPLTool()), wrap_tool(ShellTool())]
    except Exception as exc:  # not installed: say so
        print(f"skip Python REPL and shell tools: {type(exc).__name__}: {str(exc)[:90]}")
    return [t for t in tools if only is None or t.name in only]


def plain_hypothesis(tool: FuzzTool, calls: int, seed: int, box: Sandbox) -> FuzzResult:
    result = FuzzResult(tool.name, seed)
    try:
        strategy = from_schema(tool.schema)
    except Exception as exc:  # a schema hypothesis-jsonschema rejects: nothing to draw
        print(f"   hypothesis: {tool.name}: from_schema failed: {exc}")
        return result
    for arguments in draw(strategy, calls, seed):
        if isinstance(arguments, dict):
            record(result, tool, arguments, box.call(arguments))
    return result


def masfuzz(tool: FuzzTool, calls: int, seed: int, box: Sandbox) -> FuzzResult:
    return fuzz_tool(tool, calls=calls, seed=seed, sandbox=box)


ENGINES = {"hypothesis": plain_hypothesis, "masfuzz": masfuzz}


def real_pairs(result: FuzzResult) -> set[tuple[str, str, str]]:
    return {(u.key.error_type, u.key.frame, result.tool) for u in result.unique.values()
            if u.attribution == "sut"}


def other_items(result: FuzzResult) -> int:
    return sum(1 for u in result.unique.values() if u.attribution != "sut") + len(result.handled)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--budgets", default="50,200")
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--tools", default="", help="comma list of tool names (default: all)")
    args = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from summary import record as record_figure  # not fuzzer.record

    budgets = [int(b) for b in args.budgets.split(",")]
    seeds = [int(s) for s in args.seeds.split(",")]
    tools = load_tools(set(args.tools.split(",")) if args.tools else None)
    print(flush=True); print(f"{len(tools)} tools: {', '.join(t.name for t in tools)}; seeds {seeds}")
    # runs[budget][engine][seed] = (pairs, other items, seconds, lines reached)
    runs: dict[int, dict[str, dict[int, tuple[set, int, float, int]]]] = {}
    start = time.perf_counter()
    for budget in budgets:
        runs[budget] = {}
        for name, engine in ENGINES.items():
            runs[budget][name] = {}
            for seed in seeds:
                pairs: set[tuple[str, str, str]] = set()
                other, secs, lines = 0, 0.0, 0
                for tool in tools:
                    t0 = time.perf_counter()
                    with Sandbox(tool) as box:
                        result = engine(tool, budget, seed, box)
                    secs += time.perf_counter() - t0
                    pairs |= real_pairs(result)
                    other += other_items(result)
                    lines += result.lines_reached()
                runs[budget][name][seed] = (pairs, other, secs, lines)
    print(f"\n{'calls':>5} {'engine':<11} {'real pairs (median seed)':>25} {'per seed':>12} "
          f"{'union':>6} {'other items':>12} {'lines':>6} {'seconds':>8}")
    for budget in budgets:
        for name in ENGINES:
            per = runs[budget][name]
            counts = [len(per[s][0]) for s in seeds]
            union = set().union(*(per[s][0] for s in seeds))
            print(f"{budget:>5} {name:<11} {statistics.median(counts):>25g} {str(counts):>12} "
                  f"{len(union):>6} {statistics.median(per[s][1] for s in seeds):>12g} "
                  f"{statistics.median(per[s][3] for s in seeds):>6g} "
                  f"{statistics.median(per[s][2] for s in seeds):>8.1f}")
        h, m = runs[budget]["hypothesis"], runs[budget]["masfuzz"]
        med = sorted(seeds, key=lambda s: (len(h[s][0]), s))[len(seeds) // 2]
        missed_med = h[med][0] - m[med][0]
        print(f"      seed {med} (hypothesis's median): pairs hypothesis found and masfuzz did not: "
              f"{len(missed_med)}; in each seed: {[len(h[s][0] - m[s][0]) for s in seeds]}")
        hm, mm = statistics.median(len(h[s][0]) for s in seeds), statistics.median(
            len(m[s][0]) for s in seeds)
        record_figure(f"tool fuzzing at {budget} calls: real pairs, masfuzz / hypothesis",
               f"{mm:g} / {hm:g}", "more", mm > hm,
               note=f"median of seeds {seeds}, {len(tools)} tools")
        missed = max(len(h[s][0] - m[s][0]) for s in seeds)
        record_figure(f"tool fuzzing at {budget} calls: pairs only hypothesis found", missed, "0",
               missed == 0, note="most in any seed")
        hu = set().union(*(h[s][0] for s in seeds))
        mu = set().union(*(m[s][0] for s in seeds))
        for label, diff in (("only hypothesis", hu - mu), ("only masfuzz", mu - hu)):
            for e, frame, tool in sorted(diff, key=lambda p: (p[2], p[0])):
                print(f"      {label}: {tool}: {e} @ {frame}")
    print(f"\ntotal {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
