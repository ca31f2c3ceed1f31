"""Apps that orchestrate Agents SDK agents in plain Python: the user supplies the graph
(`file.py:a,b,c` under a coordinator, `--link FROM->TO`), masfuzz materialises it as real SDK
objects, and every command extracts, runs, covers and replays it."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest
import yaml

from masfuzz.loader import load_target
from masfuzz.adapters.openai_agents import sdk
from masfuzz.adapters.orchestration import Orchestration
from masfuzz.target import open_target
from masfuzz.errors import TargetError
from masfuzz.exec import make_executor
from masfuzz.scenario import Scenario
from masfuzz.trace import DelegationEvent, ToolCall
from tests.conftest import EXAMPLES, ROOT

pytest.importorskip("agents")

FIXTURE = "tests/adapters/orchestrated_app.py"
TEAM = f"{FIXTURE}:planner,searcher,writer"
POLICY = f"scripted/{FIXTURE}:policy"
TESTER = "scripted/" + str(EXAMPLES / "testers" / "template_tester.py") + ":policy"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def _app():
    """The fixture module as the loader imports it (the objects `open_target` starts from)."""
    return load_target(f"{FIXTURE}:planner").module


def _edges(spec):
    return {(d.from_, d.to, d.trigger) for d in spec.delegations}


def test_inspect_names_a_coordinator_over_the_named_agents(cli):
    code, out, err = cli("inspect", TEAM, "--coordinator", "coordinator", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["system"]["entry_agent"] == "coordinator"
    assert [a["id"] for a in data["agents"]] == ["coordinator", "planner", "searcher", "writer",
                                                 "editor"]
    pairs = [(d["from"], d["to"]) for d in data["delegations"]]
    assert pairs == [("coordinator", "planner"), ("coordinator", "searcher"),
                     ("coordinator", "writer"), ("writer", "editor")]  # the writer keeps its own
    code, out, _ = cli("inspect", TEAM, "--coordinator", "coordinator")
    assert "entry coordinator" in out
    assert "reachable agents       5" in out and "delegations            4" in out
    assert "obligations           14  (C1 5 + C2 1 + C3 4 + C4 4)" in out


def test_coordinator_describes_each_specialist_and_the_users_agents_stay_untouched():
    app = _app()
    sut = open_target(TEAM, coordinator="lead", links=["planner->searcher"])
    entry = sut.obj
    assert entry.name == "lead" and sut.spec.system.entry_agent == "lead"
    assert "Planner: Turns a question into a list of searches." in entry.instructions
    assert "Searcher: Search the web and summarise" in entry.instructions  # from instructions
    assert ("planner", "searcher", "handoff") in _edges(sut.spec)
    assert app.planner.handoffs == [] and app.writer.handoffs == [app.editor]
    specialists = [sdk.handoff_target(h, []) for h in entry.handoffs]
    assert specialists[0] is not app.planner  # the linked planner is a clone
    assert specialists[1] is app.searcher and specialists[2] is app.writer
    assert any("coordinator added by masfuzz" in n for n in sut.spec.notes)


def test_link_adds_an_edge_from_a_single_named_agent(cli):
    code, out, err = cli("inspect", f"{FIXTURE}:planner", "--link", "planner->searcher",
                         "--link", "Searcher->writer", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["system"]["entry_agent"] == "planner"  # no coordinator with one named agent
    assert [(d["from"], d["to"]) for d in data["delegations"]] == [
        ("planner", "searcher"), ("searcher", "writer"), ("writer", "editor")]
    code, out, _ = cli("inspect", f"{FIXTURE}:planner")
    assert "delegations            0" in out


def test_link_to_an_agent_that_already_delegates_rewires_its_callers():
    # editor is reached through writer's plain handoff list: both are cloned, the link is real
    app = _app()
    sut = open_target(TEAM, links=["editor->planner"])
    assert ("editor", "planner", "handoff") in _edges(sut.spec)
    assert ("writer", "editor", "handoff") in _edges(sut.spec)
    assert app.editor.handoffs == [] and app.writer.handoffs == [app.editor]


@pytest.mark.parametrize("target,links,message", [
    (f"{FIXTURE}:planner", ["planner->nobody"], "--link planner->nobody: no agent 'nobody'"),
    (f"{FIXTURE}:planner", ["planner-searcher"], "expected FROM->TO"),
    (f"{FIXTURE}:planner", ["planner->team"], "team is a ResearchManager"),
    (f"{FIXTURE}:planner,not_an_agent", [], "not_an_agent is a FunctionTool"),
    (f"{FIXTURE}:planner,team", [], "not an Agents SDK Agent"),
])
def test_bad_orchestration_is_a_one_line_target_error(cli, target, links, message):
    with pytest.raises(TargetError, match=message):
        open_target(target, links=links)
    code, _, err = cli("inspect", target, *[a for link in links for a in ("--link", link)])
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_a_manifest_refuses_a_supplied_graph():
    with pytest.raises(TargetError, match="a manifest states its own graph"):
        open_target(str(EXAMPLES / "manifests" / "customer_service.yaml"), coordinator="boss")


def test_exec_with_a_coordinator_hands_off_to_a_specialist(cli):
    code, out, err = cli("exec", TEAM, "--coordinator", "coordinator", "--input",
                         "Please search the web for tides", "--sut-model", POLICY,
                         "--format", "json")
    assert code == 0, err
    events = json.loads(out)["events"]
    turns = [e["agent"] for e in events if e["type"] == "agent_turn"]
    assert turns == ["coordinator", "searcher"]  # the policy saw request.agent == coordinator
    assert [(e["from"], e["to"], e["trigger"]) for e in events if e["type"] == "delegation"] == [
        ("coordinator", "searcher", "handoff")]
    code, out, _ = cli("exec", TEAM, "--coordinator", "coordinator", "--input", "search tides",
                       "--sut-model", POLICY)
    assert "delegation          coordinator -> searcher (handoff)" in out


@pytest.mark.parametrize("kind", ["inprocess", "subprocess"])
def test_both_executors_build_the_linked_system(kind):
    executor = make_executor(kind, timeout=60, orchestration=Orchestration.parse(
        None, ["planner->searcher"]))
    trace = asyncio.run(executor.run(f"{FIXTURE}:planner", Scenario(input="plan tides",
                                                                     sut_model=POLICY)))
    assert [(e.from_, e.to) for e in trace.of_type(DelegationEvent)] == [("planner", "searcher")]
    assert [c.tool for c in trace.of_type(ToolCall)] == ["web_search"]


def test_cover_records_the_graph_and_replay_and_pytest_rebuild_it(cli, tmp_path):
    suite = tmp_path / "suite.yaml"
    code, out, err = cli("cover", TEAM, "--link", "planner->searcher", "--model", TESTER,
                         "--sut-model", POLICY, "--no-cache", "--store", str(tmp_path / "runs.db"),
                         "--suite", str(suite), "--faults", "none", "--criteria", "C1,C2,C4",
                         "--format", "json")
    assert code == 0, err
    items = {o["id"]: o for c in json.loads(out)["obligations"].values() for o in c["items"]}
    assert items["delegate::planner::searcher"]["witnessed_by"]
    assert items["delegate::coordinator::writer"]["witnessed_by"]
    data = yaml.safe_load(suite.read_text())
    assert data["orchestration"] == {"links": ["planner->searcher"]}
    code, out, err = cli("replay", str(suite), "--executor", "subprocess")
    assert code == 0, out + err
    assert out.strip().splitlines()[-1] == "6 passed, 0 failed"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--rootdir", str(tmp_path), "--masfuzz-suite", str(suite), str(tmp_path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert "6 passed" in proc.stdout, proc.stdout + proc.stderr
    # without the recorded graph the app's own code order is rebuilt, with no coordinator:
    # the coordinator's witnesses are lost
    del data["orchestration"]
    bare = tmp_path / "bare.yaml"
    bare.write_text(yaml.safe_dump(data, sort_keys=False))
    code, out, _ = cli("replay", str(bare))
    assert code == 1 and "LOST" in out and "reach::coordinator" in out


def test_exec_coverage_measures_the_linked_graph(cli):
    code, out, err = cli("exec", f"{FIXTURE}:planner", "--link", "planner->searcher", "--input",
                         "plan tides", "--sut-model", POLICY, "--coverage", "--format", "json")
    assert code == 0, err
    data = json.loads(out)["coverage"]
    items = {o["id"]: o for c in data["obligations"].values() for o in c["items"]}
    assert items["delegate::planner::searcher"]["witnessed_by"]
    assert data["coverage"]["criteria"]["C4"]["covered"] == 1


def test_two_named_agents_of_one_name_each_get_their_own_handoff(tmp_path):
    """The Agents SDK's handoffs/message_filter.py runs two agents both named "Assistant" one
    after the other: the coordinator's two handoffs shared one tool and the first was unreachable."""
    app = tmp_path / "twins.py"
    app.write_text("from agents import Agent\n"
                   "first = Agent(name='Assistant', instructions='Be concise.')\n"
                   "second = Agent(name='Assistant', instructions='Be helpful.')\n")
    sut = open_target(f"{app}:first,second")
    names = [h.tool_name for h in sut.obj.handoffs]
    assert names == ["transfer_to_assistant", "transfer_to_assistant_2"]
    app_module = load_target(f"{app}:first").module
    targets = [sdk.handoff_target(h, []) for h in sut.obj.handoffs]
    assert [t.instructions for t in targets] == ["Be concise.", "Be helpful."]
    assert {("coordinator", "assistant", "handoff"), ("coordinator", "assistant#2", "handoff")} <= _edges(sut.spec)
    assert app_module.first.handoffs == [] and app_module.second.handoffs == []


PIPELINE = "tests/adapters/pipeline_app.py:writer,reviewer"


def test_a_plain_python_pipeline_is_read_from_its_code_and_its_function_is_the_system():
    """`main()` runs the writer, then (in a helper, inside a loop with a gate) the reviewer,
    then the writer again: those are the edges, the writer is the entry, and one execution is
    one call of `main()`, the app's own loop and gate included."""
    system = open_target(PIPELINE)
    spec = system.spec
    assert spec.system.entry_agent == "writer" and spec.system.pattern == "orchestrated"
    assert [a.id for a in spec.agents] == ["writer", "reviewer"]  # no masfuzz coordinator
    edges = {d.edge: d for d in spec.delegations}
    assert set(edges) == {("writer", "reviewer"), ("reviewer", "writer")}
    assert {d.trigger for d in edges.values()} == {"sequence"}
    assert "unless 'GOOD' in verdict" in edges[("reviewer", "writer")].condition
    assert any("main() runs the pipeline: writer -> reviewer -> writer" in n for n in spec.notes)
    trace = asyncio.run(make_executor("inprocess").run(PIPELINE, Scenario(
        input="a poem", sut_model="scripted/masfuzz.control:probe")))
    walked = [(e.from_, e.to, e.trigger) for e in trace.of_type(DelegationEvent)]
    # the probe never says GOOD: main()'s loop runs its three rounds, then main() returns
    assert walked == [("writer", "reviewer", "sequence"), ("reviewer", "writer", "sequence")] * 3
    assert trace.termination.reason == "completed"


def test_a_pipeline_in_a_method_is_run_as_handoffs_in_its_order(cli):
    """The fixture's `ResearchManager.run` needs its object: it cannot be called with the task
    alone, so its order (planner, then searcher, then writer) becomes handoffs."""
    sut = open_target(TEAM)
    assert sut.spec.system.entry_agent == "planner"
    assert {("planner", "searcher", "handoff"), ("searcher", "writer", "handoff")} <= _edges(sut.spec)
    assert any("cannot be called with the task alone" in n for n in sut.spec.notes)


def test_two_functions_running_the_agents_in_different_orders_are_asked_about():
    with pytest.raises(TargetError, match="draft_first.*review_first.*--link"):
        open_target("tests/adapters/pipeline_two.py:writer,reviewer")


GATED = "tests/adapters/pipeline_gate.py"


@pytest.mark.parametrize("task,reached,reason", [
    ("a good story about tides", ["outline", "checker", "story"], "completed"),
    ("a story about tides", ["outline", "checker"], "other"),  # the app's gate stops it
])
def test_a_module_with_a_gated_pipeline_runs_its_main_gate_and_all(task, reached, reason):
    spec = open_target(GATED).spec  # the file alone: its one pipeline is the system
    edges = {d.edge: d.condition for d in spec.delegations}
    assert set(edges) == {("outline", "checker"), ("checker", "story")}
    assert edges[("checker", "story")].endswith("unless 'GOOD' not in verdict.final_output")
    trace = asyncio.run(make_executor("inprocess").run(GATED, Scenario(
        input=task, sut_model=f"scripted/{GATED}:policy")))
    assert [e.agent for e in trace.events if type(e).__name__ == "AgentTurn"] == reached
    assert trace.termination.reason == reason
    assert open_target(f"{GATED}:main").spec.delegations == spec.delegations  # named by its function


def test_runs_started_as_tasks_in_helpers_count_where_the_task_is_made(tmp_path):
    """research_bot's manager runs its searches as `asyncio.create_task(self._search(item))`."""
    app = tmp_path / "fanout.py"
    app.write_text(
        "import asyncio\nfrom agents import Agent, Runner\n"
        "plan = Agent(name='plan', instructions='Plan searches.')\n"
        "search = Agent(name='search', instructions='Search.')\n"
        "class Manager:\n"
        "    async def run(self, q):\n"
        "        p = await Runner.run(plan, q)\n"
        "        tasks = [asyncio.create_task(self._one(x)) for x in str(p.final_output).split()]\n"
        "        return await asyncio.gather(*tasks)\n"
        "    async def _one(self, x):\n"
        "        return await Runner.run(search, x)\n")
    spec = open_target(f"{app}:plan,search").spec
    assert {d.edge for d in spec.delegations} == {("plan", "search")}
    assert any("Manager.run(): plan -> search" in n for n in spec.notes)


def test_a_revise_until_good_loop_goes_back_unless_its_gates_leave(tmp_path):
    """The SDK's llm_as_a_judge.py: `while True:` outline, evaluate, `break` on a pass or after
    the rounds allowed: the loop-back edge carries both conditions."""
    app = tmp_path / "judge.py"
    app.write_text(
        "from agents import Agent, Runner\n"
        "outline = Agent(name='outline', instructions='Outline.')\n"
        "judge = Agent(name='judge', instructions='Say pass or fail.')\n"
        "async def main():\n"
        "    items, rounds = input('Story? '), 0\n"
        "    while True:\n"
        "        items = (await Runner.run(outline, items)).final_output\n"
        "        score = (await Runner.run(judge, items)).final_output\n"
        "        if score == 'pass':\n"
        "            break\n"
        "        rounds += 1\n"
        "        if rounds >= 3:\n"
        "            break\n")
    spec = open_target(str(app)).spec
    edges = {d.edge: d.condition for d in spec.delegations}
    assert edges[("judge", "outline")] == ("the loop at line 6 runs again, unless score == 'pass' "
                                           "or rounds >= 3")
