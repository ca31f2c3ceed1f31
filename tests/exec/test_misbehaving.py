"""Systems under test that misbehave the way real ones do, under the DEFAULT executor: each ends
within its time limit + 2 s as a recorded finding naming the agent or tool, keeps the events
before it, and masfuzz's exit status stays its own. Workers and whatever a tool started die
with masfuzz, however masfuzz dies."""

import json
import os
import signal
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, MASFUZZ_CLI, ROOT

pytest.importorskip("agents")

APP = "tests/exec/fixtures/misbehaving_app.py"
POLICY = f"scripted/{APP}:policy"
TESTER = "scripted/" + str(EXAMPLES / "testers" / "template_tester.py") + ":policy"
LIMIT = 3.0


def _exec(cli, word, *extra):
    t0 = time.perf_counter()
    code, out, err = cli("exec", f"{APP}:desk", "--input", f"please {word}", "--sut-model", POLICY,
                         "--timeout", str(LIMIT), "--format", "json", "--failures", *extra)
    return code, json.loads(out) if code == 0 else None, err, time.perf_counter() - t0


@pytest.mark.parametrize("word,tool,reason,says", [
    ("sleep", "sleep_tool", "timeout", "no result within 3 s"),
    ("busy", "busy_tool", "timeout", "no result within 3 s"),
    ("segfault", "segfault_tool", "crash", "SIGSEGV"),
    ("abort", "abort_tool", "crash", "SIGABRT"),
    ("exit", "exit_tool", "crash", "called sys.exit(5)"),
    ("hardexit", "hard_exit_tool", "crash", "exited with status 0"),
])
def test_a_misbehaving_tool_is_a_recorded_finding(cli, monkeypatch, word, tool, reason, says):
    monkeypatch.chdir(ROOT)
    code, data, err, took = _exec(cli, word)
    assert code == 0, err  # masfuzz's own status, never the target's
    # killed at the limit, not left to end (the sleep is 600 s, the busy loop endless): the
    # bound allows a worker's start (framework import) on a loaded machine, which took 20 s
    assert took < LIMIT + 120
    trace = data["trace"]
    end = trace["events"][-1]
    assert end["type"] == "termination" and end["reason"] == reason
    assert says in end["detail"] and f"while desk ran tool {tool}" in end["detail"]
    kept = [e["type"] for e in trace["events"]]
    assert kept[:3] == ["message", "agent_turn", "tool_call"]  # the events before the end
    assert trace["usage"]["wall_time"] < LIMIT + 2
    [failure] = [f for f in data["failures"] if f["category"] == "runtime_crash"]
    assert tool in failure["description"]
    assert failure["attribution"] == "sut"  # a tool of the app hung or died
    if reason == "timeout":  # what the run was doing, asked of it before the kill
        where = trace["meta"]["stacks_at_kill"]["where"]
        assert where.startswith(f"in the app's {tool} (tests/exec/fixtures/misbehaving_app.py:"), where
        assert where in end["detail"]


def test_a_run_sleeping_in_the_apps_own_code_is_the_apps_timeout_with_that_frame(cli, monkeypatch):
    """A rate limiter of the app's that waits out a quota before the model call (no tool, no
    model call running): the kill names the app's function, file, line and source line, and the
    timeout stays the app's."""
    monkeypatch.chdir(ROOT)
    code, out, err = cli("exec", f"{APP}:throttled", "--input", "hello", "--sut-model", POLICY,
                         "--timeout", str(LIMIT), "--format", "json", "--failures")
    assert code == 0, err
    data = json.loads(out)
    end = data["trace"]["events"][-1]
    assert end["reason"] == "timeout"
    assert "in the app's throttled_instructions (tests/exec/fixtures/misbehaving_app.py:" in end["detail"]
    assert "time.sleep(600)" in end["detail"]
    meta = data["trace"]["meta"]
    assert "ended_in_model_call" not in meta
    frames = [f for s in meta["stacks_at_kill"]["stacks"] for f in s["frames"]]
    assert any(f[2] == "throttled_instructions" and f[3] == "time.sleep(600)" for f in frames)
    [failure] = [f for f in data["failures"] if f["category"] == "runtime_crash"]
    assert failure["attribution"] == "sut" and "throttled_instructions" in failure["description"]
    assert "did not end by itself" not in failure["description"]  # the frame says why, no guess


def test_a_model_slower_than_the_time_limit_is_the_harness_not_an_app_crash(cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, data, err, _ = _exec(cli, "ponder")
    assert code == 0, err
    end = data["trace"]["events"][-1]
    assert end["reason"] == "timeout" and "while desk waited for its model's answer" in end["detail"]
    assert data["trace"]["meta"]["ended_in_model_call"] == "desk"
    # the run's stacks show it waiting in masfuzz's model proxy, no code of the app's running
    assert data["trace"]["meta"]["stacks_at_kill"]["where"] == "waiting for masfuzz's model proxy to answer"
    [failure] = [f for f in data["failures"] if f["category"] == "runtime_crash"]
    assert failure["attribution"] == "harness" and "raise --timeout" in failure["because"]
    code, out, _ = cli("exec", f"{APP}:desk", "--input", "please ponder", "--sut-model", POLICY,
                       "--timeout", str(LIMIT))
    assert "(caused by the harness, not the app)" in out and "1 of them caused by masfuzz" in out


def test_a_tool_that_forks_and_returns_leaves_nothing_running(cli, monkeypatch):
    marker = f"masfuzz-fork-{uuid.uuid4().hex}"
    monkeypatch.setenv("MASFUZZ_TEST_MARKER", marker)
    monkeypatch.chdir(ROOT)
    code, data, err, _ = _exec(cli, "fork")
    assert code == 0 and data["trace"]["events"][-1]["reason"] == "completed", err
    assert _processes_with(marker, wait=30.0) == []  # a loaded machine reaps slowly


def test_an_endless_handoff_loop_ends_at_the_turn_bound(cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, err = cli("exec", f"{APP}:relay", "--input", "hello", "--sut-model", POLICY,
                         "--max-turns", "6", "--timeout", str(LIMIT), "--format", "json",
                         "--failures")
    assert code == 0, err
    data = json.loads(out)
    assert data["trace"]["events"][-1]["reason"] == "max_turns"
    assert any(f["category"] == "system_termination" for f in data["failures"])


def test_cover_completes_over_a_hanging_and_crashing_desk(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, err = cli("cover", f"{APP}:desk", "--model", TESTER, "--sut-model", POLICY,
                         "--no-cache", "--timeout", str(LIMIT), "--attempts", "1", "--faults",
                         "none", "--criteria", "C1,C2", "--store", str(tmp_path / "runs.db"),
                         "--suite", str(tmp_path / "suite.yaml"), "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["run"]["status"] == "completed"
    causes = {f["elements"][0] for f in data["failures"] if f["category"] == "runtime_crash"}
    assert {"timeout", "crash"} <= causes


def _processes_with(marker: str, wait: float = 0.0) -> list[int]:
    """Pids whose command line or environment carries `marker`, after up to `wait` seconds."""
    deadline = time.monotonic() + wait
    while True:
        found = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
                env = Path(f"/proc/{pid}/environ").read_bytes()
                state = Path(f"/proc/{pid}/stat").read_text().split()[2]
            except OSError:
                continue
            if state != "Z" and (marker.encode() in cmd or marker.encode() in env):
                found.append(int(pid))
        if not found or time.monotonic() >= deadline:
            return found
        time.sleep(0.2)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_nothing_survives_masfuzz(sig, tmp_path):
    marker = f"masfuzz-kill-{uuid.uuid4().hex}"
    env = {**os.environ, "MASFUZZ_TEST_MARKER": marker, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(
        [*MASFUZZ_CLI,
         "exec", f"{APP}:desk", "--input", "please fork then sleep", "--sut-model", POLICY,
         "--timeout", "120", "--pass-env", "MASFUZZ_TEST_MARKER"],  # into the sandboxed worker
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not _descendants(proc.pid) and time.monotonic() < deadline:  # a worker started
        time.sleep(0.2)
    time.sleep(1.0)  # the worker is running the scenario
    family = _descendants(proc.pid)  # the worker (the sandbox's processes) and what it started
    assert family
    proc.send_signal(sig)
    proc.wait(timeout=10)
    deadline = time.monotonic() + 30  # a loaded machine reaps slowly
    while _alive(family) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _alive(family) == []
    assert _processes_with(marker) == []


def _descendants(pid: int) -> set[int]:
    found, todo = set(), [pid]
    while todo:
        for task in Path(f"/proc/{todo.pop()}/task").glob("*"):
            try:
                children = {int(c) for c in (task / "children").read_text().split()}
            except OSError:
                continue
            todo += children - found
            found |= children
    return found


def _alive(pids: set[int]) -> list[int]:
    alive = []
    for pid in pids:
        try:
            if Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z":
                alive.append(pid)
        except OSError:
            continue
    return alive


def test_an_app_reading_stdin_while_it_loads_gets_end_of_file_not_masfuzz_requests(cli, tmp_path):
    """Requests reach the worker on its stdin: an app that reads stdin as it loads must see
    end of file (one clear line, exit 2), never swallow a request and hang to the load limit."""
    app = tmp_path / "asks.py"
    app.write_text("task = input('Task: ')\nfrom agents import Agent\nagent = Agent(name='a')\n")
    t0 = time.perf_counter()
    code, out, err = cli("exec", f"{app}:agent", "--input", "hi", "--sut-model", POLICY)
    assert code == 2 and "EOFError" in err and len(err.strip().splitlines()) == 1
    assert time.perf_counter() - t0 < 60


def test_fuzz_sets_harness_timeouts_apart_from_the_apps_failures(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    reader = "scripted/" + str(ROOT / "tests" / "fuzz" / "flare_testers.py") + ":reader"
    code, out, err = cli("fuzz", f"{APP}:desk", "--input", "please ponder", "--sut-model", POLICY,
                         "--model", reader, "--rounds", "1", "--seed-tasks", "0", "--no-judge",
                         "--no-shrink", "--no-cache", "--timeout", "2", "--store",
                         str(tmp_path / "runs.db"), "--format", "json")
    assert code == 0, err
    row = json.loads(out)["fuzz"]["table1"]
    assert row["failures"]["RC"] == 0 and row["set_aside"] == {"harness": 1}
    code, out, err = cli("report", "--store", str(tmp_path / "runs.db"))
    assert "RC 0 (set aside, not the app's: 1 harness)" in out, out


def test_a_team_that_never_ends_under_an_instant_model_is_the_apps_timeout(cli, monkeypatch):
    """Wherever the kill lands (in a model call or between two), the time went to the app going
    round: the scripted model answers at once, so the timeout is the app's, never 'raise
    --timeout'."""
    monkeypatch.chdir(ROOT)
    code, out, err = cli("exec", "tests/adapters/autogen_systems.py:endless_team", "--input", "Plan a trip.",
                         "--sut-model", "scripted/masfuzz.control:probe", "--timeout", str(LIMIT),
                         "--format", "json", "--failures")
    assert code == 0, err
    data = json.loads(out)
    assert data["trace"]["events"][-1]["reason"] == "timeout"
    meta, usage = data["trace"]["meta"], data["trace"]["usage"]
    if "ended_in_model_call" in meta:  # the kill landed in a model call, one of very many
        assert usage["model_calls"] > 20 and meta["model_seconds"] > 0
    [failure] = [f for f in data["failures"] if f["category"] == "runtime_crash"]
    assert failure["attribution"] == "sut" and "agent turns" in failure["description"], failure
