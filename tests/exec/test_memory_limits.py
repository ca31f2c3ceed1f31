"""The sandbox's memory, beyond one process's address space (`masfuzz.exec.cgroup`; a run's
helpers held to --sandbox-memory together: tests/exec/test_sut_sandbox.py's limits test): a
worker killed without a word of Python's is the memory limit's only when the kernel counted the
kill; and the scratch folders of killed masfuzz processes are swept, no living one's."""

from __future__ import annotations

import json
import os
import signal
import tempfile
from pathlib import Path

import pytest

from masfuzz.exec import cgroup
from masfuzz.exec.sandbox import Limits, Plan, died_of, problem
from masfuzz.proc import own_folder, sweep
from tests.conftest import ROOT


def memory_cgroup_here() -> bool:
    """Whether this user may make a memory cgroup (root here; tests/exec/test_sut_sandbox.py's limits)."""
    made = cgroup.create(64)
    cgroup.remove(made)
    return made is not None


def test_a_silent_kill_is_the_memory_limits_only_when_the_kernel_counted_it(tmp_path):
    group = tmp_path / "group"
    group.mkdir()
    plan = Plan(str(tmp_path), limits=Limits(memory_mb=256), cgroup=str(group))
    (group / "memory.oom_control").write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 0\n")
    assert died_of(-signal.SIGKILL, "", plan) is None  # a kill of the app's own: its crash
    (group / "memory.oom_control").write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 1\n")
    assert died_of(-signal.SIGKILL, "", plan)["says"].startswith("hit --sandbox-memory 256 ")
    assert died_of(-signal.SIGSEGV, "", plan) is None  # native code's crash, no word of memory


def test_a_printed_memory_error_is_the_limits_only_when_the_run_grew_near_it(tmp_path):
    plan = Plan(str(tmp_path), limits=Limits(memory_mb=256))
    said = "MemoryError: out of memory"
    assert died_of(-signal.SIGABRT, said, plan, None) is None  # no word of the worker's: the app's words alone
    assert died_of(-signal.SIGABRT, said, plan, 20.0) is None  # it grew by little: its own crash
    assert died_of(-signal.SIGABRT, said, plan, 200.0)["limit"] == "memory"
    assert died_of(-signal.SIGABRT, "", plan, 200.0) is None  # grown, but nothing refused


@pytest.mark.skipif(problem() is not None, reason=f"no OS isolation here: {problem()}")
@pytest.mark.parametrize("tool, whose", [("liar", "the app's own crash; its output names an allocation refused"),
                                         ("balloon", "at the sandbox's memory limit")])
def test_who_a_death_after_a_memory_error_is_decided_by_what_masfuzz_saw(cli, monkeypatch, tool, whose):
    """`liar` prints "MemoryError" and dies of SIGSEGV having used nothing: its crash is the
    app's (the text alone once made it the sandbox's). `balloon` fills its address space in
    native code, then aborts: the worker saw it grow (`sandbox.peak_note`), so it is the limit's."""
    monkeypatch.chdir(ROOT)
    app = "tests/exec/fixtures/limits_app.py"
    code, out, err = cli("exec", f"{app}:heavy", "--input", tool, "--sut-model", f"scripted/{app}:policy",
                         "--sandbox-memory", "256", "--timeout", "120", "--no-cache", "--format", "json")
    assert code == 0, err
    trace = json.loads(out)
    end = trace["events"][-1]
    assert end["reason"] == "crash" and whose in end["detail"], end
    limits = [h["limit"] for h in trace["meta"].get("sandbox_limits", [])]
    assert limits == (["memory"] if tool == "balloon" else []), trace["meta"]


def test_folders_of_gone_processes_are_swept_and_no_others(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)  # a pid that runs no more
    gone = tmp_path / f"masfuzz-test-{pid}-abcd1234"
    living = tmp_path / f"masfuzz-test-{os.getppid()}-abcd1234"
    recent = tmp_path / "masfuzz-test-abcd1234"  # named before pids were: stale after an hour
    old = tmp_path / "masfuzz-test-efgh5678"
    other = tmp_path / "masfuzz-testing-1-x"
    for folder in (gone, living, recent, old, other):
        folder.mkdir()
    (gone / "left.txt").write_text("a killed run's")
    os.utime(old, (0, 0))
    made = own_folder("masfuzz-test-")
    assert Path(made).name.startswith(f"masfuzz-test-{os.getpid()}-")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [living.name, recent.name, other.name, Path(made).name])
    assert sweep("masfuzz-test-") == []  # this process's own stays while it runs


def test_a_tool_calls_helpers_share_the_tool_sandboxs_memory_limit():
    """The tool sandbox's worker is in a memory cgroup of its own as the system's is: 8 helpers
    of 64 MB each within their address space, together over 256 MB (+ the 32 MB scratch)."""
    from masfuzz.toolfuzz.sandbox import Sandbox, SandboxLimits, isolation_problem
    from masfuzz.toolfuzz.tools import from_callable
    from tests.exec.fixtures.limits_app import herd_of_helpers

    if isolation_problem() is not None:
        pytest.skip(f"no OS isolation here: {isolation_problem()}")
    with Sandbox(from_callable(herd_of_helpers), SandboxLimits(time_s=60, memory_mb=256, disk_mb=32)) as box:
        outcome = box.call({})
        group = box.cgroup
    held = int(outcome.result.split()[0])
    if memory_cgroup_here():
        assert group is not None and held * 64 < 256 + 32, outcome
        assert not os.path.exists(group)  # removed with its sandbox
    else:
        assert group is None and held == 8, outcome
