"""The CrewAI adapter on real CrewAI crews run by CrewAI's own kickoff, driven by a scripted
policy (no mocks, no network): extraction, model injection, traces, faults, termination."""

from __future__ import annotations

import asyncio
import sys
import threading
import traceback

import pytest

pytest.importorskip("crewai", reason="CrewAI is not in this environment: `make crewai` builds "
                    ".venv-crewai, and `make test` runs these tests there")

from masfuzz.adapters.faults import FAULT_MARKER  # noqa: E402
from masfuzz.errors import MasfuzzError  # noqa: E402
from masfuzz.graph.coordination import CoordinationGraph  # noqa: E402
from masfuzz.scenario import Fault, Mutation, Scenario  # noqa: E402
from masfuzz.spec.mutants import mutants  # noqa: E402
from masfuzz.trace import ChatEnd, Message, RestrictedAttempt, ToolCall, ToolResult  # noqa: E402

from tests.adapters.helpers import delegations, run_scenario, system  # noqa: E402

SMALL = "tests/adapters/crewai/crew_systems.py:sequential"
BOSS = "tests/adapters/crewai/crew_systems.py:hierarchical"
POLICY = "scripted/tests/adapters/crewai/crew_systems.py:policy"
TRIP = "examples/crewai/crew.py:crew"
TRIP_POLICY = "scripted/examples/crewai/policy.py:policy"

pytestmark = pytest.mark.usefixtures("in_repo")


def test_extraction_of_tasks_context_delegation_tools_and_the_manager():
    _, _, spec = system(SMALL)
    assert spec.system.framework == "crewai" and spec.system.entry_agent == "counter"
    assert [a.id for a in spec.agents] == ["counter", "definer", "writer"]
    assert spec.agent("definer").instructions.startswith("You are Definer. Knows words.")
    assert {t.id for t in spec.tools} == {"count_words", "glossary_lookup"}
    assert spec.tool("glossary_lookup").parameters["required"] == ["term"]
    assert set(spec.permissions.allow) == {("counter", "count_words"), ("definer", "glossary_lookup")}
    assert {(d.from_, d.to, d.trigger) for d in spec.delegations} == {
        ("counter", "definer", "sequence"), ("definer", "writer", "sequence"),  # task order
        ("counter", "writer", "sequence"),  # write's context
        ("definer", "counter", "delegate"), ("definer", "writer", "delegate")}  # allow_delegation
    assert CoordinationGraph(spec).obligations().counts()["C3"] == 4  # 3 agents x 2 tools - 2
    _, _, project = system("tests/adapters/crewai/crew_systems.py:Project")  # its @crew method
    assert [a.id for a in project.agents] == ["counter"] and project.tools[0].id == "count_words"
    _, _, boss = system(BOSS)
    assert boss.system.entry_agent == "crew_manager" and boss.system.pattern == "orchestrated"
    assert {(d.from_, d.to) for d in boss.delegations} == {
        ("crew_manager", "counter"), ("crew_manager", "definer"), ("crew_manager", "writer")}


def test_every_agent_is_answered_by_masfuzz_as_itself_and_its_llm_put_back():
    adapter, crew, spec = system(SMALL)
    before = [a.llm for a in crew.agents]
    trace = asyncio.run(adapter.run(crew, spec, Scenario(input="the crew works", sut_model=POLICY,
                                                         restricted="probe")))
    said = [m.content for m in trace.of_type(Message) if m.agent == "writer"]
    assert said and said[-1].startswith("I am writer")
    assert trace.meta["model_swapped_at"] == {a: ["Agent.llm"] for a in ("counter", "definer", "writer")}
    [attempt] = trace.of_type(RestrictedAttempt)  # the definer took a probe, which the hook refused
    assert (attempt.agent, attempt.tool, attempt.mode) == ("definer", "count_words", "probe")
    assert [r.status for r in trace.of_type(ToolResult) if r.agent == "definer"] == ["blocked", "ok"]
    assert [(c.agent, c.tool) for c in trace.of_type(ToolCall)] == [
        ("counter", "count_words"), ("definer", "glossary_lookup")]
    assert ("counter", "definer", "sequence") in delegations(trace)
    assert trace.termination.reason == "completed" and "3 task(s)" in trace.termination.detail
    assert [a.llm for a in crew.agents] == before


def test_a_tool_fault_and_a_stub_are_recorded():
    trace = run_scenario(TRIP, input="Lisbon", sut_model=TRIP_POLICY, faults=(Fault(tool="city_weather", mode="error"),))
    result = trace.of_type(ToolResult)[0]  # and again when the planner asks the researcher
    assert ("planner", "researcher", "delegate") in delegations(trace)
    assert result.status == "error" and result.fault == "error" and FAULT_MARKER in result.payload
    assert "The weather tool failed" in [m.content for m in trace.of_type(Message) if m.agent == "researcher"][0]
    stubbed = run_scenario(TRIP, input="Oslo", sut_model=TRIP_POLICY, stubs={"city_weather": "Oslo: hot, 30 C"})
    assert stubbed.of_type(ToolResult)[0].fault == "stub"
    assert "Oslo: hot, 30 C" in stubbed.termination.final_output


@pytest.mark.timeout(120)
def test_a_hanging_tool_fault_ends_at_the_time_limit_and_leaves_no_thread_behind():
    """`--fault TOOL=timeout` hangs the tool in CrewAI's thread: the run ends at its limit as a
    timeout with the call unanswered, and the hung thread is released (it kept `asyncio.run`,
    joining its threads, from ever returning: masfuzz hung with `--executor inprocess`)."""
    adapter, crew, spec = system(TRIP)
    before = [a.llm for a in crew.agents]
    trace = asyncio.run(adapter.run(crew, spec, Scenario(
        input="Lisbon", sut_model=TRIP_POLICY, timeout=1.0, faults=(Fault(tool="city_weather", mode="timeout"),))))
    assert trace.termination.reason == "timeout"
    assert [c.tool for c in trace.of_type(ToolCall)] == ["city_weather"] and not trace.of_type(ToolResult)
    assert _hung_threads() == [] and [a.llm for a in crew.agents] == before


def test_delegation_tools_and_the_hierarchical_manager_are_traced():
    trace = run_scenario(SMALL, input="please delegate", sut_model=POLICY)
    assert ("definer", "writer", "delegate") in delegations(trace)
    boss = run_scenario(BOSS, input="count these words", sut_model=POLICY)
    assert ("crew_manager", "counter", "delegate") in delegations(boss)
    assert boss.meta["model_swapped_at"]["crew_manager"] == ["Crew.manager_llm"]
    assert ("counter", "count_words") in [(c.agent, c.tool) for c in boss.of_type(ToolCall)]


def test_a_speaking_order_reorders_the_tasks_and_is_refused_for_a_manager():
    trace = run_scenario(SMALL, input="the crew works", sut_model=POLICY, speaking_order=("definer",))
    assert trace.meta["speaking_order"] == ["definer", "counter", "writer"]
    assert trace.speaker_order[0] == "definer"
    with pytest.raises(MasfuzzError, match="manager chooses"):
        run_scenario(BOSS, input="x", sut_model=POLICY, speaking_order=("counter",))


def test_an_output_json_conversion_is_answered_by_masfuzz_and_its_failure_is_the_model_s():
    """CrewAI converts a task's answer into its `output_json` model with a model call of its own
    (through `instructor`, a client of its own, unless the model says it has no function
    calling there): masfuzz's model answers it, and a reply that is no such JSON is the model's
    doing, not the crew's."""
    target = "tests/adapters/crewai/crew_systems.py:converted"
    trace = run_scenario(target, input="x", sut_model="scripted/tests/adapters/crewai/crew_systems.py:converting")
    assert trace.termination.reason == "completed" and trace.usage.model_calls == 2
    assert trace.termination.final_output == "the crew is a team"
    failed = run_scenario(target, input="x", sut_model=POLICY)  # answers in text only
    assert failed.termination.reason == "crash"
    assert "did not answer with that JSON" in failed.meta["harness_cause"]


def test_workflow_mutants_change_what_the_crew_does_and_are_undone():
    """Each mutant in CrewAI's terms, run by the trip crew's policy, which reacts to what its
    agents are given: a tool taken away, a coworker taken away or swapped, a task's context cut."""
    adapter, crew, spec = system(TRIP)
    ops = {k: [m.label for m in v] for k, v in mutants(spec).items()}
    assert "remove_termination(researcher)" in ops["remove_termination"]
    assert "drop_delegation(researcher, planner)" in ops["drop_delegation"]

    def run(operator, *args, faults=()):
        return asyncio.run(adapter.run(crew, spec, Scenario(
            input="Lisbon", sut_model=TRIP_POLICY, mutant=Mutation(operator=operator, args=args), faults=faults)))

    plain = run("swap_descriptions", "city_weather", "city_weather")  # no change: the crew as written
    assert ("planner", "researcher", "delegate") not in delegations(plain)  # its context has the forecast
    untooled = run("remove_tool_edge", "researcher", "city_weather")
    assert not untooled.of_type(ToolCall) and "Lisbon: sunny" not in untooled.termination.final_output
    cut = run("drop_delegation", "researcher", "planner")  # the plan task no longer given the research
    assert ("planner", "researcher", "delegate") in delegations(cut)
    empty = (Fault(tool="city_weather", mode="empty"),)  # no forecast: the planner asks the researcher
    assert ("planner", "researcher", "delegate") in delegations(run("swap_descriptions", "city_weather",
                                                                    "city_weather", faults=empty))
    alone = run("disconnect_agent", "researcher", faults=empty)  # ... unless no one may ask it
    assert not [d for d in delegations(alone) if d[1] == "researcher"]
    assert "weather unknown" in " ".join(m.content or "" for m in alone.of_type(Message) if m.agent == "planner")
    sent = run("retarget_delegation", "planner", "researcher", "editor", faults=empty)
    assert ("planner", "editor", "delegate") in delegations(sent)
    granted = run("grant_restricted", "editor", "city_weather")
    assert granted.termination.reason == "completed"
    assert adapter.mutation_problem(crew, spec, Mutation(operator="retarget_delegation", args=(
        "researcher", "planner", "editor"))).endswith("masfuzz does not reorder it")
    assert [t.context for t in crew.tasks][1:] == [[crew.tasks[0]], crew.tasks[:2]]  # put back
    assert [len(a.tools) for a in crew.agents] == [1, 0, 0]


FLOW = "examples/crewai/flow.py:TripFlow"


@pytest.mark.timeout(300)
def test_a_flow_s_methods_crews_and_agents_are_its_graph_and_every_agent_is_masfuzz_s():
    """A Flow: its router's branch is a `graph_edge`, a listener a `sequence`; at run time the
    crews and agents its methods make (one of them made inside the method) answer through
    masfuzz's model, each method is a chat of its own, and the router's label is recorded."""
    adapter, flow, spec = system(FLOW)
    assert [a.id for a in spec.agents] == ["researcher", "planner", "editor"]
    assert spec.system.entry_agent == "researcher" and spec.system.pattern == "orchestrated"
    assert {(d.from_, d.to, d.trigger, d.condition) for d in spec.delegations} >= {
        ("researcher", "planner", "graph_edge", "weather -> outdoor"),
        ("planner", "editor", "sequence", "method edit listens to outdoor_day")}
    assert "router weather" in spec.termination.conditions
    rainy = asyncio.run(adapter.run(flow, spec, Scenario(input="Oslo", sut_model=TRIP_POLICY)))
    ends = {e.chat: e.reason for e in rainy.of_type(ChatEnd)}
    assert ends["weather"] == "routed to indoor" and "outdoor_day" not in ends
    assert ("researcher", "planner", "graph_edge") in delegations(rainy)  # the planner made at run time
    assert "Oslo: rain" in rainy.termination.final_output
    sunny = asyncio.run(adapter.run(flow, spec, Scenario(input="Lisbon", sut_model=TRIP_POLICY,
                                                         faults=(Fault(tool="city_weather", mode="error"),))))
    assert {e.chat: e.reason for e in sunny.of_type(ChatEnd)}["weather"] == "routed to outdoor"
    assert sunny.of_type(ToolResult)[0].fault == "error" and "no forecast" in sunny.termination.final_output
    assert adapter.mutation_problem(flow, spec, Mutation(operator="drop_delegation", args=(
        "researcher", "planner"))).startswith("not applicable on a CrewAI Flow")
    hung = asyncio.run(adapter.run(flow, spec, Scenario(input="Oslo", sut_model=TRIP_POLICY, timeout=1.0,
                                                        faults=(Fault(tool="city_weather", mode="timeout"),))))
    assert hung.termination.reason == "timeout" and not _hung_threads()


def _hung_threads():
    frames = sys._current_frames()
    return [t.name for t in threading.enumerate() if t.ident in frames
            and any(f.name == "injected" for f in traceback.extract_stack(frames[t.ident]))]
