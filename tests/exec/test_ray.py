"""`--executor ray`: the same execution requests on a Ray cluster (here a local Ray, shared by
the module's tests); a worker killed mid-campaign is a recorded crash, a lost Ray worker is run
again once, then recorded; nothing is silently lost."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys

import pytest

from masfuzz.errors import MasfuzzError
from masfuzz.exec import make_executor
from masfuzz.exec.ray_executor import MISSING, _errors_to_stderr
from masfuzz.scenario import Scenario
from tests.conftest import ROOT
from tests.generate.test_cover import CS

POLICY = "scripted/tests/exec/killing_policy.py:policy"
SEAT = "Please change my seat to 14C, confirmation ABC123"


def test_a_missing_ray_is_one_line_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    with pytest.raises(MasfuzzError, match=r"install masfuzz\[ray\]"):
        make_executor("ray", ray_address="auto")  # before anything runs


def test_a_missing_ray_is_exit_2_before_a_campaign_claims_a_run(cli, tmp_path, monkeypatch):
    pytest.importorskip("agents")
    monkeypatch.setitem(sys.modules, "ray", None)
    monkeypatch.chdir(ROOT)
    code, out, err = cli("cover", CS, "--sut-model", POLICY, "--model", POLICY, "--no-cache",
                         "--no-check", "--executor", "ray", "--store", str(tmp_path / "runs.db"))
    assert code == 2 and out == ""
    assert err.strip().splitlines()[-1] == "masfuzz: error: " + MISSING
    code, out, err = cli("report", "--store", str(tmp_path / "runs.db"), "--list", "--format", "json")
    assert "running" not in out  # no run was left claimed


def test_an_unreachable_cluster_is_exit_2_before_a_campaign_claims_a_run(cli, tmp_path, monkeypatch):
    pytest.importorskip("ray")
    pytest.importorskip("agents")
    with socket.socket() as s:  # a port nothing listens on once it is closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.chdir(ROOT)
    store = str(tmp_path / "runs.db")
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        code, out, err = cli("cover", CS, "--sut-model", POLICY, "--model", POLICY, "--no-cache",
                             "--no-check", "--executor", "ray", "--ray-address", address,
                             "--store", store)
        assert code == 2 and out == ""
        assert err.strip().splitlines()[-1].startswith(
            f"masfuzz: error: --executor ray: cannot reach the Ray cluster at {address}: ")
    code, out, err = cli("cover", CS, "--executor", "ray", "--ray-address", "ray://:10001",
                         "--no-cache", "--store", store)
    assert code == 2 and "not HOST:PORT" in err
    code, out, err = cli("report", "--store", store, "--list", "--format", "json")
    assert "running" not in out  # no run was left claimed


class FakeRay:
    """What the executor asks of `ray` when it starts or joins one (no Ray started)."""

    def __init__(self):
        self.inits, self.shutdowns, self.initialized = [], 0, False

    def is_initialized(self):
        return self.initialized

    def init(self, **kwargs):
        self.inits.append(kwargs)
        self.initialized = True

    def shutdown(self):
        self.shutdowns += 1
        self.initialized = False

    def remote(self, function):
        return type("Remote", (), {"options": lambda _, **kw: kw})()


def test_a_cluster_gets_this_folder_as_working_dir_and_a_slot_folder_per_node(monkeypatch, tmp_path):
    from masfuzz.llm.client import SLOTS_ENV

    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    monkeypatch.setattr("masfuzz.exec.ray_executor.check_reachable", lambda address: None)  # no head
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    ex = make_executor("ray", ray_address="head:6379", concurrency=8)
    assert ex._connect() is fake
    [init] = fake.inits
    assert init["address"] == "head:6379"
    env = init["runtime_env"]
    assert env["working_dir"] == str(tmp_path) and ".masfuzz" in env["excludes"]
    assert "masfuzz-slots-" in env["env_vars"][SLOTS_ENV]  # made on each node, under its /tmp
    assert ex._folder is None  # the tasks work in the uploaded copy
    asyncio.run(ex.aclose())
    assert fake.shutdowns == 1  # it joined, so it leaves

    monkeypatch.setenv("RAY_ADDRESS", "other:6379")  # Ray's own variable names the cluster too
    make_executor("ray")._connect()
    assert fake.inits[-1]["address"] == "other:6379"

    local = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", local)
    monkeypatch.delenv("RAY_ADDRESS")
    ex = make_executor("ray", concurrency=16)
    ex._connect()
    [init] = local.inits
    # --workers runs at once locally, each actor on a fraction of a CPU (the work waits on models)
    assert "address" not in init and ex.num_cpus < 1 and init["num_cpus"] >= 16 * ex.num_cpus
    assert make_executor("ray", ray_cpus=2.0).num_cpus == 2.0  # --ray-cpus
    assert "working_dir" not in init["runtime_env"] and ex._folder == str(tmp_path)

    theirs = FakeRay()
    theirs.initialized = True  # an API caller's own ray.init: used, never shut down
    monkeypatch.setitem(sys.modules, "ray", theirs)
    ex = make_executor("ray")
    ex._connect()
    asyncio.run(ex.aclose())
    assert theirs.inits == [] and theirs.shutdowns == 0


@pytest.fixture(scope="module")
def ray_cluster(tmp_path_factory):
    """A local Ray for the module (the executors find it initialised and leave it running)."""
    ray = pytest.importorskip("ray")
    pytest.importorskip("agents")
    folder = tmp_path_factory.mktemp("killing-policy")
    env = {"KILLING_POLICY_DIR": str(folder)}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    ray.init(num_cpus=4, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": env})
    _errors_to_stderr(ray)  # as masfuzz's own ray.init does: the CLI's stdout stays its report
    yield ray
    ray.shutdown()


@pytest.fixture
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def _traces(inputs):
    async def go():
        ex = make_executor("ray", concurrency=3, timeout=60)
        try:
            return await ex.run_many(CS, [Scenario(input=i, sut_model=POLICY,
                                                   timeout=3 if "HANG" in i else None)
                                          for i in inputs])
        finally:
            await ex.aclose()

    return asyncio.run(go())


@pytest.mark.usefixtures("ray_cluster", "_in_repo")
def test_a_killed_worker_is_a_crash_a_lost_ray_worker_runs_again_once_a_hang_is_a_timeout():
    ok, killed, lost_once, lost, hung = _traces([
        SEAT, f"KILL-WORKER {SEAT}", f"LOSE-NODE-WORKER-ONCE {SEAT}", f"LOSE-NODE-WORKER {SEAT}",
        f"HANG {SEAT}"])
    assert ok.termination.reason == "completed" and ok.meta["executor"] == "ray"
    assert ok.system_id and ok.framework
    # the system under test killed its own process: the pool's crash, with what was running
    assert killed.termination.reason == "crash"
    assert "worker killed by SIGKILL" in killed.termination.detail
    assert "triage_agent" in killed.termination.detail
    # the Ray worker died once (not the system's doing, as far as masfuzz can tell): run again
    assert lost_once.termination.reason == "completed"
    assert "Seat changed to 14C" in lost_once.termination.final_output  # the run, in full
    # lost again on the retry: recorded as a crash naming Ray's error, never dropped
    assert lost.termination.reason == "crash"
    assert "Ray worker running it was lost (2 times)" in lost.termination.detail
    assert lost.system_id == ok.system_id
    # a run past its limit: the worker killed at --timeout on its node, the pool's timeout trace
    assert hung.termination.reason == "timeout"
    assert "no result within 3 s (--timeout); the worker was killed" in hung.termination.detail


@pytest.mark.usefixtures("ray_cluster", "_in_repo")
def test_bad_input_raises_on_the_driver_as_it_would_here():
    async def go():
        ex = make_executor("ray", timeout=30)
        try:
            await ex.run("examples/no_such_app.py:agent", Scenario(input="hi", sut_model=POLICY))
        finally:
            await ex.aclose()

    with pytest.raises(MasfuzzError, match="no such file"):
        asyncio.run(go())


def _campaign(cli, tmp_path, name, *extra, sut=POLICY, inputs=(SEAT,)):
    from tests.campaign.test_workers import _scrub
    from tests.generate.test_cover import TESTER

    folder = tmp_path / name  # the same file names in both, as the report shows them
    folder.mkdir()
    given = [a for i in inputs for a in ("--input", i)]
    code, out, err = cli("run", CS, "--model", TESTER, "--sut-model", sut, "--no-cache", *given,
                         "--rounds", "4", "--batch", "4", "--seed", "5", "--no-judge",
                         "--no-check", "--no-spec-agent", "--seed-tasks", "0", "--workers", "2",
                         "--store", str(folder / "runs.db"), "--suite", str(folder / "suite.yaml"),
                         "--format", "json", *extra)
    return code, _scrub(out.replace(str(folder), "FOLDER")), err


@pytest.mark.slow
@pytest.mark.usefixtures("ray_cluster", "_in_repo")
def _placeless(value):
    """`value` without a run's place in its process (`process_run`) and the flag that says it:
    --executor inprocess runs every scenario in masfuzz's own process, after the earlier ones,
    where Ray's workers each start a fresh process."""
    if isinstance(value, dict):
        return {k: _placeless(v) for k, v in value.items() if k not in ("process_run", "shared_process")}
    if isinstance(value, list):
        return [_placeless(v) for v in value]
    return value


def test_ray_gives_the_coverage_and_failures_of_the_in_process_executor(cli, tmp_path):
    from masfuzz.report.analysis import IN_PROCESS
    from tests.campaign.test_run import SLOPPY

    code_here, here, err = _campaign(cli, tmp_path, "here", "--executor", "inprocess", sut=SLOPPY)
    code_ray, on_ray, err = _campaign(cli, tmp_path, "ray", "--executor", "ray", sut=SLOPPY)
    assert code_here == code_ray == 1, err  # the sloppy policy's failure fails the run
    assert here["failures"] and here["generation"] and here["coverage"]
    for key in here:
        # the run's row names its own store and configuration; the tools phase runs in
        # masfuzz's own sandbox whatever the executor (not on Ray), and since the MCP and
        # error-key work of this round one of update_seat's 200 calls can come out differently
        # between two campaigns in one process: a nondeterminism of the tool fuzzer to find,
        # not Ray's (its findings are compared below)
        if key not in ("run", "tools", "warnings"):
            assert _placeless(on_ray[key]) == _placeless(here[key]), key
    assert here["warnings"] == [IN_PROCESS] and not on_ray.get("warnings")  # Ray's workers are sandboxed
    found = lambda doc: sorted((f["tool"], f["key"], f["attribution"]) for f in doc["tools"]["findings"])  # noqa: E731
    assert found(on_ray) == found(here) and found(here)


@pytest.mark.usefixtures("ray_cluster", "_in_repo")
def test_a_worker_killed_mid_campaign_is_a_crash_finding_and_the_campaign_completes(cli, tmp_path):
    code, report, err = _campaign(cli, tmp_path, "killed", "--executor", "ray",
                                  inputs=(SEAT, f"KILL-WORKER {SEAT}"))
    assert code == 1, err  # the crash fails the run
    crashes = [f for f in report["failures"] if "SIGKILL" in json.dumps(f)]
    assert crashes, report["failures"]
    assert report["fuzz"]["rounds"] == 4 and report["coverage"]["scenarios"] >= 4
