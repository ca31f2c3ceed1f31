"""How `masfuzz run`'s phases share one budget: each its weight's part of what is left among the
phases still to come that spend the same part; what one leaves rolls forward; the last spends
all that is left."""

import pytest

from masfuzz.campaign.budget import PARTS, Budget, share_limits

NOTHING = {"wall_time": 0.0, "executions": 0, "model_calls": 0}
TOOLS = ("wall_time",)


def test_each_phase_gets_its_weight_of_what_is_left_and_the_last_gets_the_rest():
    budget = Budget(wall_time=60.0, executions=40, model_calls=10)
    phases = [(("wall_time", "executions"), 1.0), (TOOLS, 1.0), (PARTS, 2.0), (PARTS, 2.0)]
    replay = share_limits(budget, NOTHING, phases)
    # time among all four (1 of 6), executions among the three that run the system (1 of 5); a
    # part it does not spend is no limit of its
    assert replay == {"wall_time": 10.0, "executions": 8}
    tools = share_limits(budget, {"wall_time": 2.0, "executions": 1, "model_calls": 0}, phases[1:])
    assert tools == {"wall_time": pytest.approx(2.0 + 58.0 / 5)}  # the 8 s replay left roll forward
    structural = share_limits(budget, {"wall_time": 20.0, "executions": 1, "model_calls": 0}, phases[2:])
    assert structural == {"wall_time": 40.0, "executions": 1 + 20, "model_calls": 5}
    last = share_limits(budget, {"wall_time": 30.0, "executions": 9, "model_calls": 3}, phases[3:])
    assert last == {"wall_time": 60.0, "executions": 40, "model_calls": 10}


def test_a_count_share_is_whole_and_never_more_than_is_left():
    budget = Budget(executions=3)
    phases = [(PARTS, 1.0), (PARTS, 2.0), (PARTS, 2.0)]
    assert share_limits(budget, NOTHING, phases) == {"executions": 1}  # 0.6, rounded up
    spent = {**NOTHING, "executions": 3}
    assert share_limits(budget, spent, phases[1:]) == {"executions": 3}  # nothing left to share
    assert share_limits(Budget(), NOTHING, phases) == {}  # no budget: no share


def test_a_run_under_way_when_its_phases_share_ends_is_finished_within_the_whole_budget():
    import asyncio

    from masfuzz.campaign.engine import Campaign

    class Left:  # the running phase's share spent, the whole budget not (or spent too)
        def __init__(self, whole):
            self.whole = whole

        def time_left(self, *, whole=False):
            return self.whole if whole else 0.0

    async def scenario():
        loop = asyncio.get_running_loop()
        running = loop.create_future()
        loop.call_soon(running.set_result, "trace")  # ends after the share did
        finished = await Campaign._within_budget(Left(300.0), running)
        abandoned = await Campaign._within_budget(Left(0.0), loop.create_future())
        return finished, abandoned

    assert asyncio.run(scenario()) == ("trace", None)
