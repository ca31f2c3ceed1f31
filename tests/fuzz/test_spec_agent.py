"""FLARE's Specification Agent and Space Agent with scripted tester models: valid clauses kept,
invalid ones counted with their reasons, the skeleton standing when the model fails, the cache."""

import asyncio

import pytest

from masfuzz.coverage.behaviour import BehaviourSpace
from masfuzz.fuzz.space_agent import space_agent
from masfuzz.fuzz.spec_agent import PROMPT_BUDGET, read_source, spec_request, specification_agent
from masfuzz.graph.specification import skeleton
from masfuzz.graph.paths import execution_paths
from masfuzz.llm.scripted import ScriptedClient
from masfuzz.target import open_target

from tests.conftest import EXAMPLES, ROOT
from tests.fuzz import flare_testers as testers

pytest.importorskip("autogen_agentchat")

TEAM = str(EXAMPLES / "video_team" / "team.py")


def workflow(attr="selector_team"):
    return open_target(f"{TEAM}:{attr}").spec


def specify(wf, policy, model="scripted/tester", **kw):
    return asyncio.run(specification_agent(wf, ScriptedClient(policy, model), **kw))


def reasons(stats):
    return [f"{d.item}: {d.reason}" for d in stats.rejected]


def test_the_reader_finds_the_video_team_dependencies():
    wf = workflow()
    result = specify(wf, testers.reader, source=read_source(wf, root=ROOT))
    spec, stats = result.spec, result.stats
    assert set(spec.relationships.dependencies) == {
        ("script_writer", "voice_actor"), ("script_writer", "graphic_designer"),
        ("voice_actor", "director"), ("graphic_designer", "director")}
    # the paper's Fig. 6: voice actor and graphic designer may swap, so two legal paths
    assert execution_paths(wf, spec.relationships.dependencies).paths == (
        ("script_writer", "voice_actor", "graphic_designer", "director"),
        ("script_writer", "graphic_designer", "voice_actor", "director"))
    assert set(skeleton(wf).clause_ids()) < set(spec.clause_ids())  # every skeleton clause kept
    render = spec.clause("task::director::use::render_video")
    assert render.responsibility == "deliver director's part" and render.outputs == ("the video's path",)
    new = spec.clause("task::director::on_your_next_turn_reply")
    assert new.kind == "conclude" and new.tool is None
    assert stats.calls == 1 and stats.malformed == 0 and not stats.rejected and len(stats.merged) == 4


def test_the_source_is_sent_within_the_prompt_budget():
    wf = workflow()
    source = read_source(wf, root=ROOT)
    assert source.startswith("# file: ") and "SELECTOR_PROMPT" in source
    small = spec_request(wf, skeleton(wf), "def build_agents(): ...").messages[0].content
    assert "Source code:\ndef build_agents(): ..." in small
    huge = spec_request(wf, skeleton(wf), source * 20).messages[0].content
    assert source[:500] in huge and len(huge) <= PROMPT_BUDGET
    assert huge.rstrip().endswith(small.rstrip().rsplit("\n", 1)[-1])  # the task still comes last


def test_without_the_selector_instructions_the_reader_finds_no_order():
    wf = workflow().model_copy(update={"notes": ()})
    assert specify(wf, testers.reader).spec.relationships.dependencies == ()


def test_valid_clauses_kept_and_invalid_ones_counted():
    wf = workflow()
    result = specify(wf, testers.mixed)
    spec, stats = result.spec, result.stats
    assert spec.relationships.dependencies == (("script_writer", "voice_actor"),)
    assert spec.termination.closers == ("director",)
    checked = spec.clause("task::director::check_result_before_ending")
    assert checked.agent == "director" and checked.outputs == ("verdict",)
    improvised = spec.clause("task::voice_actor::improvise_another_tool")
    assert improvised.tool is None and improvised.kind == "answer"  # the forbidden tool dropped
    assert [d.reason for d in stats.repaired] == ["voice_actor may not use count_words: tool dropped"]
    got = reasons(stats)
    assert len(got) == 5
    assert any("voice_actor -> script_writer" in r and "cycle" in r for r in got)
    assert sum("unknown agent 'ghost_agent'" in r for r in got) == 3  # dependency, closer, task
    assert any("unknown tool 'teleporter'" in r for r in got)
    assert set(skeleton(wf).clause_ids()) <= set(spec.clause_ids())


def test_a_fixed_order_is_authoritative():
    wf = workflow("round_robin_team")
    result = specify(wf, testers.mixed)
    assert result.spec.relationships.dependencies == skeleton(wf).relationships.dependencies
    assert any("contradicts the fixed order" in r for r in reasons(result.stats))


@pytest.mark.parametrize("policy", [testers.garbage, testers.wrong_shape])
def test_malformed_answers_leave_the_skeleton(policy, tmp_path):
    wf = workflow()
    result = specify(wf, policy, cache_dir=tmp_path)
    assert result.spec == skeleton(wf)
    assert result.stats.calls == 2 and result.stats.malformed == 2  # retried once
    assert not list(tmp_path.iterdir())  # a failure is not cached


def test_a_copy_of_the_worked_example_leaves_the_skeleton():
    wf = workflow()
    result = specify(wf, testers.copier)
    assert result.spec == skeleton(wf) and result.stats.malformed == 2
    assert result.stats.malformed_reasons[0] == "copies the worked example (article, facts, web)"


def test_a_failing_model_leaves_the_skeleton():
    def broken(request):
        raise RuntimeError("out of memory")

    wf = workflow()
    result = specify(wf, broken)
    assert result.spec == skeleton(wf) and result.stats.calls == 1
    assert "out of memory" in result.stats.failures[0]


def test_the_cache_hits_and_misses(tmp_path):
    wf = workflow()
    asked = []

    def counting(request):
        asked.append(request.agent)
        return testers.reader(request)

    first = specify(wf, counting, source="v1", cache_dir=tmp_path)
    again = specify(wf, counting, source="v1", cache_dir=tmp_path)
    assert len(asked) == 1 and not first.stats.cached and again.stats.cached and again.stats.calls == 0
    assert again.spec == first.spec and again.stats.merged == first.stats.merged
    specify(wf, counting, model="scripted/other", source="v1", cache_dir=tmp_path)
    specify(wf, counting, source="v2", cache_dir=tmp_path)
    assert len(asked) == 3
    files = sorted(p.name for p in tmp_path.iterdir())
    assert len(files) == 3 and all(f.startswith("spec-") and f.endswith(".json") for f in files)


def test_the_space_agent_splits_tasks_into_atomic_behaviours():
    wf = workflow()
    spec = skeleton(wf)
    result = asyncio.run(space_agent(spec, wf, ScriptedClient(testers.splitter, "scripted/tester")))
    children = [t for t in result.spec.tasks if t.refines]
    assert len(children) == 8  # two per tool task
    first = result.spec.clause("task::voice_actor::call_synthesize_voice_first_time")
    assert first.refines == "task::voice_actor::use::synthesize_voice" and first.tool == "synthesize_voice"
    got = reasons(result.stats)
    assert len(got) == 2
    assert any("is voice_actor's task, not script_writer's" in r for r in got)
    assert any("a single behaviour does not split task::voice_actor::answer" in r for r in got)
    space = result.space
    assert space == BehaviourSpace.of(result.spec)
    assert len(space.ids(anomalies=False)) == len(spec.tasks) + 8
    assert [t.agent for t in result.spec.tasks] == sorted(
        (t.agent for t in result.spec.tasks), key=[t.agent for t in spec.tasks].index)


def test_the_space_agent_with_a_weak_model_keeps_the_space():
    wf = workflow()
    spec = skeleton(wf)
    result = asyncio.run(space_agent(spec, wf, ScriptedClient(testers.garbage, "scripted/tester")))
    assert result.spec == spec and result.stats.malformed == 2
