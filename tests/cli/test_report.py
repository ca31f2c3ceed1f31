"""`masfuzz report` rebuilds a stored run's coverage without executing anything."""

import json

import pytest

from tests.generate.test_cover import CS, CS_SUT, _cover

pytest.importorskip("agents")


def test_report_matches_the_run_it_reads(cli, tmp_path):
    data = _cover(cli, tmp_path, CS, CS_SUT)
    store = str(tmp_path / "runs.db")
    code, out, err = cli("report", "--store", store, "--format", "json", "--obligations")
    assert code == 0, err
    again = json.loads(out)
    assert again["coverage"]["criteria"] == data["coverage"]["criteria"]
    assert again["run"]["id"] == data["generation"]["run_id"]
    code, out, _ = cli("report", "--store", store, "--list")
    assert code == 0 and " cover " in out and "completed" in out


def test_report_without_a_store_is_one_line(cli, tmp_path):
    code, out, err = cli("report", "--store", str(tmp_path / "none.db"))
    assert code == 2 and "no run store here" in err and err.count("\n") == 1
