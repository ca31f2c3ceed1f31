"""One stored run every report test renders."""

from __future__ import annotations

import pytest

from tests.generate.test_cover import CS, TESTER

SLOPPY = "scripted/tests/report/sloppy_seat_policy.py:policy"


@pytest.fixture(scope="package")
def store(tmp_path_factory):
    """One cover run on the customer-service desk whose seat agent calls its tool without a
    required argument: an app failure about a tool, and a harness finding (a probe stub)."""
    pytest.importorskip("agents")
    from masfuzz.cli import main

    where = tmp_path_factory.mktemp("reports")
    code = main(["cover", CS, "--model", TESTER, "--sut-model", SLOPPY, "--no-cache", "--no-check",
                 "--store", str(where / "runs.db"), "--suite", str(where / "suite.yaml"), "--format", "json"])
    assert code == 0
    return str(where / "runs.db")
