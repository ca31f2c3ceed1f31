"""The system under test runs in the OS sandbox by default (`masfuzz.exec.sandbox`): the escape
corpus of the tool sandbox (tests/toolfuzz/escape_corpus.py), tried by an agent's tool under
`exec` with the default executor, is held. Judged from outside, as test_escapes.py judges the tool
sandbox: the host folder and the project are byte-identical, a host TCP and a host Unix listener
saw no connection, a sentinel process is alive and got no signal, the run store is intact, no
planted secret (the project's .env, masfuzz's environment, the sentinel's) reached the tool, and
nothing the tool started still runs. Unsandboxed (`--unsafe-no-sandbox`) the same corpus gets
out, so the probes can fail."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from masfuzz.exec.sandbox import problem
from tests.exec.test_memory_limits import memory_cgroup_here
from tests.toolfuzz import escape_corpus
from tests.conftest import MASFUZZ_CLI, ROOT
from tests.toolfuzz.test_escapes import (MEMORY_SECRET, REPO, UNPRIVILEGED, _open_store,  # noqa: F401
                                         _processes_with, _store_bytes, arena, store_for_nobody, unprivileged,
                                         unprivileged_env)
from tests.generate.test_cover import TESTER
from tests.toolfuzz.test_os_sandbox import _tree_hash

pytestmark = pytest.mark.skipif(problem() is not None, reason=f"no OS isolation here: {problem()}")
FIXTURE = Path(__file__).parent / "fixtures" / "escape_app.py"
# the corpus's probes that try to leave (not those about a tool call's own limits and state)
PROBES = ("write_bound", "remount_root", "proc_root", "host_proc", "nsenter", "unix_libc", "tcp_libc",
          "secrets", "home_files", "store_fds", "ptrace", "namespaces", "kill_host", "kernel", "survivors",
          "model_proxy", "own_memory", "forge_trace", "held_fds", "parent_memory", "group_signal",
          "kernel_settings")
# the probes of the system's resource limits, under small ones (the CPU spin, which ends its run,
# apart)
RESOURCES = ("rlimit_raise", "native_alloc", "disk_fill", "fork_bomb")  # numpy before the fork bomb takes its threads
LIMITS = ("--sandbox-memory", "256", "--sandbox-processes", "64", "--sandbox-disk", "32", "--sandbox-cpu", "2")


def _project(config: dict, monkeypatch) -> tuple[str, dict]:
    """The app beside the corpus, and the config with secrets planted where the tool could look:
    the project's .env and a variable of masfuzz's environment. Their values are no key's shape
    and their names no secret's, so masfuzz's masking leaves them (and the probe that looks for
    them) alone; masfuzz's own key is planted too, and must not show."""
    project = Path(config["project"])
    shutil.copy(FIXTURE, project / "app.py")
    plain = [f"planted-{uuid.uuid4().hex}" for _ in range(3)]
    (project / ".env").write_text(f"OPENAI_API_KEY={plain[0]}\n")
    monkeypatch.setenv("SHOP_PLANTED_VALUE", plain[1])
    monkeypatch.setenv("OPENAI_API_KEY", config["secrets"][2])
    monkeypatch.setenv("MASFUZZ_MEMORY_TOKEN", MEMORY_SECRET)  # `own_memory`'s
    # the arena's folder as a home folder holding the project: credentials at its top, another
    # project's .env and a note beside (`home_files`, when masfuzz is started from there)
    home = project.parent
    for path in (".ssh/id_rsa", ".aws/credentials", "other/.env", "other/notes.txt"):
        (home / path).parent.mkdir(exist_ok=True)
        (home / path).write_text(f"secret = {plain[2]}\n")
    return str(project / "app.py"), {**config, "secrets": plain, "home": str(home)}


def _exec_argv(app: str, config: dict, *extra: str, probes: tuple[str, ...] = PROBES) -> list[str]:
    return ["exec", f"{app}:prober", "--input", f"{','.join(probes)} {json.dumps(config)}",
            "--sut-model", f"scripted/{app}:policy", "--timeout", "120", "--max-turns", "40", "--no-cache",
            "--format", "json", *extra]


def _exec(cli, app: str, config: dict, *extra: str, probes: tuple[str, ...] = PROBES) -> tuple[dict[str, str], str]:
    """{probe: what it managed}, from the trace `masfuzz exec` prints, and that output."""
    code, out, err = cli(*_exec_argv(app, config, *extra, probes=probes))
    assert code == 0, err
    return _outcomes(out), out


def _outcomes(out: str) -> dict[str, str]:
    trace = json.loads(out)
    results = [e for e in trace["events"] if e["type"] == "tool_result"]
    calls = [e for e in trace["events"] if e["type"] == "tool_call"]
    return {c["arguments"]["probe"]: r["payload"] for c, r in zip(calls, results)}


def _held(outcomes: dict[str, str], arena: tuple, config: dict, before: tuple, db) -> None:
    """Every probe of every run managed nothing, judged from outside too."""
    root, _, tcp, unix, sentinel, log = arena
    victim, project, store = before
    for probe, result in outcomes.items():
        print(f"{probe:14} {result[:150]!r}")
    assert sorted(outcomes) == sorted(PROBES)
    assert {p: r for p, r in outcomes.items() if r not in ("nothing", "started")} == {}
    assert outcomes["survivors"] == "started"
    assert _tree_hash(Path(config["victim"])) == victim
    assert _tree_hash(Path(config["project"])) == project
    assert tcp.connections == 0 and unix.connections == 0
    assert sentinel.poll() is None and (not log.exists() or log.read_text() == "")
    assert _store_bytes(config["store"]) == store
    assert db.execute("SELECT note FROM runs").fetchall() == [("before the escapes",)]
    deadline = time.monotonic() + 10
    while _processes_with(config["marker"]) != [sentinel.pid] and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _processes_with(config["marker"]) == [sentinel.pid]  # no survivor


def _before(config: dict) -> tuple:
    return (_tree_hash(Path(config["victim"])), _tree_hash(Path(config["project"])),
            _store_bytes(config["store"]))


def test_the_escape_corpus_through_an_agents_tool_is_held_under_exec(arena, cli, monkeypatch):  # noqa: F811
    """Started from the home folder that holds the project (`home_files`): only the project is
    readable, its dot-files hidden; the home folder's credentials and other projects are not."""
    planted = arena[1]["secrets"]
    app, config = _project(arena[1], monkeypatch)
    monkeypatch.chdir(config["home"])
    db = _open_store(config["store"])
    before = _before(config)
    outcomes, out = _exec(cli, app, config)
    _held(outcomes, arena, config, before, db)
    db.close()
    assert not any(s in r for r in outcomes.values() for s in config["secrets"] + planted)
    assert planted[2] not in out  # masfuzz's key (the input carries the config's, not this one)
    _forgeries_dropped(out)


def _forgeries_dropped(out: str) -> None:
    """`forge_trace`'s lines reached masfuzz's channel with the worker and were dropped, unsealed
    (`masfuzz.exec.frames`): the trace is the run's (`_held`), the forged output nowhere."""
    assert "FORGED-BY-THE-TOOL" not in out
    assert json.loads(out)["meta"]["channel_forged"]["lines"] >= 4


@UNPRIVILEGED
def test_the_escape_corpus_through_an_agents_tool_is_held_as_an_unprivileged_user(arena, monkeypatch):  # noqa: F811
    """masfuzz run as uid 65534: its sandbox maps root inside to that uid, with no id of its
    own to hand out; the run store is that uid's, so outside a sandbox it could write it."""
    planted = arena[1]["secrets"]
    app, config = _project(arena[1], monkeypatch)
    db = store_for_nobody(config["store"])
    before = _before(config)
    env = unprivileged_env(arena[0], OPENAI_API_KEY=planted[2], SHOP_PLANTED_VALUE=config["secrets"][1])
    config["disk_mb"] = 32
    argv = _exec_argv(app, config, *LIMITS, "--sandbox-cpu", "60", probes=PROBES + RESOURCES)  # many probes
    done = subprocess.run(unprivileged(*MASFUZZ_CLI, *argv), cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    outcomes = _outcomes(done.stdout)
    _within_limits({p: outcomes.pop(p) for p in RESOURCES})  # the limits hold for that user too
    _held(outcomes, arena, config, before, db)
    db.close()
    assert not any(s in r for r in outcomes.values() for s in config["secrets"] + planted)
    assert planted[2] not in done.stdout


def test_the_escape_corpus_is_held_under_run(arena, cli, monkeypatch, tmp_path):  # noqa: F811
    """`masfuzz run`'s structural phase, its workers forked from the template (--workers 2): the
    tester asks what it likes, the agent tries every probe in every run."""
    planted = arena[1]["secrets"]
    app, config = _project(arena[1], monkeypatch)
    results = tmp_path / "escapes.jsonl"
    monkeypatch.setenv("ESCAPE_PROBES", ",".join(PROBES))
    monkeypatch.setenv("ESCAPE_CONFIG", json.dumps(config))
    monkeypatch.setenv("ESCAPE_LOG", str(results))
    db = _open_store(config["store"])
    before = _before(config)
    code, out, err = cli("run", f"{app}:prober", "--model", TESTER, "--sut-model", f"scripted/{app}:run_policy",
                         "--phases", "structural", "--faults", "none", "--budget-executions", "3", "--workers", "2",
                         "--max-turns", "40", "--timeout", "120", "--no-cache", "--no-check",
                         "--store", str(tmp_path / "runs.db"), "--suite", str(tmp_path / "suite.yaml"),
                         "--format", "json")
    assert code in (0, 1), err
    runs = [json.loads(line) for line in results.read_text().splitlines()]
    assert runs, err
    for outcomes in runs:
        _held(outcomes, arena, config, before, db)
        assert not any(s in r for r in outcomes.values() for s in config["secrets"] + planted)
    db.close()
    assert planted[2] not in out


def test_unsandboxed_the_same_corpus_gets_out(arena, cli, monkeypatch):  # noqa: F811
    """The probes are real: without the sandbox they write outside, connect and find secrets
    (only the probes that harm nothing beyond the test's own folder and listeners)."""
    root, config, tcp, unix, sentinel, log = arena
    app, config = _project(config, monkeypatch)
    monkeypatch.chdir(config["home"])
    outcomes, _ = _exec(cli, app, config, "--unsafe-no-sandbox",
                        probes=("proc_root", "tcp_libc", "unix_libc", "secrets", "home_files", "kernel"))
    assert "wrote" in outcomes["proc_root"], outcomes
    assert "connected" in outcomes["tcp_libc"] and tcp.connections >= 1
    assert "found a planted secret in env SHOP_PLANTED_VALUE" in outcomes["secrets"]
    assert f"found a planted secret in {config['project']}/.env" in outcomes["secrets"]
    assert f"found a planted secret in {config['home']}/other/.env" in outcomes["home_files"]
    assert "wrote /dev/shm" in outcomes["kernel"], outcomes["kernel"]


def _within_limits(outcomes: dict[str, str]) -> None:
    """The resource probes held to `LIMITS`' memory, disk and processes."""
    for probe, result in outcomes.items():
        print(f"{probe:14} {result[:150]!r}")
    assert outcomes["rlimit_raise"] == "nothing"  # no limit raised, no 3 GB allocated
    assert outcomes["native_alloc"] == "nothing"  # nor by numpy, malloc or mmap, and the run went on
    written = outcomes["disk_fill"]
    assert written.startswith("wrote ") and 0 < int(written.split()[1]) <= 32, written
    forked = int(outcomes["fork_bomb"].split()[-1])
    assert 0 < forked <= 64, outcomes["fork_bomb"]



def test_the_limits_hold_and_end_as_that_runs_own(arena, cli, monkeypatch):  # noqa: F811
    """The resource probes under small limits, for root inside too: a memory balloon and raising
    the limits (rlimit_raise), a disk fill of the scratch folder after one huge file (disk_fill),
    a fork bomb. Each is the run's own error, never masfuzz's hang or crash; the machine is
    untouched and nothing survives. (The CPU spin: `test_a_limit_hit_is_the_settings_finding`.)"""
    app, config = _project(arena[1], monkeypatch)
    config["disk_mb"] = 32
    before = _before(config)
    probes = RESOURCES
    code, out, err = cli("exec", f"{app}:prober", "--input", f"{','.join(probes)} {json.dumps(config)}",
                         "--sut-model", f"scripted/{app}:policy", "--timeout", "300", "--max-turns", "40",
                         "--no-cache", "--format", "json", *LIMITS)
    assert code in (0, 1), err
    trace = json.loads(out)
    calls = [e["arguments"]["probe"] for e in trace["events"] if e["type"] == "tool_call"]
    results = [e["payload"] for e in trace["events"] if e["type"] == "tool_result"]
    outcomes = dict(zip(calls, results))
    _within_limits(outcomes)
    root, _, tcp, unix, sentinel, log = arena
    assert _tree_hash(Path(config["victim"])) == before[0] and _tree_hash(Path(config["project"])) == before[1]
    assert sentinel.poll() is None
    assert not list(Path(tempfile.gettempdir()).glob("masfuzz-sut-*/fill*"))  # the scratch was the sandbox's


def _files_app(tmp_path: Path) -> Path:
    """The app of fixtures/files_app.py in a project with its price list and prompt."""
    project = tmp_path / "shop"
    (project / "data").mkdir(parents=True)
    (project / "prompts").mkdir()
    shutil.copy(Path(__file__).parent / "fixtures" / "files_app.py", project / "app.py")
    (project / "data" / "prices.json").write_text('{"apple": 1.5}')
    (project / "prompts" / "tone.txt").write_text("cheerful and brief")
    return project


def test_an_app_reads_its_files_relative_to_the_current_folder_and_its_own(cli, tmp_path, monkeypatch):
    """Started from the app's folder, as the app would be: `open("data/prices.json")` finds the
    folder's file, a prompt beside the app's own file is found, and a note written by a relative
    path lands in the sandbox's scratch, not in the folder."""
    project = _files_app(tmp_path)
    (project / ".env").write_text("SECRET=no")
    before = _tree_hash(project)
    monkeypatch.chdir(project)
    code, out, err = cli("exec", "app.py:shop", "--input", "quote", "--sut-model", "scripted/app.py:policy",
                         "--timeout", "120", "--no-cache", "--format", "json")
    assert code == 0, err
    results = {e["tool"]: e["payload"] for e in json.loads(out)["events"] if e["type"] == "tool_result"}
    assert results["prices"] == '{"apple": 1.5}' and results["tone"] == "cheerful and brief", results
    assert results["note"].startswith("noted in ") and str(project) not in results["note"], results
    assert _tree_hash(project) == before  # the note went to the scratch


def test_a_program_the_app_starts_by_name_is_found_though_its_folder_is_not_shown(cli, tmp_path, monkeypatch):
    """PATH finds `python` outside in a folder the sandbox does not show (a pyenv shim's, under
    the user's hidden home; here a folder outside the project, and nothing else on PATH): the
    app's `python` still starts inside, the Python that runs the system, so the run is the app's."""
    project = _files_app(tmp_path)
    shims = tmp_path / "shims"
    shims.mkdir()
    (shims / "python").symlink_to(sys.executable)
    monkeypatch.setenv("PATH", str(shims))
    monkeypatch.chdir(project)
    code, out, err = cli("exec", "app.py:shop", "--input", "quote", "--sut-model", "scripted/app.py:policy",
                         "--timeout", "120", "--no-cache", "--format", "json")
    assert code == 0, err
    results = {e["tool"]: e["payload"] for e in json.loads(out)["events"] if e["type"] == "tool_result"}
    assert results["calculate"] == "3.0", results


@pytest.mark.parametrize("named", ["shop/app.py:shop", "link/app.py:shop"])
def test_a_target_named_from_outside_its_project_is_found(cli, tmp_path, monkeypatch, named):
    """Started from the folder above the project (which the sandbox does not show), or through a
    link in it: the worker finds the target at its real path, and the app's own files beside it."""
    project = tmp_path / "home" / "shop"
    (project / "prompts").mkdir(parents=True)
    shutil.copy(Path(__file__).parent / "fixtures" / "files_app.py", project / "app.py")
    (project / "prompts" / "tone.txt").write_text("cheerful and brief")
    (project / "pyproject.toml").write_text("[project]\nname = 'shop'\n")
    (tmp_path / "home" / "link").symlink_to(project)
    monkeypatch.chdir(tmp_path / "home")
    code, out, err = cli("exec", named, "--input", "quote", "--sut-model", "scripted/shop/app.py:policy",
                         "--timeout", "120", "--no-cache", "--format", "json")
    assert code == 0, err
    results = {e["tool"]: e["payload"] for e in json.loads(out)["events"] if e["type"] == "tool_result"}
    assert results["tone"] == "cheerful and brief", results


def test_a_limit_hit_is_the_settings_finding(cli, monkeypatch):
    """A tiny app whose tools need more than tiny limits give: 512 MB from numpy and from Python
    (--sandbox-memory 256),
    200 processes (--sandbox-processes 64), a 64 MB file (--sandbox-disk 32), 8 helpers of 64
    MB (--sandbox-memory again, all together, where a memory cgroup can be made), then a spin that
    the CPU limit ends (--sandbox-cpu 2). Each finding the hits make names the limit and the
    setting that raises it and is the settings', so `--fail-on any` passes; the spin's end is a
    timeout naming --sandbox-cpu."""
    monkeypatch.chdir(ROOT)
    app = "tests/exec/fixtures/limits_app.py"
    code, out, err = cli("exec", f"{app}:heavy", "--input", "native,herd,hog,spawn,fill,spin", "--sut-model",
                         f"scripted/{app}:policy", *LIMITS, "--timeout", "120", "--no-cache",
                         "--format", "json", "--failures", "--fail-on", "any")
    assert code == 0, err  # the gate counts no finding of the settings'
    data = json.loads(out)
    events = data["trace"]["events"]
    end = events[-1]
    assert end["reason"] == "timeout" and "CPU time" in end["detail"] and "--sandbox-cpu" in end["detail"], end
    hits = {h["limit"]: h for h in data["trace"]["meta"]["sandbox_limits"]
            if h["event"] is not None or h["limit"] == "cpu"}  # herd's (below) apart
    assert sorted(hits) == ["cpu", "disk", "memory", "processes"], hits
    # `herd`'s 8 helpers of 64 MB, each within its address space: in a memory cgroup (root
    # here) over 256 MB together, so the kernel kills some, and says so as the memory limit's
    results = {e["tool"]: e["payload"] for e in events if e["type"] == "tool_result"}
    held = int(results["herd"].split()[0])
    if memory_cgroup_here():
        assert held * 64 < 256, results["herd"]
        assert any(h["limit"] == "memory" and h["event"] is None for h in data["trace"]["meta"]["sandbox_limits"])
    else:
        assert held == 8, results["herd"]  # the limit is per process only (docs/sandbox.md)
    for limit, tool, value in (("memory", "hog", 256), ("processes", "spawn", 64), ("disk", "fill", 32)):
        shown = events[hits[limit]["event"]]
        assert shown["type"] == "tool_result" and shown["tool"] == tool and shown["status"] == "error", shown
        assert hits[limit]["says"].startswith(f"hit --sandbox-{limit} {value} ")
    by_tool = {f["elements"][1] if f["detector"] != "runtime_crash" else "spin": f for f in data["failures"]}
    for f in data["failures"]:
        print(f["detector"], f["attribution"], f["because"][:80])
    assert {t: f["attribution"] for t, f in by_tool.items()} == dict.fromkeys(by_tool, "settings"), by_tool
    assert "spin" in by_tool and by_tool["spin"]["because"].startswith("hit --sandbox-cpu 2 "), by_tool
    # numpy's array refused in native code: the call's error, the memory limit's finding
    assert by_tool["native"]["because"].startswith("hit --sandbox-memory 256 "), by_tool
    assert all(f["severity"] == "info" for f in data["failures"])


def test_a_forged_model_call_gets_nothing_out(arena, cli, monkeypatch, tmp_path):  # noqa: F811
    """The system's model calls are masfuzz's to make (the model proxy): a tool that writes a
    model request of its own onto the worker's channel gets masfuzz to connect to no host
    address and to run no file the sandbox could write (a --bind folder's)."""
    root, _, tcp, unix, sentinel, log = arena
    app, config = _project(arena[1], monkeypatch)
    bound = root / "bound"
    bound.mkdir()
    bound.chmod(0o777)
    config["bound"] = str(bound)
    before = _tree_hash(Path(config["victim"]))
    code, out, err = cli(*_exec_argv(app, config, "--bind", str(bound), probes=("model_proxy",)))
    assert code == 0, err
    assert tcp.connections == 0
    assert _tree_hash(Path(config["victim"])) == before, sorted(os.listdir(config["victim"]))


FORK_HOOK_APP = Path(__file__).parent / "fixtures" / "fork_hook_app.py"


def test_a_target_whose_import_starts_a_thread_in_every_fork_runs_sandboxed():
    """A library's fork hook (OpenTelemetry's, under CrewAI) starts a thread in every fork of a
    process that imported it, and the kernel enters a user namespace only single-threaded:
    masfuzz loaded the target before it probed the sandbox, so the probe failed with EINVAL and
    `exec` refused to run. In a new process, the run is sandboxed; the refusal names the thread."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [*MASFUZZ_CLI, "exec", f"{FORK_HOOK_APP}:agent", "--input", "threads?", "--sut-model",
         f"scripted/{FORK_HOOK_APP}:policy", "--timeout", "120", "--no-cache", "--format", "json"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    trace = json.loads(done.stdout)
    results = [e["payload"] for e in trace["events"] if e["type"] == "tool_result"]
    assert len(results) == 1 and results[0].endswith("thread(s)"), results
    # a fork of that process cannot enter the namespaces: the refusal says which thread runs
    probe = ("import importlib.util, os, sys\n"
             "from masfuzz.exec import confine\n"
             f"spec = importlib.util.spec_from_file_location('app', {str(FORK_HOOK_APP)!r})\n"
             "spec.loader.exec_module(importlib.util.module_from_spec(spec))\n"
             "print(confine.threads_after_fork())\n"
             "if os.fork() == 0:\n"
             "    try:\n"
             "        confine.enter_namespaces(confine.libc())\n"
             "    except OSError as exc:\n"
             "        print(exc, flush=True)\n"
             "    os._exit(0)\n"
             "os.wait()\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    lines = done.stdout.splitlines()
    assert lines[0] == "['fork-hook-exporter']", done.stderr
    assert "runs 1 other thread(s) (fork-hook-exporter)" in lines[1], lines


def test_a_worker_forked_from_a_template_that_imported_such_a_target_runs_sandboxed():
    """The template (`masfuzz.exec.template`) imported the framework, whose fork hook then runs in
    every worker forked from it: such a worker becomes a fresh `python -m masfuzz.exec.worker`
    (`worker._fresh_for_the_sandbox`) and serves sandboxed, where it failed to enter the
    namespaces. In a new process: the fixture's hook stays out of pytest's."""
    script = ("import asyncio\n"
              "from masfuzz.exec import PoolExecutor, pool\n"
              "from masfuzz.scenario import Scenario\n"
              "preload = pool._preload\n"
              "pool._preload = lambda: [*preload(), 'tests.exec.fixtures.fork_hook_app']\n"
              "ex = PoolExecutor(timeout=120, template=True)\n"
              "async def go():\n"
              "    try:\n"
              f"        return await ex.run({f'{FORK_HOOK_APP}:agent'!r}, Scenario(input='threads?', "
              f"sut_model={f'scripted/{FORK_HOOK_APP}:policy'!r}))\n"
              "    finally:\n"
              "        await ex.aclose()\n"
              "print(asyncio.run(go()).termination.model_dump_json())\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["reason"] == "completed", done.stdout


MCP_APP = '''
import sys

from agents import Agent
from agents.mcp import MCPServerStdio

adder = MCPServerStdio(name="adder", params={{"command": sys.executable, "args": [{server!r}]}})
agent = Agent(name="Counter", instructions="Add the numbers.", mcp_servers=[adder])
'''


def test_an_agents_mcp_server_outside_the_project_starts_in_the_sandbox(cli, tmp_path, monkeypatch):
    """An Agents SDK agent whose MCP server (stdio) is a script outside the app's project: the
    sandbox shows what the server's command needs, read-only (`sandbox.programs_of`), and the
    server starts inside it, as the app's own process would start it; before, every run failed
    on the SDK's "Server not initialized". Its scripted policy is in a folder the sandbox neither
    shows nor binds (a --bind folder is beside it): masfuzz runs it outside, as it makes every
    model call of the system's (the model proxy)."""
    servers, project, policies, data = (tmp_path / name for name in ("servers", "app", "policies", "data"))
    for folder in (servers, project, policies, data):
        folder.mkdir()
    data.chmod(0o777)
    shutil.copy(Path(__file__).parents[1] / "toolfuzz" / "mcp_server.py", servers / "server.py")
    (project / "pyproject.toml").write_text("")
    (project / "mcp_app.py").write_text(MCP_APP.format(server=str(servers / "server.py")))
    (policies / "mcp_policy.py").write_text(
        "from masfuzz.llm.scripted import call, say, tool_results\n\n\n"
        "def policy(request):\n    done = tool_results(request)\n"
        "    return say(f'sum: {done[0].content}') if done else call('add', a=2, b=3)\n")
    monkeypatch.chdir(project)
    code, out, err = cli("exec", "mcp_app.py:agent", "--input", "add", "--sut-model",
                         f"scripted/{policies}/mcp_policy.py:policy", "--bind", str(data),
                         "--timeout", "120", "--no-cache", "--format", "json")
    assert code == 0, err
    events = json.loads(out)["events"]
    results = [e["payload"] for e in events if e["type"] == "tool_result"]
    assert len(results) == 1 and "5" in results[0], events
    assert events[-1]["reason"] == "completed", events[-1]


def test_a_folder_a_server_is_given_is_shown_with_its_dot_files_but_not_the_project(tmp_path):
    """A repository an agent's git server is given is shown with its .git (what the server
    reads); the project's dot-files stay hidden even when a server is given the project."""
    from masfuzz.exec.sandbox import SandboxSettings, discard, plan_for

    project, repo = tmp_path / "app", tmp_path / "repo"
    (project / "pkg").mkdir(parents=True)
    (project / "pyproject.toml").write_text("")
    (project / "app.py").write_text("")
    repo.mkdir()
    plan = plan_for(SandboxSettings(), f"{project}/app.py:agent", (str(repo), str(project), str(project / "pkg")))
    try:
        assert str(repo) in plan.whole and str(project) not in plan.whole  # pkg: as if it were not named
        assert str(repo) in plan.code
    finally:
        discard(plan)
