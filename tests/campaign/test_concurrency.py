"""Two `cover` processes on one store never write into the same run."""

import os
import sqlite3
import subprocess
import time

import pytest

from tests.conftest import MASFUZZ_CLI, ROOT
from tests.generate.test_cover import CS, CS_SUT, TESTER

pytest.importorskip("agents")


def _cover(tmp_path):
    cmd = [*MASFUZZ_CLI,
           "cover", CS, "--model", TESTER, "--sut-model", CS_SUT, "--no-cache",
           "--store", str(tmp_path / "runs.db"), "--suite", str(tmp_path / "suite.yaml")]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path, env=env)


def test_two_processes_one_second_apart(tmp_path):
    first = _cover(tmp_path)
    time.sleep(1.0)
    second = _cover(tmp_path)
    out1, err1 = first.communicate(timeout=300)
    out2, err2 = second.communicate(timeout=300)
    # which one claims the run first is the machine's business (on a loaded one the process
    # started second may get there first): the other says so in one line
    (done, out, err), (waited, out_w, err_w) = sorted(
        [(first.returncode, out1, err1), (second.returncode, out2, err2)],
        key=lambda p: any("run 1 " in ln for ln in p[2].splitlines()))
    assert done == 0, err
    # the other waits out one lease (30 s) for the first to finish: on a loaded machine the first
    # may take longer, and then the other is refused with one line, which is as correct
    refused = waited == 2 and "worked on by another masfuzz process" in err_w
    assert waited == 0 or refused, err_w
    db = sqlite3.connect(tmp_path / "runs.db")
    runs = db.execute("SELECT id, status FROM runs").fetchall()
    rows = db.execute("SELECT COUNT(*), COUNT(DISTINCT run_id || scenario_id) FROM executions").fetchone()
    db.close()
    assert runs == [(1, "completed")]
    assert rows[0] == rows[1] > 0  # no execution recorded twice
    said = [ln for ln in err_w.splitlines() if "run 1 " in ln]
    assert len(said) == 1 and ("already complete" in said[0] or "another masfuzz process" in said[0])
    if not refused:
        assert out_w == out  # it shows the very run the first one made
