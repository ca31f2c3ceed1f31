"""`--workers N`: executions at once, and the same run as `--workers 1` for the same seed;
`--max-connections`: model calls at once, across the worker processes. No timing here: the
speedup is bench/bench_workers.py's figure."""

import json
import re

import pytest

from tests.campaign.sleepy_policy import FOLDER_ENV, most_in_flight
from tests.campaign.test_run import SLOPPY, TASK
from tests.conftest import ROOT
from tests.generate.test_cover import CS, TESTER

pytest.importorskip("agents")

SLEEPY = "scripted/tests/campaign/sleepy_policy.py:policy"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def _scrub(text):
    """Times differ between two runs; nothing else may."""
    return json.loads(re.sub(r'"(started|finished|wall_time|seconds|fuzz_seconds|duration|latency|elapsed)": '
                             r'[0-9.eE+-]+', r'"\1": 0', text))


def _campaign(cli, tmp_path, name, workers, *extra):
    folder = tmp_path / name  # the same file names in both, as the report shows them
    folder.mkdir()
    code, out, err = cli("run", CS, "--model", TESTER, "--sut-model", SLOPPY, "--no-cache",
                         "--input", TASK, "--input", "How much luggage can I bring?",
                         "--rounds", "10", "--batch", "5", "--seed", "5", "--no-judge",
                         "--no-check", "--no-spec-agent", "--seed-tasks", "0",
                         "--workers", str(workers), "--store", str(folder / "runs.db"),
                         "--suite", str(folder / "suite.yaml"), "--format", "json", *extra)
    assert code == 1, err  # the sloppy policy's failure fails the run (--fail-on any)
    return out.replace(str(folder), "FOLDER"), (folder / "suite.yaml").read_text()


def test_four_workers_give_the_run_of_one(cli, tmp_path):
    """Structural generation and FLARE's batches, four executions at once in the worker pool:
    the report and the suite are those of the sequential run."""
    one, suite_one = _campaign(cli, tmp_path, "one", 1)
    four, suite_four = _campaign(cli, tmp_path, "four", 4)
    report_one, report_four = _scrub(one), _scrub(four)
    assert report_one["failures"], "the sloppy policy's failure is found"
    assert report_one["fuzz"]["rounds"] == 10 and report_one["generation"]
    for key in report_one:
        if key != "run":  # the run's row names its own store and configuration
            assert report_four[key] == report_one[key], key
    def when(suite):  # the suite's creation time is its only difference
        return re.sub(r"\d{4}-\d\d-\d\dT[0-9:+]+", "TIME", suite)

    assert when(suite_four) == when(suite_one)


def test_executions_overlap_and_model_calls_stay_within_max_connections(cli, tmp_path, monkeypatch):
    """A suite of the desk replayed on the sleeping model (each call waits 100 ms): with four
    workers calls overlap, never more than --max-connections of them, across the workers."""
    code, _, err = cli("cover", CS, "--model", TESTER, "--sut-model",
                       "scripted/examples/customer_service/policy.py:policy", "--no-cache",
                       "--no-check", "--faults", "none", "--store", str(tmp_path / "runs.db"),
                       "--suite", str(tmp_path / "suite.yaml"), "--format", "json")
    assert code == 0, err

    def replay(name, *extra):
        folder = tmp_path / name
        folder.mkdir()
        monkeypatch.setenv(FOLDER_ENV, str(folder))
        code, out, err = cli("replay", str(tmp_path / "suite.yaml"), "--sut-model", SLEEPY,
                             "--no-cache", "--format", "json", *extra)
        assert code == 0, err
        assert json.loads(out)["passed"] >= 4
        return most_in_flight(folder)

    assert replay("wide", "--workers", "4", "--max-connections", "8") >= 2
    assert 1 <= replay("narrow", "--workers", "4", "--max-connections", "2") <= 2
    assert replay("one", "--workers", "1") == 1
