"""Concurrent executions: the speedup of 16 workers over 1 on one FLARE campaign, and that the
two runs are the same run.

The customer-service desk runs on a scripted model that waits 100 ms per call, as a hosted model
keeps a caller waiting (tests/campaign/sleepy_policy.py). One campaign of 200 executions (2 seeds
and 198 mutants in batches of 16) runs with --workers 1, then with --workers 16 (both with
--max-connections 16), in the warm worker pool (each execution in a worker process masfuzz can kill). Printed: the worker pool's
start-up, the campaign's wall time, the speedup of the campaign with its workers started
(target >= 12x) and end to end, and whether coverage and failures are identical.

Start-up is shown apart because it is CPU work (each worker imports the agent framework) that a
2-core machine does two at a time, paid once per campaign; the executions themselves wait on the
model, and that is what more workers overlap.

    .venv/bin/python bench/bench_workers.py [--executions 200] [--workers 16]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = "examples/customer_service/app.py:triage_agent"
SUT = "scripted/tests/campaign/sleepy_policy.py:policy"
TESTER = "scripted/examples/testers/template_tester.py:policy"
INPUTS = ["Please change my seat to 14C, confirmation ABC123",
          "How much luggage can I bring? Also change my seat to 3A, booking XYZ789"]
TARGET_SPEEDUP = 12.0


def campaign_run(workers: int, executions: int, folder: Path) -> dict:
    """One FLARE campaign as `masfuzz fuzz` makes it, its worker pool started before the clock."""
    from masfuzz import api
    from masfuzz.campaign import Campaign
    from masfuzz.exec import make_executor
    from masfuzz.report.analysis import analyze
    from masfuzz.scenario import Scenario

    opts = api.options("fuzz", target=TARGET, sut_model=SUT, model=TESTER, input=INPUTS,
                       rounds=executions - len(INPUTS), batch=16, workers=workers, seed=7,
                       max_connections=16,  # a model call per worker at once, as a provider allows
                       seed_tasks=0, no_spec_agent=True, no_judge=True, no_check=True,
                       no_cache=True, executor="pool", store=str(folder / f"w{workers}.db"))
    target, system, models, tester, store, setup, budget = api._fuzz_setup(opts, lambda m: None)
    run_id = store.start_run("fuzz", system.spec, target.ref, api._redacted(setup.config()),
                             seed=opts.seed)
    executor = make_executor("pool", concurrency=workers, timeout=opts.timeout, models=models)
    warm = [Scenario(input=f"Is there wifi on board? ({i})", sut_model=SUT) for i in range(workers)]
    phase = setup.phase()
    campaign = Campaign(target, system.spec, executor, setup.coverage_models(), [phase], store,
                        run_id, seed=opts.seed, budget=budget, detectors=setup.detectors())

    batches: list[list[int]] = []  # SUT model calls of each execution, submission by submission
    execute = campaign.execute

    async def counted(scenarios):
        outcomes = await execute(scenarios)
        batches.append([o.trace.usage.model_calls for o in outcomes if not o.reused])
        return outcomes

    campaign.execute = counted

    async def timed() -> tuple[float, float]:  # one loop: the workers belong to it
        t0 = time.perf_counter()
        await executor.run_many(target, warm)  # every worker started, the target opened
        t1 = time.perf_counter()
        await campaign.run()  # closes the executor (its workers) at the end
        return t1 - t0, time.perf_counter() - t1

    startup, wall = asyncio.run(timed())
    store.finish_run(run_id, "completed", {"fuzz": phase.summary()})
    analysis = analyze(store, run_id)
    order = [scenario.id for _, scenario, _ in store.executions(run_id)]
    calls = sum(map(sum, batches))
    slowest = sum(max(b) for b in batches if b)  # a batch lasts as long as its slowest execution
    return {"startup": startup, "wall": wall, "executions": campaign.recorder.executed,
            "ceiling": calls / slowest if slowest else 0.0,
            "coverage": json.dumps(sorted(campaign.recorder.coverage.seen)),
            "order": json.dumps(order),
            "history": json.dumps(phase.summary()["history"], sort_keys=True),
            "failures": json.dumps(sorted(f["fingerprint"] for f in analysis.failures))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--executions", type=int, default=200)
    parser.add_argument("--workers", type=int, default=16)
    args = parser.parse_args()
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        one = campaign_run(1, args.executions, Path(tmp))
        many = campaign_run(args.workers, args.executions, Path(tmp))
    speedup = one["wall"] / many["wall"]
    end_to_end = (one["startup"] + one["wall"]) / (many["startup"] + many["wall"])
    same = {k: one[k] == many[k] for k in ("coverage", "order", "history", "failures", "executions")}
    print(f"workers: {args.executions} executions, a scripted model waiting 100 ms per call, "
          f"{os.cpu_count()} cores")
    for n, r in ((1, one), (args.workers, many)):
        print(f"  --workers {n:<3} start-up {r['startup']:6.1f} s   campaign {r['wall']:6.1f} s   "
              f"({r['executions']} executions)")
    print(f"  speedup, workers started: {speedup:.1f}x (target >= {TARGET_SPEEDUP:g}x: "
          f"{'met' if speedup >= TARGET_SPEEDUP else 'NOT met'}); end to end, start-up "
          f"included: {end_to_end:.1f}x")
    print("  identical to --workers 1: " + ", ".join(f"{k} {'yes' if v else 'NO'}"
                                                   for k, v in same.items()))
    # The batches bound the speedup whatever the machine: a batch of 16 waits for its slowest
    # execution (6 model calls where the mean is about 4.4), so even with no CPU cost at all
    # 16 workers run it at most (model calls) / (sum of each batch's most calls) times faster.
    print(f"  ceiling of these batches (model waits only, no CPU): {one['ceiling']:.1f}x; "
          f"reached {speedup / one['ceiling']:.0%} of it")
    from summary import record

    record("workers: speedup 16 over 1, workers started", speedup, f">= {TARGET_SPEEDUP:g}x",
           speedup >= TARGET_SPEEDUP, unit="x", note=f"batch ceiling {one['ceiling']:.1f}x")
    record("workers: speedup end to end (start-up included)", end_to_end, "", None, unit="x")
    record("workers: start-up of 16 workers", many["startup"], "", None, unit=" s",
           note=f"{os.cpu_count()} cores")
    record("workers: identical results 16 vs 1", "yes" if all(same.values()) else "NO", "yes",
           all(same.values()))
    return 0 if all(same.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
