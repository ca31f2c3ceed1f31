"""Shrinking: a failing mutant is reduced toward its seed while the failure still reproduces,
keeping exactly the change that causes it; k-of-n sampling decides "reproduces"."""

import asyncio
import random

import pytest

from masfuzz.campaign.engine import Campaign
from masfuzz.exec import InProcessExecutor
from masfuzz.fuzz.shrink import Reproduce, differences, shrink
from masfuzz.oracles import detect
from masfuzz.scenario import Scenario
from masfuzz.target import Target
from tests.conftest import EXAMPLES, ROOT

pytest.importorskip("agents")

CS = str(EXAMPLES / "customer_service" / "app.py") + ":triage_agent"
HOT = "scripted/" + str(ROOT / "tests" / "fuzz" / "hot_policy.py") + ":policy"
DESK = "scripted/" + str(EXAMPLES / "customer_service" / "policy.py") + ":policy"


def _shrink(mutant, seed, reproduce=Reproduce()):
    target = Target.of(CS)
    spec = target.open().spec
    campaign = Campaign(target, spec, InProcessExecutor(), [])
    first = asyncio.run(campaign.execute([mutant]))[0]
    [failure] = [f for f in detect(first.trace, spec) if f.category == "restricted_tool_call"]
    result = asyncio.run(shrink(mutant, seed, failure.fingerprint, campaign.execute,
                                lambda t: detect(t, spec), random.Random(0), reproduce))
    return result, failure


def test_only_the_change_that_causes_the_failure_is_kept():
    seed = Scenario(input="Change my seat to 14C, booking ABC123", sut_model=HOT)
    mutant = seed.model_copy(update={
        "temperatures": {"triage_agent": 0.8, "faq_agent": 1.2},
        "agent_models": {"seat_booking_agent": DESK}, "nonce": 11})
    assert len(differences(mutant, seed)) == 3
    result, failure = _shrink(mutant, seed)
    assert result.kept == ["temperature of triage_agent (0.8)"]
    assert sorted(result.reverted) == ["model of seat_booking_agent (" + DESK + ")",
                                       "temperature of faq_agent (1.2)"]
    assert result.scenario.temperatures == {"triage_agent": 0.8}
    assert result.scenario.agent_models == {} and result.scenario.input == seed.input


def test_k_of_n_stops_sampling_once_decided():
    seed = Scenario(input="Change my seat to 14C, booking ABC123", sut_model=HOT)
    mutant = seed.model_copy(update={"temperatures": {"triage_agent": 0.8, "faq_agent": 1.2},
                                     "nonce": 5})
    result, _ = _shrink(mutant, seed, Reproduce(2, 3))
    # the faq revert reproduces twice (2 runs), the triage revert fails twice (2 runs)
    assert result.kept == ["temperature of triage_agent (0.8)"] and result.executions == 4


def test_reproduce_defaults_to_one_of_one_only_for_scripted_models():
    assert Reproduce.parse(None, HOT) == Reproduce(1, 1)
    assert Reproduce.parse(None, "local/gemma-3-270m") == Reproduce(2, 3)
    assert Reproduce.parse("3/5", None) == Reproduce(3, 5)
