"""Cost of isolation: per-execution time with the warm worker pool ÷ in-process, same run.

The shipped examples run with their scripted models through both executors, interleaved round
by round so machine load hits both alike; the first execution of each (opening the target,
starting the worker) is left out of both. Target: <= 1.15.

    .venv/bin/python bench/bench_isolation.py [--rounds 40]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = [
    ("customer_service", "examples/customer_service/app.py:triage_agent",
     "scripted/examples/customer_service/policy.py:policy",
     ["How much luggage can I bring? Also change my seat to 3A, booking XYZ789",
      "Please change my seat to 14C, confirmation ABC123", "Is there wifi on board?"]),
    ("video_team", "examples/video_team/team.py:selector_team",
     "scripted/examples/video_team/policy.py:policy",
     ["Make a 30-second video about the water cycle.", "Make a short video about volcanoes."]),
    ("research_graph", "examples/research_graph/graph.py:graph",
     "scripted/examples/research_graph/policy.py:policy",
     ["How does the water cycle work?", "Why is the sky blue?"]),
]


async def measure(rounds: int) -> None:
    from masfuzz.exec import make_executor
    from masfuzz.scenario import Scenario

    ratios = []
    for name, target, policy, inputs in EXAMPLES:
        inproc = make_executor("inprocess", timeout=120)
        pool = make_executor("pool", timeout=120)
        scenarios = [Scenario(input=text, sut_model=policy) for text in inputs]
        for ex in (inproc, pool):  # warm up: open the target, start the worker
            await ex.run(target, scenarios[0])
        times: dict[str, list[float]] = {"inprocess": [], "pool": []}
        for r in range(rounds):
            sc = scenarios[r % len(scenarios)]
            order = (inproc, pool) if r % 2 == 0 else (pool, inproc)
            for ex in order:
                t0 = time.perf_counter()
                trace = await ex.run(target, sc)
                times[ex.kind].append(time.perf_counter() - t0)
                assert trace.termination is not None and trace.termination.reason not in ("crash", "timeout"), \
                    (name, ex.kind, trace.termination)
        await pool.aclose()
        a, b = statistics.median(times["inprocess"]), statistics.median(times["pool"])
        ratios.append(b / a)
        print(f"{name:<17} in-process {a * 1000:7.1f} ms  pool {b * 1000:7.1f} ms  "
              f"pool / in-process {b / a:5.3f}  ({rounds} executions each, medians)")
    overall = statistics.geometric_mean(ratios)
    print(f"overall pool / in-process {overall:.3f} (geometric mean) target <= 1.15")
    from summary import record

    record("isolation: pool / in-process execution time", overall, "<= 1.15", overall <= 1.15,
           note="geometric mean")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=40)
    args = ap.parse_args()
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    asyncio.run(measure(args.rounds))


if __name__ == "__main__":
    main()
