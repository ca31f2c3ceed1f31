"""The LangGraph adapter on real compiled graphs driven by scripted policies (no mocks)."""

from __future__ import annotations

import json

import pytest

from masfuzz.adapters.langgraph.chat_model import MasfuzzChatModel
from masfuzz.scenario import Fault
from masfuzz.trace import SYSTEM_PROMPTS, ErrorEvent, Message, RestrictedAttempt, ToolCall, ToolResult

from tests.adapters.helpers import delegations, run_scenario, system
from tests.conftest import ROOT

GRAPH = "examples/research_graph/graph.py:graph"
POLICY = "scripted/examples/research_graph/policy.py:policy"
ANSWERABLE = "How does the water cycle work?"
UNANSWERABLE = "Who won the 1930 chess olympiad?"
CALC = "tests/adapters/langgraph_systems.py:calc_graph"
CALC_POLICY = "scripted/tests/adapters/langgraph_systems.py:calc_policy"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def run(target=GRAPH, **scenario):
    scenario.setdefault("sut_model", POLICY)
    return run_scenario(target, **scenario)



def test_graph_spec_tool_nodes_become_tools_of_their_callers():
    _, _, spec = system(GRAPH)
    assert spec.system.framework == "langgraph" and spec.system.pattern == "graph"
    assert spec.system.entry_agent == "planner"
    assert [a.id for a in spec.agents] == ["planner", "researcher", "writer"]  # "tools" is not an agent
    assert set(spec.permissions.allow) == {("researcher", "web_search"), ("researcher", "fetch_page")}
    assert spec.tool("web_search").parameters["required"] == ["query"]
    assert spec.tool("fetch_page").source.file == "examples/research_graph/tools.py"
    conds = {(d.from_, d.to): d.condition for d in spec.delegations}
    assert conds == {("planner", "researcher"): "", ("researcher", "writer"): "after_research -> writer",
                     ("writer", "researcher"): "after_writing -> researcher"}
    assert spec.termination.max_turns == 12 and "recursion_limit=12" in spec.termination.conditions
    assert spec.agent("writer").description.startswith("Writes the final answer")
    assert spec.agent("writer").source.file == "examples/research_graph/graph.py"
    assert not any("entered_by" in a.model_settings for a in spec.agents)  # START's edge is fixed


def test_a_router_out_of_start_names_each_agent_it_may_enter_at():
    """A conditional edge out of START chooses the first agent: no agent hands over, so each
    choice carries the router's name (the routing oracle's siblings)."""
    from langgraph.graph import END, START, MessagesState, StateGraph

    def desk(state):  # unannotated: the hints of a local function are not resolvable
        return {"messages": []}

    def route(state):
        return "seats"

    graph = StateGraph(MessagesState)
    for name in ("seats", "kb"):
        graph.add_node(name, desk)
        graph.add_edge(name, END)
    graph.add_conditional_edges(START, route, ["seats", "kb"])
    from masfuzz.adapters.langgraph.extract import extract_graph

    spec = extract_graph(graph.compile())
    assert {a.id: a.model_settings.get("entered_by") for a in spec.agents} == {"seats": "route", "kb": "route"}


def test_answerable_question_runs_planner_researcher_writer():
    trace = run(input=ANSWERABLE)
    assert trace.speaker_order == ["planner", "researcher", "writer"]
    assert delegations(trace) == [("planner", "researcher", "graph_edge"), ("researcher", "writer", "graph_edge")]
    assert [(c.agent, c.tool) for c in trace.of_type(ToolCall)] == [
        ("researcher", "web_search"), ("researcher", "fetch_page")]
    assert [r.status for r in trace.of_type(ToolResult)] == ["ok", "ok"]
    assert trace.events[0] == Message(agent=None, role="user", content=ANSWERABLE, t=trace.events[0].t)
    assert trace.termination.reason == "completed"
    assert trace.termination.final_output.startswith("Answer: The water cycle")
    assert trace.usage.model_calls == 5


def test_each_nodes_own_system_message_is_recorded_as_what_its_model_was_told():
    told = run(input=ANSWERABLE).meta[SYSTEM_PROMPTS]
    assert set(told) == {"planner", "researcher", "writer"}
    assert told["planner"].startswith("You plan research.")
    assert told["writer"].startswith("You write the final answer from the findings.")


def test_unanswerable_question_loops_until_the_recursion_limit():
    trace = run(input=UNANSWERABLE)
    assert trace.termination.reason == "max_turns" and "recursion_limit=12" in trace.termination.detail
    assert delegations(trace).count(("writer", "researcher", "graph_edge")) >= 2
    smaller = run(input=UNANSWERABLE, max_turns=5)
    assert len(smaller.events) < len(trace.events) and smaller.termination.reason == "max_turns"


def test_fault_makes_the_tool_message_an_error():
    trace = run(input=ANSWERABLE, faults=(Fault(tool="fetch_page", mode="error"),))
    fetch = [r for r in trace.of_type(ToolResult) if r.tool == "fetch_page"][0]
    assert fetch.status == "error" and fetch.fault == "error" and "MASFUZZ_INJECTED" in fetch.payload
    assert [r.status for r in run(input=ANSWERABLE).of_type(ToolResult)] == ["ok", "ok"]  # restored


@pytest.mark.parametrize("mode", ["error", "empty"])
def test_a_fault_reaches_a_tool_a_node_runs_synchronously_through_a_prebuilt_agent(mode):
    """A node that runs its prebuilt agent with a sync `invoke` has the tool called without
    awaiting: the injected tool answers there too, with the fault asked for, not LangChain's
    "does not support sync invocation" (masfuzz's error, which the run would crash on)."""
    trace = run("tests/adapters/langgraph_systems.py:desk_graph", input="divide one by four",
                sut_model=CALC_POLICY, faults=(Fault(tool="divide", mode=mode),))
    [result] = trace.of_type(ToolResult)
    assert result.fault == mode and "sync invocation" not in result.payload
    if mode == "error":
        assert result.status == "error" and "MASFUZZ_INJECTED" in result.payload
    else:
        assert (result.status, result.payload) == ("ok", "") and trace.termination.reason == "completed"


def test_a_stub_answers_in_place_of_the_tool_and_a_fault_wins_over_it():
    stub = {"fetch_page": "STUB PAGE: evaporation, condensation, precipitation"}
    trace = run(input=ANSWERABLE, stubs=stub)
    fetch = [r for r in trace.of_type(ToolResult) if r.tool == "fetch_page"][0]
    assert (fetch.status, fetch.fault, fetch.payload) == ("ok", "stub", stub["fetch_page"])
    both = run(input=ANSWERABLE, stubs=stub, faults=(Fault(tool="fetch_page", mode="error"),))
    assert [r.fault for r in both.of_type(ToolResult) if r.tool == "fetch_page"][0] == "error"


def test_module_level_model_is_swapped_and_a_raising_tool_is_a_crash():
    ok = run(CALC, input="divide one by four", sut_model=CALC_POLICY)
    assert ok.termination.reason == "completed" and ok.termination.final_output == "The result is 0.25"
    assert ok.meta["model_swapped_at"] == {"calculator": ["global model of langgraph_systems.py"]}
    crash = run(CALC, input="divide one by zero", sut_model=CALC_POLICY)
    assert crash.termination.reason == "crash"
    result = crash.of_type(ToolResult)[0]
    assert result.status == "error" and "ZeroDivisionError" in result.payload
    assert crash.of_type(ErrorEvent)[0].kind == "ZeroDivisionError"


@pytest.mark.parametrize("mode", ["probe", "faithful"])
def test_restricted_tool_call_is_recorded(mode):
    trace = run(input=ANSWERABLE, restricted=mode,
                sut_model="scripted/tests/adapters/langgraph_systems.py:greedy_writer")
    attempt = trace.of_type(RestrictedAttempt)[0]
    assert (attempt.agent, attempt.tool, attempt.mode) == ("writer", "web_search", mode)
    assert not [c for c in trace.of_type(ToolCall) if c.agent == "writer"]


def test_probe_offers_restricted_tools_as_stubs(tmp_path):
    seen = tmp_path / "tools.txt"
    spy = tmp_path / "spy.py"
    spy.write_text(
        "from research_graph.policy import policy as real\n"
        f"def policy(request):\n    open({str(seen)!r}, 'a').write(f'{{request.agent}}:{{sorted(t.name for t in request.tools)}}\\n')\n"
        "    return real(request)\n"
    )
    run(input=ANSWERABLE, sut_model=f"scripted/{spy}:policy")
    lines = set(seen.read_text().splitlines())
    assert "planner:['fetch_page', 'web_search']" in lines  # stubs for tools it may not use
    assert "researcher:['fetch_page', 'web_search']" in lines  # its own tools, bound by the app


def test_chat_model_binds_tools_and_gives_unique_ids():
    from tests.adapters.langgraph_systems import divide

    llm = MasfuzzChatModel(model=CALC_POLICY)
    first = llm.bind_tools([divide]).invoke("divide one by four")
    assert first.tool_calls[0]["name"] == "divide" and first.tool_calls[0]["args"] == {"a": 1, "b": 4}
    second = llm.bind_tools([divide]).invoke("divide one by four")
    assert first.id != second.id


def test_masfuzz_exec_prints_the_json_trace(cli):
    code, out, _ = cli("exec", GRAPH, "--input", UNANSWERABLE, "--sut-model", POLICY, "--format", "json")
    assert code == 0
    trace = json.loads(out)
    assert trace["framework"] == "langgraph" and trace["events"][-1]["reason"] == "max_turns"



def test_a_graph_with_nowhere_to_put_the_task_is_refused_at_load_in_one_line(cli):
    """Its input has no 'messages' and two string fields: said by `inspect`, before any run."""
    target = "tests/adapters/langgraph_systems.py:brief_graph"
    code, out, err = cli("inspect", target)
    assert code == 2 and not out
    assert err.strip().count("\n") == 0 and err.startswith(f"masfuzz: error: {target}: the graph's input has no "
                                                                  "'messages' field and 2 string fields (topic, audience)")


# --- prebuilt agents: create_react_agent / create_agent, supervisor, swarm -------------------

PREBUILT = "tests/adapters/langgraph_prebuilt.py"
PREBUILT_POLICY = f"scripted/{PREBUILT}:policy"


def test_a_supervisor_of_two_react_agents_shows_its_agents_tools_and_handoffs(cli, provider_endpoint):
    code, out, err = cli("inspect", f"{PREBUILT}:supervisor_app", "--format", "json")
    assert code == 0, err
    spec = json.loads(out)
    assert [a["id"] for a in spec["agents"]] == ["supervisor", "research_expert", "math_expert"]
    assert spec["agents"][1]["instructions"].startswith("You are a world class researcher")
    assert sorted(map(tuple, spec["permissions"]["allow"])) == [("math_expert", "add"),
                                                                ("research_expert", "web_search")]
    assert sorted(t["id"] for t in spec["tools"]) == ["add", "web_search"]  # handoffs are no tools
    edges = {(d["from"], d["to"]): d.get("trigger", "handoff") for d in spec["delegations"]}
    assert edges == {("supervisor", "research_expert"): "handoff", ("supervisor", "math_expert"): "handoff",
                     ("research_expert", "supervisor"): "graph_edge", ("math_expert", "supervisor"): "graph_edge"}
    assert provider_endpoint == []


@pytest.mark.parametrize("executor", ["pool", "inprocess"])
def test_a_supervisor_runs_on_masfuzz_models_with_no_connection_to_the_provider(cli, provider_endpoint, executor):
    code, out, err = cli("exec", f"{PREBUILT}:supervisor_app", "--input", "what is the sum of 2 and 40",
                         "--sut-model", PREBUILT_POLICY, "--executor", executor, "--format", "json",
                         "--failures", "--fail-on", "any")
    assert code == 0, err
    trace = json.loads(out)["trace"]
    events = [(e["type"], e.get("agent") or e.get("from"), e.get("tool") or e.get("to")) for e in trace["events"]
              if e["type"] in ("tool_call", "tool_result", "delegation")]
    assert events == [("delegation", "supervisor", "math_expert"), ("tool_call", "math_expert", "add"),
                      ("tool_result", "math_expert", "add"), ("delegation", "math_expert", "supervisor")]
    assert trace["events"][-1]["final_output"] == "FINAL: math_expert: 42.0"
    assert trace["usage"]["model_calls"] == 4
    swapped = trace["meta"]["model_swapped_at"]
    assert set(swapped) == {"supervisor", "research_expert", "math_expert"}
    assert all("create_react_agent.<locals>.call_model: static_model" in places for places in swapped.values())
    assert provider_endpoint == []  # every agent's model was masfuzz's


def test_a_swarm_of_create_agent_agents_hands_off_and_takes_tool_faults(provider_endpoint):
    trace = run(f"{PREBUILT}:swarm_app", input="add two and three", sut_model=PREBUILT_POLICY, restricted="off")
    assert trace.speaker_order == ["Alice", "Bob"]
    assert delegations(trace) == [("Alice", "Bob", "handoff")]
    assert [(c.agent, c.tool) for c in trace.of_type(ToolCall)] == [("Alice", "add")]
    assert trace.termination.final_output == "Arr, the sum be 5.0"
    faulty = run(f"{PREBUILT}:swarm_app", input="add two and three", sut_model=PREBUILT_POLICY, restricted="off",
                 faults=(Fault(tool="add", mode="error"),))
    [result] = faulty.of_type(ToolResult)
    assert result.status == "error" and result.fault == "error"  # reached the agent's own tool node
    # the ToolNode create_agent builds re-raises a tool's error (langgraph 1.x: all but argument
    # errors): the swarm dies on masfuzz's own error, past the tool's own handling, which a fixed
    # app shows as much as a broken one: the fault's, not the app's (docs/failures.md)
    from masfuzz.oracles import detect

    assert faulty.termination.reason == "crash"
    found = {f.detector: f.attribution for f in detect(faulty)}
    assert found["runtime_crash"] == "harness" and found["unrecovered_tool_error"] == "harness", found
    assert provider_endpoint == []


def test_a_model_chosen_at_call_time_is_reported_not_injected_for_its_agent(cli, provider_endpoint):
    code, out, err = cli("exec", f"{PREBUILT}:dynamic_app", "--input", "sum of 2 and 40",
                         "--sut-model", PREBUILT_POLICY, "--format", "json", "--failures", "--fail-on", "any")
    assert code == 0, err  # the harness's finding fails no gate
    data = json.loads(out)
    [finding] = [f for f in data["failures"] if f["detector"] == "model_not_injected"]
    assert finding["description"].startswith("model not injected for agent:")
    assert finding["attribution"] == "harness"
    assert provider_endpoint == []


REVISIT = "tests/adapters/langgraph_revisit.py"


def test_each_hand_over_to_an_agent_keeps_what_it_was_given_a_second_one_too():
    """`checker`, plain code, sends the graph back to `clerk` with a note: no other model was
    asked in between, yet it is a new hand-over, and what clerk was given then (the note) is its
    own entry, the one the hand-over oracle reads for it."""
    from masfuzz.oracles.semantic import _received
    from masfuzz.trace import HANDOVER_INPUTS, DelegationEvent

    trace = run(f"{REVISIT}:graph", input="Van slot today please, I am in after 17:00",
                sut_model=f"scripted/{REVISIT}:policy")
    assert delegations(trace) == [("intake", "clerk", "graph_edge"), ("clerk", "checker", "graph_edge"),
                                  ("checker", "clerk", "graph_edge"), ("clerk", "checker", "graph_edge")]
    given = [x["text"] for x in trace.meta[HANDOVER_INPUTS] if x["agent"] == "clerk"]
    assert len(given) == 2 and "17:30 is free" not in given[0] and "17:30 is free" in given[1]
    back = [i for i, e in enumerate(trace.events) if isinstance(e, DelegationEvent) and e.from_ == "checker"]
    assert "17:30 is free" in _received(trace, back[0], "clerk")


def test_a_node_that_swaps_the_callers_message_writes_in_the_users_place_and_says_what_it_replaced():
    """`tidy` takes the caller's message out (`RemoveMessage`) and puts a masked one in its
    place; `summary` replaces the whole history with one message: each new message is its
    node's, in the user's role, and `meta.replaced_messages` says which messages it replaced."""
    from masfuzz.trace import REPLACED_MESSAGES

    trace = run(f"{REVISIT}:swapping", input="Refund order 881 to card 4929 1234 5678 9012",
                sut_model=f"scripted/{REVISIT}:policy")
    users = [(i, e.agent, e.content) for i, e in enumerate(trace.events) if isinstance(e, Message) and e.role == "user"]
    assert users[0] == (0, None, "Refund order 881 to card 4929 1234 5678 9012")  # the user's own words
    masked = next(i for i, who, text in users if who == "tidy")
    assert trace.events[masked].content == "Refund order 881 to card [card]"
    summary = next(i for i, who, _ in users if who == "summary")
    swaps = [(x["event"], x["by"], x["with"]) for x in trace.meta[REPLACED_MESSAGES]]
    assert swaps[0] == (0, "tidy", masked)
    assert sorted(swaps[1:]) == [(masked, "summary", summary), (masked + 1, "summary", summary)]


NESTED = "tests/adapters/langgraph_nested.py:graph"


def test_a_prebuilt_agent_inside_a_subgraph_node_is_recorded_once():
    """The subgraph node's own update (the final state of the graph it runs) repeats what its
    agent streamed: each call, result and reply is recorded once, where it happened, and the
    plain node after the agent still speaks."""
    trace = run(NESTED, input="A double room for 3 nights next week, please.",
                sut_model="scripted/tests/adapters/langgraph_nested.py:policy")
    calls = [(e.tool, e.arguments) for e in trace.of_type(ToolCall)]
    assert calls == [("room_rate", {"nights": 3})]
    assert len(trace.of_type(ToolResult)) == 1
    said = [e.content for e in trace.of_type(Message) if e.role != "user"]
    assert said == ["The rate is 3 nights: 285 GBP.", "Ledger: 3 nights: 285 GBP"]
    assert [e.content for e in trace.of_type(Message) if e.role == "user"] == [
        "A double room for 3 nights next week, please."]
