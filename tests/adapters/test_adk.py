"""The Google ADK adapter on real ADK agent trees run by ADK's own runner, driven by scripted
policies (no mocks, no network): extraction, model injection, traces, faults, termination."""

from __future__ import annotations

import pytest

pytest.importorskip("google.adk")

from masfuzz.adapters.faults import FAULT_MARKER  # noqa: E402
from masfuzz.errors import MasfuzzError  # noqa: E402
from masfuzz.graph.coordination import CoordinationGraph  # noqa: E402
from masfuzz.scenario import Fault, Mutation  # noqa: E402
from masfuzz.trace import HANDOVER_INPUTS, Message, RestrictedAttempt, ToolCall, ToolResult  # noqa: E402

from tests.adapters.helpers import delegations, run_scenario, system  # noqa: E402
from tests.conftest import ROOT  # noqa: E402

SMALL = "tests/adapters/adk_systems.py:lead"
SMALL_POLICY = "scripted/tests/adapters/adk_systems.py:policy"
DESK = "examples/adk/agent.py:root_agent"
DESK_POLICY = "scripted/examples/adk/policy.py:policy"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_extraction_counts_every_kind_of_adk_delegation():
    _, _, spec = system(SMALL)
    assert spec.system.framework == "adk" and spec.system.entry_agent == "lead"
    assert [a.id for a in spec.agents] == ["lead", "math", "fanout", "scout", "a1", "a2"]
    assert {(t.id, t.kind) for t in spec.tools} == {("add", "function"), ("scout", "agent")}
    assert set(spec.permissions.allow) == {("math", "add"), ("lead", "scout")}
    assert {(d.from_, d.to, d.trigger) for d in spec.delegations} == {
        ("lead", "math", "handoff"), ("lead", "fanout", "handoff"), ("lead", "scout", "as_tool"),
        ("math", "fanout", "handoff"),  # a peer; not its parent: disallow_transfer_to_parent
        ("fanout", "a1", "delegate"), ("fanout", "a2", "delegate")}
    assert spec.agent("a1").model == "gemini-2.0-flash"  # inherited from its nearest LlmAgent
    assert spec.agent("fanout").model is None and spec.agent("fanout").model_settings["workflow"] == "parallel"
    assert spec.tool("add").parameters["required"] == ["a", "b"]
    counts = CoordinationGraph(spec).obligations().counts()
    assert counts == {"C1": 6, "C2": 2, "C3": 8, "C4": 6}  # C3: 5 LlmAgents x 2 tools - 2 allowed
    adapter, obj, _ = system(SMALL)
    assert adapter.mutation_problem(obj, spec, Mutation(operator="drop_delegation", args=("lead", "math"))) is None
    assert "peer transfer" in adapter.mutation_problem(obj, spec, Mutation(operator="drop_delegation", args=("math", "fanout")))
    assert obj.sub_agents[0].name == "math"  # a mutant tried is undone at once
    _, _, custom = system("tests/adapters/adk_systems.py:gate")  # the app's own BaseAgent subclass
    assert custom.system.framework == "adk" and [a.id for a in custom.agents] == ["gate", "inner"]
    assert any("runs its sub-agents in its own code" in n for n in custom.notes)


def test_the_desk_sequence_and_loop_edges_and_termination_conditions():
    _, _, spec = system(DESK.split(":")[0])  # a file named alone: its root_agent, as `adk run` takes it
    assert spec.system.entry_agent == "coordinator"
    edges = {(d.from_, d.to, d.trigger) for d in spec.delegations}
    assert {("report_pipeline", "drafter", "delegate"), ("drafter", "refine", "sequence"),
            ("refine", "critic", "delegate"), ("critic", "reviser", "sequence"),
            ("reviser", "critic", "sequence"), ("billing", "coordinator", "handoff")} <= edges
    assert ("billing", "report_pipeline", "handoff") not in edges  # disallow_transfer_to_peers
    assert "refine: escalate or max_iterations=2" in spec.termination.conditions


def test_every_llm_agent_is_answered_by_masfuzz_as_itself_and_its_model_put_back():
    adapter, obj, spec = system(SMALL)
    llm_agents = (obj, obj.sub_agents[0], *obj.sub_agents[1].sub_agents)
    before = {a.name: a.model for a in llm_agents}
    trace = run_scenario(SMALL, input="give me two views", sut_model=SMALL_POLICY, restricted="probe")
    said = {m.agent: m.content for m in trace.of_type(Message) if m.agent}
    assert said["a1"] == "I am a1" and said["a2"] == "I am a2"  # the parallel branches, each its own
    assert ("lead", "fanout", "handoff") in delegations(trace)
    assert {("fanout", "a1", "delegate"), ("fanout", "a2", "delegate")} <= set(delegations(trace))
    assert trace.meta["model_swapped_at"]["a1"] == ["LlmAgent.model"]
    [attempt] = trace.of_type(RestrictedAttempt)  # a2 took the probe of add, which ADK refused
    assert (attempt.agent, attempt.tool, attempt.mode) == ("a2", "add", "probe")
    assert [r.status for r in trace.of_type(ToolResult)] == ["blocked"]
    after = {a.name: a.model for a in llm_agents}
    assert after == before and isinstance(after["lead"], str)


def test_transfer_tool_call_and_agent_tool_are_traced():
    trace = run_scenario(SMALL, input="add these", sut_model=SMALL_POLICY)
    assert delegations(trace)[0] == ("lead", "math", "handoff")
    # what math's model got at its first call after lead's: the user's words, by ADK's default
    [given] = [x for x in trace.meta[HANDOVER_INPUTS] if x["agent"] == "math"]
    assert "add these" in given["text"]
    assert [(c.agent, c.tool, c.arguments) for c in trace.of_type(ToolCall)] == [("math", "add", {"a": 2, "b": 3})]
    assert trace.termination.final_output == "math: {\"result\": 5}"
    asked = run_scenario(SMALL, input="look around", sut_model=SMALL_POLICY)
    assert ("lead", "scout", "as_tool") in delegations(asked)
    assert asked.termination.final_output.startswith("lead heard:") and "I am scout" in asked.termination.final_output


def test_a_tool_fault_is_recorded_and_a_stub_answers_for_the_tool():
    trace = run_scenario(SMALL, input="add these", sut_model=SMALL_POLICY, faults=(Fault(tool="add", mode="error"),))
    result = trace.of_type(ToolResult)[0]
    assert result.status == "error" and result.fault == "error" and FAULT_MARKER in result.payload
    assert trace.termination.reason == "crash"  # ADK re-raises a tool error no callback handles
    stubbed = run_scenario(SMALL, input="add these", sut_model=SMALL_POLICY, stubs={"add": "41"})
    assert stubbed.of_type(ToolResult)[0].fault == "stub" and "41" in stubbed.termination.final_output


def test_termination_reasons_escalate_max_iterations_and_max_llm_calls():
    escalated = run_scenario(DESK, input="Please write a report about INV-9", sut_model=DESK_POLICY)
    assert escalated.termination.reason == "completed"
    assert "loop refine: critic escalated after 1 iteration(s)" in escalated.termination.detail
    used_up = run_scenario(DESK, input="Please write a report", sut_model=DESK_POLICY)
    assert "loop refine: max_iterations=2 reached" in used_up.termination.detail
    assert [d for d in delegations(used_up) if d[2] == "sequence"].count(("reviser", "critic", "sequence")) == 1
    bounded = run_scenario(SMALL, input="add these", sut_model=SMALL_POLICY, max_turns=1)
    assert bounded.termination.reason == "max_turns" and "max_llm_calls=1" in bounded.termination.detail


def test_a_speaking_order_reorders_a_loop_and_is_refused_where_adk_has_none():
    trace = run_scenario(DESK, input="Please write a report", sut_model=DESK_POLICY,
                         speaking_order=("reviser", "critic"))
    assert trace.meta["speaking_order"] == {"refine": ["reviser", "critic"]}
    assert ("refine", "reviser", "delegate") in delegations(trace)
    _, obj, _ = system(DESK)
    assert [a.name for a in obj.sub_agents[1].sub_agents[1].sub_agents] == ["critic", "reviser"]  # put back
    with pytest.raises(MasfuzzError, match="fixes no order"):
        run_scenario(SMALL, input="add these", sut_model=SMALL_POLICY, speaking_order=("math",))


FLOW = "tests/adapters/adk_systems.py:desk_flow"


def test_an_adk_2_graph_workflow_is_its_agent_nodes_with_graph_edges_through_its_code():
    _, flow, spec = system(FLOW)
    assert spec.system.pattern == "graph" and spec.system.entry_agent == "desk_flow"
    assert [a.id for a in spec.agents] == ["desk_flow", "classify", "refunds", "facts", "tone", "editor"]
    assert spec.agent("desk_flow").model is None and spec.permissions.allow == (("refunds", "refund"),)
    assert [(d.from_, d.to, d.trigger) for d in spec.delegations] == [
        ("desk_flow", "classify", "delegate"), ("classify", "refunds", "graph_edge"),
        ("classify", "facts", "graph_edge"), ("classify", "tone", "graph_edge"),
        ("facts", "editor", "graph_edge"), ("tone", "editor", "graph_edge")]
    assert spec.delegations[1].condition == "classify -> route[refund] -> refunds"  # through the router
    assert "desk_flow: the graph ends after node editor, refunds" in spec.termination.conditions

    nodes = [n for n in flow.graph.nodes if getattr(n, "model", None)]  # the objects ADK runs
    before = [n.model for n in nodes]
    trace = run_scenario(FLOW, input="please refund INV-7", sut_model=SMALL_POLICY)
    assert delegations(trace) == [("desk_flow", "classify", "delegate"), ("classify", "refunds", "graph_edge")]
    assert [(c.agent, c.tool) for c in trace.of_type(ToolCall)] == [("refunds", "refund")]
    assert trace.termination.reason == "completed" and trace.termination.final_output.startswith("refunds:")
    assert set(trace.meta["model_swapped_at"]) == {"classify", "refunds", "facts", "tone", "editor"}
    assert [n.model for n in nodes] == before  # put back

    trace = run_scenario(FLOW, input="what is up", sut_model=SMALL_POLICY)  # the fan-out and the join
    assert sorted(delegations(trace)[1:]) == [("classify", "facts", "graph_edge"), ("classify", "tone", "graph_edge"),
                                              ("facts", "editor", "graph_edge"), ("tone", "editor", "graph_edge")]
    assert trace.termination.final_output == "I am editor"

    from masfuzz.trace import HARNESS_CAUSE

    trace = run_scenario(FLOW, input="what is up", sut_model="scripted/tests/adapters/adk_systems.py:plain_policy")
    assert trace.termination.reason == "crash" and "output_schema" in trace.meta[HARNESS_CAUSE]
    # classify's output_schema=str reaches the model as a JSON schema: the probe answers a JSON string
    trace = run_scenario(FLOW, input="what is up", sut_model="scripted/masfuzz.control:probe")
    assert trace.termination.reason == "completed" and '"masfuzz check"' in [
        m.content for m in trace.of_type(Message) if m.agent == "classify"]


def test_a_dynamic_workflow_node_running_agents_in_its_code_is_read_in_call_order():
    _, _, spec = system("tests/adapters/adk_systems.py:drafts_flow")
    assert [(d.from_, d.to, d.trigger) for d in spec.delegations] == [
        ("drafts_flow", "drafter", "delegate"), ("drafter", "polisher", "sequence")]
    trace = run_scenario("tests/adapters/adk_systems.py:drafts_flow", input="a poem", sut_model=SMALL_POLICY)
    assert delegations(trace) == [("drafts_flow", "drafter", "delegate"), ("drafter", "polisher", "sequence")]
    assert trace.termination.final_output == "I am polisher"

    trace = run_scenario("tests/adapters/adk_systems.py:nested_flow", input="a poem", sut_model=SMALL_POLICY)
    assert delegations(trace) == [("outer", "opener", "delegate"), ("opener", "drafts_flow", "graph_edge"),
                                  ("drafts_flow", "drafter", "delegate"), ("drafter", "polisher", "sequence")]


def test_a_run_polling_until_the_executors_limit_keeps_its_events_and_its_loop_is_seen():
    """A tool that blocks holds ADK's event loop, and with it the adapter's timer, past the time
    limit: the executor's cancel comes first. The run still ends as a time-out with the polls
    made up to it, so the loop detector sees the agent polling the same job again and again.
    The scenario has no time limit of its own: the executor's is the run's (the adapter's
    clock, 60 s by default, would let the executor's cancel drop every event)."""
    import asyncio

    from masfuzz.exec import make_executor
    from masfuzz.oracles import detect
    from masfuzz.scenario import Scenario
    from tests.adapters import adk_systems

    target = "tests/adapters/adk_systems.py:poller"
    executor = make_executor("inprocess", timeout=adk_systems.POLL_LIMIT)
    scenario = Scenario(input="Is print job J-7 done?",
                        sut_model="scripted/tests/adapters/adk_systems.py:polling_policy")
    trace = asyncio.run(executor.run(target, scenario))
    assert trace.termination.reason == "timeout" and trace.scenario_id == scenario.id
    assert [c.arguments for c in trace.of_type(ToolCall)] == [{"job": "J-7"}] * 3
    assert trace.events[0] == Message(role="user", content="Is print job J-7 done?", t=trace.events[0].t)
    found = [f for f in detect(trace, system(target)[2]) if f.detector == "loop"]
    assert [(f.agent, f.elements) for f in found] == [("poller", ("tool", "poller", "job_status"))]
