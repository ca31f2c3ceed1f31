"""Concurrent executions: the speedup of 16 workers over 1, on a FLARE campaign (each --pace) and
on the replay of its executions, and that the runs with 1 and 16 workers are the same runs where
the pace promises it.

The customer-service desk runs on a scripted model that waits 100 ms per call, as a hosted model
keeps a caller waiting (tests/campaign/sleepy_policy.py). Two workloads, each with --workers 1,
then --workers 16 (both with --max-connections 16), in the warm worker pool (each execution in a
worker process masfuzz can kill):

- a FLARE campaign of 200 executions (2 seeds and 198 mutants), at each pace (`--pace`):
  `batch` (batches of --batch, default 64; the weights move after each batch, so a batch lasts
  as long as its slowest worker: the bench prints that ceiling, computed from the model calls
  each execution made, placed on 16 workers as the engine starts them, the seeds with the
  first batch; the same run at 1 and 16 workers), `steady` (28 in flight at 16 workers, 12 of
  them waiting for a worker, a new mutant drawn as soon as the oldest is learnt from, records in
  draw order: the same run for a seed and --workers, so 1 and 16 differ) and `free` (as many in
  flight, a new mutant as soon as any is learnt from, recorded as it ends);
- the replay of those 200 executions as one suite (`masfuzz replay` submits every case at once):
  the executor's own scaling.

Printed for each: the campaign's wall time with the workers started, up to the executor's close
(the pool's end, its workers killed and reaped, is shown apart, as its start-up is, in both
workloads), the speedup (target >= 14x),
whether coverage, failures and traces are identical; for a campaign at 16 workers, how many of its
executions the workers judged where they ran (`Executor.judged`) and whether each got the failures
judging its trace in this process gives, and the slot-seconds its workers sat without a run
while mutants were left to draw (what the mutants waiting in the window are for); the CPU each
execution took at 16 workers,
masfuzz's own process apart from its workers (whose runs are forked, sandboxed processes), and
the speedup that CPU alone allows on this machine's cores; the load average at the start and the
end (the cores are shared); and the pool's start-up, shown apart because it is CPU work (each
worker imports the agent framework) that a 2-core machine does two at a time, paid once per
campaign.

`--persistent N` measures in AFL++'s persistent mode (`masfuzz fuzz --persistent N`: one forked
process of a worker serves up to N runs, the fork paid once per N); every figure is printed
with the mode it was measured in. With N > 1 the replay runs once more at --workers 16 with a
fresh fork per run, and its traces are compared with the persistent ones (AFL++'s stability:
whether what a run leaves in its process changed a later run).

    .venv/bin/python bench/bench_workers.py [--executions 200] [--workers 16] [--batch 64]
                                            [--paces batch,steady,free] [--persistent N]
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
TARGET_SPEEDUP = 14.0


def campaign_run(workers: int, executions: int, batch: int, folder: Path, pace: str = "batch",
                 persistent: int = 1) -> dict:
    """One FLARE campaign as `masfuzz fuzz` makes it, its worker pool started before the clock."""
    from masfuzz import api
    from masfuzz.campaign import Campaign
    from masfuzz.exec import make_executor
    from masfuzz.report.analysis import analyze

    opts = api.options("fuzz", target=TARGET, sut_model=SUT, model=TESTER, input=INPUTS,
                       rounds=executions - len(INPUTS), batch=batch, pace=pace, workers=workers, seed=7,
                       max_connections=16,  # a model call per worker at once, as a provider allows
                       seed_tasks=0, no_spec_agent=True, no_judge=True, no_check=True,
                       no_cache=True, executor="pool", store=str(folder / f"{pace}-w{workers}.db"))
    target, system, models, tester, store, setup = api._fuzz_setup(opts, lambda m: None)
    budget = opts.budget
    run_id = store.start_run("fuzz", system.spec, target.ref, api._redacted(setup.config()),
                             seed=opts.seed)
    executor = make_executor("pool", concurrency=workers, timeout=opts.timeout, models=models,
                             persistent=persistent)
    phase = setup.phase()
    campaign = Campaign(target, system.spec, executor, setup.coverage_models(), [phase], store,
                        run_id, seed=opts.seed, budget=budget, detectors=setup.detectors())

    # each batch's executions: (SUT model calls, its parent's, None for no parent); a batch's
    # mutants are submitted one call each (all at once), so they are grouped by their round
    groups: dict[int, list[tuple[int, int | None]]] = {}
    execute = campaign.execute
    calls: dict[str, int] = {}

    async def counted(scenarios, **keywords):
        outcomes = await execute(scenarios, **keywords)
        for o in outcomes:
            if not o.reused:
                calls[o.scenario.id] = o.trace.usage.model_calls
                mutant = o.scenario.provenance.source.startswith("mutator")
                # the seeds run beside the first batch (`FlarePhase.run`)
                group = (o.scenario.provenance.attempt - 1) // batch if mutant else 0
                groups.setdefault(group, []).append(
                    (calls[o.scenario.id], calls.get(o.scenario.provenance.parent)))
        return outcomes

    campaign.execute = counted
    # the executions the workers judged (`Executor.judged`), judged here again after the clock
    by_workers: list[tuple[object, list, object]] = []
    judged = executor.judged

    async def judged_here(request, judge):
        trace, found = await judged(request, judge)
        if found is not None:
            by_workers.append((trace, found, judge))
        return trace, found

    executor.judged = judged_here

    cpu = CpuMeter(executor)
    closing = Closing(executor)
    slots = Slots(executor, workers, drawing=lambda: phase._next <= phase.rounds)

    async def timed() -> tuple[float, float]:  # one loop: the workers belong to it
        startup = await warm_up(executor, target, workers)
        t0 = time.perf_counter()
        cpu.start()
        sampling = asyncio.ensure_future(slots.sample())
        try:
            await campaign.run()  # closes the executor (its workers) at the end
        finally:
            sampling.cancel()
        return startup, closing.began - t0

    startup, wall = asyncio.run(timed())
    store.finish_run(run_id, "completed", {"fuzz": phase.summary()})
    analysis = analyze(store, run_id)
    scenarios = [scenario for _, scenario, _ in store.executions(run_id)]
    batches = [groups[k] for k in sorted(groups)]
    here = [judge(trace) == found for trace, found, judge in by_workers]
    return {"startup": startup, "wall": wall, "close": closing.seconds,
            "executions": campaign.recorder.executed, "judged": (len(here), all(here)),
            "idle": (slots.dry, slots.handover, slots.offered),
            "cpu": cpu.spent, "batches": batches, "scenarios": scenarios, "target": target, "models": models,
            "coverage": json.dumps(sorted(campaign.recorder.coverage.seen)),
            "order": json.dumps([sc.id for sc in scenarios]),
            "history": json.dumps(phase.summary()["history"], sort_keys=True),
            "failures": json.dumps(sorted(f["fingerprint"] for f in analysis.failures))}


def replay_run(workers: int, campaign: dict, persistent: int = 1) -> dict:
    """The campaign's executions replayed as one suite, all cases submitted at once, as
    `masfuzz replay` does (masfuzz.generate.replay)."""
    from masfuzz.exec import make_executor
    from masfuzz.trace import PROCESS_RUN
    from masfuzz.generate.replay import replay
    from masfuzz.generate.suite import Suite, SuiteCase

    target = campaign["target"]
    cases = [SuiteCase(id=sc.id, kind="witness", title=sc.input[:40], scenario=sc, expected=[],
                       attempts=[]) for sc in campaign["scenarios"]]
    suite = Suite(target=TARGET, system={}, models={"sut": SUT}, seed=7, cases=cases, unrealized=[])
    executor = make_executor("pool", concurrency=workers, timeout=60.0, models=campaign["models"],
                             persistent=persistent)
    traces: list = []

    async def execute(scenario):
        trace = await executor.run(target, scenario)
        traces.append(trace)
        return trace

    cpu = CpuMeter(executor)
    closing = Closing(executor)

    async def timed() -> tuple[float, float, list]:
        startup = await warm_up(executor, target, workers)
        t0 = time.perf_counter()
        cpu.start()
        try:
            outcomes = await replay(suite, execute)
        finally:
            await executor.aclose()
        return startup, closing.began - t0, outcomes

    startup, wall, outcomes = asyncio.run(timed())
    by_id = {t.scenario_id: t for t in traces}
    runs = [by_id[sc.id] for sc in campaign["scenarios"]]
    return {"startup": startup, "wall": wall, "close": closing.seconds, "executions": len(outcomes),
            "cpu": cpu.spent,
            "batches": [[(t.usage.model_calls, None) for t in runs]],  # all at once, unordered
            "outcomes": json.dumps([o.passed for o in outcomes]),
            "traces": json.dumps([[e.model_dump(mode="json", exclude={"t"})
                                   for e in t.events] for t in runs], sort_keys=True, default=str),
            "shared": sum(1 for t in runs if t.meta.get(PROCESS_RUN, 1) > 1)}


class CpuMeter:
    """The CPU time a run spent, from `start()` to the executor's close (its workers still
    alive): masfuzz's own process, and its descendants (the template, the workers in their
    sandboxes and each run's fork, which the worker waits for) read from /proc; each a
    difference over the processes alive at both ends, so a process that ended unwaited in
    between is missed (None where /proc is not there)."""

    def __init__(self, executor) -> None:
        self.spent: dict[str, float] | None = None
        self._t0: tuple[float, dict[int, float]] | None = None
        close = executor.aclose

        async def aclose() -> None:
            self.stop()
            await close()

        executor.aclose = aclose

    def start(self) -> None:
        self._t0 = (time.process_time(), _descendants_cpu())

    def stop(self) -> None:
        if self._t0 is None or self.spent is not None:
            return
        now = _descendants_cpu()
        if now or self._t0[1]:
            self.spent = {"masfuzz": time.process_time() - self._t0[0],
                          "workers": sum(c - self._t0[1].get(p, 0.0) for p, c in now.items())}


class Closing:
    """When the executor's close began, and how long it took: the pool's end (its workers
    killed and reaped, the kernel freeing their memory), paid once per campaign as its
    start-up is, and shown apart as that is. Both workloads stop their clock where it begins
    (a campaign closes its executor inside `Campaign.run`, the replay after its suite)."""

    def __init__(self, executor) -> None:
        self.began: float | None = None
        self.seconds: float | None = None
        close = executor.aclose

        async def aclose() -> None:
            self.began = time.perf_counter()
            try:
                await close()
            finally:
                self.seconds = time.perf_counter() - self.began

        executor.aclose = aclose


class Slots:
    """The executor's slots left without a run while the campaign still had mutants to draw
    (`drawing`), in slot-seconds, sampled every 10 ms: `dry` while no request waited for a slot
    (the window of mutants in flight, `steady_window`, ran dry: what the mutants waiting in it
    are there to take to nothing), `handover` while some did (a slot freed, the request waiting
    for it not yet on its worker: the event loop's latency). After the last draw the slots
    empty as the last runs end, at every pace. A slot is busy while a request is on a worker
    (`PoolExecutor._on_worker`: the run, and the judging request sent after it)."""

    def __init__(self, executor, workers: int, drawing) -> None:
        self.workers, self.drawing = workers, drawing
        # slot-seconds left idle with none waiting and with some waiting, and offered, while drawing
        self.dry = self.handover = self.offered = 0.0
        self.busy = self.waiting = 0
        on_worker, judged = executor._on_worker, executor.judged

        async def counted(*args, **keywords):
            self.waiting -= 1
            self.busy += 1
            try:
                return await on_worker(*args, **keywords)
            finally:
                self.busy -= 1

        async def asked(*args, **keywords):  # a request: it waits for a slot, then `counted`
            self.waiting += 1
            return await judged(*args, **keywords)

        executor._on_worker, executor.judged = counted, asked

    async def sample(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.01)
            now = time.perf_counter()
            if self.drawing():
                idle = max(0, self.workers - self.busy) * (now - last)
                if self.waiting > 0:
                    self.handover += idle
                else:
                    self.dry += idle
                self.offered += self.workers * (now - last)
            last = now


def _descendants_cpu() -> dict[int, float]:
    """Every descendant of this process: its CPU seconds and its waited-for children's."""
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    spent: dict[int, float] = {}
    try:
        pids = [int(d) for d in os.listdir("/proc") if d.isdigit()]
    except OSError:
        return {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(pid)
        spent[pid] = sum(int(x) for x in fields[11:15]) / tick  # utime stime cutime cstime
    out, todo = {}, list(children.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        out[pid] = spent[pid]
        todo += children.get(pid, [])
    return out


async def warm_up(executor, target, workers: int) -> float:
    """Every worker started and the target opened before the clock starts; its time."""
    from masfuzz.scenario import Scenario

    warm = [Scenario(input=f"Is there wifi on board? ({i})", sut_model=SUT) for i in range(workers)]
    t0 = time.perf_counter()
    await executor.run_many(target, warm)
    return time.perf_counter() - t0


def ceiling(batches: list[list[tuple[int, int | None]]], workers: int) -> float:
    """The speedup these executions allow with no CPU cost at all: each one lasts its model
    calls x 100 ms; a batch's executions start as the engine starts them (longest expected
    first: by the parent's run, those with none first, otherwise in submission order), each on
    the worker free first, and a batch ends with its last worker."""
    serial = parallel = 0
    for batch in batches:
        free = [0] * workers
        for c, _ in sorted(batch, key=lambda e: -(e[1] if e[1] is not None else float("inf"))):
            k = free.index(min(free))
            free[k] += c
        serial += sum(c for c, _ in batch)
        parallel += max(free) if batch else 0
    return serial / parallel if parallel else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--executions", type=int, default=200)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--batch", type=int, default=64, help="FLARE's batch (--batch of fuzz)")
    parser.add_argument("--paces", default="batch,steady,free", help="FLARE's paces (--pace)")
    parser.add_argument("--persistent", type=int, default=1,
                        help="runs one forked worker process serves (fuzz's --persistent; 1: a fork per run)")
    args = parser.parse_args()
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    paces = args.paces.split(",")
    load0 = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        fuzz = {pace: {n: campaign_run(n, args.executions, args.batch, Path(tmp), pace, args.persistent)
                       for n in (1, args.workers)} for pace in paces}
        rerun = {n: replay_run(n, fuzz[paces[0]][1], args.persistent) for n in (1, args.workers)}
        # AFL++'s stability: the same executions, each in a fresh fork, against the persistent runs
        forked = replay_run(args.workers, fuzz[paces[0]][1]) if args.persistent > 1 else None
    load = (load0, os.getloadavg())
    mode = (f"--persistent {args.persistent}: one fork per {args.persistent} runs of a worker"
            if args.persistent > 1 else "a fresh fork per run")
    print(f"workers: {args.executions} executions, a scripted model waiting 100 ms per call, "
          f"{os.cpu_count()} cores, {mode}; load average {load[0][0]:.1f} at the start, {load[1][0]:.1f} "
          "at the end (the machine's other work takes its share of the cores)")
    from summary import record

    ok = True
    workloads = [(f"FLARE campaign, --pace {pace}" + (f", batches of {args.batch}" if pace == "batch"
                                                       else ""), f"FLARE {pace}", fuzz[pace],
                  # only the batch pace promises the run of --workers 1
                  ("coverage", "order", "history", "failures", "executions")
                  if pace == "batch" else ("executions",)) for pace in paces]
    workloads.append(("replay of its executions as one suite", "replay", rerun,
                      ("outcomes", "traces", "executions")))
    for name, short, runs, keys in workloads:
        one, many = runs[1], runs[args.workers]
        speedup = one["wall"] / many["wall"]
        same = {k: one[k] == many[k] for k in keys}
        bound = ceiling(one["batches"], args.workers)
        print(f"  {name}:")
        for n, r in runs.items():
            print(f"    --workers {n:<3} start-up {r['startup']:6.1f} s   run {r['wall']:6.1f} s   "
                  f"close {r['close']:4.1f} s   ({r['executions']} executions)")
        steady = short.startswith("FLARE") and short != "FLARE batch"
        allow = ("no batch holds the workers" if steady else
                 f"the model waits alone allow {bound:.1f}x (reached {speedup / bound:.0%})")
        print(f"    speedup, workers started: {speedup:.1f}x [{mode}] (target >= {TARGET_SPEEDUP:g}x: "
              f"{'met' if speedup >= TARGET_SPEEDUP else 'NOT met'}); {allow}")
        if many["cpu"] is not None:
            # the cores are shared by masfuzz, its workers and the runs: the CPU the runs at
            # --workers N took, spread over every core, is the least time they could take
            per = {k: 1000 * v / many["executions"] for k, v in many["cpu"].items()}
            least = sum(many["cpu"].values()) / (os.cpu_count() or 1)
            print(f"    CPU per execution at --workers {args.workers}: masfuzz {per['masfuzz']:.1f} ms, "
                  f"its workers {per['workers']:.1f} ms (each run, its fork, the sandbox); on "
                  f"{os.cpu_count()} cores idle that CPU alone allows {one['wall'] / least:.1f}x")
        print("    identical to --workers 1: " + ", ".join(f"{k} {'yes' if v else 'NO'}"
                                                         for k, v in same.items()))
        if short != "replay":
            dry, handover, offered = many["idle"]
            print(f"    worker slots idle while mutants were left to draw, at --workers {args.workers}: "
                  f"{dry:.1f} of {offered:.1f} slot-seconds with no mutant waiting for one, "
                  f"{handover:.1f} with some waiting (handed over)")
            count, alike = many["judged"]
            print(f"    judged by the workers where they ran: {count} of {many['executions']} executions; "
                  f"the same failures as judging them here: {'yes' if alike else 'NO'}")
            same["judged here"] = alike
        if short == "replay" and forked is not None:
            stable = forked["traces"] == many["traces"]
            print(f"    identical to a fresh fork per run (--workers {args.workers}; {many['shared']} of "
                  f"{many['executions']} runs shared a process with earlier ones): traces "
                  f"{'yes' if stable else 'NO'}")
            same["stability"] = stable
        note = "" if steady else f"waits alone allow {bound:.1f}x"
        record(f"workers: speedup 16 over 1, {short}", speedup, f">= {TARGET_SPEEDUP:g}x",
               speedup >= TARGET_SPEEDUP, unit="x", note=f"{note}; {mode}" if note else mode)
        record(f"workers: identical results 16 vs 1, {short}", "yes" if all(same.values()) else "NO",
               "yes", all(same.values()))
        ok = ok and all(same.values())
    record("workers: start-up of 16 workers", fuzz[paces[0]][args.workers]["startup"], "", None, unit=" s",
           note=f"{os.cpu_count()} cores")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
