"""`--executor ray`: the same execution requests on a Ray cluster (here a local Ray, shared by
the module's tests); a worker killed mid-campaign is a recorded crash, a lost Ray worker is run
again once, then recorded; nothing is silently lost."""

from __future__ import annotations

import asyncio
import json
import os
import sys

import pytest

from masfuzz.errors import MasfuzzError
from masfuzz.exec import make_executor
from masfuzz.scenario import Scenario
from tests.conftest import ROOT
from tests.generate.test_cover import CS

POLICY = "scripted/tests/exec/killing_policy.py:policy"
SEAT = "Please change my seat to 14C, confirmation ABC123"


def test_a_missing_ray_is_one_line_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    ex = make_executor("ray", ray_address="auto")
    with pytest.raises(MasfuzzError, match=r"install masfuzz\[ray\]"):
        asyncio.run(ex.run(CS, Scenario(input=SEAT, sut_model=POLICY)))


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
    yield ray
    ray.shutdown()


@pytest.fixture
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def _traces(inputs):
    async def go():
        ex = make_executor("ray", concurrency=3, timeout=60)
        try:
            return await ex.run_many(CS, [Scenario(input=i, sut_model=POLICY) for i in inputs])
        finally:
            await ex.aclose()

    return asyncio.run(go())


@pytest.mark.usefixtures("ray_cluster", "_in_repo")
def test_a_killed_worker_is_a_crash_and_a_lost_ray_worker_is_run_again_once():
    ok, killed, lost_once, lost = _traces([
        SEAT, f"KILL-WORKER {SEAT}", f"LOSE-NODE-WORKER-ONCE {SEAT}", f"LOSE-NODE-WORKER {SEAT}"])
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
