"""Unique runtime errors per 100 tool calls, fuzzer alone, on the example tools (issue 6).

Each example tool in examples/tools (the map search, the literature search, the file tools, the
control tool, and the LangChain community tools when the `toolfuzz-langchain` extra is
installed) is fuzzed with --calls calls for each of --seeds seeds, every call in the sandbox.
Prints, per tool and in total: calls, unique errors of the tool's own (mean over seeds; none masfuzz
or the settings caused), UE per 100 calls, TC/UE,
Chao1 with its 95% interval, and the sandboxed call rate.

    python bench/bench_toolfuzz.py [--calls 200] [--seeds 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from masfuzz.loader import load_target
from masfuzz.toolfuzz.fuzzer import fuzz_tool
from masfuzz.toolfuzz.metrics import chao1
from masfuzz.toolfuzz.targets import collect_tools

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "tools"
TARGETS = ["map_search.py:open_street_map_search", "literature_search.py:pubmed_search",
           "file_tools.py", "control.py:celsius_to_fahrenheit", "langchain_tools.py:TOOLS"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()
    tools = []
    for spec in TARGETS:
        try:
            found, _ = collect_tools(load_target(str(EXAMPLES / spec)).obj, spec)
        except Exception as exc:  # the LangChain extra may be absent
            print(f"skip {spec}: {type(exc).__name__}: {str(exc)[:100]}")
            continue
        tools += found
    print(f"{'tool':<26} {'calls':>6} {'UE':>5} {'UE/100':>7} {'TC/UE':>7} {'Chao1 95% CI (last seed)':>26} {'calls/s':>8}")
    total_calls = total_ue = 0
    abundances: list[int] = []
    start_all = time.perf_counter()
    for tool in tools:
        ues, secs, last = [], 0.0, None
        for seed in range(args.seeds):
            t0 = time.perf_counter()
            last = fuzz_tool(tool, calls=args.calls, seed=seed)
            secs += time.perf_counter() - t0
            ues.append(len(last.tool_errors()))
            total_calls += last.calls
            total_ue += len(last.tool_errors())
            abundances += last.abundances()
        ue = statistics.mean(ues)
        c = chao1(last.abundances())
        tc = f"{args.calls / ue:.1f}" if ue else "-"
        print(f"{tool.name:<26} {args.calls:>6} {ue:>5.1f} {100 * ue / args.calls:>7.2f} {tc:>7} "
              f"{c.estimate:>12.1f} {c.interval():>13} {args.calls * args.seeds / secs:>8.0f}")
    wall = time.perf_counter() - start_all
    print(f"total: {len(tools)} tools, {total_calls} calls, {total_ue} unique errors (summed over "
          f"{args.seeds} seeds) = {100 * total_ue / total_calls:.2f} unique runtime errors per 100 tool calls; "
          f"{total_calls / wall:.0f} sandboxed calls/s")
    from summary import record

    record("unique tool errors per 100 calls", 100 * total_ue / total_calls, "", None,
           note=f"{len(tools)} tools, {args.seeds} seeds")


if __name__ == "__main__":
    main()
