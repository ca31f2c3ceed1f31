"""Agents SDK extraction: the paper's Table I counts, file:line, and the counting conventions."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from masfuzz.adapters.base import resolve
from masfuzz.loader import load_target
from masfuzz.target import open_target
from masfuzz.errors import TargetError
from masfuzz.graph.coordination import CoordinationGraph
from tests.conftest import EXAMPLES, ROOT

APP = "examples/customer_service/app.py:triage_agent"
SYSTEMS = "tests/adapters/oa_systems.py"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def counts(spec):
    ob = CoordinationGraph(spec).obligations()
    return (len(ob.reach), len(spec.tools), len(ob.use_tool), len(ob.restrict_tool),
            len(ob.delegate), len(ob))


def test_customer_service_example_gives_table_i_row():
    spec = open_target(APP).spec
    assert counts(spec) == (3, 2, 2, 4, 4, 13)
    assert spec.system.entry_agent == "triage_agent"
    assert spec.permissions.restrict_mode == "closed_world"
    assert set(spec.permissions.allow) == {("faq_agent", "faq_lookup_tool"),
                                           ("seat_booking_agent", "update_seat")}
    assert {d.edge for d in spec.delegations} == {
        ("triage_agent", "faq_agent"), ("faq_agent", "triage_agent"),
        ("triage_agent", "seat_booking_agent"), ("seat_booking_agent", "triage_agent")}
    assert spec.agent("faq_agent").name == "FAQ Agent"


def test_every_agent_and_tool_has_its_source_line():
    spec = open_target(APP).spec
    lines = (EXAMPLES / "customer_service" / "app.py").read_text().splitlines()
    for agent in spec.agents:
        assert agent.source.file == "examples/customer_service/app.py"
        var = agent.id
        assert lines[agent.source.line - 1].startswith(f"{var} = Agent"), agent
    for tool in spec.tools:
        assert lines[tool.source.line - 1] == "@function_tool", tool
        assert lines[tool.source.line].startswith(f"def {tool.id}(")


def test_agent_as_tool_counts_twice_and_hosted_tools_are_tools():
    spec = open_target(f"{SYSTEMS}:manager").spec
    assert [a.id for a in spec.agents] == ["manager", "researcher", "writer"]
    kinds = {t.id: t.kind for t in spec.tools}
    assert kinds == {"research": "agent", "write": "agent", "web_search": "hosted",
                     "lookup": "function"}
    assert ("manager", "research") in spec.permissions.allow
    triggers = {(d.from_, d.to): d.trigger for d in spec.delegations}
    assert triggers == {("manager", "researcher"): "as_tool", ("manager", "writer"): "as_tool"}
    assert spec.system.pattern == "orchestrated"
    # 3 agents, 4 tools, 4 allowed, 3x4-4 = 8 restricted, 2 delegations
    assert counts(spec) == (3, 4, 4, 8, 2, 17)


def test_conditions_dynamic_instructions_and_enabled_flags():
    spec = open_target(f"{SYSTEMS}:manager").spec
    assert spec.agent("writer").instructions_dynamic and spec.agent("writer").instructions == ""
    assert spec.tool("write").enabled_condition == "is_enabled=only_on_weekdays"
    writer_edge = next(d for d in spec.delegations if d.to == "writer")
    assert writer_edge.condition == "is_enabled=only_on_weekdays"


def test_agents_distinct_by_object_tools_by_name_and_handoff_in_tools():
    spec = open_target(f"{SYSTEMS}:build_front").spec  # a zero-argument factory
    assert [a.id for a in spec.agents] == ["front_desk", "helper", "helper#2", "files"]
    assert [a.name for a in spec.agents][1:] == ["Helper", "Helper", "Files"]
    assert [t.id for t in spec.tools] == ["delegate_inside", "lookup", "crash_tool"]
    edges = {d.edge for d in spec.delegations}
    assert ("front_desk", "helper#2") in edges
    assert ("files", "helper") in edges  # the Handoff the Files agent holds among its tools
    assert not {"to_second_helper", "transfer_to_helper"} & {t.id for t in spec.tools}
    # two agents named Helper sit on two different source lines
    a, b = spec.agent("helper").source, spec.agent("helper#2").source
    assert a.line != b.line and a.file == b.file == SYSTEMS


def test_mcp_servers_and_agents_started_in_tools_become_notes():
    notes = open_target(f"{SYSTEMS}:front").spec.notes
    assert any("MCP server 'files'" in n for n in notes)
    assert any(n.startswith("tool delegate_inside: runs agents inside its own code (Runner.run")
               for n in notes)


def test_sdk_own_customer_service_example_shape(tmp_path):
    """The SDK's example builds its handoffs with handoff(...) and appends the way back after
    construction; written here from scratch in that style (the SDK file is not copied)."""
    app = tmp_path / "main.py"
    app.write_text(textwrap.dedent('''
        from agents import Agent, handoff
        from agents.decorators import tool

        @tool(name_override="faq_lookup_tool", description_override="Lookup FAQs.")
        async def faq_lookup_tool(question: str) -> str:
            return "answer"

        @tool
        async def update_seat(confirmation_number: str, new_seat: str) -> str:
            """Update the seat."""
            return "ok"

        async def on_seat_booking_handoff(ctx) -> None:
            return None

        faq_agent = Agent(name="FAQ Agent", instructions="faq", tools=[faq_lookup_tool])
        seat_booking_agent = Agent(name="Seat Booking Agent", instructions="seat",
                                   tools=[update_seat])
        triage_agent = Agent(name="Triage Agent", instructions="triage", handoffs=[
            handoff(agent=faq_agent, tool_name_override="transfer_to_faq_agent"),
            handoff(agent=seat_booking_agent, on_handoff=on_seat_booking_handoff,
                    tool_name_override="transfer_to_seat_booking_agent"),
        ])
        faq_agent.handoffs.append(handoff(agent=triage_agent))
        seat_booking_agent.handoffs.append(handoff(agent=triage_agent))

        if __name__ == "__main__":
            raise SystemExit("the __main__ block must not run")
    '''))
    spec = open_target(f"{app}:triage_agent").spec
    assert counts(spec) == (3, 2, 2, 4, 4, 13)
    assert spec.agent("seat_booking_agent").source.line == 18
    assert spec.tool("faq_lookup_tool").source.line == 5


def test_spec_round_trips_through_a_manifest(tmp_path):
    from masfuzz.spec.manifest import dump_manifest, load_manifest

    spec = open_target(APP).spec
    path = tmp_path / "cs.yaml"
    path.write_text(dump_manifest(spec))
    again = load_manifest(path)
    assert again == spec
    assert [o.id for o in CoordinationGraph(again).obligations()] == \
        [o.id for o in CoordinationGraph(spec).obligations()]


def test_detection_and_wrong_object():
    loaded = load_target(APP)
    adapter, obj = resolve(loaded.obj, APP)
    assert type(adapter).__name__ == "OpenAIAgentsAdapter" and obj is loaded.obj
    with pytest.raises(TargetError, match="is not a system masfuzz can test"):
        resolve(load_target("examples/customer_service/app.py:FAQ").obj, "x")


def test_unsupported_sdk_version_is_one_line(tmp_path):
    """An SDK without what masfuzz needs (here: a stand-in `agents` package earlier on the
    path) gives a one-line TargetError naming what is missing."""
    fake = tmp_path / "agents"
    fake.mkdir()
    (fake / "__init__.py").write_text("__version__ = '0.0.1'\nclass Agent: pass\n")
    code = ("from masfuzz.adapters.openai_agents import sdk\n"
            "from masfuzz.errors import TargetError\n"
            "try:\n    sdk.require()\nexcept TargetError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": str(tmp_path), "PATH": ""}, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("\n") == 1
    assert out.stdout.startswith("openai-agents 0.0.1 is not supported: it lacks Runner")


def test_a_file_named_without_its_system(tmp_path, cli):
    # three agents at the top level: which one a conversation starts with is the user's to say
    code, _, err = cli("inspect", APP.split(":")[0])
    assert code == 2 and err.strip().endswith(
        "its top-level systems: faq_agent, seat_booking_agent, triage_agent")
    # one: it is the system
    app = tmp_path / "one.py"
    app.write_text("from agents import Agent\n\nhelper = 3\nconcierge = Agent(name='concierge', "
                   "instructions='Greet the guest.')\n")
    code, out, err = cli("inspect", str(app))
    assert code == 0, err
    assert out.startswith("system ") and "entry concierge" in out.splitlines()[0]
    # one at the top, but main() builds the agent the app runs (the SDK's guardrail examples):
    # main() is the system, its agent the one it runs (found without a model call)
    app = tmp_path / "two.py"
    app.write_text("from agents import Agent, Runner\n\nchecker = Agent(name='checker', "
                   "instructions='Is it homework?')\n\nasync def main():\n    agent = "
                   "Agent(name='tutor', instructions='Help.')\n    await Runner.run(agent, 'hi')\n")
    code, out, err = cli("inspect", str(app))
    assert code == 0 and "entry tutor" in out.splitlines()[0], err
    # a function that builds agents and runs none (a factory of another app): asked, never guessed
    (tmp_path / "three.py").write_text(app.read_text().replace("    await Runner.run(agent, 'hi')\n",
                                                               "    return [agent]\n"))
    app = tmp_path / "three.py"
    code, _, err = cli("inspect", str(app))
    [line] = [ln for ln in err.splitlines() if ln.startswith("masfuzz: ")]  # one line of masfuzz's
    assert code == 2 and "its one top-level system is checker, but main() builds more Agent objects" in line
    code, out, err = cli("inspect", f"{app}:checker")
    assert code == 0, err
