"""A compiled LangGraph graph as a `WorkflowSpec`.

Nodes are agents, except tool nodes (`ToolNode`): their tools become tools of the nodes that
route into them. A node that runs a compiled graph of its own (a prebuilt agent from
`create_react_agent` or `create_agent`, a member of a supervisor or a swarm) is one agent, whose
tools are those of the tool nodes inside it and whose instructions are its system prompt.
Edges between agent nodes are delegations with trigger `graph_edge` (a conditional edge carries
its router's name and branch); an edge out of a tool node to another agent counts as a
delegation from the nodes that called the tools. A handoff tool (langgraph-supervisor's and
langgraph-swarm's `transfer_to_<agent>`, marked by its metadata) is no tool: it is a `handoff`
delegation to the agent it names. The recursion limit is the turn bound.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.prebuilt import ToolNode

from masfuzz.loader import split_target
from masfuzz.adapters.langgraph.reach import graph_places, node_function, node_runnable, subgraph
from masfuzz.adapters.source import code_strings, function_site
from masfuzz.spec.model import (
    ENTERED_BY,
    ROUTE_LABELS,
    AgentSpec,
    Delegation,
    Permissions,
    SystemInfo,
    Termination,
    ToolSpec,
    WorkflowSpec,
)

FRAMEWORK = "langgraph"
START, END = "__start__", "__end__"
DEFAULT_RECURSION_LIMIT = 25  # LangGraph's own default
HANDOFF_KEY = "__handoff_destination"  # tool metadata of langgraph-supervisor's and -swarm's handoffs


def recursion_limit(app: Any) -> int:
    return int((getattr(app, "config", None) or {}).get("recursion_limit") or DEFAULT_RECURSION_LIMIT)


def tool_nodes(app: Any) -> dict[str, ToolNode]:
    """The graph's own tool nodes (not those inside its subgraphs)."""
    runnables = {n: node_runnable(app, n) for n in getattr(getattr(app, "builder", None), "nodes", {})}
    return {n: r for n, r in runnables.items() if isinstance(r, ToolNode)}


def inner_tool_nodes(app: Any, node: str) -> list[ToolNode]:
    """The tool nodes of the graphs a node runs, however deeply nested."""
    out: list[ToolNode] = []
    stack, seen = [subgraph(app, node)], set()
    while stack:
        graph = stack.pop()
        if graph is None or id(graph) in seen:
            continue
        seen.add(id(graph))
        out += tool_nodes(graph).values()
        stack += [subgraph(graph, n) for n in graph.builder.nodes]
    return out


def handoff_destination(tool: Any) -> str | None:
    return (getattr(tool, "metadata", None) or {}).get(HANDOFF_KEY)


def all_tool_nodes(app: Any) -> list[ToolNode]:
    """Every tool node of the graph and of the graphs its nodes run."""
    nodes = list(tool_nodes(app).values())
    for name in app.builder.nodes:
        nodes += inner_tool_nodes(app, name)
    return list(dict.fromkeys(nodes))


def handoff_tools(app: Any) -> dict[str, str]:
    """Handoff tool name -> the agent it hands off to, over the whole graph."""
    return {t.name: d for tn in all_tool_nodes(app) for t in tn.tools_by_name.values()
            if (d := handoff_destination(t))}


@dataclass(frozen=True)
class _Edge:
    source: str
    target: str


def _edges(app: Any, graph: Any) -> list[Any]:
    """The drawn graph's edges, and those its drawing leaves out: a conditional edge whose router
    names no targets (`add_conditional_edges(node, router)` without a path map) may lead to any
    agent node or the end, and LangGraph draws none of them, nor what lies beyond (a pipeline's
    later nodes)."""
    out = list(graph.edges)
    drawn = {(e.source, e.target) for e in out}
    builder = getattr(app, "builder", None)
    nodes = list(getattr(builder, "nodes", {}) or {})
    extra = [(a, b) for a, b in getattr(builder, "edges", set()) or set()]
    for source, by_name in (getattr(builder, "branches", {}) or {}).items():
        for branch in by_name.values():
            ends = getattr(branch, "ends", None)
            # not to a tool node: that would make the router an owner of its tools
            targets = list(ends.values()) if ends else [*(n for n in nodes if n not in tool_nodes(app)), END]
            extra += [(source, t) for t in targets if t != source]
    out += [_Edge(a, b) for a, b in dict.fromkeys(extra) if (a, b) not in drawn]
    return out


def extract_graph(app: Any, target: str = "") -> WorkflowSpec:
    graph = app.get_graph()
    tnodes = tool_nodes(app)
    # the drawn nodes, then those the drawing left out (beyond a router that names no targets)
    agents = [n for n in dict.fromkeys([*graph.nodes, *(getattr(app.builder, "nodes", {}) or {})])
              if n not in (START, END) and n not in tnodes]
    agent_ids = set(agents)
    conditions = _edge_conditions(app)
    notes: list[str] = []
    edges = _edges(app, graph)

    callers: dict[str, list[str]] = {t: [] for t in tnodes}  # tool node -> agents routing into it
    for e in edges:
        if e.target in tnodes and e.source in agent_ids:
            callers[e.target].append(e.source)

    tools: dict[str, ToolSpec] = {}
    allow: list[tuple[str, str]] = []
    delegations: list[Delegation] = []

    def offer(tnode: ToolNode, owners: list[str]) -> None:
        for tool in tnode.tools_by_name.values():
            if (dest := handoff_destination(tool)) is not None:
                delegations.extend(Delegation(**{"from": a, "to": dest, "trigger": "handoff",
                                                 "condition": f"tool {tool.name}"}) for a in owners)
                continue
            tools.setdefault(tool.name, _tool_spec(tool))
            allow.extend((a, tool.name) for a in owners)

    for tnode_id, tnode in tnodes.items():
        if not callers[tnode_id]:
            notes.append(f"tool node {tnode_id!r} has no agent routing into it")
        offer(tnode, callers[tnode_id])
    for n in agents:
        for tnode in inner_tool_nodes(app, n):
            offer(tnode, [n])

    endings: list[str] = []
    for e in edges:
        cond = conditions.get((e.source, e.target), "")
        if e.target == END:
            endings.append(f"{e.source} -> END" + (f" when {cond}" if cond else ""))
        elif e.source in agent_ids and e.target in agent_ids:
            delegations.append(Delegation(**{"from": e.source, "to": e.target, "trigger": "graph_edge", "condition": cond}))
        elif e.source in tnodes and e.target in agent_ids:
            for caller in callers[e.source]:
                if caller != e.target:
                    delegations.append(Delegation(**{"from": caller, "to": e.target, "trigger": "graph_edge",
                                                     "condition": f"after tool node {e.source}"}))
    for n in agents:
        inner = subgraph(app, n)
        if inner is not None and len(_agent_ids(inner)) > 1:
            notes.append(f"node {n!r} runs a graph of {len(_agent_ids(inner))} nodes; they count as one agent")

    entered = _entry_routers(app, agent_ids)
    limit = recursion_limit(app)
    entry = next((e.target for e in graph.edges if e.source == START), agents[0] if agents else "")
    return WorkflowSpec(
        system=SystemInfo(id=_system_id(app, target), entry_agent=entry, framework=FRAMEWORK, pattern="graph"),
        agents=tuple(_agent_spec(app, n, entered.get(n), _route_labels(app, n, agent_ids)) for n in agents),
        tools=tuple(tools.values()),
        permissions=Permissions(allow=tuple(dict.fromkeys(allow)), restrict_mode="closed_world"),
        delegations=_one_per_edge(delegations),
        termination=Termination(conditions=tuple(endings) + (f"recursion_limit={limit}",), max_turns=limit),
        notes=tuple(notes),
    )


def _system_id(app: Any, target: str) -> str:
    name = getattr(app, "name", "") or ""
    if name and name != "LangGraph":
        return name
    where, attr = split_target(target) if target else ("", None)
    if attr and attr.split("(")[0] not in ("graph", "app"):
        return attr.split("(")[0]
    return Path(where).parent.name or Path(where).stem if where else "langgraph"


def _edge_conditions(app: Any) -> dict[tuple[str, str], str]:
    """(source, target) -> `router -> branch` for conditional edges."""
    out: dict[tuple[str, str], str] = {}
    branches = getattr(getattr(app, "builder", None), "branches", {}) or {}
    for source, by_name in branches.items():
        for router, branch in by_name.items():
            for label, target in (getattr(branch, "ends", None) or {}).items():
                out[(source, target)] = f"{router} -> {label!r}" if label != target else f"{router} -> {target}"
    return out


def _entry_routers(app: Any, agent_ids: set[str]) -> dict[str, str]:
    """Agent -> the router function of a conditional edge out of START that may enter at it,
    when that router chooses between two agents or more (one target is no choice)."""
    out: dict[str, str] = {}
    for router, branch in ((getattr(getattr(app, "builder", None), "branches", {}) or {}).get(START) or {}).items():
        ends = getattr(branch, "ends", None)
        targets = [t for t in (ends.values() if ends else agent_ids) if t in agent_ids]
        if len(targets) > 1:
            out.update({t: router for t in targets})
    return out


def _agent_ids(app: Any) -> list[str]:
    tnodes = tool_nodes(app)
    return [n for n in app.builder.nodes if n not in tnodes]


def _route_labels(app: Any, node: str, agent_ids: set[str]) -> list[str]:
    """The labels the router functions of a node's conditional edges know: a path map's keys, the
    keys of a table of node names the function closes over or reads as a global (`ROUTES =
    {"ENTRIES": "a2"}`), and the strings its code compares with; none when it reads node names
    only. A classifier's label outside them falls through to the function's default
    (`oracles.instructed`, misrouted_request)."""
    labels: set[str] = set()
    for branch in ((getattr(getattr(app, "builder", None), "branches", {}) or {}).get(node) or {}).values():
        ends = getattr(branch, "ends", None) or {}
        labels |= {k for k, v in ends.items() if isinstance(k, str) and k != v}
        path = getattr(branch, "path", None)
        fn = getattr(path, "func", None) or getattr(path, "afunc", None)
        if not hasattr(fn, "__code__"):
            continue
        try:
            seen = inspect.getclosurevars(fn)
        except (TypeError, ValueError):
            continue
        for value in (*seen.nonlocals.values(), *seen.globals.values()):
            if isinstance(value, dict) and value and all(isinstance(k, str) for k in value) \
                    and all(v in agent_ids or v == END for v in value.values()):
                labels |= set(value)
        labels |= {c for c in code_strings(fn.__code__) if re.fullmatch(r"\w[\w -]{0,39}", c)
                   and c not in agent_ids and c != END and c != fn.__doc__}
    return sorted(labels)


def _agent_spec(app: Any, node: str, entered_by: str | None = None, route_labels: list[str] | None = None) -> AgentSpec:
    func = node_function(app, node)
    inner = subgraph(app, node)
    settings = {"node": getattr(func, "__qualname__", type(func).__name__)} if func is not None else {}
    if inner is not None:
        settings["graph"] = getattr(inner, "name", "") or "subgraph"
    if entered_by:
        settings[ENTERED_BY] = entered_by
    if route_labels:
        settings[ROUTE_LABELS] = route_labels
    return AgentSpec(
        id=node,
        description=(inspect.getdoc(func) or "") if func is not None and inner is None else "",
        instructions=_system_prompt(app, node),
        model_settings=settings,
        # LangGraph's and its helpers' own wrappers are no place in the user's code
        source=None if str(getattr(func, "__module__", "")).startswith(("langgraph", "langchain")) else function_site(func),
    )


def _one_per_edge(delegations: list[Delegation]) -> tuple[Delegation, ...]:
    """A handoff and the graph edge LangGraph draws for it (the node's `destinations`) are one
    delegation: the handoff, which says how it happens."""
    out: dict[tuple[str, str], Delegation] = {}
    for d in delegations:
        if d.edge not in out or (d.trigger == "handoff" and out[d.edge].trigger != "handoff"):
            out[d.edge] = d
    return tuple(out.values())


def _system_prompt(app: Any, node: str) -> str:
    """The first system message a node's code holds (a prebuilt agent's `prompt`)."""
    from langchain_core.messages import SystemMessage

    for place in graph_places(app, node):
        value = place.get()
        if isinstance(value, SystemMessage) and isinstance(value.content, str):
            return value.content
    return ""


def _tool_spec(tool: Any) -> ToolSpec:
    try:
        parameters = convert_to_openai_tool(tool)["function"].get("parameters") or {}
    except Exception:  # a tool whose schema LangChain cannot render still is a tool
        parameters = {}
    return ToolSpec(
        id=tool.name, description=tool.description or "", parameters=parameters,
        source=function_site(getattr(tool, "func", None) or getattr(tool, "coroutine", None)),
    )


def agent_nodes(spec: WorkflowSpec) -> Iterable[str]:
    return (a.id for a in spec.agents)
