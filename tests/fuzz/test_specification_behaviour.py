"""FLARE's specification skeleton and behavioural space on the shipped examples, and behaviour
coverage of real traces (the video team's director bug shows as loop_after_termination)."""

import asyncio

import pytest

from masfuzz.coverage.behaviour import BehaviourModel, BehaviourSpace
from masfuzz.exec import make_executor
from masfuzz.graph.specification import skeleton
from masfuzz.scenario import Scenario
from masfuzz.target import open_target

from tests.conftest import EXAMPLES

pytest.importorskip("autogen_agentchat")

TEAM = str(EXAMPLES / "video_team" / "team.py")
POLICY = "scripted/" + str(EXAMPLES / "video_team" / "policy.py") + ":policy"


def test_skeleton_of_the_video_team():
    spec = skeleton(open_target(f"{TEAM}:round_robin_team").spec)
    assert spec.relationships.pattern == "fixed_order"
    assert spec.relationships.order == ("script_writer", "voice_actor", "graphic_designer", "director")
    assert ("script_writer", "voice_actor") in spec.relationships.dependencies
    assert spec.termination.closers == ("director",) and spec.termination.max_turns == 10
    ids = spec.clause_ids()
    assert len(ids) == len(set(ids))  # stable, distinct clause ids
    assert "task::director::conclude" in ids and "task::voice_actor::use::synthesize_voice" in ids
    assert spec.clause("tool::render_video").agents == ("director",)


def test_behaviour_space_counts_tasks_and_the_three_anomalies():
    spec = skeleton(open_target(f"{TEAM}:selector_team").spec)
    space = BehaviourSpace.of(spec)
    assert len(space.ids(anomalies=False)) == len(spec.tasks) == 9
    assert len(space.ids()) == 9 + 4 * 3


def _trace(attr):
    ex = make_executor("inprocess", timeout=60)
    return asyncio.run(ex.run(f"{TEAM}:{attr}", Scenario(
        input="Make a 30-second video about the water cycle.", sut_model=POLICY)))


def test_the_director_bug_is_loop_after_termination():
    spec = skeleton(open_target(f"{TEAM}:selector_team").spec)
    model = BehaviourModel(spec)
    items = model.items(_trace("selector_team"))
    assert "task::director::conclude" in items
    assert any(i.endswith("::loop_after_termination") for i in items)
    assert "task::voice_actor::use::synthesize_voice" in items
    a, n = model.space.coverage(items)["A"], model.space.coverage(items)["N"]
    assert a[1] == 21 and n[1] == 9 and 0 < n[0] <= 9
    # the fixed variant lets the director speak twice and the run ends on its TERMINATE
    ended = model.items(_trace("selector_team(allow_repeated_speaker=True)"))
    assert "task::director::conclude" in ended
    assert not any(i.endswith("::loop_after_termination") for i in ended)
