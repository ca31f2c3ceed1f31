"""The engine starts a batch's executions longest expected first (a mutant is expected to run as
long as the seed it came from; one with no recorded parent is expected to run longest), and still
records them in the order they were submitted."""

import asyncio

import pytest

from masfuzz.campaign.engine import Campaign
from masfuzz.exec import InProcessExecutor
from masfuzz.scenario import Provenance, Scenario
from masfuzz.target import Target
from tests.conftest import EXAMPLES, ROOT

pytest.importorskip("agents")

CS = str(EXAMPLES / "customer_service" / "app.py") + ":triage_agent"
SLEEPY = "scripted/" + str(ROOT / "tests" / "campaign" / "sleepy_policy.py") + ":policy"


def test_longest_expected_first_recorded_in_submission_order(monkeypatch):
    # a call's wait is what makes the longer run longer: long enough that a loaded machine's
    # noise cannot reverse two runs' times
    monkeypatch.setenv("SLEEPY_POLICY_DELAY", "0.6")
    asyncio.run(_seeds_then_mutants())


async def _seeds_then_mutants():  # one loop: the executor's slots belong to it
    target = Target.of(CS)
    executor = InProcessExecutor()  # one at a time: the order they start is the order they run
    campaign = Campaign(target, target.open().spec, executor, [])
    short = Scenario(input="Is there wifi on board?", sut_model=SLEEPY)
    long = Scenario(input="How much luggage can I bring? Also change my seat to 3A, booking XYZ789",
                    sut_model=SLEEPY)
    seeds = await campaign.execute([short, long])
    # the sleepy model waits 600 ms a call: two questions take more calls, so more time
    assert seeds[1].trace.usage.model_calls > seeds[0].trace.usage.model_calls
    assert seeds[1].trace.usage.wall_time > seeds[0].trace.usage.wall_time

    def child(seed: Scenario, nonce: int) -> Scenario:
        return seed.model_copy(update={"nonce": nonce, "provenance": Provenance(
            source="mutator:identity", parent=seed.id)})

    batch = [child(short, 1), child(long, 2), Scenario(input="How much luggage can I bring?",
                                                        sut_model=SLEEPY)]
    ran: list[str] = []
    real = executor._execute

    async def spy(request):  # called once the run holds its slot
        ran.append(request.scenario.id)
        return await real(request)

    executor._execute = spy
    outcomes = await campaign.execute(batch)
    assert ran == [batch[2].id, batch[1].id, batch[0].id]
    assert [o.scenario.id for o in outcomes] == [sc.id for sc in batch]
    assert [o.execution_id for o in outcomes] == [None, None, None]  # no store: nothing else
