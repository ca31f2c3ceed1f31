"""Workflow mutants (`masfuzz mutate`) applied to a live AgentChat team for one run.

`mutated(team, mutation)` changes the team and its agents the way the mutation says and gives
back how the team's `max_turns` changes; on exit every change is undone (`masfuzz.adapters.
mutation`). A run rebuilds the team from its settings (`adapter._Run.rebuild`), so the team's
attributes it reads (`_participants`, `_termination_condition`, `_candidate_func`,
`_selector_func`, `_graph`) are what a mutant changes, with the agents' `_workbench` and
`_handoffs`. Lists, dicts and graphs are replaced, never edited. What each operator means here:

- tools (`remove_tool_edge`, `grant_restricted`): a workbench without the tool, or one more
  workbench with it (the tool object another agent has), for any agent of the workflow (one
  inside a member, or run by a tool, too); `swap_descriptions`: the two tool
  objects' descriptions exchanged;
- delegations, by the team's kind: a Swarm's handoffs (dropped, or one to the new agent in their
  place); a round robin's order (a fixed order hands to `b` only by `b` being next, so dropping
  `a -> b` or disconnecting `b` takes `b` out of the rotation, and retargeting it to `c` moves
  `c` to right after `a`); a selector team's candidates (`b` is no candidate after `a`, or
  never); a GraphFlow's edges; an `as_tool` delegation (a `TeamTool`, an `AgentTool`) is
  dropped with the tool that makes it, as an Agents SDK `as_tool` is. A selector team already offers every other agent after `a`, so
  retargeting a delegation there is not applicable (it would be `drop_delegation`);
- termination: `remove_termination(Class)` takes the conditions of that class out of the team's
  condition tree; the turn-limit operators change every MaxMessageTermination's limit and the
  team's `max_turns` alike (the spec's turn limit is the smaller of them).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from autogen_agentchat.base import AndTerminationCondition, Handoff, OrTerminationCondition
from autogen_agentchat.conditions import MaxMessageTermination
from autogen_agentchat.teams import GraphFlow, RoundRobinGroupChat, SelectorGroupChat, Swarm
from autogen_core.tools import StaticStreamWorkbench

from masfuzz.adapters import mutation as shared
from masfuzz.adapters.autogen.extract import (first_speakers, inner_agent, leaves, participants, runs_inside,
                                              workflow_agents)
from masfuzz.adapters.mutation import Changes, NotApplicable, TurnLimit
from masfuzz.spec.mutants import NAMES
from masfuzz.scenario import Mutation

OPERATORS: frozenset[str] = frozenset(NAMES)  # each has a meaning here (by team kind, above)
DELEGATION_OPERATORS = ("drop_delegation", "retarget_delegation", "disconnect_agent")


@contextlib.contextmanager
def mutated(team: Any, mutation: Mutation | None) -> Iterator[TurnLimit]:
    """Apply `mutation` to `team` until exit; yields team max_turns -> the mutant's."""
    with shared.applied(lambda changes, m: _apply(team, m, changes), mutation, shared.same) as turns:
        yield turns


def problem(team: Any, mutation: Mutation) -> str | None:
    return shared.problem(lambda changes, m: _apply(team, m, changes), mutation)


def _apply(team: Any, m: Mutation, changes: Changes) -> TurnLimit:
    op, args = m.operator, m.args
    members = {a.name: a for a in participants(team)}
    everyone: dict[str, Any] = {}
    for a in workflow_agents(team):
        everyone.setdefault(a.name, a)  # a name two agents share: the spec's, the first

    def agent(name: str, anywhere: bool = False) -> Any:
        """The agent whose tools a member uses (through a wrapper: the wrapped one); `anywhere`:
        any agent of the workflow, not only the team's own members (whose order a delegation
        operator changes)."""
        known = everyone if anywhere else members
        if name not in known:
            raise NotApplicable(f"{m.label}: no agent {name!r} in the team")
        return inner_agent(known[name])

    if op == "remove_tool_edge":
        a = agent(args[0], anywhere=True)
        benches = _benches(a, m)
        if not any(t.name == args[1] for wb in benches for t in _tools(wb)):
            raise NotApplicable(f"{m.label}: agent {args[0]} has no tool {args[1]!r}")
        changes.put(a, "_workbench", [_without(wb, args[1]) for wb in benches])
    elif op == "grant_restricted":
        a = agent(args[0], anywhere=True)
        benches = _benches(a, m)
        tool = _tool(team, args[1], m)
        changes.put(a, "_workbench", [*benches, StaticStreamWorkbench([tool])])
    elif op == "swap_descriptions":
        one, two = _tool(team, args[0], m), _tool(team, args[1], m)
        first, second = one.description, two.description
        changes.put(one, "_description", second)
        changes.put(two, "_description", first)
    elif op == "drop_delegation" and _tools_running(everyone.get(args[0]), args[1]):
        a = agent(args[0], anywhere=True)
        benches = _benches(a, m)
        for tool in _tools_running(everyone[args[0]], args[1]):
            benches = [_without(wb, tool) for wb in benches]
        changes.put(a, "_workbench", benches)
    elif op in DELEGATION_OPERATORS:
        if op == "disconnect_agent":
            agent(args[0])
        else:
            agent(args[0]), agent(args[1])
        if op == "retarget_delegation":
            agent(args[2])
        _rewire(team, m, changes)
    elif op == "remove_termination" and args[:1] != ("max_turns",):
        _remove_condition(team, m, changes)
    elif op == "remove_termination" or op in shared.TURN_OPERATORS:
        turns = shared.turn_limit(m)
        for leaf in leaves(getattr(team, "_termination_condition", None)):
            if isinstance(leaf, MaxMessageTermination):
                changes.put(leaf, "_max_messages", turns(leaf._max_messages))  # noqa: SLF001
        return turns
    else:
        raise shared.unknown(m)
    return shared.same


# --- tools ---------------------------------------------------------------------------------


def _tools_running(source: Any, target: str) -> list[str]:
    """The tools of `source` whose run `target` speaks first in (its `as_tool` delegations)."""
    if source is None:
        return []
    return [n.via for n in runs_inside(source) if n.via is not None and target in first_speakers(n.team, n.names)]


def _benches(a: Any, m: Mutation) -> list[Any]:
    benches = getattr(a, "_workbench", None)
    if benches is None:
        raise NotApplicable(f"{m.label}: a {type(a).__name__} calls no tools")
    if not all(hasattr(wb, "_tools") for wb in benches):
        raise NotApplicable(f"{m.label}: agent {a.name} has a workbench whose tools are known "
                            "only once it connects")
    return list(benches)


def _tools(wb: Any) -> list[Any]:
    return list(getattr(wb, "_tools", None) or ())


def _without(wb: Any, name: str) -> Any:
    if not any(t.name == name for t in _tools(wb)):
        return wb
    return type(wb)([t for t in _tools(wb) if t.name != name],
                    tool_overrides=getattr(wb, "_tool_overrides", None))


def _tool(team: Any, name: str, m: Mutation) -> Any:
    for a in workflow_agents(team):
        for wb in getattr(inner_agent(a), "_workbench", None) or ():
            for t in _tools(wb):
                if t.name == name:
                    return t
    raise NotApplicable(f"{m.label}: no tool {name!r} in the team")


# --- delegations ---------------------------------------------------------------------------


def _rewire(team: Any, m: Mutation, changes: Changes) -> None:
    op, args = m.operator, m.args
    if isinstance(team, Swarm):
        _rewire_handoffs(team, m, changes)
    elif isinstance(team, RoundRobinGroupChat):
        order = [a.name for a in participants(team)]
        by_name = {a.name: a for a in participants(team)}
        gone = args[0] if op == "disconnect_agent" else args[1]
        if op != "disconnect_agent" and order[(order.index(args[0]) + 1) % len(order)] != args[1]:
            raise NotApplicable(f"{m.label}: {args[1]} does not follow {args[0]} in the order")
        rest = [n for n in order if n != (args[2] if op == "retarget_delegation" else gone)]
        if op == "retarget_delegation":
            rest.insert(rest.index(args[0]) + 1, args[2])
        if not rest:
            raise NotApplicable(f"{m.label}: no agent would be left to speak")
        changes.put(team, "_participants", [by_name[n] for n in rest])
    elif isinstance(team, SelectorGroupChat):
        if op == "retarget_delegation":
            raise NotApplicable(f"{m.label}: a selector team already offers every other agent "
                                f"after {args[0]}: sending its choice elsewhere is drop_delegation")
        _restrict_candidates(team, m, changes)
    elif isinstance(team, GraphFlow):
        _rewire_graph(team, m, changes)
    else:
        raise NotApplicable(f"{m.label}: in a {type(team).__name__} an orchestrator picks each "
                            "speaker: the team has no delegation masfuzz can change")


def _rewire_handoffs(team: Any, m: Mutation, changes: Changes) -> None:
    op, args = m.operator, m.args
    found = False
    for a in participants(team):
        if op != "disconnect_agent" and a.name != args[0]:
            continue
        gone = args[0] if op == "disconnect_agent" else args[1]
        handoffs = dict(getattr(a, "_handoffs", None) or {})
        cut = {n: h for n, h in handoffs.items() if h.target == gone}
        if not cut:
            continue
        found = True
        kept = {n: h for n, h in handoffs.items() if n not in cut}
        if op == "retarget_delegation":
            new = Handoff(target=args[2])
            kept[new.name] = new
        tools = [t for t in a._handoff_tools if t.name not in cut]  # noqa: SLF001
        tools += [h.handoff_tool for n, h in kept.items() if n not in handoffs]
        changes.put(a, "_handoffs", kept)
        changes.put(a, "_handoff_tools", tools)
    if not found:
        raise NotApplicable(f"{m.label}: no such handoff in the team")
    first = participants(team)[0]
    if not getattr(first, "_handoffs", None):
        raise NotApplicable(f"{m.label}: AgentChat builds no Swarm whose first participant "
                            f"({first.name}) cannot hand off")


def _restrict_candidates(team: Any, m: Mutation, changes: Changes) -> None:
    """The speakers the selector may choose, less the dropped one after its source (or always,
    for a disconnected agent). The team's own candidate function, or its rule on repeated
    speakers, gives the candidates first; a selector function choosing the dropped one defers
    to the model."""
    op, args = m.operator, m.args
    names = [a.name for a in participants(team)]
    after, gone = (None, args[0]) if op == "disconnect_agent" else (args[0], args[1])
    own_candidates, own_selector = team._candidate_func, team._selector_func  # noqa: SLF001
    repeat = team._allow_repeated_speaker  # noqa: SLF001

    def cut(thread: Any) -> bool:
        last = next((x.source for x in reversed(list(thread)) if x.source in names), None)
        return after is None or last == after

    async def candidates(thread: Any) -> list[str]:
        if own_candidates is not None:
            found = own_candidates(thread)
            base = list(await found if hasattr(found, "__await__") else found)
        else:
            last = next((x.source for x in reversed(list(thread)) if x.source in names), None)
            base = [n for n in names if repeat or n != last]
        return [n for n in base if not (n == gone and cut(thread))]

    async def selector(thread: Any) -> str | None:
        found = own_selector(thread)
        chosen = await found if hasattr(found, "__await__") else found
        return None if chosen == gone and cut(thread) else chosen

    changes.put(team, "_candidate_func", candidates)
    if own_selector is not None:
        changes.put(team, "_selector_func", selector)


def _rewire_graph(team: Any, m: Mutation, changes: Changes) -> None:
    op, args = m.operator, m.args
    graph = team._graph.model_copy(deep=True)  # noqa: SLF001
    found = False
    for node in graph.nodes.values():
        if op != "disconnect_agent" and node.name != args[0]:
            continue
        gone = args[0] if op == "disconnect_agent" else args[1]
        kept = []
        for edge in node.edges:
            if edge.target != gone:
                kept.append(edge)
                continue
            found = True
            if op == "retarget_delegation":
                kept.append(edge.model_copy(update={"target": args[2]}))
        node.edges = kept
    if not found:
        raise NotApplicable(f"{m.label}: no such edge in the graph")
    try:
        graph.graph_validate()
    except ValueError as exc:
        raise NotApplicable(f"{m.label}: AgentChat refuses the changed graph: {exc}") from None
    changes.put(team, "_graph", graph)


# --- termination ---------------------------------------------------------------------------


def _remove_condition(team: Any, m: Mutation, changes: Changes) -> None:
    kind = m.args[0] if m.args else ""
    cond = getattr(team, "_termination_condition", None)
    if not any(type(leaf).__name__ == kind for leaf in leaves(cond)):
        raise NotApplicable(f"{m.label}: the team has no {kind} to remove")
    changes.put(team, "_termination_condition", _without_condition(cond, kind))


def _without_condition(cond: Any, kind: str) -> Any:
    """`cond` with every condition of class `kind` taken out (None: nothing is left)."""
    inner = getattr(cond, "_conditions", None)
    if inner is None:
        return None if type(cond).__name__ == kind else cond
    kept = [c for c in (_without_condition(c, kind) for c in inner) if c is not None]
    if len(kept) <= 1:
        return kept[0] if kept else None
    return (AndTerminationCondition if isinstance(cond, AndTerminationCondition)
            else OrTerminationCondition)(*kept)
