"""A tool's state that outlives a run: every run of the in-process executor (and of a persistent
worker's fork) shares one process, so a tool's module-level data carries one run's bookings into
the next. A finding that rests on a call an earlier run of the process answered otherwise (the
same arguments, another answer) shows that state, not the app as a fresh process starts it: it
is set aside as the settings' (the user chose to share the process), with why. The same finding
in a run that no earlier run touched stays the app's."""

from __future__ import annotations

import asyncio
import sys

import pytest

from masfuzz.exec import history, make_executor
from masfuzz.oracles import detect
from masfuzz.scenario import Scenario
from masfuzz.target import open_target
from masfuzz.trace import EARLIER_ANSWERS

from tests.conftest import ROOT

pytest.importorskip("pydantic_ai")

DESK = str(ROOT / "tests" / "fuzz" / "stateful_desk.py") + ":desk"
PLAIN = "scripted/" + str(ROOT / "examples" / "zoo" / "policy_n.py") + ":policy"
ASK = "Hello, the Orton knitting circle would like to hire the hall on the evening of 2026-03-05."


@pytest.fixture()
def fresh_process(monkeypatch):
    """This test's runs as the first of a process: nothing remembered, no bookings (the desk's
    module as masfuzz loaded it)."""
    monkeypatch.setattr(history, "_first", {})
    monkeypatch.setattr(history, "_runs", {})
    spec = open_target(DESK).spec
    for module in list(sys.modules.values()):
        if getattr(module, "__file__", None) == DESK.rsplit(":", 1)[0]:
            module.TAKEN.clear()
    return spec


def test_a_claim_resting_on_an_answer_an_earlier_run_left_is_the_settings(fresh_process):
    spec = fresh_process
    executor = make_executor("inprocess", timeout=60)
    first, second = (asyncio.run(executor.run(DESK, Scenario(input=ASK, sut_model=PLAIN))) for _ in range(2))
    assert EARLIER_ANSWERS not in first.meta  # the process's first run: nothing before it
    [answered] = second.meta[EARLIER_ANSWERS].values()
    assert "hired" in answered["payload"] and answered["runs_before"] == 1
    claims = [f for f in detect(second, spec) if f.root_cause == "Incorrect Verification"]
    assert claims and all(f.attribution == "settings" and "earlier run of the same process" in f.because
                          for f in claims)
    # the same run without what the process remembered: the claim after a refusal is the app's
    alone = second.model_copy(update={"meta": {k: v for k, v in second.meta.items() if k != EARLIER_ANSWERS}})
    assert [f.attribution for f in detect(alone, spec) if f.root_cause == "Incorrect Verification"] == ["sut"]
