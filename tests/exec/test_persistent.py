"""--persistent N (AFL++'s persistent mode): one forked process of a warm worker serves up to N
runs, so what a run leaves in memory reaches the next runs of that process and no further; a
run that crashes, exits or is killed at its time limit takes its process (and its worker) with
it, and the next run starts from a fresh fork."""

from __future__ import annotations

import asyncio
import importlib.util
import json
from pathlib import Path

import pytest

from masfuzz.errors import MasfuzzError
from masfuzz.exec import PoolExecutor, make_executor
from masfuzz.exec.request import ExecutionRequest
from masfuzz.exec.sandbox import problem
from masfuzz.scenario import Scenario
from masfuzz.target import Target
from masfuzz.trace import PROCESS_RUN, ToolResult

TOY = Path(__file__).parent / "fixtures" / "toy_system.py"
TARGET = f"{TOY}:system"
ADAPTER = f"{TOY}:ToyAdapter"

# the toy's `poison` tool writes into HOME: only where the sandbox gives the run a scratch one
pytestmark = pytest.mark.skipif(problem() is not None, reason=f"no OS sandbox here: {problem()}")


def _runs(words: list[str], persistent: int, timeout: float | None = None):
    """The traces of `words` run one after another on one pool, and the pids of the workers
    that served them (one per run)."""
    ex = PoolExecutor(adapter=ADAPTER, timeout=60, persistent=persistent)

    async def go():
        traces, pids = [], []
        try:
            for word in words:
                hangs = "hang" in word
                traces.append(await ex.run(TARGET, Scenario(input=word, timeout=1.5 if hangs else timeout)))
                pids.append(ex._idle[0].proc.pid if ex._idle else None)
        finally:
            await ex.aclose()
        return traces, pids

    return asyncio.run(go())


def _said(trace) -> str:
    results = trace.of_type(ToolResult)
    return results[-1].payload if results else trace.termination.reason


def test_persistent_runs_share_their_process_and_a_fresh_fork_follows_the_nth():
    """Four runs that each leave state behind (a module global, an environment variable, a
    thread; the files they write are removed after each run whatever the mode) on one warm
    worker: with --persistent 3 the second and third see what the runs before them left, the
    fourth starts from a fresh fork; each trace says its place in its process."""
    traces, pids = _runs(["poison"] * 4, persistent=3)
    said = [_said(t) for t in traces]
    assert said[0] == said[3] == "clean", said
    for leftover in said[1:3]:
        assert leftover.startswith("left over: "), said
        assert {"global", "environment", "thread"} <= set(leftover.removeprefix("left over: ").split(", "))
        assert "file" not in leftover  # the scratch folder is still fresh for every run
    assert [t.meta[PROCESS_RUN] for t in traces] == [1, 2, 3, 1]
    assert len(set(pids)) == 1  # one warm worker served them all


def test_without_persistent_every_run_starts_clean():
    traces, pids = _runs(["poison"] * 3, persistent=1)
    assert [_said(t) for t in traces] == ["clean"] * 3
    assert all(PROCESS_RUN not in t.meta for t in traces)
    assert len(set(pids)) == 1


@pytest.mark.parametrize("end, reason", [("specialist abort", "crash"), ("specialist hang", "timeout")])
def test_a_run_that_crashes_or_times_out_leaves_the_next_a_fresh_process(end, reason):
    """A crash or a kill at the time limit in run k is recorded as that run's, and run k + 1
    inherits nothing of the process run k shared with the runs before it."""
    traces, pids = _runs(["poison", "poison", end, "poison"], persistent=10)
    assert [t.termination.reason for t in traces] == ["completed", "completed", reason, "completed"]
    assert _said(traces[1]).startswith("left over: ")
    assert _said(traces[3]) == "clean"
    assert traces[3].meta[PROCESS_RUN] == 1
    assert pids[1] != pids[3]  # the pool replaced the worker the end took with it


def test_persistent_travels_with_the_request_and_is_checked():
    request = ExecutionRequest(Target(TARGET), Scenario(input="x"), persistent=5)
    assert ExecutionRequest.from_data(request.to_data()).persistent == 5
    assert "persistent" not in ExecutionRequest(Target(TARGET), Scenario(input="x")).to_data()
    with pytest.raises(MasfuzzError, match="persistent"):
        ExecutionRequest.from_data({**request.to_data(), "persistent": 0})
    with pytest.raises(MasfuzzError, match="persistent"):
        make_executor("pool", persistent=0)
    assert make_executor("pool", persistent=4).request(TARGET, Scenario(input="x")).persistent == 4
    if importlib.util.find_spec("ray") is not None:  # a Ray actor serves the request's data through a pool
        ray_request = make_executor("ray", persistent=4).request(TARGET, Scenario(input="x"))
        assert ExecutionRequest.from_data(ray_request.to_data()).persistent == 4


def test_replay_under_persistent_names_the_cases_that_ran_otherwise_than_in_a_fresh_fork():
    """AFL++'s stability (`masfuzz replay --persistent N`): the suite's cases under --persistent
    and each in a fresh fork, compared; the toy's `lookup` keeps no state and runs the same, its
    `poison` says what an earlier run left, so its cases after the first in a process differ."""
    from masfuzz.cli.replay_cmd import _stability, replay_with
    from masfuzz.generate.suite import Suite, SuiteCase

    words = ["poison", "lookup", "poison", "lookup", "poison"]
    cases = [SuiteCase(id=f"c{i}", kind="witness", title=w, scenario=Scenario(input=w), expected=[], attempts=[])
             for i, w in enumerate(words)]
    suite = Suite(target=TARGET, system={}, models={}, seed=7, cases=cases, unrealized=[])

    def replayed(persistent: int):
        ex = PoolExecutor(adapter=ADAPTER, timeout=60, persistent=persistent)
        return asyncio.run(replay_with(ex, Target.of(TARGET, adapter=ADAPTER), suite, None))[0]

    stability = _stability(3, replayed(3), replayed(1))
    # c0-c2 share a process, c3-c4 the next one: c2's poison sees c0's, c4's is its process's first
    assert stability == {"persistent": 3, "cases": 5, "same": 4, "shared": 3, "differ": ["c2"]}
    assert _stability(3, replayed(1), replayed(1))["differ"] == []


def test_each_persistent_run_gets_its_own_cpu_time_under_the_processes_hard_limit():
    """`sandbox.limit_cpu`: a process serving N runs has the N runs' CPU time as its hard limit
    (it can only ever be lowered), set at its first run, and each run's own as the soft limit,
    counted from the run's start; a limit masfuzz did not set is left alone."""
    import subprocess
    import sys

    code = """
import resource
from masfuzz.exec import sandbox
sandbox._LIMITS.append(sandbox.Limits(cpu_s=5))
used = lambda: sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
start = int(used())
sandbox.limit_cpu(3)
first = resource.getrlimit(resource.RLIMIT_CPU)
while used() < start + 1.2:
    pass
sandbox.limit_cpu(3)
print(first, resource.getrlimit(resource.RLIMIT_CPU))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    (soft1, hard1), (soft2, hard2) = eval(out.replace(") (", "), ("))  # noqa: S307 - our own print
    assert hard1 == hard2 and soft1 + 5 < hard1 <= soft1 + 11  # three runs of 5 s, from its start
    assert soft2 == soft1 + 1  # the second run's 5 s from its own start, a second later


def _campaign_report(tmp_path, persistent: int):
    """A campaign of a clean run then a failing one (the triage agent calls a tool it may not)
    on one worker, and its analysis."""
    from masfuzz.campaign import Campaign
    from masfuzz.coverage.structural import StructuralModel
    from masfuzz.graph.coordination import CoordinationGraph
    from masfuzz.report.analysis import analyze
    from masfuzz.store.db import RunStore

    target = Target(TARGET, adapter=ADAPTER)
    spec = target.open().spec
    store = RunStore(tmp_path / f"p{persistent}.db")
    run_id = store.start_run("cover", spec, TARGET, {}, seed=0)

    class OneByOne:
        name = "one by one"

        async def run(self, campaign):
            for word in ("lookup", "triage hang"):
                await campaign.execute([Scenario(input=word)])

    ex = PoolExecutor(adapter=ADAPTER, timeout=60, persistent=persistent)
    asyncio.run(Campaign(target, spec, ex, [StructuralModel(CoordinationGraph(spec).obligations())],
                         [OneByOne()], store, run_id).run())
    return analyze(store, run_id)


def test_a_failure_a_run_showed_after_others_in_its_process_is_flagged_in_every_report(tmp_path):
    """Under --persistent the failing run was the second of its process: what the first left may
    have caused it, which the text, JSON and HTML reports say of that failure; with a fresh fork
    per run they say nothing of it."""
    import html as markup

    from masfuzz.report import HtmlReporter, JsonReporter, TextReporter
    from masfuzz.report.analysis import SHARED_PROCESS

    said = SHARED_PROCESS.format(place=2, earlier="1 run")
    shared = _campaign_report(tmp_path, persistent=3)
    [failure] = shared.failures
    assert failure["process_run"] == 2 and failure["shared_process"] == said
    assert said in TextReporter().render(shared)
    assert json.loads(JsonReporter().render(shared))["failures"][0]["shared_process"] == said
    assert said in markup.unescape(HtmlReporter().render(shared))
    fresh = _campaign_report(tmp_path, persistent=1)
    [failure] = fresh.failures
    assert "shared_process" not in failure and "process_run" not in failure
    for reporter in (TextReporter(), JsonReporter(), HtmlReporter()):
        assert "possibly caused by state an earlier run left" not in markup.unescape(reporter.render(fresh))
