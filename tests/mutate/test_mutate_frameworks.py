"""`masfuzz mutate` beyond the Agents SDK: the operators change a live AgentChat team and a live
LangGraph graph the way they say, the model sees it, the objects are put back after the run,
what has no meaning in a framework is reported not applicable with the reason, and the suite
`masfuzz cover` writes kills mutants. Scripted models (the examples' own), in-process."""

from __future__ import annotations

import asyncio
import json

import pytest

from masfuzz.scenario import Mutation, Scenario
from masfuzz.target import Target
from masfuzz.trace import ToolCall, ToolResult

from tests.adapters.mutation_policy import LOG
from tests.conftest import EXAMPLES

VIDEO = str(EXAMPLES / "video_team" / "team.py") + ":selector_team"
ROUND_ROBIN = str(EXAMPLES / "video_team" / "team.py") + ":round_robin_team"
VIDEO_SUT = "scripted/" + str(EXAMPLES / "video_team" / "policy.py") + ":policy"
VIDEO_TASK = "Make a 30-second short video about the water cycle."
RESEARCH = str(EXAMPLES / "research_graph" / "graph.py") + ":graph"
RESEARCH_SUT = "scripted/" + str(EXAMPLES / "research_graph" / "policy.py") + ":policy"
QUESTION = "How does the water cycle work?"
SPY = "scripted/tests/adapters/mutation_policy.py:spy('{}', 'a')"
TESTER = "scripted/" + str(EXAMPLES / "testers" / "template_tester.py") + ":policy"


def _m(op, *args):
    return Mutation(operator=op, args=tuple(str(a) for a in args))


def _runs(target, sut, text, *mutants):
    """One trace per mutant (None: the target as written), run one after another."""
    from masfuzz.exec import make_executor

    async def go():
        ex = make_executor("inprocess")
        try:
            return [await ex.run(target, Scenario(input=text, sut_model=sut, mutant=m)) for m in mutants]
        finally:
            await ex.aclose()

    return asyncio.run(go())


def _shape(trace):
    """What a run did, without its timings and ids: its tool calls and results, and its end."""
    return ([(e.agent, e.tool) for e in trace.events if isinstance(e, ToolCall)],
            [(e.tool, e.status) for e in trace.events if isinstance(e, ToolResult)],
            trace.termination.reason)


def _offered(log):
    """Agent -> the tool names offered in each of its model requests, from the spy's log."""
    out: dict[str, list[set[str]]] = {}
    for line in log.read_text().splitlines():
        seen = json.loads(line)
        out.setdefault(seen["agent"], []).append(set(seen["tools"]))
    return out


def _mutate(cli, target, suite, sut, *operators, flags=()):
    code, out, err = cli("mutate", target, "--suite", suite, "--sut-model", sut, "--executor",
                         "inprocess", "--no-cache", "--format", "json", *flags,
                         *(["--operators", ",".join(operators)] if operators else []))
    assert code == 0, err
    return json.loads(out)


def _cover(cli, tmp_path, target, sut):
    suite = tmp_path / "suite.yaml"
    code, out, err = cli("cover", target, "--model", TESTER, "--sut-model", sut, "--executor",
                         "inprocess", "--no-cache", "--store", str(tmp_path / "runs.db"),
                         "--suite", str(suite), "--progress", "off")
    assert suite.exists(), err
    return str(suite)


# --- AutoGen AgentChat ---------------------------------------------------------------------


def test_agentchat_team_changes_for_the_run_and_is_restored():
    pytest.importorskip("autogen_agentchat")
    from masfuzz.adapters.autogen.extract import leaves
    from masfuzz.adapters.autogen.mutate import mutated
    from masfuzz.spec.mutants import mutants

    system = Target.of(VIDEO).open()
    team = system.obj
    by = {a.name: a for a in team._participants}
    director = by["director"]

    def tools(agent):
        return {t.name for wb in agent._workbench for t in wb._tools}

    assert "remove_termination(TextMentionTermination)" in [
        m.label for m in mutants(system.spec)["remove_termination"]]
    benches, cond = director._workbench, team._termination_condition
    with mutated(team, _m("remove_tool_edge", "director", "render_video")):
        assert "render_video" not in tools(director)
    with mutated(team, _m("grant_restricted", "voice_actor", "render_video")):
        assert "render_video" in tools(by["voice_actor"])
    with mutated(team, _m("lower_turn_limit", 5)) as turns:
        assert [leaf._max_messages for leaf in leaves(team._termination_condition)
                if hasattr(leaf, "_max_messages")] == [5]
        assert turns(8) == 5
    with mutated(team, _m("remove_termination", "TextMentionTermination")):
        assert [type(c).__name__ for c in leaves(team._termination_condition)] == ["MaxMessageTermination"]
    with mutated(team, _m("swap_descriptions", "generate_image", "render_video")):
        assert director._workbench[0]._tools[0].description.startswith("Draw")
    assert director._workbench is benches and team._termination_condition is cond
    assert [leaf._max_messages for leaf in leaves(cond) if hasattr(leaf, "_max_messages")] == [10]
    assert director._workbench[0]._tools[0].description.startswith("Combine")
    # a round robin hands to the next agent only: dropping voice_actor -> graphic_designer takes
    # the designer out of the rotation; retargeting the script writer's turn moves the director
    rr = Target.of(ROUND_ROBIN).open().obj
    order = [a.name for a in rr._participants]
    with mutated(rr, _m("drop_delegation", "voice_actor", "graphic_designer")):
        assert [a.name for a in rr._participants] == ["script_writer", "voice_actor", "director"]
    with mutated(rr, _m("retarget_delegation", "script_writer", "voice_actor", "director")):
        assert [a.name for a in rr._participants][:2] == ["script_writer", "director"]
    assert [a.name for a in rr._participants] == order


def test_agentchat_mutants_show_in_the_trace_and_runs_after_are_unchanged(tmp_path, monkeypatch):
    pytest.importorskip("autogen_agentchat")
    monkeypatch.setenv(LOG, str(tmp_path / "spy.jsonl"))
    base, cut, lowered, after = _runs(VIDEO, SPY.format("video"), VIDEO_TASK, None,
                                      _m("remove_tool_edge", "director", "render_video"),
                                      _m("lower_turn_limit", 5), None)
    # the removed tool is not offered to the director's model, and its call is refused
    offered = _offered(tmp_path / "spy.jsonl")["director"]
    assert any("render_video" in o for o in offered) and any("render_video" not in o for o in offered)
    assert ("render_video", "ok") in _shape(base)[1]
    assert ("render_video", "ok") not in _shape(cut)[1] and ("render_video", "error") in _shape(cut)[1]
    # the lowered limit ends the run sooner
    assert "10" in base.termination.detail and "5" in lowered.termination.detail
    assert len(lowered.events) < len(base.events)
    # the team is as before: a later run on it is the first one again
    assert _shape(after) == _shape(base)


def test_agentchat_cover_suite_kills_mutants(cli, tmp_path):
    pytest.importorskip("autogen_agentchat")
    suite = _cover(cli, tmp_path, VIDEO, VIDEO_SUT)
    data = _mutate(cli, VIDEO, suite, VIDEO_SUT, "remove_tool_edge", "lower_turn_limit",
                   "retarget_delegation")
    assert data["framework"] == "autogen" and data["killed"] >= 1
    assert data["operators"]["lower_turn_limit"]["killed"] == 1
    killed = {r["mutant"] for o in data["operators"].values() for r in o["results"]
              if r["status"] == "killed"}
    assert "remove_tool_edge(director, render_video)" in killed
    # every agent is already a candidate after every other in a selector team: no retarget
    assert data["operators"]["retarget_delegation"]["status"] == "no mutant on video_team_selector"


def _one_case_suite(path, target, text, sut):
    from masfuzz.generate.suite import Suite, SuiteCase

    sc = Scenario(input=text, sut_model=sut)
    Suite(target, {}, {}, None, [SuiteCase(sc.id, "witness", text[:20], sc, [], [])], []).save(path)
    return str(path)


@pytest.mark.parametrize("bound", ["baseline", "run"])
def test_a_mutant_that_never_ends_is_cut_relative_to_the_baseline(cli, tmp_path, bound):
    """The round robin ends at its message limit; without the limit it would go on to --timeout.
    Its run on that mutant is bounded by 2x the baseline's time + the constant (or by --timeout
    when that is sooner), and the kill says which bound ended it."""
    pytest.importorskip("autogen_agentchat")
    suite = _one_case_suite(tmp_path / "s.yaml", ROUND_ROBIN, VIDEO_TASK, VIDEO_SUT)
    # a constant of 3 s: the mutant that keeps its message limit ends well within it even on a
    # loaded machine (at 1 s it was sometimes cut, and counted killed, in a full suite run)
    limits = (["--mutant-timeout-const", "3", "--timeout", "600"] if bound == "baseline"
              else ["--mutant-timeout-const", "600", "--timeout", "3"])
    code, out, err = cli("mutate", ROUND_ROBIN, "--suite", suite, "--sut-model", VIDEO_SUT,
                         "--operators", "remove_termination", "--executor", "inprocess",
                         "--no-cache", "--format", "json", *limits)
    assert code == 0, err
    data = json.loads(out)
    rows = {r["mutant"]: r for r in data["operators"]["remove_termination"]["results"]}
    [kill] = rows["remove_termination(max_turns)"]["killed_by"]
    [time] = data["baseline"]["times"]
    assert kill["bound"] == time["bound"] == bound
    assert data["mutant_time_limit"]["factor"] == 2.0
    if bound == "baseline":
        assert time["mutant_limit"] == pytest.approx(2 * time["seconds"] + 3, abs=0.01)
        assert kill["why"] == (f"ran past 2x the baseline's {time['seconds']:.1f} s + 3 s: did not "
                               "end as the target does (timeout)")
    else:
        assert time["mutant_limit"] == 3
        assert kill["why"] == "ended timeout (the run's time limit, 3 s) instead of message_limit"
    # the other stop condition gone, the message limit still ends the run: no timeout, no kill
    assert rows["remove_termination(TextMentionTermination)"]["status"] == "survived"


# --- LangGraph -----------------------------------------------------------------------------


def test_langgraph_graph_changes_for_the_run_and_is_restored():
    pytest.importorskip("langgraph")
    from masfuzz.adapters.langgraph.extract import tool_nodes
    from masfuzz.adapters.langgraph.inject import model_slots
    from masfuzz.adapters.langgraph.mutate import mutated

    system = Target.of(RESEARCH).open()
    app, spec = system.obj, system.spec
    [binding] = model_slots(app, ["researcher"])["researcher"]
    table = tool_nodes(app)["tools"]._tools_by_name

    def offered():
        return [t["function"]["name"] for t in binding.get().kwargs["tools"]]

    before = binding.get()
    with mutated(app, spec, _m("remove_tool_edge", "researcher", "web_search")) as mutant:
        assert offered() == ["fetch_page"] and "web_search" not in table
        assert mutant.graph is app
    with mutated(app, spec, _m("swap_descriptions", "web_search", "fetch_page")):
        texts = {t["function"]["name"]: t["function"]["description"] for t in binding.get().kwargs["tools"]}
        assert texts["web_search"].startswith("Read a page") and texts["fetch_page"].startswith("Search")
    with mutated(app, spec, _m("drop_delegation", "writer", "researcher")) as mutant:
        assert mutant.graph is not app
        assert mutant.graph.builder.branches["writer"]["after_writing"].ends["researcher"] == "__end__"
    with mutated(app, spec, _m("lower_turn_limit", 6)) as mutant:
        assert mutant.turns(12) == 6
    assert binding.get() is before and set(table) == {"web_search", "fetch_page"}
    assert app.builder.branches["writer"]["after_writing"].ends["researcher"] == "researcher"
    # a graph has no stop condition but END and the recursion limit: said, not scored
    why = system.runner().mutation_problem(app, spec, _m("remove_termination", "TextMentionTermination"))
    assert "stops by reaching END" in why
    why = system.runner().mutation_problem(app, spec, _m("grant_restricted", "writer", "web_search"))
    assert "no tool binding of its own" in why


def test_langgraph_mutants_show_in_the_trace_and_runs_after_are_unchanged(tmp_path, monkeypatch):
    pytest.importorskip("langgraph")
    monkeypatch.setenv(LOG, str(tmp_path / "spy.jsonl"))
    base, cut, lowered, dropped, after = _runs(
        RESEARCH, SPY.format("research"), QUESTION, None,
        _m("remove_tool_edge", "researcher", "web_search"), _m("lower_turn_limit", 2),
        _m("drop_delegation", "planner", "researcher"), None)
    offered = _offered(tmp_path / "spy.jsonl")["researcher"]
    assert {"web_search", "fetch_page"} in offered and {"fetch_page"} in offered
    assert ("web_search", "error") in _shape(cut)[1] and ("web_search", "ok") in _shape(base)[1]
    assert base.termination.reason == "completed" and lowered.termination.reason == "max_turns"
    assert "recursion_limit=2" in lowered.termination.detail
    # the planner's edge to the researcher gone: the run ends after the plan
    assert dropped.termination.reason == "completed" and _shape(dropped)[0] == []
    assert _shape(after) == _shape(base)


def test_langgraph_cover_suite_kills_mutants(cli, tmp_path):
    pytest.importorskip("langgraph")
    suite = _cover(cli, tmp_path, RESEARCH, RESEARCH_SUT)
    # a run past its bound is the kill here: a short constant keeps the looping mutant's two
    # cases from waiting the default minute each (the scripted graph ends in well under a second)
    data = _mutate(cli, RESEARCH, suite, RESEARCH_SUT, "remove_tool_edge", "drop_delegation",
                   "grant_restricted", "remove_termination", flags=("--mutant-timeout-const", "8"))
    assert data["framework"] == "langgraph" and data["killed"] >= 1
    killed = {r["mutant"] for o in data["operators"].values() for r in o["results"]
              if r["status"] == "killed"}
    assert "drop_delegation(planner, researcher)" in killed
    grant = data["operators"]["grant_restricted"]
    assert grant["status"] == "not applicable" and "no tool binding of its own" in grant["reason"]
