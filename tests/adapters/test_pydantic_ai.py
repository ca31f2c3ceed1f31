"""The PydanticAI adapter: extraction, control (masfuzz's model for every agent), traces."""

from __future__ import annotations

import json

import pytest

from masfuzz.adapters.base import execute
from masfuzz.scenario import Fault, Scenario
from masfuzz.trace import AgentTurn, DelegationEvent, ErrorEvent, Message, ToolCall, ToolResult
from masfuzz.target import open_target
from tests.adapters.helpers import delegations
from tests.conftest import ROOT

pytest.importorskip("pydantic_ai")

APP = "examples/pydantic_ai/app.py:support_agent"
APP_POLICY = "scripted/examples/pydantic_ai/policy.py:policy"
SYSTEMS = "tests/adapters/pai_systems.py:lead"
POLICY = "scripted/tests/adapters/pai_policy.py:policy"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def system(target):
    sut = open_target(target)  # loaded as the CLI loads it (no key needed)
    return sut.runner(), sut.obj, sut.spec


def run(target, text, model, **kw):
    import asyncio

    adapter, obj, spec = system(target)
    return asyncio.run(execute(adapter, obj, spec, Scenario(input=text, sut_model=model, **kw)))


def test_extraction_counts_agents_tools_and_delegations_through_tools():
    _, _, spec = system(APP)
    assert [a.id for a in spec.agents] == ["support_agent", "seat_agent", "refund_agent", "baggage_agent"]
    assert [t.id for t in spec.tools] == ["lookup_booking", "ask_seat_desk", "consult", "seat_map",
                                          "refund_policy"]  # no output tool (final_result)
    assert {(d.from_, d.to, d.trigger) for d in spec.delegations} == {
        ("support_agent", "seat_agent", "as_tool"), ("support_agent", "refund_agent", "as_tool"),
        ("support_agent", "baggage_agent", "as_tool")}
    assert spec.system.entry_agent == "support_agent" and spec.permissions.restrict_mode == "closed_world"
    assert spec.agent("support_agent").model_settings == {"temperature": 0.2}

    _, _, spec = system(SYSTEMS)
    # writer: its variable; archivist: run by a helper the tool hands it to
    assert [a.id for a in spec.agents] == ["lead", "writer", "critic", "editor", "archivist"]
    assert {t.id: t.kind for t in spec.tools} == {"write": "function", "review": "function",
                                                  "archive": "function", "translate": "function",
                                                  "count_words": "function",
                                                  "web_search": "hosted", "fail_always": "function"}
    assert ("lead", "archivist", "as_tool") in {(d.from_, d.to, d.trigger) for d in spec.delegations}
    assert any("ExternalToolset" in n and "not in the graph" in n for n in spec.notes)
    assert any(n.startswith("agent lead: tool translate builds an agent") for n in spec.notes)
    assert "writer: output tool final_result" in spec.termination.conditions


def test_every_agent_answers_through_masfuzz_and_the_delegation_is_traced():
    trace = run(SYSTEMS, "write and review", POLICY, temperatures={"critic": 0.9})
    said = {m.agent: m.content for m in trace.of_type(Message) if m.agent}
    assert said["writer"] == '{"title": "writer", "words": 3}'  # its typed answer, through final_result
    assert said["editor"] == "editor here"  # REVIEWERS[1]
    assert delegations(trace) == [("lead", "writer", "as_tool"), ("lead", "editor", "as_tool")]
    assert [e.agent for e in trace.of_type(AgentTurn)] == ["lead", "writer", "lead", "editor", "lead"]
    settings = trace.meta["agent_settings"]
    assert set(settings) == {"lead", "writer", "editor"} and settings["writer"]["temperature"] == 0.7
    assert trace.termination.reason == "completed"
    assert trace.termination.final_output.startswith("lead: {\"title\":\"writer\"")
    assert "final_result" not in {c.tool for c in trace.of_type(ToolCall)}
    # the helper's agent is in the walk, so it too answers through masfuzz's model
    trace = run(SYSTEMS, "archive", POLICY)
    assert delegations(trace) == [("lead", "archivist", "as_tool")]
    assert {m.agent: m.content for m in trace.of_type(Message) if m.agent}["archivist"] == "archivist here"


def test_an_agent_a_tool_builds_while_it_runs_answers_through_masfuzz_too():
    """`translate` builds its translator in its body: no override of the walk reaches it, so
    without `nested` it calls its own provider (refused here, the run's crash the app's)."""
    from masfuzz.sutenv import sut_environment

    with sut_environment():  # the environment the CLI gives the app's code: no provider reachable
        trace = run(SYSTEMS, "translate", POLICY)
    assert trace.termination.reason == "completed", trace.termination
    assert delegations(trace) == [("lead", "translator", "as_tool")]
    assert {m.agent: m.content for m in trace.of_type(Message) if m.agent}["translator"] == "translator here"
    assert trace.termination.final_output == "lead: translator here"
    assert not trace.meta.get("not_injected_calls")


def test_the_tools_each_model_was_offered_are_recorded_with_their_documentation():
    """What the oracles read a tool's documentation from when extraction never saw the tool (an
    agent built while the run goes): the offer, as the model got it; no output tool."""
    from masfuzz.trace import OFFERED_TOOLS

    offered = run(APP, "Move booking ABC123 to seat 14C", APP_POLICY).meta[OFFERED_TOOLS]
    lookup = offered["support_agent"]["lookup_booking"]
    assert lookup["description"] and "properties" in lookup["parameters"]
    assert "final_result" not in offered["support_agent"]


def test_tool_fault_is_a_model_retry_and_a_tool_error_ends_the_run():
    from masfuzz.oracles import detect

    # an injected error takes PydanticAI's own form of a tool's failure, ModelRetry: the model is
    # told, and the run goes on (an exception of another type would end it, the fault's doing)
    trace = run(APP, "Move booking ABC123 to seat 14C", APP_POLICY,
                faults=(Fault(tool="seat_map", mode="error"),))
    result = next(r for r in trace.of_type(ToolResult) if r.tool == "seat_map")
    assert (result.status, result.fault, result.agent) == ("error", "error", "seat_agent")
    assert trace.termination.reason == "completed"
    # a model that calls the faulted tool again uses up its retries: that crash is the fault's
    trace = run(SYSTEMS, "write", "scripted/tests/adapters/pai_policy.py:persistent_policy",
                faults=(Fault(tool="write", mode="error"),))
    assert [(r.tool, r.fault) for r in trace.of_type(ToolResult)] == [("write", "error")] * 2
    assert trace.termination.reason == "crash" and "exceeded max retries" in trace.termination.detail
    found = {f.detector: f.attribution for f in detect(trace)}
    assert found == {"runtime_crash": "harness", "unrecovered_tool_error": "harness"}

    trace = run(SYSTEMS, "write and fail", POLICY)
    result = next(r for r in trace.of_type(ToolResult) if r.tool == "fail_always")
    assert result.status == "error" and "broken: asked to" in result.payload and result.fault is None
    assert trace.of_type(ErrorEvent)[-1].kind == "RuntimeError"


def test_stub_and_usage_limit():
    trace = run(APP, "Move booking ABC123 to seat 14C", APP_POLICY, stubs={"lookup_booking": "{}"})
    assert next(r for r in trace.of_type(ToolResult) if r.tool == "lookup_booking").payload == "{}"
    assert trace.termination.reason == "completed"
    trace = run(APP, "Move booking ABC123 to seat 14C", APP_POLICY, max_turns=2)
    assert trace.termination.reason == "max_turns" and "request_limit" in trace.termination.detail
    # the limit is the entry agent's run's: the seat agent's own run (with PydanticAI's default
    # limit) goes on, and the support agent's next request is the one refused
    assert [e.tool for e in trace.of_type(ToolCall)] == ["lookup_booking", "ask_seat_desk", "seat_map"]


def test_programmatic_hand_off_is_read_from_the_code_and_traced_as_a_sequence():
    _, _, spec = system("tests/adapters/pai_handoff.py")
    assert [(d.from_, d.to, d.trigger) for d in spec.delegations] == [("search", "seats", "sequence")]
    trace = run("tests/adapters/pai_handoff.py", "SFO to ANC", "scripted/tests/adapters/pai_policy.py:handoff_policy")
    assert delegations(trace) == [("search", "seats", "sequence")]
    assert trace.termination.final_output == "seat 1A on AK456"  # the typed answer reached the code


DESK = "tests/adapters/pai_desk_factory.py"
DESK_POLICY = "scripted/tests/adapters/pai_policy.py:desk_policy"


@pytest.mark.parametrize("factory", ["desk", "helpers_desk"])
def test_agents_run_in_the_tools_a_factory_defines_are_delegations_not_a_pipeline(factory):
    """PydanticAI's docs' agent delegation inside a factory: the tools' `loans.run` and
    `events.run` run when the front agent's model calls them, not when the factory does. Read
    as a pipeline, the factory's returned Agent was taken for the run's answer (and writing it
    crashed the run as the app's)."""
    adapter, obj, spec = system(f"{DESK}:{factory}")
    assert type(obj).__name__ == "Agent" and spec.system.entry_agent == "concierge"
    assert {(d.from_, d.to, d.trigger) for d in spec.delegations} == {
        ("concierge", "loans", "as_tool"), ("concierge", "events", "as_tool")}
    trace = run(f"{DESK}:{factory}", "renew my loan", DESK_POLICY)
    assert delegations(trace) == [("concierge", "loans", "as_tool")]
    assert trace.termination.reason == "completed" and trace.termination.final_output == "concierge: loans: done"


def test_a_pipeline_step_in_a_local_helper_counts_and_any_answer_is_written_as_text():
    """A function the pipeline defines and calls is a step where it is called; an answer json
    cannot write as it is (a dataclass holding a lock) is still the run's text, never a crash."""
    _, _, spec = system(f"{DESK}:slip")
    assert [(d.from_, d.to, d.trigger) for d in spec.delegations] == [("loans", "events", "sequence")]
    # the module's one pipeline: `both`, a tool running events then loans, is no second order
    from masfuzz.adapters.pydantic_ai.pipeline import capture
    from masfuzz.loader import load_target

    assert capture(load_target(DESK).obj, DESK).name == "slip"
    trace = run(f"{DESK}:slip", "renew LB-1", DESK_POLICY)
    assert trace.termination.reason == "completed", trace.termination
    assert json.loads(trace.termination.final_output)["talk"] == "events: done"


@pytest.mark.parametrize("raised_in, whose", [("masfuzz", "harness"), ("app", "sut")])
def test_an_exception_escaping_the_adapter_is_whoever_s_code_raised_it(monkeypatch, tmp_path, raised_in, whose):
    """An adapter records the system's own exceptions as the run's end: one that escapes it was
    raised by masfuzz misreading the system (here its text of the answer failing inside the
    standard library, as `dataclasses.asdict` on an object holding a lock did), never the app's
    runtime crash; one raised in the app's own code past the adapter stays the app's."""
    import asyncio
    import functools
    import importlib.util

    from masfuzz.adapters.pydantic_ai import run as pai_run
    from masfuzz.oracles.detectors import runtime_crash

    if raised_in == "masfuzz":
        misread = functools.partial(int, "an Agent object")  # raises in no Python frame of its own
    else:
        (tmp_path / "desk_hooks.py").write_text("def render(output):\n    raise RuntimeError('desk closed')\n")
        spec = importlib.util.spec_from_file_location("desk_hooks", tmp_path / "desk_hooks.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        misread = module.render
    monkeypatch.setattr(pai_run, "_text", misread)
    sut = open_target(f"{DESK}:desk")
    trace = asyncio.run(sut.run(Scenario(input="renew my loan", sut_model=DESK_POLICY)))
    assert trace.termination.reason == "crash"
    [crash] = runtime_crash(trace, sut.spec)
    assert crash.attribution == whose and ("adapter failed" in (crash.because or "")) == (whose == "harness")


def test_workflow_mutants_change_what_a_run_offers_and_never_the_objects():
    from masfuzz.scenario import Mutation

    adapter, obj, spec = system(APP)
    hidden = Mutation(operator="remove_tool_edge", args=("seat_agent", "seat_map"))
    trace = run(APP, "Move booking ABC123 to seat 14C", APP_POLICY, mutant=hidden)
    result = next(r for r in trace.of_type(ToolResult) if r.tool == "seat_map")
    assert result.status == "error" and "Unknown tool" in result.payload  # PydanticAI refused it
    dropped = Mutation(operator="drop_delegation", args=("support_agent", "seat_agent"))
    trace = run(APP, "Move booking ABC123 to seat 14C", APP_POLICY, mutant=dropped)
    assert "seat_agent" not in {e.agent for e in trace.of_type(AgentTurn)}
    assert adapter.mutation_problem(obj, spec, Mutation(operator="retarget_delegation", args=(
        "support_agent", "seat_agent", "refund_agent"))).endswith("masfuzz does not rewrite it")
    trace = run(APP, "Move booking ABC123 to seat 14C", APP_POLICY)  # the system as written
    assert ("support_agent", "seat_agent", "as_tool") in delegations(trace)


def test_dependencies_masfuzz_could_not_give_are_the_harness_cause():
    from masfuzz.trace import HARNESS_CAUSE

    trace = run("tests/adapters/pai_systems.py:teller", "hello", POLICY)
    assert trace.termination.reason == "crash" and "--context" in trace.meta[HARNESS_CAUSE]


GRAPH = "tests/adapters/pai_graph.py:desk"
GRAPH_POLICY = "scripted/tests/adapters/pai_policy.py:graph_policy"


def test_a_pydantic_graph_is_read_as_its_agents_with_its_node_edges_as_delegations():
    _, _, spec = system(GRAPH)
    assert spec.system.pattern == "graph" and spec.system.entry_agent == "classifier"
    assert [a.id for a in spec.agents] == ["classifier", "writer", "reviewer"]
    assert [t.id for t in spec.tools] == ["lookup"] and spec.permissions.allow == (("writer", "lookup"),)
    assert [(d.from_, d.to, d.trigger, d.condition) for d in spec.delegations] == [
        ("classifier", "writer", "graph_edge", "triage -> Draft"),  # through a decision and a step
        ("writer", "reviewer", "graph_edge", "Draft -> Review"),
        ("reviewer", "writer", "graph_edge", "Review -> Draft")]
    assert [c for c in spec.termination.conditions if c.startswith("graph End")] == [
        "graph End after node triage (classifier)", "graph End after node Review (reviewer)"]
    _, _, spec = system("tests/adapters/pai_graph.py:panel")  # a fork into two branches, a join
    assert {(d.from_, d.to) for d in spec.delegations} == {("chair", "pro"), ("chair", "con"),
                                                          ("pro", "judge"), ("con", "judge")}


def test_a_graph_whose_nodes_run_no_agent_is_one_line_naming_the_target_first_and_exit_2(cli):
    code, out, err = cli("inspect", "tests/adapters/pai_graph.py:counter")
    assert code == 2 and out == "", out
    [line] = err.strip().splitlines()  # as every load error reads: the target, then why
    assert line.startswith("masfuzz: error: tests/adapters/pai_graph.py:counter: the graph's nodes "
                           "run no PydanticAI agent"), line


def test_a_graph_runs_every_agent_through_masfuzz_and_traces_its_node_hand_offs():
    trace = run(GRAPH, "owls", GRAPH_POLICY)
    assert trace.meta["model_swapped_at"].keys() == {"classifier", "writer", "reviewer"}
    assert trace.meta["graph_path"] == ["triage", "open_draft", "Draft", "Review", "End"]
    assert delegations(trace) == [("classifier", "writer", "graph_edge"), ("writer", "reviewer", "graph_edge")]
    assert [(c.agent, c.tool, c.arguments) for c in trace.of_type(ToolCall)] == [("writer", "lookup", {"topic": "owls"})]
    assert trace.termination.reason == "completed" and "End after node Review" in trace.termination.detail
    assert trace.termination.final_output == "draft of owls: facts about owls"

    trace = run(GRAPH, "please refuse", GRAPH_POLICY)  # the decision's other branch ends the graph
    assert trace.meta["graph_path"] == ["triage", "refuse", "End"] and trace.termination.final_output == "refused"

    trace = run(GRAPH, "forever", GRAPH_POLICY, max_turns=5)  # the reviewer never accepts
    assert trace.termination.reason == "max_turns" and "more than 5 nodes" in trace.termination.detail
    assert ("reviewer", "writer", "graph_edge") in delegations(trace)

    # parallel branches: each follows the agent before the fork, the join's agent follows both
    trace = run("tests/adapters/pai_graph.py:panel", "tabs or spaces", "scripted/masfuzz.control:probe")
    assert sorted(delegations(trace)) == [("chair", "con", "graph_edge"), ("chair", "pro", "graph_edge"),
                                          ("con", "judge", "graph_edge"), ("pro", "judge", "graph_edge")]
