"""The AutoGen adapter on real AgentChat teams driven by scripted policies (no mocks)."""

from __future__ import annotations

import asyncio
import json

import pytest

from masfuzz.errors import MasfuzzError
from masfuzz.scenario import Fault, Scenario
from masfuzz.trace import ErrorEvent, Message, RestrictedAttempt, ToolCall, ToolResult

from tests.adapters.helpers import delegations, run_scenario, system
from tests.conftest import ROOT

SELECTOR = "examples/video_team/team.py:selector_team"
ROUND_ROBIN = "examples/video_team/team.py:round_robin_team"
POLICY = "scripted/examples/video_team/policy.py:policy"
TASK = "Make a 30-second short video about the water cycle."
PIPELINE = ["script_writer", "voice_actor", "graphic_designer", "director"]


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("VIDEO_TEAM_OUT", str(tmp_path))


def run(target, **scenario):
    scenario.setdefault("input", TASK)
    scenario.setdefault("sut_model", POLICY)
    return run_scenario(target, **scenario)



# --- extraction ------------------------------------------------------------------------------


def test_selector_team_spec_carries_participants_tools_and_selector_settings():
    _, _, spec = system(SELECTOR)
    assert spec.system.pattern == "selector" and spec.system.framework == "autogen"
    assert [a.id for a in spec.agents] == PIPELINE
    assert set(spec.permissions.allow) == {
        ("script_writer", "count_words"), ("voice_actor", "synthesize_voice"),
        ("graphic_designer", "generate_image"), ("director", "render_video"),
    }
    render = spec.tool("render_video")
    assert set(render.parameters["required"]) == {"audio_path", "image_path", "title"}
    assert render.source.file == "examples/video_team/tools.py"
    edges = {d.edge for d in spec.delegations}
    assert len(edges) == 12 and ("director", "director") not in edges
    assert {d.trigger for d in spec.delegations} == {"selector"}
    assert spec.termination.max_turns == 10
    assert any("MaxMessageTermination(max_messages=10)" in c and "TextMentionTermination" in c
               for c in spec.termination.conditions)
    assert any("allow_repeated_speaker=False" in c for c in spec.termination.conditions)
    director = spec.agent("director")
    assert "render_video" in director.instructions
    assert director.source.file == "examples/video_team/team.py" and director.source.line


def test_fixed_variant_allows_the_director_to_follow_itself():
    _, _, spec = system(f"{SELECTOR}(allow_repeated_speaker=True)")
    assert ("director", "director") in {d.edge for d in spec.delegations}


def test_round_robin_is_a_wrapping_sequence():
    _, _, spec = system(ROUND_ROBIN)
    assert spec.system.pattern == "fixed_order" and spec.system.entry_agent == "script_writer"
    assert [(d.from_, d.to, d.trigger) for d in spec.delegations] == [
        (a, PIPELINE[(i + 1) % 4], "sequence") for i, a in enumerate(PIPELINE)
    ]


def test_swarm_and_graphflow_patterns():
    _, _, swarm = system("tests/adapters/autogen_systems.py:swarm_team")
    assert swarm.system.pattern == "handoff"
    assert {(d.from_, d.to, d.trigger) for d in swarm.delegations} == {
        ("triage", "billing", "handoff"), ("billing", "triage", "handoff")}
    assert any("'user'" in n for n in swarm.notes)
    assert {t.id for t in swarm.tools} == {"lookup_order", "refund"}  # handoff tools are not tools
    _, _, flow = system("tests/adapters/autogen_systems.py:graph_team")
    assert flow.system.pattern == "graph" and flow.system.entry_agent == "drafter"
    conds = {d.edge: d.condition for d in flow.delegations}
    assert conds[("reviewer", "publisher")] == "message mentions 'APPROVE'"


@pytest.mark.parametrize("target", ["examples/video_team/app.py", "examples/video_team/app.py:main"])
def test_team_built_inside_async_main_is_captured_without_running(target, tmp_path):
    _, team, spec = system(target)
    assert spec.system.id == "video_team_selector" and len(spec.agents) == 4
    assert not list(tmp_path.iterdir())  # main() was stopped before any agent worked


# --- runs ------------------------------------------------------------------------------------


def test_director_bug_ends_at_the_message_limit_after_the_director_asked_to_end():
    trace = run(SELECTOR)
    end = trace.termination
    assert end.reason == "message_limit" and "Maximum number of messages 10" in end.detail
    asks = [i for i, e in enumerate(trace.events)
            if isinstance(e, Message) and e.agent == "director" and "ending the workflow" in e.content]
    assert asks and asks[0] < len(trace.events) - 1
    # the director never got the floor right after itself, so it never said TERMINATE
    assert ("director", "director", "selector") not in delegations(trace)
    assert ("director", "script_writer", "selector") in delegations(trace)
    assert trace.speaker_order[:5] == PIPELINE + ["script_writer"]
    calls = [(c.agent, c.tool) for c in trace.of_type(ToolCall)]
    assert calls[:5] == [("script_writer", "count_words"), ("voice_actor", "synthesize_voice"),
                         ("graphic_designer", "generate_image"), ("director", "render_video"),
                         ("script_writer", "count_words")]
    assert all(r.status == "ok" for r in trace.of_type(ToolResult))
    assert trace.usage.model_calls > 0 and trace.usage.tokens_in > 0


def test_allowing_repeated_speakers_lets_the_director_end_the_workflow():
    trace = run(f"{SELECTOR}(allow_repeated_speaker=True)")
    assert trace.termination.reason == "text_mention"
    assert delegations(trace)[-1] == ("director", "director", "selector")
    assert trace.termination.final_output == "TERMINATE"


def test_round_robin_runs_in_order_and_can_be_reordered():
    trace = run(ROUND_ROBIN)
    assert trace.speaker_order[:4] == PIPELINE and trace.termination.reason == "message_limit"
    assert {t for _, _, t in delegations(trace)} == {"sequence"}
    moved = run(ROUND_ROBIN, speaking_order=("graphic_designer", "script_writer"))
    order = ["graphic_designer", "script_writer", "voice_actor", "director"]
    assert moved.speaker_order[:4] == moved.meta["speaking_order"] == order


def test_selector_team_is_shown_the_speaking_order_but_not_forced():
    # The order is what the selector model sees (tests/adapters/test_mutations_reach_agents.py
    # shows a selector following it); this policy follows its pipeline whatever the order.
    trace = run(SELECTOR, speaking_order=("graphic_designer",))
    assert trace.meta["speaking_order"] == ["graphic_designer", "script_writer", "voice_actor", "director"]
    assert trace.speaker_order[:4] == PIPELINE


def test_unknown_or_repeated_speaker_is_a_clear_error():
    with pytest.raises(MasfuzzError, match="no participant 'narrator'"):
        run(SELECTOR, speaking_order=("narrator",))
    with pytest.raises(MasfuzzError, match="'director' is named twice"):
        run(ROUND_ROBIN, speaking_order=("director", "script_writer", "director"))


def test_scenarios_do_not_leak_state():
    adapter, obj, spec = system(SELECTOR)
    sc = Scenario(input=TASK, sut_model=POLICY)
    first, second = (asyncio.run(adapter.run(obj, spec, sc)) for _ in range(2))
    strip = lambda t: [e.model_dump(exclude={"t"}) for e in t.events]  # noqa: E731
    assert strip(first) == strip(second)


def test_injected_fault_shows_in_the_tool_result():
    trace = run(SELECTOR, faults=(Fault(tool="render_video", mode="error"),))
    render = [r for r in trace.of_type(ToolResult) if r.tool == "render_video"][0]
    assert render.status == "error" and render.fault == "error"
    assert "MASFUZZ_INJECTED_INTERNAL_ERROR" in render.payload


def test_a_stub_answers_in_place_of_the_tool():
    trace = run(SELECTOR, stubs={"render_video": "stub-render: /videos/water.mp4"})
    render = [r for r in trace.of_type(ToolResult) if r.tool == "render_video"][0]
    assert (render.status, render.fault, render.payload) == ("ok", "stub", "stub-render: /videos/water.mp4")
    others = [r for r in trace.of_type(ToolResult) if r.tool != "render_video"]
    assert others and all(r.fault is None for r in others)


def test_timeout_fault_in_process_ends_as_timeout():
    trace = run(SELECTOR, faults=(Fault(tool="synthesize_voice", mode="timeout"),), timeout=1.0)
    assert trace.termination.reason == "timeout"
    assert [c.tool for c in trace.of_type(ToolCall)][-1] == "synthesize_voice"


@pytest.mark.parametrize("whose", ["executor", "scenario"])
def test_a_run_cut_off_in_process_is_stopped_before_the_next_one(whose, tmp_path, monkeypatch):
    """A run ended by its time limit (the in-process executor's, or the scenario's own) is
    cancelled and awaited, not left going: nothing of it runs after it returns, so it can call
    no model (the next run's, once swapped in) and count no message towards the next run's
    limit: the team's termination condition is the same object in every run."""
    from masfuzz.exec import make_executor
    from tests.adapters.autogen_systems import SLOW, SLOW_LOG

    log = tmp_path / "calls.log"
    monkeypatch.setenv(SLOW_LOG, str(log))
    team = "tests/adapters/autogen_systems.py:relay_team"
    scenario = Scenario(input="Pass it on.", sut_model=SLOW)

    def calls():
        return len(log.read_text().splitlines()) if log.exists() else 0

    async def go():
        ex = make_executor("inprocess", timeout=60)
        alone = await ex.run(team, scenario)
        short = make_executor("inprocess", timeout=0.35) if whose == "executor" else ex
        cut = await short.run(team, scenario.model_copy(update={"timeout": 0.35} if whose == "scenario" else {}))
        left = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        made = calls()
        after = await ex.run(team, scenario)
        return alone, cut, left, made, after

    alone, cut, left, made, after = asyncio.run(go())
    assert alone.termination.reason == "message_limit" and alone.usage.model_calls == 7
    assert cut.termination.reason == "timeout" and "abandoned" not in cut.meta
    assert left == []  # the stream, the team's runtime, the model call in flight: all ended
    assert calls() - made == 7  # the run after made its own seven calls, and no one else any
    strip = lambda t: ([e.model_dump(exclude={"t", "id", "call_id"}) for e in t.events],  # noqa: E731
                       t.termination.reason, t.usage.model_calls)
    assert strip(after) == strip(alone)


@pytest.mark.parametrize("mode", ["probe", "faithful"])
def test_restricted_tool_attempt_is_recorded(mode):
    trace = run(SELECTOR, sut_model="scripted/tests/adapters/autogen_systems.py:probe_policy", restricted=mode)
    attempt = trace.of_type(RestrictedAttempt)[0]
    assert (attempt.agent, attempt.tool, attempt.mode) == ("voice_actor", "render_video", mode)
    result = [r for r in trace.of_type(ToolResult) if r.call_id == attempt.call_id][0]
    assert result.status == "blocked"
    assert not [c for c in trace.of_type(ToolCall) if c.agent == "voice_actor" and c.tool == "render_video"]


def test_swarm_handoffs_become_delegations():
    trace = run("tests/adapters/autogen_systems.py:swarm_team", input="I want a refund for A1",
                sut_model="scripted/tests/adapters/autogen_systems.py:swarm_policy")
    assert delegations(trace)[:2] == [("triage", "billing", "handoff"), ("billing", "triage", "handoff")]
    assert [c.tool for c in trace.of_type(ToolCall)] == ["lookup_order", "refund"]
    # the hand-off's "Transferred to ..." is AgentChat's note for the agent, not its model's words
    notes = [m for m in trace.of_type(Message) if m.content.startswith("Transferred to")]
    assert notes and all(m.agent and m.source == "framework" for m in notes)
    assert trace.termination.reason == "message_limit"


def test_graphflow_follows_its_edges():
    trace = run("tests/adapters/autogen_systems.py:graph_team", input="write a post",
                sut_model="scripted/tests/adapters/autogen_systems.py:graph_policy")
    assert trace.speaker_order == ["drafter", "reviewer", "publisher"]
    assert delegations(trace) == [("drafter", "reviewer", "graph_edge"), ("reviewer", "publisher", "graph_edge")]
    assert trace.termination.reason in ("completed", "text_mention"), trace.termination.detail
    assert trace.termination.final_output == "PUBLISHED"


def test_model_selection_call_is_asked_as_the_selector(tmp_path):
    seen = tmp_path / "agents.txt"
    policy = tmp_path / "spy.py"
    policy.write_text(
        "from video_team.policy import policy as real\n"
        f"def policy(request):\n    open({str(seen)!r}, 'a').write(str(request.agent) + '\\n')\n"
        "    return real(request)\n"
    )
    run(SELECTOR, sut_model=f"scripted/{policy}:policy")
    asked = set(seen.read_text().split())
    assert asked == {"selector", *PIPELINE}


def test_masfuzz_exec_prints_the_json_trace(cli):
    code, out, _ = cli("exec", SELECTOR, "--input", TASK, "--sut-model", POLICY, "--format", "json")
    assert code == 0
    trace = json.loads(out)
    assert trace["framework"] == "autogen" and trace["events"][-1]["reason"] == "message_limit"
    turns = [e["agent"] for e in trace["events"] if e["type"] == "agent_turn"]
    assert turns[:4] == PIPELINE


def test_a_kind_of_team_masfuzz_cannot_run_is_refused_at_load_in_one_line(cli):
    target = "tests/adapters/autogen_systems.py:magentic_team"
    code, out, err = cli("inspect", target)
    assert code == 2 and not out and err.strip().count("\n") == 0
    assert err.startswith(f"masfuzz: error: {target}: MagenticOneGroupChat: masfuzz cannot run this kind of AutoGen team")


def test_a_notebook_that_builds_its_client_as_it_loads_needs_no_key_and_runs_with_a_stub(
        cli, monkeypatch, tmp_path):
    """The AgentChat docs' notebooks: a module-level client built from the environment's key,
    cells that run the team at top level: awaiting it, or starting it as a task on the loop."""
    import os
    import shutil

    folder = ROOT / "tests" / "adapters" / "fixtures_agentchat"
    shutil.copy(folder / "research.ipynb", tmp_path / "research.ipynb")
    target = f"{tmp_path / 'research.ipynb'}:team"
    sut = f"scripted/{folder / 'research_policy.py'}:policy"
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    code, out, err = cli("inspect", target, "--format", "json")
    assert code == 0, err
    spec = json.loads(out)
    assert [a["id"] for a in spec["agents"]] == ["researcher", "writer"]
    assert [t["id"] for t in spec["tools"]] == ["web_search"]
    assert "OPENAI_API_KEY" not in os.environ  # lent only while the notebook loaded
    script = (tmp_path / ".masfuzz" / "notebooks" / "research.py").read_text()
    assert "# (masfuzz: left out, it runs the system at top level) await Console(stream)" in script
    # a run started as a task on Jupyter's loop (the AgentChat teams tutorial) has no loop here
    assert "# (masfuzz: left out, it runs the system at top level) background = asyncio.create_task(" in script
    stub = "American Airlines is based in Fort Worth (stub)"
    code, out, err = cli("exec", target, "--input", "Write a report on American Airlines",
                         "--sut-model", sut, "--stub", f"web_search={stub}", "--format", "json")
    assert code == 0, err
    trace = json.loads(out)  # display() went to stderr: stdout is the document alone
    [result] = [e for e in trace["events"] if e["type"] == "tool_result"]
    assert (result["status"], result["fault"], result["payload"]) == ("ok", "stub", stub)
    said = [e["content"] for e in trace["events"] if e["type"] == "message" and e.get("agent") == "researcher"]
    assert stub in said  # AgentChat's tool-use summary: the agent passes the stub's answer on
    code, out, err = cli("exec", target, "--input", "Write a report on American Airlines",
                         "--sut-model", sut, "--format", "json")
    [result] = [e for e in json.loads(out)["events"] if e["type"] == "tool_result"]
    assert result["status"] == "error" and "API key not found" in result["payload"]


def test_code_an_agent_writes_is_recorded_and_not_run_unless_the_user_says_so(monkeypatch, tmp_path):
    marker = tmp_path / "ran.txt"
    monkeypatch.setenv("CODER_MARKER", str(marker))
    team = "tests/adapters/autogen_systems.py:coder_team"
    policy = "scripted/tests/adapters/autogen_systems.py:coder_policy"
    kept = run(team, input="Create the marker file.", sut_model=policy)
    assert not marker.exists()
    [block] = kept.meta["code_not_run"]
    assert block["agent"] == "runner" and str(marker) in block["code"]
    said = [m.content for m in kept.of_type(Message) if m.agent == "runner"]
    assert said and "masfuzz did not run this code" in said[0]
    assert kept.usage.model_calls == 1  # the runner was built without a model and keeps none
    ran = run(team, input="Create the marker file.", sut_model=policy, run_code=True)
    assert marker.read_text() == "ran" and "code_not_run" not in ran.meta
    assert "written" in [m.content for m in ran.of_type(Message) if m.agent == "runner"][0]


WRAPPERS = "tests/adapters/autogen_wrappers.py"


def _open_and_run(target):
    """Opened as masfuzz opens a target (a dummy key where the app reads one as it loads)."""
    from masfuzz.target import open_target

    sut = open_target(target)
    scenario = Scenario(input="Why is the sky blue?", sut_model=f"scripted/{WRAPPERS}:policy")
    return sut.spec, asyncio.run(sut.runner().run(sut.obj, sut.spec, scenario))


def test_wrapped_members_get_masfuzz_model_and_speak_as_the_member():
    """A MessageFilterAgent member's wrapped agent holds the app's own OpenAI client: masfuzz
    replaces it (no call reaches the provider) and the wrapped agent's instructions, tools and
    events are the member's (a SocietyOfMindAgent's inner team: the test after this one)."""
    spec, trace = _open_and_run(f"{WRAPPERS}:filtered_flow")
    writer = next(a for a in spec.agents if a.id == "writer")
    assert "paragraph" in writer.instructions and spec.permissions.allow == (("writer", "word_count"),)
    assert trace.speaker_order == ["researcher", "writer"], trace.events[-2:]
    assert [(c.agent, c.tool) for c in trace.of_type(ToolCall)] == [("writer", "word_count")]
    assert delegations(trace) == [("researcher", "writer", "graph_edge")]


def test_a_society_of_minds_inner_agents_are_recorded_as_their_own_inside_its_nested_chat():
    """A SocietyOfMindAgent's inner team speaks and calls tools through the outer team's stream:
    those are the inner agents' own messages and calls, inside a nested chat the wrapper opens
    by delegating to the inner team and closes by answering from its transcript (as AG2's nested
    chats are recorded); the spec's graph has the same edges, so coverage and the oracles see
    them."""
    from masfuzz.coverage.structural import StructuralCoverage
    from masfuzz.graph.coordination import CoordinationGraph
    from masfuzz.trace import ChatEnd, ChatStart

    spec, trace = _open_and_run(f"{WRAPPERS}:society")
    assert trace.termination.reason == "text_mention", trace.termination.detail
    assert "Rayleigh" in next(m.content for m in trace.of_type(Message) if m.agent == "society")
    assert [a.id for a in spec.agents] == ["society", "editor", "drafter", "reviewer"]
    assert ("drafter", "word_count") in spec.permissions.allow
    edges = {(d.from_, d.to, d.trigger) for d in spec.delegations}
    assert {("society", "drafter", "delegate"), ("drafter", "reviewer", "sequence"),
            ("reviewer", "society", "sequence")} <= edges
    assert trace.speaker_order == ["society", "drafter", "reviewer", "society", "editor"]
    assert delegations(trace) == [("society", "drafter", "delegate"), ("drafter", "reviewer", "sequence"),
                                  ("reviewer", "society", "sequence"), ("society", "editor", "sequence")]
    assert [(c.agent, c.tool) for c in trace.of_type(ToolCall)] == [("drafter", "word_count")]
    assert [(r.agent, r.payload) for r in trace.of_type(ToolResult)] == [("drafter", "8 words")]
    assert [m.agent for m in trace.of_type(Message) if m.agent] == ["drafter", "reviewer", "society", "editor"]
    [start], [end] = trace.of_type(ChatStart), trace.of_type(ChatEnd)
    assert (start.kind, start.sender, start.recipient, end.chat) == ("nested", "society", "drafter", start.chat)
    inside = trace.events[trace.events.index(start):trace.events.index(end)]
    assert {e.agent for e in inside if isinstance(e, Message)} == {"drafter", "reviewer"}
    coverage = StructuralCoverage(CoordinationGraph(spec).obligations())
    coverage.add(trace)
    assert not coverage.unexpected  # every delegation and tool call recorded is one the spec declares
    covered = set(coverage.contexts)
    assert {"delegate::society::drafter", "use_tool::drafter::word_count", "reach::reviewer"} <= covered, sorted(covered)


def test_a_member_teams_agents_are_recorded_as_their_own_inside_its_nested_chat():
    """A team that is a member of the outer team: its agents speak and call tools in its turn,
    recorded as their own inside its nested chat, which ends when the outer team hands on."""
    from masfuzz.trace import ChatEnd, ChatStart

    spec, trace = _open_and_run(f"{WRAPPERS}:team_of_teams")
    assert trace.termination.reason == "text_mention", trace.termination.detail
    assert [a.id for a in spec.agents] == ["writers", "editor", "drafter", "reviewer"]
    edges = {(d.from_, d.to, d.trigger) for d in spec.delegations}
    assert {("writers", "drafter", "delegate"), ("drafter", "reviewer", "sequence"),
            ("writers", "editor", "sequence")} <= edges
    assert not any(to == "writers" and frm in ("drafter", "reviewer") for frm, to, _ in edges)
    assert delegations(trace) == [("writers", "drafter", "delegate"), ("drafter", "reviewer", "sequence"),
                                  ("writers", "editor", "sequence")]
    assert [(c.agent, c.tool) for c in trace.of_type(ToolCall)] == [("drafter", "word_count")]
    [start], [end] = trace.of_type(ChatStart), trace.of_type(ChatEnd)
    inside = trace.events[trace.events.index(start):trace.events.index(end)]
    assert [m.agent for m in inside if isinstance(m, Message)] == ["drafter", "reviewer"]
    assert [m.agent for m in trace.events[trace.events.index(end):] if isinstance(m, Message)] == ["editor"]


@pytest.mark.parametrize("target", ["society", "selector_society", "team_of_teams", "tools_of_teams"])
def test_a_second_run_on_another_event_loop_runs_the_inner_teams_as_the_first(target):
    """AgentChat binds a team's runtime and output queue to the loop of its first run; each
    `asyncio.run` (each command of the in-process executor) is a new loop. The inner teams (a
    society of mind's, a member team, a `TeamTool`'s, an `AgentTool`'s society) get fresh ones
    for every run, so the second run is the first again, not a crash ("bound to a different
    event loop") reported as the app's, and the app's objects keep their own after."""
    from masfuzz.adapters.autogen.fresh import teams_within
    from masfuzz.target import open_target

    sut = open_target(f"{WRAPPERS}:{target}")
    scenario = Scenario(input="Why is the sky blue?", sut_model=f"scripted/{WRAPPERS}:policy")
    inner = teams_within(sut.obj._participants)
    own = [(t._runtime, t._output_message_queue) for t in inner]
    first, second = (asyncio.run(sut.runner().run(sut.obj, sut.spec, scenario)) for _ in range(2))
    strip = lambda t: [e.model_dump(exclude={"t"}) for e in t.events]  # noqa: E731
    assert not first.of_type(ErrorEvent) and first.usage.model_calls > 2, first.events[-2:]
    # the agents a tool runs call masfuzz's model too, never the app's provider
    assert all(r.status == "ok" for r in first.of_type(ToolResult)), first.of_type(ToolResult)
    assert strip(second) == strip(first)
    assert not any("event loop" in r.payload for r in second.of_type(ToolResult))
    assert inner and [(t._runtime, t._output_message_queue) for t in inner] == own


def test_the_task_an_agent_gives_a_team_tool_is_its_call_not_the_users_message():
    """`TeamTool` and `AgentTool` stream their run, which opens with the task the agent gave them
    as a message from "user": that is the call's argument, not the user speaking mid-run."""
    _, trace = _open_and_run(f"{WRAPPERS}:tools_of_teams")
    users = [m.content for m in trace.of_type(Message) if m.role == "user"]
    assert users == ["Why is the sky blue?"], users
    assert [(c.tool, c.arguments) for c in trace.of_type(ToolCall) if c.agent == "lead"] == [
        ("writers", {"task": "Why is the sky blue?"}), ("checkers", {"task": "Check: Rayleigh scattering."})]


TEAM_TOOLS = "tests/adapters/autogen_team_tools.py"
TEAM_TOOLS_POLICY = f"scripted/{TEAM_TOOLS}:policy"


@pytest.mark.parametrize("target", ["team", "lead"])
def test_the_agents_a_team_tool_and_an_agent_tool_run_are_agents_of_the_spec(target):
    """A `TeamTool` over a round robin of two agents and an `AgentTool` over a third: the agents
    they run are agents of the workflow, with their tools and models, each reached from the
    caller by an `as_tool` delegation (the tool stays a tool edge of the caller, as an Agents SDK
    `Agent.as_tool` does), and the tool's team's own order links its agents; no way back (the
    tool's result is no hand-over). The same from the lead alone as the target."""
    _, _, spec = system(f"{TEAM_TOOLS}:{target}")
    assert [a.id for a in spec.agents] == ["lead", "researcher", "summarizer", "fact_checker"]
    assert {a.id: a.model for a in spec.agents}["summarizer"] == "gpt-4o-mini"
    assert "Summarize" in spec.agent("summarizer").instructions
    assert set(spec.permissions.allow) == {
        ("lead", "research"), ("lead", "fact_checker"), ("lead", "publish"),
        ("researcher", "search_notes"), ("summarizer", "count_words"), ("fact_checker", "lookup_source")}
    assert {(d.from_, d.to, d.trigger) for d in spec.delegations} == {
        ("lead", "researcher", "as_tool"), ("researcher", "summarizer", "sequence"),
        ("summarizer", "researcher", "sequence"), ("lead", "fact_checker", "as_tool")}
    assert not spec.notes


def test_an_agent_a_tool_runs_named_as_another_agent_is_a_note():
    _, _, spec = system(f"{TEAM_TOOLS}:clash")
    assert [a.id for a in spec.agents].count("researcher") == 1
    assert any("two agents are named 'researcher'" in n for n in spec.notes), spec.notes


def test_the_agents_a_tool_runs_are_recorded_as_their_own_inside_the_call():
    """Their messages, tool calls and results are theirs, inside a nested chat the caller's call
    opens (an `as_tool` delegation to the first inner speaker) and closes before the call's
    result; the task the lead gives is the call's argument, not a user message; coverage sees
    every inner agent, tool and edge, and nothing the spec does not declare."""
    from masfuzz.coverage.structural import StructuralCoverage
    from masfuzz.graph.coordination import CoordinationGraph
    from masfuzz.trace import ChatEnd, ChatStart

    _, _, spec = system(f"{TEAM_TOOLS}:team")
    trace = run_scenario(f"{TEAM_TOOLS}:team", input="How do tides work?", sut_model=TEAM_TOOLS_POLICY)
    assert [m.content for m in trace.of_type(Message) if m.role == "user"] == ["How do tides work?"]
    assert trace.speaker_order == ["lead", "researcher", "summarizer", "researcher", "summarizer", "lead",
                                   "fact_checker", "lead"]
    assert delegations(trace) == [("lead", "researcher", "as_tool"), ("researcher", "summarizer", "sequence"),
                                  ("summarizer", "researcher", "sequence"), ("researcher", "summarizer", "sequence"),
                                  ("lead", "fact_checker", "as_tool")]
    assert [(c.agent, c.tool) for c in trace.of_type(ToolCall)] == [
        ("lead", "research"), ("researcher", "search_notes"), ("summarizer", "count_words"),
        ("lead", "fact_checker"), ("fact_checker", "lookup_source"), ("lead", "publish")]
    assert all(r.status == "ok" for r in trace.of_type(ToolResult))
    starts, ends = trace.of_type(ChatStart), trace.of_type(ChatEnd)
    assert [(s.sender, s.recipient) for s in starts] == [("lead", "researcher"), ("lead", "fact_checker")]
    events = trace.events
    for start, end, inner in zip(starts, ends, [{"researcher", "summarizer"}, {"fact_checker"}]):
        assert end.chat == start.chat
        inside = events[events.index(start):events.index(end)]
        assert {e.agent for e in inside if isinstance(e, (Message, ToolCall, ToolResult))} == inner
        call = next(e for e in reversed(events[:events.index(start)]) if isinstance(e, ToolCall))
        result = next(e for e in events[events.index(end):] if isinstance(e, ToolResult))
        assert call.agent == result.agent == "lead" and call.call_id == result.call_id
    coverage = StructuralCoverage(CoordinationGraph(spec).obligations())
    coverage.add(trace)
    assert not coverage.unexpected
    assert {"reach::summarizer", "reach::fact_checker", "use_tool::summarizer::count_words",
            "use_tool::fact_checker::lookup_source", "delegate::lead::researcher",
            "delegate::lead::fact_checker", "delegate::researcher::summarizer"} <= set(coverage.contexts)


def test_agent_model_routes_an_inner_agent_of_a_team_tool_and_exec_names_it(cli):
    """`--agent-model researcher=...` reaches the agent a `TeamTool` runs (masfuzz's model for it,
    the others keep `--sut-model`), and `masfuzz exec --format json` names it in its events."""
    code, out, err = cli("exec", f"{TEAM_TOOLS}:team", "--input", "How do tides work?",
                         "--sut-model", TEAM_TOOLS_POLICY,
                         "--agent-model", f"researcher=scripted/{TEAM_TOOLS}:other_policy", "--format", "json")
    assert code == 0, err
    trace = json.loads(out)
    said = {(e["agent"], e["content"]) for e in trace["events"] if e["type"] == "message" and e.get("agent")}
    assert ("researcher", "Report from the other model.") in said
    assert ("summarizer", "Tides follow the moon. DONE") in said  # the --sut-model's
    turns = [e["agent"] for e in trace["events"] if e["type"] == "agent_turn"]
    assert {"researcher", "summarizer", "fact_checker"} <= set(turns)
    calls = [(e["agent"], e["arguments"]) for e in trace["events"] if e["type"] == "tool_call"]
    assert ("researcher", {"query": "tides (other model)"}) in calls


@pytest.mark.parametrize("mode", ["probe", "faithful"])
def test_a_restricted_tool_called_by_an_agent_a_tool_runs_is_blamed_on_that_agent(mode):
    """The researcher (inside the lead's `TeamTool`) calls `publish`, the lead's tool: the
    attempt is the researcher's, refused, and never the lead's call."""
    trace = run_scenario(f"{TEAM_TOOLS}:team", input="RESTRICTED: How do tides work?",
                         sut_model=TEAM_TOOLS_POLICY, restricted=mode)
    [attempt] = trace.of_type(RestrictedAttempt)
    assert (attempt.agent, attempt.tool, attempt.mode) == ("researcher", "publish", mode)
    [result] = [r for r in trace.of_type(ToolResult) if r.call_id == attempt.call_id]
    assert (result.agent, result.status) == ("researcher", "blocked")
    assert [c.agent for c in trace.of_type(ToolCall) if c.tool == "publish"] == ["lead"]


def test_a_tool_mutant_reaches_an_agent_a_tool_runs():
    """`remove_tool_edge` on the summarizer (inside the lead's `TeamTool`) takes its tool away for
    the run and gives it back after; a delegation mutant inside the tool's team is not
    applicable (its team's order is the app's, not the outer team's); dropping the lead's
    `as_tool` delegation drops the tool that makes it."""
    from masfuzz.scenario import Mutation

    adapter, obj, spec = system(f"{TEAM_TOOLS}:team")
    hidden = Mutation(operator="remove_tool_edge", args=("summarizer", "count_words"))
    assert adapter.mutation_problem(obj, spec, hidden) is None
    assert adapter.mutation_problem(obj, spec, Mutation(operator="drop_delegation",
                                                        args=("researcher", "summarizer")))
    trace = run_scenario(f"{TEAM_TOOLS}:team", input="How do tides work?", sut_model=TEAM_TOOLS_POLICY,
                         mutant=hidden)
    [result] = [r for r in trace.of_type(ToolResult) if r.tool == "count_words"]
    assert (result.agent, result.status) == ("summarizer", "error") and "not found" in result.payload
    again = run_scenario(f"{TEAM_TOOLS}:team", input="How do tides work?", sut_model=TEAM_TOOLS_POLICY)
    assert [r.status for r in again.of_type(ToolResult) if r.tool == "count_words"] == ["ok"]
    # an `as_tool` delegation is dropped with the tool that makes it
    dropped = Mutation(operator="drop_delegation", args=("lead", "fact_checker"))
    assert adapter.mutation_problem(obj, spec, dropped) is None
    trace = run_scenario(f"{TEAM_TOOLS}:team", input="How do tides work?", sut_model=TEAM_TOOLS_POLICY,
                         mutant=dropped)
    assert ("lead", "fact_checker", "as_tool") not in delegations(trace)
    assert "fact_checker" not in trace.speaker_order


def test_an_inner_team_that_never_ends_is_stopped_at_the_in_process_limit_with_what_it_did():
    """A society of mind whose reviewer never approves goes round until the limit: the adapter
    ends it itself (the executor waits a moment longer), so the trace keeps the inner agents'
    turns instead of the executor's bare cancel; the next command's run does the same."""
    from masfuzz.exec import InProcessExecutor

    ex = InProcessExecutor(timeout=3)
    scenario = Scenario(input="Why is the sky blue?", sut_model="scripted/masfuzz.control:probe")
    for _ in range(2):
        trace = asyncio.run(ex.run(f"{WRAPPERS}:society", scenario))
        assert trace.termination.reason == "timeout", trace.termination
        assert trace.speaker_order[:3] == ["society", "drafter", "reviewer"], trace.termination.detail


def test_a_user_proxy_that_would_read_the_terminal_is_a_user_who_says_nothing():
    """masfuzz's stdin is closed: the default input function's EOF crash would be the harness's
    doing, reported as the app's."""
    from autogen_agentchat.agents._user_proxy_agent import cancellable_input

    target = "tests/adapters/autogen_systems.py:approval_team"
    trace = run_scenario(target, input="Draft a haiku.", sut_model="scripted/masfuzz.control:probe")
    assert trace.termination.reason == "message_limit", trace.termination
    assert trace.speaker_order == ["writer", "user", "writer"] and not trace.of_type(ErrorEvent)
    _, team, _ = system(target)
    assert [m.input_func for m in team._participants if m.name == "user"] == [cancellable_input]


def test_a_team_waiting_on_masfuzzs_silent_user_is_not_the_apps_missing_termination_or_loop():
    """The selector-group-chat docs team: it asks the human (a UserProxyAgent) for approval and
    ends when someone says TERMINATE; masfuzz's stand-in user says nothing, so the run goes round
    to the message limit. That is masfuzz's silence, not the app's."""
    from masfuzz.oracles import detect

    target = "tests/adapters/autogen_systems.py:approval_selector_team"
    trace = run_scenario(target, input="Who scored most?", sut_model="scripted/masfuzz.control:probe")
    assert trace.termination.reason == "message_limit" and trace.meta["stand_in_users"] == ["user"]
    _, _, spec = system(target)
    found = detect(trace, spec)
    assert {(f.detector, f.attribution) for f in found} == {("missing_termination", "harness"), ("loop", "harness")}
    assert all("masfuzz stood in for that human" in f.because for f in found)
    # the same run with a human the app itself silenced: the app's
    own = trace.model_copy(update={"meta": {k: v for k, v in trace.meta.items() if k != "stand_in_users"}})
    assert {f.attribution for f in detect(own, spec)} == {"sut"}


TOOL_RUNS = "tests/adapters/autogen_tool_runs.py"


def _tool_run(target, task):
    return run_scenario(f"{TOOL_RUNS}:{target}", input=task, sut_model=f"scripted/{TOOL_RUNS}:policy")


def _chats(trace):
    """Each nested chat: its start, the events up to its end, and its end."""
    from masfuzz.trace import ChatEnd, ChatStart

    events = list(trace.events)
    out = []
    for start in trace.of_type(ChatStart):
        i = events.index(start)
        j = next(k for k in range(i, len(events)) if isinstance(events[k], ChatEnd) and events[k].chat == start.chat)
        out.append((start, events[i + 1:j], events[j]))
    return out


def test_two_agents_run_as_tools_at_once_each_keep_their_own_chat():
    """The lead's model asks for the team tool and the agent tool in one answer: AgentChat runs
    them side by side and their events interleave in its stream. Each run is recorded by its
    call, in a nested chat of its own under its own `as_tool` delegation, before the results:
    no hand-over between the two runs' agents, none of one run's events in the other's chat."""
    trace = _tool_run("team", "BOTH: how do tides work?")
    chats = _chats(trace)
    assert sorted(s.recipient for s, _, _ in chats) == ["fact_checker", "researcher"]
    teams = {"researcher": {"researcher", "summarizer"}, "fact_checker": {"fact_checker"}}
    for start, inside, end in chats:
        assert {e.agent for e in inside if isinstance(e, (Message, ToolCall, ToolResult))} == teams[start.recipient]
        assert "returned" in end.reason
    # the chat's end says why the tool's team stopped: its stop word
    assert {s.recipient: e.reason for s, _, e in chats}["researcher"] == "lead's tool research returned: Text 'DONE' mentioned"
    assert set(delegations(trace)) == {("lead", "researcher", "as_tool"), ("researcher", "summarizer", "sequence"),
                                       ("summarizer", "researcher", "sequence"), ("lead", "fact_checker", "as_tool")}
    results = [r for r in trace.of_type(ToolResult) if r.agent == "lead"]
    assert [r.tool for r in results] == ["research", "fact_checker"] and all(r.status == "ok" for r in results)
    assert trace.events.index(results[0]) > trace.events.index(chats[-1][2])


def test_an_agent_a_team_tool_runs_calls_its_own_tools_at_once_inside_its_chat():
    """The head's team tool runs the department, whose deputy asks both agent tools at once:
    one delegation to the deputy and one chat of its, inside which each of its calls is a chat
    of its own; no second hand-over to the deputy when its tools' agents speak."""
    trace = _tool_run("department", "How do tides work?")
    chats = {s.recipient: s for s, _, _ in _chats(trace)}
    assert sorted(chats) == ["deputy", "fact_checker", "researcher"]
    assert chats["researcher"].parent == chats["fact_checker"].parent == chats["deputy"].chat
    assert (chats["deputy"].sender, chats["researcher"].sender) == ("head", "deputy")
    assert delegations(trace).count(("head", "deputy", "as_tool")) == 1
    assert {("deputy", "researcher", "as_tool"), ("deputy", "fact_checker", "as_tool")} <= set(delegations(trace))


def test_a_team_asked_again_while_it_runs_is_a_delegation_that_failed():
    """The same team tool twice in one answer: the second call fails (AgentChat: the team is
    already running), which is the app's to avoid (TeamTool's documentation: no parallel tool
    calls). The trace shows that call's delegation and its failure, as it shows the first's
    run, and the lead's error result after."""
    from masfuzz.trace import ErrorEvent

    trace = _tool_run("team", "TWICE: how do tides work?")
    (first, inside, end), (second, failed, failed_end) = _chats(trace)
    assert (first.recipient, second.recipient) == ("researcher", "researcher")
    assert "returned" in end.reason and any(isinstance(e, Message) for e in inside)
    [error] = [e for e in failed if isinstance(e, ErrorEvent)]
    assert "already running" in error.message and "already running" in failed_end.reason
    assert [(d.from_, d.to, d.trigger) for d in failed if hasattr(d, "from_")] == [("lead", "researcher", "as_tool")]
    assert [r.status for r in trace.of_type(ToolResult) if r.agent == "lead"] == ["ok", "error"]


def test_an_app_that_asks_for_one_tool_call_at_a_time_gets_one_from_masfuzzs_model():
    """The app's client says `parallel_tool_calls=False` (as TeamTool requires): masfuzz's model,
    in its place, keeps to it, so the team is never asked twice at once by masfuzz's doing."""
    trace = _tool_run("one_call_at_a_time", "TWICE: how do tides work?")
    assert [(c.tool, c.arguments) for c in trace.of_type(ToolCall) if c.agent == "lead"] == [
        ("research", {"task": "tides"})]
    assert all(r.status == "ok" for r in trace.of_type(ToolResult))


def test_a_team_tool_whose_agents_model_fails_is_a_delegation_with_the_models_failure():
    """The researcher's model (masfuzz's) fails before anyone in the team tool speaks: the lead's
    call still delegates to the researcher, and the chat holds the failure as the model's
    (`model_error`, the researcher's), not as a fault of the app's tool."""
    from masfuzz.trace import ErrorEvent

    trace = _tool_run("team", "FAIL: how do tides work?")
    [(start, inside, end)] = _chats(trace)
    assert (start.sender, start.recipient) == ("lead", "researcher")
    assert ("lead", "researcher", "as_tool") in delegations(trace)
    [error] = [e for e in inside if isinstance(e, ErrorEvent)]
    assert (error.agent, error.kind) == ("researcher", "model_error") and "research model is down" in error.message
    assert end.reason.startswith("lead's tool research failed")
    [result] = trace.of_type(ToolResult)
    assert (result.agent, result.status) == ("lead", "error") and trace.events.index(result) > trace.events.index(end)


def test_a_crash_after_a_team_tool_took_in_a_model_failure_is_the_apps_own():
    """The researcher's model fails inside the team tool (the lead gets it as the tool's error
    and answers); then the app's auditor raises. The run's crash is the auditor's error, not
    the model failure the tool took in earlier."""
    from masfuzz.trace import ErrorEvent

    trace = _tool_run("audited", "FAIL: how do tides work?")
    assert trace.termination.reason == "crash", trace.termination
    *_, crash = trace.of_type(ErrorEvent)
    assert crash.agent == "auditor" and crash.kind != "model_error" and "audit ledger" in crash.message, crash


def test_a_workbench_that_does_not_stream_still_shows_the_agents_a_tool_runs():
    """`StaticWorkbench` runs a team tool with `run()`, whose events never reach the caller's
    stream: masfuzz runs the same stream itself and records the run inside the call, before its
    result, as a streaming workbench's."""
    trace = _tool_run("unstreamed", "How do tides work?")
    [(start, inside, _)] = _chats(trace)
    assert start.recipient == "researcher"
    assert [(c.agent, c.tool) for c in inside if isinstance(c, ToolCall)] == [("researcher", "search_notes"),
                                                                             ("summarizer", "count_words")]
    assert {m.agent for m in inside if isinstance(m, Message)} == {"researcher", "summarizer"}
    assert trace.speaker_order == ["lead", "researcher", "summarizer", "researcher", "summarizer", "lead"]
    [result] = [r for r in trace.of_type(ToolResult) if r.agent == "lead"]
    assert result.status == "ok" and "Tides follow the moon. DONE" in result.payload


def test_a_team_a_function_tool_closes_over_is_renewed_and_gets_masfuzzs_model():
    """A plain function tool runs a team its factory built (no `TeamTool`: AgentChat never sees
    it as a team's). Its agent gets masfuzz's model (the app's client is never asked), and each
    run, on a loop of its own, gets it fresh: the second run is the first again, not a crash on
    the first run's loop nor an agent that remembers the first run's question. What it says is
    out of the stream: the spec says so."""
    from masfuzz.target import open_target

    sut = open_target(f"{TOOL_RUNS}:factory")
    assert any("runs the team" in n and "not in the graph nor the trace" in n for n in sut.spec.notes), sut.spec.notes
    scenario = Scenario(input="How do tides work?", sut_model=f"scripted/{TOOL_RUNS}:policy")
    first, second = (asyncio.run(sut.runner().run(sut.obj, sut.spec, scenario)) for _ in range(2))
    [answer] = first.of_type(ToolResult)
    assert (answer.status, answer.payload) == ("ok", "archive answer after 1 question(s)"), answer
    strip = lambda t: [e.model_dump(exclude={"t"}) for e in t.events]  # noqa: E731
    assert strip(second) == strip(first)
