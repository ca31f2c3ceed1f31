"""Executors end hangs and crashes of the system under test as recorded traces, then go on."""

from __future__ import annotations

import asyncio
import os
import stat
import sys
import time
from pathlib import Path

import pytest

from masfuzz.errors import MasfuzzError, TargetError
from masfuzz.exec import InProcessExecutor, SubprocessExecutor, make_executor
from masfuzz.scenario import Scenario
from masfuzz.trace import DelegationEvent, ErrorEvent, RestrictedAttempt, ToolCall, ToolResult

TOY = Path(__file__).parent / "fixtures" / "toy_system.py"
TARGET = f"{TOY}:system"
ADAPTER = f"{TOY}:ToyAdapter"


def run(coro):
    return asyncio.run(coro)


def test_subprocess_runs_a_scenario_and_returns_its_trace():
    ex = SubprocessExecutor(adapter=ADAPTER, timeout=30)
    trace = run(ex.run(TARGET, Scenario(input="lookup specialist crash lookup chatter")))
    assert trace.speaker_order == ["triage", "specialist"]
    calls = [(e.agent, e.tool) for e in trace.of_type(ToolCall)]
    assert calls == [("triage", "lookup"), ("specialist", "crash"), ("specialist", "lookup")]
    assert [e.status for e in trace.of_type(ToolResult)] == ["ok", "error", "ok", "blocked"]
    assert trace.of_type(RestrictedAttempt)[0].tool == "chatter"
    assert trace.of_type(DelegationEvent)[0].to == "specialist"
    assert trace.termination.reason == "completed"
    assert trace.meta["executor"] == "subprocess"


def test_app_prints_do_not_corrupt_the_worker_answer():
    trace = run(SubprocessExecutor(adapter=ADAPTER).run(TARGET, Scenario(input="chatter")))
    assert trace.termination.reason == "completed"
    assert trace.of_type(ToolResult)[0].payload == "chatted"


def test_hanging_tool_is_killed_within_timeout_plus_one_second_and_next_scenario_runs():
    ex = SubprocessExecutor(adapter=ADAPTER)
    hang = Scenario(input="specialist hang", timeout=2.0)
    after = Scenario(input="lookup")

    async def both():
        t0 = time.perf_counter()
        first = await ex.run(TARGET, hang)
        elapsed = time.perf_counter() - t0
        second = await ex.run(TARGET, after)
        return first, elapsed, second

    first, elapsed, second = run(both())
    assert first.termination.reason == "timeout"
    assert [e.kind for e in first.of_type(ErrorEvent)] == ["timeout"]
    assert first.scenario_id == hang.id and first.system_id == "toy"
    # The clock starts once the worker has loaded the target; 2 s and a moment to kill (generous:
    # a loaded machine schedules late, and a run left to go on would take the hang's whole time)
    assert 2.0 <= first.usage.wall_time < 8.0
    assert elapsed < 8.0 + 30  # loading the worker is outside the scenario budget
    assert second.termination.reason == "completed"
    assert [e.tool for e in second.of_type(ToolCall)] == ["lookup"]


@pytest.mark.parametrize("tool, signal_name", [("abort", "SIGABRT"), ("segfault", "SIGSEGV")])
def test_dying_worker_becomes_a_crash_trace(tool, signal_name):
    trace = run(SubprocessExecutor(adapter=ADAPTER).run(TARGET, Scenario(input=f"specialist {tool}")))
    assert trace.termination.reason == "crash"
    (err,) = trace.of_type(ErrorEvent)
    assert err.kind == "crash" and signal_name in err.message


def test_an_unsealed_answer_is_dropped_and_noted(tmp_path):
    """A line the worker did not seal with the request's key (`masfuzz.exec.frames`) is not its
    answer, even a well-formed one: dropped, counted in the trace, and the run ends as the
    worker did (here: without answering)."""
    fake = tmp_path / "fakepython"
    fake.write_text("#!/bin/sh\nread request\necho 'this is not json'\n"
                    "echo '{\"ready\": true, \"system_id\": \"forged\"}'\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    trace = run(SubprocessExecutor(python=str(fake)).run(TARGET, Scenario(input="x")))
    assert trace.termination.reason == "crash" and trace.system_id == ""
    assert "before answering" in trace.of_type(ErrorEvent)[0].message
    forged = trace.meta["channel_forged"]
    assert forged["lines"] == 2 and forged["first"] == "this is not json\n"


def test_worker_exiting_nonzero_becomes_a_crash_trace(tmp_path):
    fake = tmp_path / "fakepython"
    fake.write_text("#!/bin/sh\necho 'Fatal: out of memory' >&2\nexit 3\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    trace = run(SubprocessExecutor(python=str(fake)).run(TARGET, Scenario(input="x")))
    err = trace.of_type(ErrorEvent)[0]
    assert err.kind == "crash" and "status 3" in err.message and "out of memory" in err.message


def test_bad_target_is_bad_input_not_a_finding(tmp_path):
    with pytest.raises(MasfuzzError, match="no such file"):
        run(SubprocessExecutor(adapter=ADAPTER).run(str(tmp_path / "nope.py:x"), Scenario(input="x")))
    with pytest.raises(TargetError, match="no such file"):
        run(InProcessExecutor(adapter=ADAPTER).run(str(tmp_path / "nope.py:x"), Scenario(input="x")))


def test_run_many_bounds_concurrency_and_keeps_order():
    ex = SubprocessExecutor(adapter=ADAPTER, concurrency=2, timeout=2.0)
    scenarios = [Scenario(input="specialist hang"), Scenario(input="lookup"),
                 Scenario(input="specialist abort"), Scenario(input="specialist lookup")]
    seen: list[int] = []
    traces = run(ex.run_many(TARGET, scenarios, on_trace=lambda i, t: seen.append(i)))
    assert [t.termination.reason for t in traces] == ["timeout", "completed", "crash", "completed"]
    assert [t.scenario_id for t in traces] == [s.id for s in scenarios]
    assert sorted(seen) == [0, 1, 2, 3]


def test_inprocess_loads_once_and_records_the_same_trace():
    ex = InProcessExecutor(adapter=ADAPTER)
    sc = Scenario(input="lookup specialist crash")
    a, b = run(ex.run_many(TARGET, [sc, sc]))
    assert ex.load(TARGET) is ex.load(TARGET)  # opened once in this process
    sub = run(SubprocessExecutor(adapter=ADAPTER).run(TARGET, sc))
    strip = lambda t: [e.model_copy(update={"t": 0.0}) for e in t.events]  # noqa: E731
    assert strip(a) == strip(b) == strip(sub)


def test_inprocess_timeout_cancels_a_waiting_run(tmp_path):
    app = tmp_path / "slow.py"
    app.write_text(
        "import asyncio\n"
        f"import sys; sys.path.insert(0, {str(TOY.parent)!r})\n"
        "from toy_system import ToySystem, ToyAdapter\n"
        "class SlowAdapter(ToyAdapter):\n"
        "    async def run(self, obj, spec, scenario):\n"
        "        await asyncio.sleep(3600)\n"
        "system = ToySystem()\n"
    )
    ex = InProcessExecutor(adapter=f"{app}:SlowAdapter", timeout=0.5)
    trace = run(ex.run(f"{app}:system", Scenario(input="x")))
    assert trace.termination.reason == "timeout"


def test_unknown_executor_kind_is_a_clear_error():
    with pytest.raises(MasfuzzError, match="unknown executor 'ray2'"):
        make_executor("ray2")


def test_a_warm_worker_gives_every_run_a_fresh_state():
    """Each run of a warm worker starts from the state its target was opened in: a run that
    fills the sandbox's scratch leaves the next one a whole scratch folder, and one that leaves
    a module global, an environment variable, files in its home and current folders and a
    thread behind leaves the next one none of them (`worker._apart`, `sandbox.fresh_scratch`),
    while the data folder the target's import made in its home stays, emptied of the run's file
    (`sandbox.settled`); the same worker served all the runs."""
    from masfuzz.exec import PoolExecutor
    from masfuzz.exec.sandbox import Limits, SandboxSettings, problem

    if problem() is not None:
        pytest.skip(f"no OS sandbox here: {problem()}")
    ex = PoolExecutor(adapter=ADAPTER, timeout=60, sandbox=SandboxSettings(limits=Limits(disk_mb=8)))

    async def runs():
        try:
            traces = [await ex.run(TARGET, Scenario(input=word)) for word in ("fill", "fill", "poison", "poison")]
            return traces, [w.proc.pid for w in ex._idle]
        finally:
            await ex.aclose()

    (*filled, first, second), idle = run(runs())
    wrote = [t.of_type(ToolResult)[0].payload for t in filled]
    assert all(w.startswith("wrote ") and 4 <= int(w.split()[1]) <= 8 for w in wrote), wrote
    assert [t.of_type(ToolResult)[0].payload for t in (first, second)] == ["clean", "clean"]
    assert len(idle) == 1  # one warm worker, never replaced


def test_a_killed_sandboxed_worker_leaves_no_zombie_behind():
    """A command adopts the orphans of its descendants (`masfuzz.proc.Adopted`): a sandboxed
    worker killed at its time limit has namespace processes that die with it and come to the
    command, which reaps them then, not when it ends (a long campaign's zombies, one set per
    worker killed)."""
    from masfuzz.exec import PoolExecutor
    from masfuzz.proc import Adopted, _children

    ex = PoolExecutor(adapter=ADAPTER, timeout=30)

    async def hang_twice():
        try:
            return [await ex.run(TARGET, Scenario(input="specialist hang", timeout=1.5)) for _ in range(2)]
        finally:
            await ex.aclose()

    with Adopted():
        traces = run(hang_twice())
        left = _children(zombies=True)
    assert [t.termination.reason for t in traces] == ["timeout", "timeout"]
    assert left == {}
