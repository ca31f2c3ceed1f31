"""The tester model's mapping of agent turns to behaviour ids (FLARE §3.3.4) on real traces of
the video team: detectors decide what they can, objective deviation comes only from the model,
unknown ids are rejected and counted, and the stored mapping rebuilds coverage without a model."""

import asyncio

import pytest

from masfuzz.coverage.behaviour import BehaviourModel, BehaviourSpace
from masfuzz.fuzz.behaviour_map import BehaviourMapping, agent_turns, map_behaviours
from masfuzz.exec import make_executor
from masfuzz.fuzz.space_agent import space_agent
from masfuzz.graph.specification import skeleton
from masfuzz.llm.scripted import ScriptedClient
from masfuzz.scenario import Scenario
from masfuzz.target import open_target
from masfuzz.trace import AgentTurn, Message, Trace

from tests.conftest import EXAMPLES
from tests.fuzz import flare_testers as testers

pytest.importorskip("autogen_agentchat")

TEAM = str(EXAMPLES / "video_team" / "team.py")
POLICY = "scripted/" + str(EXAMPLES / "video_team" / "policy.py") + ":policy"


@pytest.fixture(scope="module")
def run():
    spec = skeleton(open_target(f"{TEAM}:selector_team").spec)
    trace = asyncio.run(make_executor("inprocess", timeout=60).run(f"{TEAM}:selector_team", Scenario(
        input="Make a 30-second video about the water cycle.", sut_model=POLICY)))
    return spec, BehaviourSpace.of(spec), trace


def mapping_of(trace, space, policy):
    return asyncio.run(map_behaviours(trace, space, ScriptedClient(policy, "scripted/mapper")))


def test_turns_are_the_agents_turns(run):
    _, _, trace = run
    turns = agent_turns(trace)
    assert [t.agent for t in turns] == trace.speaker_order
    assert all(t.events and all(e.agent == t.agent for e in t.events) for t in turns)


def test_the_model_maps_turns_and_never_invents_a_deviation(run):
    spec, space, trace = run
    m = mapping_of(trace, space, testers.mapper())
    assert set(m.detected) == BehaviourModel(spec).items(trace)
    assert len(m.turns) == len(trace.speaker_order) and m.stats.calls == len(m.turns)
    director = [t for t in m.turns if t.agent == "director"]
    assert "task::director::use::render_video" in director[0].behaviours
    assert not any(b.endswith("objective_deviation") for b in m.covered())
    assert not m.stats.rejected and m.stats.malformed == 0
    assert "anomaly::script_writer::loop_after_termination" in m.covered()  # the detector's


def test_objective_deviation_only_where_the_model_says_so(run):
    _, space, trace = run
    m = mapping_of(trace, space, testers.mapper(deviation="take 3"))
    deviations = {b for b in m.covered() if b.endswith("objective_deviation")}
    assert deviations == {"anomaly::script_writer::objective_deviation"}
    [turn] = [t for t in m.turns if "anomaly::script_writer::objective_deviation" in t.behaviours]
    assert turn.index == len(m.turns) - 1  # the third take is the last turn


def test_unknown_ids_are_rejected_and_counted(run):
    _, space, trace = run
    m = mapping_of(trace, space, testers.liar)
    assert m.covered() == set(m.detected)
    reasons = [d.reason for d in m.stats.rejected]
    assert len(reasons) == 3 * len(m.turns)
    assert sum("unknown behaviour id" in r for r in reasons) == 2 * len(m.turns)
    assert sum("a detector or another agent's" in r for r in reasons) == len(m.turns)


def test_a_tool_task_needs_its_tool_in_the_turn(run):
    spec, space, _ = run
    trace = Trace(system_id=spec.system, events=(
        AgentTurn(agent="director"), Message(agent="director", content="I will not render anything.")))
    m = mapping_of(trace, space, testers.liar)
    assert "task::director::use::render_video" not in m.covered()
    assert any(d.reason == "the turn never called render_video" for d in m.stats.rejected)


def test_malformed_replies_are_counted(run):
    _, space, trace = run
    m = mapping_of(trace, space, testers.garbage)
    assert m.stats.malformed == 2 * len(m.turns) and m.covered() == set(m.detected)


def test_the_mapping_rebuilds_coverage_without_a_model(run):
    spec, space, trace = run
    m = mapping_of(trace, space, testers.mapper(deviation="take 3"))
    stored = BehaviourMapping.model_validate_json(m.model_dump_json())
    assert stored == m and stored.format_version == 1
    assert space.coverage(stored.covered()) == space.coverage(m.covered())
    assert space.coverage(stored.covered())["A"][0] > space.coverage(set(m.detected))["A"][0]


def test_refined_behaviours_are_mapped_by_the_model(run):
    spec, _, trace = run
    wf = open_target(f"{TEAM}:selector_team").spec
    refined = asyncio.run(space_agent(spec, wf, ScriptedClient(testers.splitter, "scripted/tester")))
    m = mapping_of(trace, refined.space, testers.mapper())
    children = {t.id for t in refined.spec.tasks if t.refines}
    assert children and children <= m.covered()  # every tool was called, so each split is seen
    assert not (children & set(m.detected))  # the detectors know only the specification's tasks
