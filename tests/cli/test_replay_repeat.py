"""`masfuzz replay SUITE --repeat K`: every case run K times, each run after the first a new
sample; pass^k and the flaky cases reported, exit 1 unless every case held in every run."""

import json

import pytest

from tests.conftest import ROOT
from tests.generate.test_cover import CS, CS_SUT, _cover

pytest.importorskip("agents")

FLAKY = "scripted/tests/cli/flaky_seat_policy.py:policy"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_a_case_that_fails_every_other_run_is_flaky_and_the_others_hold(cli, tmp_path):
    _cover(cli, tmp_path, CS, CS_SUT, "--no-check")
    suite = str(tmp_path / "suite.yaml")
    code, out, err = cli("replay", suite, "--repeat", "5", "--format", "json")
    assert code == 0, err
    steady = json.loads(out)
    assert steady["pass^k"] == 1 and steady["flaky"] == []  # the careful policy never fails
    code, out, err = cli("replay", suite, "--repeat", "5", "--sut-model", FLAKY, "--format", "json")
    assert code == 1
    data = json.loads(out)
    seat = [c for c in data["cases"] if any("seat_booking_agent::update_seat" in w for w in c["lost"])]
    assert seat and data["flaky"] == [c["id"] for c in seat]
    assert all((c["passed"], c["pass^k"]) == (3, 0) for c in seat)  # runs 1 and 3 of 0..4 lose it
    assert all((c["passed"], c["pass^k"]) == (5, 1) for c in data["cases"] if c not in seat)
    assert data["pass^k"] == pytest.approx((len(data["cases"]) - len(seat)) / len(data["cases"]))
    code, out, _ = cli("replay", suite, "--repeat", "5", "--sut-model", FLAKY)
    assert "FLAKY" in out and "(3/5 runs held)" in out and out.strip().splitlines()[-1].startswith("pass^5 = ")
