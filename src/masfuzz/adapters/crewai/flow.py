"""A CrewAI `Flow` as a coordination graph: its methods' order, and the crews and agents they run.

A flow's methods are plain Python run by CrewAI's flow engine: `@start()` methods first, each
`@listen(x)` method after `x` (a method, or a label a `@router` method returned; `or_` / `and_`
combine them), a `@router` method's return value the label whose listeners run next. CrewAI
keeps each method's declaration on it (`__flow_method_definition__`: its start, listen and
router conditions), which is what the walk reads. The crews and agents a method runs are made
inside it at run time (`SomeCrew().crew().kickoff(...)`): the walk finds the `@CrewBase`
classes, `Crew`s and `Agent`s the method's code names among its module's globals (also as
`module.name`, and in the code of a helper function of the same module it calls), and builds
each crew as `crewai run` would (its `@crew` method), once per class.

The graph: the agents of every crew found (their ids numbered across the flow) and the agents a
method runs itself; each crew's own edges (`extract.walk`); within a method, each crew hands
over to the next (`sequence`); between methods, the agent a method ends with hands over to the
agent the next method starts with: a `sequence` edge for a listener, a `graph_edge` for a
router's branch (its condition `router -> label`). A method that runs no agent passes its
predecessors' last agents on. The labels a router may return are the string constants of its
code that some method listens to (all such labels when its code names none of them).
"""

from __future__ import annotations

import contextlib
import types
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from masfuzz.adapters.base import numbered
from masfuzz.adapters.crewai.extract import Walk, add_tool, iteration_bounds, slug, spec_of, walk
from masfuzz.adapters.openai_agents.extract import DelegationEdge
from masfuzz.adapters.source import code_names, code_strings


def is_flow(obj: Any) -> bool:
    from crewai.flow.flow import Flow

    return (isinstance(obj, type) and issubclass(obj, Flow) and obj is not Flow) or isinstance(obj, Flow)


def flow_class(obj: Any) -> type:
    return obj if isinstance(obj, type) else type(obj)


@dataclass
class FlowMethod:
    name: str
    start: Any  # True, a condition (label or method names), or None
    listen: Any  # a condition: a name, or {"or": [...]} / {"and": [...]}
    router: bool
    function: Any  # the method's own function
    crews: list[Any] = field(default_factory=list)  # Crew objects it runs
    agents: list[Any] = field(default_factory=list)  # Agent objects it runs itself


class FlowWalk(Walk):
    """A flow's agents and edges, with its methods and the walks of the crews they run."""

    flow: Any = None  # the Flow class
    methods: dict[str, FlowMethod] = {}
    crew_walks: list[Walk] = []
    preds: dict[str, list[tuple[str, str]]] = {}  # method -> (method before it, label or "")
    entry: Any = None  # the agent the flow starts with


def names(condition: Any) -> list[str]:
    """The method names and labels a start or listen condition mentions."""
    if condition is None or condition is True or condition is False:
        return []
    if isinstance(condition, str):
        return [condition]
    if isinstance(condition, dict):
        return [n for v in condition.values() for item in (v if isinstance(v, list) else [v])
                for n in names(item)]
    if isinstance(condition, (list, tuple)):
        return [n for item in condition for n in names(item)]
    return []


def _function(value: Any) -> Any:
    """The plain function under CrewAI's method wrappers (`StartMethod`, `RouterMethod`...)."""
    for _ in range(5):
        inner = getattr(value, "_meth", None) or getattr(value, "__wrapped__", None)
        if inner is None:
            break
        value = inner
    return value


def _named(fn: Any, depth: int = 2) -> list[Any]:
    """The objects `fn`'s code names among its module's globals: `name`, `module.name`, and
    what a function of the same module it calls names in turn (a helper that builds a crew)."""
    code, scope = getattr(fn, "__code__", None), getattr(fn, "__globals__", {})
    if code is None:
        return []
    names = list(dict.fromkeys(code_names(code)))
    out: list[Any] = []
    for name in names:
        value = scope.get(name)
        if isinstance(value, types.ModuleType):
            out += [getattr(value, n) for n in names if n != name and hasattr(value, n)]
        elif isinstance(value, types.FunctionType) and depth and value.__module__ == fn.__module__:
            out += _named(value, depth - 1)
        elif value is not None:
            out.append(value)
    return out


def methods_of(cls: type) -> dict[str, FlowMethod]:
    out = {}
    for klass in reversed(cls.__mro__):
        if klass.__module__.split(".")[0] == "crewai":  # CrewAI's own (its conversational router)
            continue
        for name, value in vars(klass).items():
            d = getattr(value, "__flow_method_definition__", None)
            if d is not None:
                out[name] = FlowMethod(name=name, start=d.start, listen=d.listen,
                                       router=bool(d.router), function=_function(value))
    return out


def walk_flow(obj: Any) -> FlowWalk:
    from crewai import Agent, Crew

    from masfuzz.adapters.crewai import is_crew_project, crew_of

    cls = flow_class(obj)
    w = FlowWalk()
    w.flow, w.methods, w.crew_walks, w.preds = cls, methods_of(cls), [], {}
    built: dict[int, Any] = {}  # id(@CrewBase class or Crew) -> its crew
    for m in w.methods.values():
        for value in _named(m.function):
            if isinstance(value, Agent):
                m.agents.append(value)
            elif isinstance(value, Crew) or (isinstance(value, type) and is_crew_project(value)):
                if id(value) not in built:
                    built[id(value)] = crew_of(value)
                    w.crew_walks.append(_merged(w, walk(built[id(value)])))
                m.crews.append(built[id(value)])
        for agent in m.agents:
            if id(agent) not in w.ids:
                w.ids[id(agent)] = numbered(slug(str(agent.role or "agent")), w.ids.values())
                w.agents.append(agent)
                seen: set[str] = set()
                for tool in list(agent.tools or ()):
                    add_tool(w, agent, tool, seen)
    _link(w)
    return w


def _merged(w: FlowWalk, cw: Walk) -> Walk:
    """A crew's walk taken into the flow's: its agents numbered among the flow's, its tools and
    edges the flow's too."""
    for agent in cw.agents:
        if id(agent) not in w.ids:
            w.ids[id(agent)] = numbered(slug(str(getattr(agent, "role", "") or "agent")), w.ids.values())
            w.agents.append(agent)
        cw.ids[id(agent)] = w.ids[id(agent)]
    w.tools += cw.tools
    w.delegations += cw.delegations
    w.notes += cw.notes
    return cw


def _ends(crew: Any, w: FlowWalk) -> tuple[Any, Any]:
    """The agent a crew starts with and the one it ends with."""
    cw = next(c for c in w.crew_walks if c.crew is crew)
    if cw.manager is not None:
        return cw.manager, cw.manager
    agents = [t.agent for t in crew.tasks if t.agent is not None] or cw.agents
    return (agents[0], agents[-1]) if agents else (None, None)


def _link(w: FlowWalk) -> None:
    labels = {n for m in w.methods.values() for n in names(m.listen) + names(m.start)
              if n not in w.methods}
    routers = {r.name: (code_strings(r.function.__code__) & labels) or labels
               for r in w.methods.values() if r.router and hasattr(r.function, "__code__")}
    for m in w.methods.values():
        preds = []
        for n in dict.fromkeys(names(m.listen) + names(m.start)):
            if n in w.methods:
                preds.append((n, ""))
            preds += [(r, n) for r, emits in routers.items() if n in emits]
        w.preds[m.name] = preds
    spans: dict[str, tuple[Any, Any]] = {}  # method -> (first agent, last agent) of what it runs
    for m in w.methods.values():
        ends = [_ends(c, w) for c in m.crews] + [(a, a) for a in m.agents]
        ends = [e for e in ends if e[0] is not None]
        for (_, last), (first, _) in zip(ends, ends[1:]):
            if last is not first:
                w.delegations.append(DelegationEdge(last, first, "sequence", f"method {m.name}"))
        if ends:
            spans[m.name] = (ends[0][0], ends[-1][1])
    exits: dict[str, list[Any]] = {n: [spans[n][1]] if n in spans else [] for n in w.methods}
    for _ in range(len(w.methods) + 1):  # a method that runs no agent passes its preds' on
        for n in w.methods:
            if n not in spans:
                exits[n] = list({id(a): a for p, _ in w.preds[n] for a in exits[p]}.values())
    for n, (first, _) in spans.items():
        for p, label in w.preds[n]:
            for last in exits[p]:
                if last is not first:
                    w.delegations.append(DelegationEdge(
                        last, first, "graph_edge" if label else "sequence",
                        f"{p} -> {label}" if label else f"method {n} listens to {p}"))
    starts = [n for n, m in w.methods.items() if m.start]
    order = [n for n in starts if n in spans] + [n for n in w.methods if n in spans]
    w.entry = spans[order[0]][0] if order else (w.agents[0] if w.agents else None)
    if not w.agents:
        w.notes.append("the flow's methods run no crew or agent that masfuzz could find "
                       "(a crew made from a name its method does not mention)")


def extract_flow(obj: Any, *, target: str = "") -> tuple[Any, FlowWalk]:
    w = walk_flow(obj)
    routed = any(m.router for m in w.methods.values())
    conditions = ("every method whose condition fired done",
                  *(f"router {m.name}" for m in w.methods.values() if m.router), *iteration_bounds(w))
    return spec_of(w, w.entry, "orchestrated" if routed else "fixed_order", conditions, target), w


@contextlib.contextmanager
def step_hooks(cls: type, on_start: Any, on_end: Any) -> Iterator[None]:
    """CrewAI's step interception points around each method of a flow of class `cls`
    (dispatched in the flow's own thread, in order), for the run (runs of one flow take turns:
    the system lock)."""
    from crewai.hooks.dispatch import InterceptionPoint, register, unregister

    def ours(ctx: Any) -> bool:
        return type(getattr(ctx, "flow", None)) is cls and getattr(ctx, "kind", "") == "flow_method"

    def pre(ctx: Any) -> None:
        if ours(ctx):
            on_start(str(ctx.step_name))

    def post(ctx: Any) -> None:
        if ours(ctx):
            on_end(str(ctx.step_name), getattr(ctx, "output", None))

    register(InterceptionPoint.PRE_STEP, pre)
    register(InterceptionPoint.POST_STEP, post)
    try:
        yield
    finally:
        unregister(InterceptionPoint.PRE_STEP, pre)
        unregister(InterceptionPoint.POST_STEP, post)
