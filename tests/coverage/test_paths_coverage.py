"""Inter-agent (execution-path) coverage: FLARE's direct check and its relaxation rules, on
hand-built traces and on the video team's bugged run."""

import asyncio

import pytest

from masfuzz.coverage.base import CoverageModel
from masfuzz.coverage.paths import (
    PathModel, first_round, reorders_independent, transitive_closure,
)
from masfuzz.exec import make_executor
from masfuzz.scenario import Scenario
from masfuzz.target import open_target
from masfuzz.trace import (
    AgentTurn, DelegationEvent, Message, ToolCall, ToolResult, Trace, TraceRecorder,
)

from tests.conftest import EXAMPLES
from tests.graph.test_paths import AGENTS, FLARE_DEPENDENCIES, TEAM, workflow

S, V, G, D = AGENTS
DESK = workflow("handoff", ["triage", "faq", "seat"], [("triage", "faq"), ("triage", "seat")])
CHAIN = workflow("fixed_order", ["a", "b", "c"], [("a", "b"), ("b", "c")], trigger="sequence")


def _trace(*events):
    rec = TraceRecorder()
    for e in events:
        rec.add(e)
    return rec.finish()


def _turns(*agents):
    return _trace(*(AgentTurn(agent=a) for a in agents))


def _asking_expert(call_id="c1", *, nested=True):
    """triage asks an `expert` agent run as its tool, then hands over to faq."""
    call = ToolCall(agent="triage", tool="ask_expert", call_id=call_id)
    result = ToolResult(agent="triage", tool="ask_expert", call_id=call_id, payload="answer")
    expert = (AgentTurn(agent="expert"), Message(agent="expert", content="answer"))
    inside = (call, *expert, result) if nested else (call, result, *expert)
    return _trace(AgentTurn(agent="triage"), *inside, AgentTurn(agent="triage"),
                  DelegationEvent(**{"from": "triage"}, to="faq"), AgentTurn(agent="faq"))


def test_a_path_model_is_a_coverage_model_with_namespaced_items():
    model = PathModel(CHAIN)
    assert isinstance(model, CoverageModel) and model.name == "path"
    assert model.items(_turns("a", "b", "c")) == {"path::a>b>c"}
    assert model.items(_turns("a", "c")) == set()  # b never spoke


def test_the_first_round_is_read_and_a_handoff_prefix_is_the_run_that_stopped_there():
    model = PathModel(DESK)
    assert first_round(("a", "b", "a", "c")) == ("a", "b")
    assert model.match(_turns("triage", "faq")).path == ("triage", "faq")
    # handed back to triage, then on to seat: the first round is triage, faq
    assert model.match(_turns("triage", "faq", "triage", "seat")).path == ("triage", "faq")
    # an undeclared hand-over is no legal path
    assert model.match(_turns("triage", "seat", "faq")) is None


def test_a_free_form_run_that_loops_before_everyone_spoke_covers_nothing():
    model = PathModel(open_target(f"{TEAM}:selector_team").spec, FLARE_DEPENDENCIES)
    assert model.match(_turns(S, V, D, S, V, G, D)) is None


def test_merge_consecutive_utterances():
    model = PathModel(CHAIN)
    trace = _turns("a", "a", "b", "c")
    assert first_round(trace.speaker_order) not in model.space  # the direct check fails
    found = model.match(trace)
    assert (found.path, found.rule) == (("a", "b", "c"), "merge_consecutive")
    assert model.match(_turns("a", "b", "a", "c")) is None  # not consecutive: not merged


def test_a_merge_that_explains_more_beats_the_direct_prefix():
    found = PathModel(DESK).match(_turns("triage", "triage", "faq"))
    assert (found.path, found.rule) == (("triage", "faq"), "merge_consecutive")


@pytest.mark.parametrize("call_id", ["c1", ""])  # without ids, calls pair by caller and tool
def test_inline_turns_taken_inside_a_tool_call(call_id):
    model = PathModel(DESK)
    trace = _asking_expert(call_id)
    assert trace.speaker_order == ["triage", "expert", "triage", "faq"]
    assert first_round(trace.speaker_order) not in model.space
    found = model.match(trace)
    assert (found.path, found.rule, found.sequence) == (
        ("triage", "faq"), "inline_nested", ("triage", "faq"))


def test_a_turn_after_the_tool_result_is_not_inlined():
    assert PathModel(DESK).match(_asking_expert(nested=False)) is None


def test_an_unanswered_call_brackets_nothing():
    trace = _asking_expert()
    unanswered = Trace(events=tuple(e for e in trace.events if not isinstance(e, ToolResult)))
    assert PathModel(DESK).match(unanswered) is None


def test_reorder_independent_steps():
    # the round robin's one path, with FLARE's dependencies: voice and image are independent
    model = PathModel(open_target(f"{TEAM}:round_robin_team").spec, FLARE_DEPENDENCIES)
    trace = _turns(S, G, V, D, S)
    assert first_round(trace.speaker_order) not in model.space
    found = model.match(trace)
    assert (found.path, found.rule, found.sequence) == ((S, V, G, D), "reorder_independent",
                                                         (S, G, V, D))
    # the director depends on the image: it must not be reordered before it
    assert model.match(_turns(S, V, D, G)) is None


def test_a_dependency_in_the_closure_forbids_a_reorder():
    closure = transitive_closure([("a", "b"), ("b", "c")])
    assert closure == {("a", "b"), ("b", "c"), ("a", "c")}
    assert not reorders_independent(("c", "a"), ("a", "c"), closure)
    assert reorders_independent(("c", "a"), ("a", "c"), transitive_closure([("a", "b")]))
    # the skeleton's dependencies chain the fixed order: nothing may be reordered
    chained = PathModel(CHAIN, [("a", "b"), ("b", "c")])
    assert chained.match(_turns("a", "c", "b")) is None
    assert PathModel(CHAIN, [("a", "b")]).match(_turns("a", "c", "b")).path == ("a", "b", "c")


def test_the_model_hook_is_asked_only_when_no_rule_matched():
    asked = []

    def hook(sequence, candidates):
        asked.append((sequence, candidates))
        return ("a", "b", "c")

    model = PathModel(CHAIN, model_match=hook)
    assert model.match(_turns("a", "b", "c")).rule == "direct" and not asked
    found = model.match(_turns("b", "a", "b", "c"))
    assert (found.path, found.rule, found.sequence) == (("a", "b", "c"), "model",
                                                         ("b", "a", "b", "c"))
    assert asked == [(("b", "a", "b", "c"), (("a", "b", "c"),))]
    assert PathModel(CHAIN, model_match=lambda s, c: ("c", "b", "a")).match(
        _turns("b", "a")) is None  # a path the space does not hold is refused


def test_an_async_hook_works_from_sync_and_async_callers():
    async def hook(sequence, candidates):
        await asyncio.sleep(0)
        return candidates[0]

    model = PathModel(CHAIN, model_match=hook)
    trace = _turns("c", "a")
    assert model.match(trace).rule == "model"

    async def inside_a_loop():
        return model.items(trace), (await model.amatch(trace)).rule

    assert asyncio.run(inside_a_loop()) == ({"path::a>b>c"}, "model")


def test_coverage_counts_covered_legal_paths():
    model = PathModel(DESK)
    items = model.items(_turns("triage", "faq")) | model.items(_turns("triage"))
    assert model.coverage(items | {"path::nowhere", "task::faq::answer"}) == (2, 3, False)
    capped = PathModel(open_target(f"{TEAM}:selector_team").spec, cap=5)
    assert capped.coverage(set()) == (0, 5, True)


def test_the_video_teams_bugged_round_robin_run_covers_its_one_path():
    pytest.importorskip("autogen_agentchat")
    ex = make_executor("inprocess", timeout=60)
    policy = "scripted/" + str(EXAMPLES / "video_team" / "policy.py") + ":policy"
    trace = asyncio.run(ex.run(f"{TEAM}:round_robin_team", Scenario(
        input="Make a 30-second video about the water cycle.", sut_model=policy)))
    assert trace.termination.reason == "message_limit"
    assert len(trace.speaker_order) > len(AGENTS)  # it went round again
    model = PathModel(open_target(f"{TEAM}:round_robin_team").spec)
    found = model.match(trace)
    assert (found.path, found.rule) == (tuple(AGENTS), "direct")
    assert model.coverage(model.items(trace)) == (1, 1, False)
    # a pure function of the trace: the stored trace, read back, gives the same match
    assert model.match(Trace.model_validate_json(trace.model_dump_json())) == found
