"""The failures a campaign replays first run on the rule every replay shares
(`campaign.known.as_replayed`): the same model and the same time limit as `masfuzz replay` and the
pytest plugin give a saved case of the same scenario."""

from __future__ import annotations

import asyncio

from masfuzz.campaign.known import known_failures
from masfuzz.generate.replay import replay
from masfuzz.generate.suite import Suite, SuiteCase
from masfuzz.oracles.failure import Failure
from masfuzz.scenario import Scenario
from masfuzz.store.db import RunStore
from masfuzz.trace import AgentTurn, TerminationEvent, Trace

TARGET = "app.py:desk"


def _stored(tmp_path, scenario):
    """A store whose run 1 on TARGET found the app's failure `scenario` reproduces."""
    store = RunStore(tmp_path / "runs.db")
    run = store.start_run("cover", None, TARGET, {})
    trace = Trace(scenario_id=scenario.id, events=(AgentTurn(agent="desk"),
                                                   TerminationEvent(reason="timeout", final_output="")))
    eid = store.record_execution(run, scenario, trace)
    store.record_failure(run, eid, Failure(
        category="system_termination", root_cause="Max Round Limit Exceeded", detector="timeout",
        description="the desk never answered", scenario_id=scenario.id, elements=("desk",)))
    store.finish_run(run)
    return store


def _replayed_by_suite(scenario, **settings):
    seen = []

    async def execute(sc):
        seen.append(sc)
        return Trace(scenario_id=sc.id, events=(TerminationEvent(reason="completed", final_output="ok"),))

    case = SuiteCase(scenario.id, "witness", "the desk", scenario, [], [])
    asyncio.run(replay(Suite(TARGET, {}, {}, None, [case], []), execute, **settings))
    return seen[0]


def test_a_known_failure_is_replayed_on_the_model_and_time_limit_a_suite_case_would_be(tmp_path):
    # recorded on an embedded model, with its long bound
    recorded = Scenario(input="Move my seat to 14C.", sut_model="local/slow", timeout=900.0)
    with _stored(tmp_path, recorded) as store:
        for settings in ({"sut_model": "scripted/p.py:policy", "timeout": 30.0},  # tighter: it wins
                         {"sut_model": None, "timeout": 1200.0},  # looser: the recorded bound stays
                         {"sut_model": None, "timeout": None}):
            [(failure, scenario)] = known_failures(store, TARGET, before_run=2, **settings)
            assert failure.detector == "timeout"
            assert scenario == _replayed_by_suite(recorded, **settings), settings
        [(_, tight)] = known_failures(store, TARGET, before_run=2, sut_model="scripted/p.py:policy",
                                      timeout=30.0)
        assert (tight.sut_model, tight.timeout, tight.input) == ("scripted/p.py:policy", 30.0, recorded.input)
        [(_, loose)] = known_failures(store, TARGET, before_run=2, timeout=1200.0)
        assert (loose.sut_model, loose.timeout) == ("local/slow", 900.0)
