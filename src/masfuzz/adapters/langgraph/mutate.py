"""Workflow mutants (`masfuzz mutate`) applied to a live compiled LangGraph graph for one run.

`mutated(app, spec, mutation)` changes the graph the way the mutation says and gives back a
`Mutant`: how the recursion limit changes, and the graph to run. Every change is undone on exit
(`masfuzz.adapters.mutation`). What each operator means here:

- tools: a node's model is offered its tools from the places its code reads (`reach`): a
  binding (`model.bind_tools(...)`), a prebuilt agent's `prompt | bound model` sequence
  (`create_react_agent` calls that one, not the binding beside it), or a list of tools in a
  closure that the model is bound to at each call (`create_agent`'s model node, which also
  refuses to offer a tool its tool node does not have); a call runs when the graph routes it to
  a tool node that has the tool. `remove_tool_edge` takes the tool out of every such place of the
  agent and out of the tool nodes only that agent routes into; `grant_restricted` adds it to
  both (the real tool object). A place another agent shares cannot change for one agent alone:
  not applicable then. `swap_descriptions` exchanges two tools' descriptions in every place
  offering them;
- delegations are the graph's edges, which LangGraph compiles into the graph's channels: the
  mutant runs a graph compiled again from a copy of the app's builder (same node functions, so
  the same model places; same checkpointer, store and config) with the edge changed: a static
  edge dropped or pointed at the new agent, a conditional edge's branch sent to END or to the
  new agent. A handoff tool's destination is fixed in the `Command` it returns, so a handoff is
  dropped by taking its tool away, and cannot be retargeted;
- termination: the recursion limit is the turn limit (`weaken_termination`, `lower_turn_limit`,
  `remove_termination(max_turns)`); a graph has no other stop condition than reaching END.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from langchain_core.runnables import RunnableBinding, RunnableSequence
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from masfuzz.adapters import mutation as shared
from masfuzz.adapters.langgraph.extract import END, START, handoff_destination, inner_tool_nodes, tool_nodes
from masfuzz.adapters.langgraph.reach import Place, graph_places
from masfuzz.adapters.mutation import Changes, NotApplicable, TurnLimit
from masfuzz.spec.mutants import NAMES
from masfuzz.scenario import Mutation
from masfuzz.spec.model import WorkflowSpec

OPERATORS: frozenset[str] = frozenset(NAMES)  # each has a meaning here (above)


@dataclass
class Mutant:
    turns: TurnLimit  # recursion limit -> the mutant's
    graph: Any  # the compiled graph to run


@contextlib.contextmanager
def mutated(app: Any, spec: WorkflowSpec, mutation: Mutation | None) -> Iterator[Mutant]:
    with shared.applied(lambda changes, m: _apply(app, spec, m, changes), mutation,
                        Mutant(shared.same, app)) as mutant:
        yield mutant


def problem(app: Any, spec: WorkflowSpec, mutation: Mutation) -> str | None:
    return shared.problem(lambda changes, m: _apply(app, spec, m, changes), mutation)


def _apply(app: Any, spec: WorkflowSpec, m: Mutation, changes: Changes) -> Mutant:
    op, args = m.operator, m.args
    agents = [a.id for a in spec.agents]
    for name in (args[:1] if op in ("remove_tool_edge", "grant_restricted", "disconnect_agent")
                 else args[:3] if op in ("drop_delegation", "retarget_delegation") else ()):
        if name not in agents:
            raise NotApplicable(f"{m.label}: no agent {name!r} in the graph")
    if op == "remove_tool_edge":
        _remove_tool(app, agents, args[0], args[1], m, changes)
    elif op == "grant_restricted":
        _grant(app, agents, args[0], args[1], m, changes)
    elif op == "swap_descriptions":
        _swap_descriptions(app, agents, args[0], args[1], m, changes)
    elif op in ("drop_delegation", "retarget_delegation", "disconnect_agent"):
        return Mutant(shared.same, _rewired(app, spec, m, changes))
    elif op == "remove_termination" and args[:1] != ("max_turns",):
        raise NotApplicable(f"{m.label}: a LangGraph graph stops by reaching END; its only other "
                            "bound is the recursion limit (remove_termination(max_turns))")
    elif op == "remove_termination" or op in shared.TURN_OPERATORS:
        return Mutant(shared.turn_limit(m), app)
    else:
        raise shared.unknown(m)
    return Mutant(shared.same, app)


# --- tools ---------------------------------------------------------------------------------


def _tool_name(t: Any) -> str | None:
    """The name of a tool as a binding holds it: an OpenAI-style dict, or a tool object."""
    if isinstance(t, dict):
        return (t.get("function") or t).get("name")
    return getattr(t, "name", None)


def _binding(value: Any) -> RunnableBinding | None:
    """The model bound to tools in `value`: `value` itself, or the step of a `prompt | model`."""
    if isinstance(value, RunnableBinding):
        return value
    if isinstance(value, RunnableSequence):
        return next((s for s in value.steps if isinstance(s, RunnableBinding)), None)
    return None


def _offered(place: Place) -> list[Any] | None:
    """The tools `place` offers a model (None: it offers none). A list counts in a closure cell
    only (`create_agent`'s `default_tools`): a module's list of tools is often just the one the
    app built its tool node from, read by every agent."""
    value = place.get()
    if place.key is None and isinstance(value, list) and value and all(isinstance(t, BaseTool) for t in value):
        return list(value)
    binding = _binding(value)
    return None if binding is None else list(binding.kwargs.get("tools") or ())


def _offers(app: Any, agents: list[str], agent: str, m: Mutation) -> list[Place]:
    """The places offering `agent`'s model its tools; one another agent also reads cannot
    change for this agent alone."""
    owners: dict[Any, set[str]] = {}
    mine: dict[Any, Place] = {}
    for a in agents:
        for p in graph_places(app, a):
            if _offered(p) is not None:
                owners.setdefault(p.ident, set()).add(a)
                if a == agent:
                    mine.setdefault(p.ident, p)
    for ident, p in mine.items():
        others = sorted(owners[ident] - {agent})
        if others:
            raise NotApplicable(f"{m.label}: {agent}'s model binding ({p.where}) is also "
                                f"{', '.join(others)}'s: it cannot change for {agent} alone")
    return list(mine.values())


def _own_tool_nodes(app: Any, agents: list[str], agent: str) -> list[Any]:
    """The tool nodes only `agent` routes into, and those inside the graph it runs."""
    graph = app.get_graph()
    nodes = tool_nodes(app)
    callers: dict[str, set[str]] = {}
    for e in graph.edges:
        if e.target in nodes and e.source in agents:
            callers.setdefault(e.target, set()).add(e.source)
    return [nodes[n] for n, c in callers.items() if c == {agent}] + inner_tool_nodes(app, agent)


def _offer(changes: Changes, place: Place, tools: list[Any]) -> None:
    """`place` offering `tools` instead, until the changes are undone (a new list, binding or
    sequence: the app's own objects are never edited)."""
    value = place.get()
    binding = _binding(value)
    if binding is None:  # a list of tools
        changes.replace(place.get, place.set, list(tools))
        return
    new = binding.model_copy(update={"kwargs": {**binding.kwargs, "tools": tools}})
    if value is not binding:
        new = RunnableSequence(*[new if s is binding else s for s in value.steps], name=value.name)
    changes.replace(place.get, place.set, new)


def _remove_tool(app: Any, agents: list[str], agent: str, tool: str, m: Mutation,
                 changes: Changes) -> None:
    done = False
    for place in _offers(app, agents, agent, m):
        offered = _offered(place) or []
        kept = [t for t in offered if _tool_name(t) != tool]
        if len(kept) != len(offered):
            _offer(changes, place, kept)
            done = True
    for tnode in _own_tool_nodes(app, agents, agent):
        if tool in tnode._tools_by_name:  # noqa: SLF001 - the dict ToolNode dispatches through
            changes.put_item(tnode._tools_by_name, tool)  # noqa: SLF001
            done = True
    if not done:
        raise NotApplicable(f"{m.label}: agent {agent} has no tool {tool!r}")


def _tool_object(app: Any, agents: list[str], name: str, m: Mutation) -> Any:
    for a in agents:
        for tnode in [*tool_nodes(app).values(), *inner_tool_nodes(app, a)]:
            found = tnode._tools_by_name.get(name)  # noqa: SLF001
            if found is not None and handoff_destination(found) is None:
                return found
    raise NotApplicable(f"{m.label}: no tool {name!r} in the graph")


def _grant(app: Any, agents: list[str], agent: str, tool: str, m: Mutation, changes: Changes) -> None:
    found = _tool_object(app, agents, tool, m)
    places = _offers(app, agents, agent, m)
    tnodes = _own_tool_nodes(app, agents, agent)
    if not places or not tnodes:
        raise NotApplicable(f"{m.label}: {agent} has no tool binding of its own and no tool node "
                            "of its own: LangGraph would neither offer the tool to it alone nor "
                            "run its call")
    for place in places:  # a binding holds tools as OpenAI dicts, a list as tool objects
        given = found if _binding(place.get()) is None else convert_to_openai_tool(found)
        _offer(changes, place, [*(_offered(place) or ()), given])
    for tnode in tnodes:
        changes.put_item(tnode._tools_by_name, tool, found)  # noqa: SLF001


def _swap_descriptions(app: Any, agents: list[str], one: str, two: str, m: Mutation,
                       changes: Changes) -> None:
    texts = {one: _tool_object(app, agents, two, m).description,
             two: _tool_object(app, agents, one, m).description}
    seen: set[Any] = set()
    for agent in agents:
        for place in graph_places(app, agent):
            offered = _offered(place)
            if place.ident in seen or offered is None:
                continue
            seen.add(place.ident)
            if any(_tool_name(t) in texts for t in offered):
                _offer(changes, place, [_described(t, texts[n]) if (n := _tool_name(t)) in texts else t
                                        for t in offered])


def _described(t: Any, text: str) -> Any:
    if isinstance(t, dict):
        if "function" in t:
            return {**t, "function": {**t["function"], "description": text}}
        return {**t, "description": text}
    return t.model_copy(update={"description": text})


# --- delegations ---------------------------------------------------------------------------


def _rewired(app: Any, spec: WorkflowSpec, m: Mutation, changes: Changes) -> Any:
    """The graph compiled again from a copy of its builder with the delegation changed."""
    op, args = m.operator, m.args
    agents = [a.id for a in spec.agents]
    edges = [d for d in spec.delegations
             if (d.to == args[0] if op == "disconnect_agent" else (d.from_, d.to) == (args[0], args[1]))]
    if not edges:
        raise NotApplicable(f"{m.label}: no such delegation in the graph")
    new = args[2] if op == "retarget_delegation" else END
    builder = copy.copy(app.builder)
    builder.edges = set(app.builder.edges)
    builder.branches = copy.copy(app.builder.branches)
    tnodes = tool_nodes(app)
    for d in edges:
        if d.trigger == "handoff":
            if op == "retarget_delegation":
                raise NotApplicable(f"{m.label}: a handoff's destination is fixed in the Command "
                                    "its tool returns")
            tool = d.condition.removeprefix("tool ")
            _remove_tool(app, agents, d.from_, tool, m, changes)
            continue
        # an edge out of a tool node counts as one from the agents calling it (extract)
        sources = [d.from_] + [t for t in tnodes if (t, d.to) in app.builder.edges
                               or _branch_targets(app.builder, t, d.to)]
        if not any(_rewire_edge(builder, s, d.to, new) for s in sources):
            raise NotApplicable(f"{m.label}: the edge {d.from_} -> {d.to} is not one masfuzz can "
                                "change (a router returning node names without a path map)")
    try:
        graph = builder.compile(checkpointer=app.checkpointer, store=app.store,
                                interrupt_before=app.interrupt_before_nodes,
                                interrupt_after=app.interrupt_after_nodes, debug=app.debug,
                                name=app.name)
    except ValueError as exc:
        raise NotApplicable(f"{m.label}: LangGraph refuses the changed graph: {exc}") from None
    return graph.with_config(app.config) if app.config else graph


def _branch_targets(builder: Any, source: str, target: str) -> bool:
    return any(target in (b.ends or {}).values() for b in builder.branches.get(source, {}).values())


def _rewire_edge(builder: Any, source: str, target: str, new: str) -> bool:
    """`source -> target` sent to `new` (END: dropped) in the builder copy; False: no such edge."""
    done = False
    if (source, target) in builder.edges:
        builder.edges.discard((source, target))
        if new != END:
            builder.edges.add((source, new))
        done = True
    routers = dict(builder.branches.get(source, {}))
    for name, branch in routers.items():
        ends = branch.ends or {}
        if target in ends.values():
            routers[name] = branch._replace(ends={k: (new if v == target else v) for k, v in ends.items()})
            done = True
    if routers:
        builder.branches[source] = routers
    return done and source != START
