"""Delegation mutants on the rewiring each framework has beyond the examples: an AgentChat
GraphFlow's edges (built with DiGraphBuilder), an AgentChat Swarm's handoffs, and the handoff
tools of LangGraph's prebuilt supervisor and swarm. Each mutant's run differs from the target's
the way the mutant says (a delegation no longer happens, or goes elsewhere), and the user's
objects are the same ones, unchanged, after it: a run after the mutants is the first run again.
Scripted models that delegate only through what they are offered, in-process: no network."""

from __future__ import annotations

import asyncio

import pytest

from masfuzz.scenario import Mutation, Scenario
from masfuzz.target import Target
from masfuzz.trace import DelegationEvent, ToolCall

from tests.mutate.rewiring import PREBUILT, RELAY

GRAPH = "tests/adapters/autogen_systems.py:graph_team"
GRAPH_SUT = "scripted/tests/adapters/autogen_systems.py:graph_policy"
SWARM = "tests/mutate/rewiring.py:desk_swarm"
SUPERVISOR = "tests/adapters/langgraph_prebuilt.py:supervisor_app"
LG_SWARM = "tests/adapters/langgraph_prebuilt.py:swarm_app"


pytestmark = pytest.mark.usefixtures("in_repo")  # the targets are named relative to it


def _m(op, *args):
    return Mutation(operator=op, args=tuple(args))


def _runs(target, sut, text, *mutants):
    """One trace per mutant (None: the target as written), one after another, in process;
    no restricted-tool probes, so an agent is offered its own tools only."""
    from masfuzz.exec import make_executor

    async def go():
        ex = make_executor("inprocess")
        try:
            return [await ex.run(target, Scenario(input=text, sut_model=sut, mutant=m, restricted="off"))
                    for m in mutants]
        finally:
            await ex.aclose()

    return asyncio.run(go())


def _did(trace):
    """What a run did, without timings and ids: who handed to whom, the tool calls, the end."""
    return ([(d.from_, d.to) for d in trace.of_type(DelegationEvent)],
            [(c.agent, c.tool) for c in trace.of_type(ToolCall)],
            trace.termination.reason, trace.termination.final_output)


def _agentchat_state(team):
    """The objects a delegation mutant replaces on a team and its agents, by identity."""
    members = {a.name: (a._handoffs, list(a._handoff_tools)) if hasattr(a, "_handoffs") else None
               for a in team._participants}
    return getattr(team, "_graph", None), list(team._participants), members


def _same(before, after):
    graph, participants, members = before
    graph2, participants2, members2 = after
    assert graph is graph2 and participants == participants2
    for name, held in members.items():
        if held is not None:
            assert members2[name][0] is held[0] and members2[name][1] == held[1]


# --- AutoGen AgentChat ---------------------------------------------------------------------


def test_graphflow_edges_retargeted_and_dropped():
    pytest.importorskip("autogen_agentchat")
    from masfuzz.spec.mutants import mutants

    system = Target.of(GRAPH).open()
    retarget = _m("retarget_delegation", "drafter", "reviewer", "publisher")
    drop = _m("drop_delegation", "reviewer", "publisher")
    assert retarget in mutants(system.spec)["retarget_delegation"]
    assert drop in mutants(system.spec)["drop_delegation"]
    before = _agentchat_state(system.obj)
    edges = {n: [e.target for e in node.edges] for n, node in system.obj._graph.nodes.items()}
    base, sent, dropped, after = _runs(GRAPH, GRAPH_SUT, "write a post", None, retarget, drop, None)
    assert _did(base)[0] == [("drafter", "reviewer"), ("reviewer", "publisher")]
    # the draft goes straight to the publisher; the reviewer is never asked
    assert _did(sent)[0] == [("drafter", "publisher")] and sent.speaker_order == ["drafter", "publisher"]
    # the approval leads nowhere: the flow ends at the reviewer, nothing is published
    assert _did(dropped)[0] == [("drafter", "reviewer")] and "publisher" not in dropped.speaker_order
    assert dropped.termination.final_output == "APPROVE"
    _same(before, _agentchat_state(system.obj))
    assert {n: [e.target for e in node.edges] for n, node in system.obj._graph.nodes.items()} == edges
    assert _did(after) == _did(base)


def test_swarm_handoffs_retargeted_dropped_and_disconnected():
    pytest.importorskip("autogen_agentchat")
    system = Target.of(SWARM).open()
    before = _agentchat_state(system.obj)
    base, sent, dropped, cut, after = _runs(
        SWARM, RELAY, "Where is my parcel?", None,
        _m("retarget_delegation", "triage", "billing", "shipping"),
        _m("drop_delegation", "billing", "shipping"), _m("disconnect_agent", "billing"), None)
    assert _did(base)[0] == [("triage", "billing"), ("billing", "shipping"), ("shipping", "user")]
    # triage is offered a handoff to shipping where billing was, and takes it
    assert _did(sent)[0] == [("triage", "shipping"), ("shipping", "user")]
    # billing can hand off to no one: the conversation stays with it until the message limit
    assert _did(dropped)[0] == [("triage", "billing")] and dropped.termination.reason == "message_limit"
    # no handoff into billing is left: triage's only other way out is the user
    assert _did(cut)[0] == [("triage", "user")]
    _same(before, _agentchat_state(system.obj))
    assert _did(after) == _did(base)


# --- LangGraph prebuilt supervisor and swarm -------------------------------------------------


def _langgraph_state(system):
    """Every place an agent's code reads (its model, its bindings, its tool lists) and its tool
    nodes' tables, by identity: what a mutant replaces while it runs."""
    from masfuzz.adapters.langgraph.extract import inner_tool_nodes
    from masfuzz.adapters.langgraph.reach import graph_places

    agents = [a.id for a in system.spec.agents]
    places = {(a, p.where): p.get() for a in agents for p in graph_places(system.obj, a)}
    tables = {a: [dict(t._tools_by_name) for t in inner_tool_nodes(system.obj, a)] for a in agents}
    return places, tables


def _restored(before, after):
    assert before[0].keys() == after[0].keys()
    assert all(after[0][k] is v for k, v in before[0].items())
    assert before[1] == after[1]


def test_langgraph_supervisor_handoff_dropped(provider_endpoint):
    pytest.importorskip("langgraph_supervisor")
    system = Target.of(SUPERVISOR).open()
    before = _langgraph_state(system)
    base, dropped, cut, toolless, after = _runs(
        SUPERVISOR, PREBUILT, "what is the sum of 2 and 40", None,
        _m("drop_delegation", "supervisor", "math_expert"), _m("disconnect_agent", "math_expert"),
        _m("remove_tool_edge", "math_expert", "add"), None)
    assert _did(base) == ([("supervisor", "math_expert"), ("math_expert", "supervisor")],
                          [("math_expert", "add")], "completed", "FINAL: math_expert: 42.0")
    # the supervisor is no longer offered the math expert, so it answers alone (a
    # create_react_agent calls its `prompt | bound model`, not the binding beside it: both change)
    for run in (dropped, cut):
        assert _did(run) == ([], [], "completed", "FINAL: the supervisor answers alone")
    # the same for a member's own tool
    assert _did(toolless)[1] == [] and _did(toolless)[3] == "FINAL: math_expert was offered no tool of its own"
    # a handoff's destination is in the Command its tool returns: it cannot be sent elsewhere
    why = system.runner().mutation_problem(system.obj, system.spec,
                                           _m("retarget_delegation", "supervisor", "math_expert",
                                              "research_expert"))
    assert "fixed in the Command" in why
    _restored(before, _langgraph_state(system))
    assert _did(after) == _did(base)
    assert provider_endpoint == []


def test_langgraph_swarm_handoff_dropped(provider_endpoint):
    pytest.importorskip("langgraph_swarm")
    system = Target.of(LG_SWARM).open()
    before = _langgraph_state(system)
    base, dropped, after = _runs(LG_SWARM, PREBUILT, "add two and three", None,
                                 _m("drop_delegation", "Alice", "Bob"), None)
    assert _did(base) == ([("Alice", "Bob")], [("Alice", "add")], "completed", "Arr, the sum be 5.0")
    # Alice (a create_agent agent) is no longer offered the handoff to Bob, and answers herself
    assert _did(dropped) == ([], [("Alice", "add")], "completed", "Alice: the sum is 5.0")
    _restored(before, _langgraph_state(system))
    assert _did(after) == _did(base)
    assert provider_endpoint == []
