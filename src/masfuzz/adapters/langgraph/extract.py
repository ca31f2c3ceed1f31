"""A compiled LangGraph graph as a `WorkflowSpec`.

Nodes are agents, except tool nodes (`ToolNode`): their tools become tools of the nodes that
route into them. Edges between agent nodes are delegations with trigger `graph_edge` (a
conditional edge carries its router's name and branch); an edge out of a tool node to another
agent counts as a delegation from the nodes that called the tools. The recursion limit is the
turn bound.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, Iterable

from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.prebuilt import ToolNode

from masfuzz.loader import split_target
from masfuzz.adapters.source import function_site
from masfuzz.spec.model import (
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


def recursion_limit(app: Any) -> int:
    return int((getattr(app, "config", None) or {}).get("recursion_limit") or DEFAULT_RECURSION_LIMIT)


def node_function(app: Any, name: str) -> Any:
    """The user's function behind a node (None for tool nodes and subgraphs)."""
    spec = getattr(getattr(app, "builder", None), "nodes", {}).get(name)
    runnable = getattr(spec, "runnable", None)
    return getattr(runnable, "func", None) or getattr(runnable, "afunc", None)


def tool_nodes(app: Any) -> dict[str, ToolNode]:
    graph = app.get_graph()
    return {n.id: n.data for n in graph.nodes.values() if isinstance(n.data, ToolNode)}


def extract_graph(app: Any, target: str = "") -> WorkflowSpec:
    graph = app.get_graph()
    tnodes = tool_nodes(app)
    agents = [n for n in graph.nodes.values() if n.id not in (START, END) and n.id not in tnodes]
    agent_ids = {n.id for n in agents}
    conditions = _edge_conditions(app)
    notes: list[str] = []

    callers: dict[str, list[str]] = {t: [] for t in tnodes}  # tool node -> agents routing into it
    for e in graph.edges:
        if e.target in tnodes and e.source in agent_ids:
            callers[e.target].append(e.source)

    tools: dict[str, ToolSpec] = {}
    allow: list[tuple[str, str]] = []
    for tnode_id, tnode in tnodes.items():
        if not callers[tnode_id]:
            notes.append(f"tool node {tnode_id!r} has no agent routing into it")
        for tool in tnode.tools_by_name.values():
            tools.setdefault(tool.name, _tool_spec(tool))
            allow += [(a, tool.name) for a in callers[tnode_id]]

    delegations: list[Delegation] = []
    endings: list[str] = []
    for e in graph.edges:
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
        if _is_subgraph(n.data):
            notes.append(f"node {n.id!r} is a subgraph; its inner nodes are not in the graph")

    limit = recursion_limit(app)
    entry = next((e.target for e in graph.edges if e.source == START), agents[0].id if agents else "")
    return WorkflowSpec(
        system=SystemInfo(id=_system_id(app, target), entry_agent=entry, framework=FRAMEWORK, pattern="graph"),
        agents=tuple(_agent_spec(app, n.id) for n in agents),
        tools=tuple(tools.values()),
        permissions=Permissions(allow=tuple(dict.fromkeys(allow)), restrict_mode="closed_world"),
        delegations=tuple(dict.fromkeys(delegations)),
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


def _agent_spec(app: Any, node: str) -> AgentSpec:
    func = node_function(app, node)
    return AgentSpec(
        id=node,
        description=inspect.getdoc(func) or "" if func is not None else "",
        model_settings={"node": getattr(func, "__qualname__", type(func).__name__)} if func is not None else {},
        source=function_site(func),
    )


def _tool_spec(tool: Any) -> ToolSpec:
    try:
        parameters = convert_to_openai_tool(tool)["function"].get("parameters") or {}
    except Exception:  # a tool whose schema LangChain cannot render still is a tool
        parameters = {}
    return ToolSpec(
        id=tool.name, description=tool.description or "", parameters=parameters,
        source=function_site(getattr(tool, "func", None) or getattr(tool, "coroutine", None)),
    )


def _is_subgraph(data: Any) -> bool:
    return hasattr(data, "get_graph") and hasattr(data, "builder")


def agent_nodes(spec: WorkflowSpec) -> Iterable[str]:
    return (a.id for a in spec.agents)
