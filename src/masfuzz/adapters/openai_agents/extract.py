"""The static structure of an Agents SDK system: agents, tools, permissions and delegations.

The walk follows what the SDK itself would follow at run time, starting at the entry agent:
`agent.handoffs` (an `Agent` or a `Handoff`), `agent.tools` (function tools, hosted tools, a
`Handoff` placed among the tools, and `Agent.as_tool` tools, which carry the wrapped agent).
It counts the way the structural-coverage paper's Table I counts (docs/architecture.md, "How
structural coverage counts"): an `as_tool` tool is both a tool edge of its owner and an `as_tool` delegation; hosted
tools are tools; agents are distinct by object, tools by name; restricted edges are closed-world.
An agent's MCP servers are asked for their tools when the spec is extracted (the server is
started for that: its tools are edges of the graph like any other); a hosted MCP tool's and a
server's that cannot be listed, and agents that a tool starts inside its own code, cannot be
seen: they become notes.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from masfuzz.adapters.base import numbered
from masfuzz.adapters.openai_agents import sdk
from masfuzz.adapters.openai_agents.locate import Locator, relative, source_of_callable
from masfuzz.spec.model import (
    ENTERED_BY,
    AgentSpec,
    Delegation,
    Permissions,
    SystemInfo,
    Termination,
    ToolSpec,
    WorkflowSpec,
)

FRAMEWORK = "openai-agents"


def slug(name: str) -> str:
    """The SDK's snake-case form of an agent name (`FAQ Agent` -> `faq_agent`): the id the
    paper's Listing 1 uses and the suffix of the SDK's default `transfer_to_<agent>` tool."""
    return re.sub(r"[^A-Za-z0-9_]+", "_", name).strip("_").lower() or "agent"


@dataclass
class ToolEdge:
    owner: Any  # the agent object
    tool: Any  # the SDK tool object
    name: str
    kind: str  # function | hosted | agent | mcp
    server: Any = None  # an mcp tool's server object


@dataclass
class DelegationEdge:
    source: Any
    target: Any
    trigger: str  # handoff | as_tool | sequence (a pipeline's code runs one after the other)
    condition: str = ""
    via: Any = None  # the Handoff or the as_tool FunctionTool


@dataclass
class Walk:
    """The reachable object graph, with the ids the spec gives each agent object."""

    agents: list[Any] = field(default_factory=list)
    ids: dict[int, str] = field(default_factory=dict)  # id(agent object) -> agent id
    tools: list[ToolEdge] = field(default_factory=list)
    delegations: list[DelegationEdge] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def id_of(self, agent: Any) -> str:
        return self.ids[id(agent)]


def walk(entry: Any) -> Walk:
    """The graph reachable from an agent, or from every agent of an app's plain-Python
    pipeline (`pipeline.Pipeline`: its first agent first, its code's order as sequence edges)."""
    from masfuzz.adapters.openai_agents.pipeline import Pipeline

    w = Walk()
    taken: set[str] = set()

    def visit(agent: Any) -> None:
        if id(agent) in w.ids:
            return
        base = slug(str(getattr(agent, "name", "") or "agent"))
        ident = numbered(base, taken)
        taken.add(ident)
        w.ids[id(agent)] = ident
        w.agents.append(agent)
        queue.append(agent)

    queue: deque[Any] = deque()
    for root in entry.roots if isinstance(entry, Pipeline) else [entry]:
        visit(root)
    if isinstance(entry, Pipeline):
        w.delegations += [DelegationEdge(entry.agents[a], entry.agents[b], "sequence", why)
                          for a, b, why in entry.order.edges]
        if entry.order.chosen:
            w.notes.append(f"the app's own {entry.order.function} chooses which of "
                           + ", ".join(w.id_of(entry.agents[a]) for a in entry.order.chosen) + " runs")
        else:
            w.notes.append(f"the app's own {entry.order.function} runs the pipeline: "
                           + " -> ".join(w.id_of(entry.agents[s.agent]) for s in entry.order.steps))
    while queue:
        agent = queue.popleft()
        me = w.ids[id(agent)]
        for h in list(getattr(agent, "handoffs", None) or ()):
            target = sdk.handoff_target(h, w.agents)
            if target is None:
                w.notes.append(f"agent {me}: handoff {sdk.handoff_tool_name(h)!r} has no "
                               "agent masfuzz can find; it is not in the graph")
                continue
            visit(target)
            w.delegations.append(DelegationEdge(agent, target, "handoff",
                                                sdk.condition_text(h), h))
        for tool in list(getattr(agent, "tools", None) or ()):
            if sdk.is_handoff(tool):  # a Handoff among the tools is a delegation, not a tool
                target = sdk.handoff_target(tool, w.agents)
                if target is not None:
                    visit(target)
                    w.delegations.append(DelegationEdge(agent, target, "handoff",
                                                        sdk.condition_text(tool), tool))
                continue
            if sdk.is_hosted_mcp(tool):
                w.notes.append(f"agent {me}: hosted MCP server {sdk.tool_name(tool)!r}: its "
                               "tools are unknown until it connects and are not in the graph")
                continue
            inner = sdk.agent_of_tool(tool)
            if inner is not None:
                w.tools.append(ToolEdge(agent, tool, sdk.tool_name(tool), "agent"))
                visit(inner)
                w.delegations.append(DelegationEdge(agent, inner, "as_tool",
                                                    sdk.condition_text(tool), tool))
                continue
            kind = "function" if sdk.is_function_tool(tool) else "hosted"
            w.tools.append(ToolEdge(agent, tool, sdk.tool_name(tool), kind))
    return w


def _mcp_edges(w: Walk) -> list[ToolEdge]:
    """The tools of each agent's MCP servers, as that agent's tool edges: the server is started
    and asked (`sdk.mcp_tools`), once per extraction, never per walk. A server that cannot be
    listed is a note, its tools not in the graph."""
    edges = []
    for agent in w.agents:
        for server in list(getattr(agent, "mcp_servers", None) or ()):
            name = getattr(server, "name", None) or type(server).__name__
            try:
                listed = sdk.mcp_tools(server)
            except Exception as exc:  # the server's failure to start or answer: say so, go on
                w.notes.append(f"agent {w.id_of(agent)}: MCP server {name!r}: listing its tools failed "
                               f"({type(exc).__name__}: {str(exc)[:120]}); they are not in the graph")
                continue
            edges += [ToolEdge(agent, t, t.name, "mcp", server) for t in listed]
    return edges


def extract(entry: Any, *, target: str = "", module: Any = None) -> tuple[WorkflowSpec, Walk]:
    from masfuzz.adapters.openai_agents.pipeline import Pipeline

    w = walk(entry)
    locator = Locator(module)
    agents = tuple(_agent_spec(a, w, locator) for a in w.agents)
    if isinstance(entry, Pipeline) and entry.order.chosen:
        # the agents the app's function chooses between: its router's choices (`ENTERED_BY`)
        chosen = {w.id_of(entry.agents[a]) for a in entry.order.chosen}
        router = entry.order.function.removesuffix("()")
        agents = tuple(a.model_copy(update={"model_settings": {**a.model_settings, ENTERED_BY: router}})
                       if a.id in chosen else a for a in agents)

    tools: dict[str, ToolSpec] = {}
    allow: dict[tuple[str, str], None] = {}
    for edge in w.tools + _mcp_edges(w):
        allow[(w.id_of(edge.owner), edge.name)] = None
        if edge.name not in tools:  # tools are distinct by name: the first one describes it
            tools[edge.name] = _tool_spec(edge, w, locator)
            w.notes.extend(_agents_started_in(edge))
    delegations = tuple(
        Delegation(**{"from": w.id_of(d.source)}, to=w.id_of(d.target), trigger=d.trigger,
                   condition=d.condition)
        for d in _unique_delegations(w)
    )
    patterns = {d.trigger for d in delegations}
    pattern = "orchestrated" if patterns <= {"as_tool", "sequence"} and patterns else "handoff"
    spec = WorkflowSpec(
        system=SystemInfo(id=_system_id(target, module, w), entry_agent=w.id_of(w.agents[0]),
                          framework=FRAMEWORK, pattern=pattern),
        agents=agents,
        tools=tuple(tools.values()),
        permissions=Permissions(allow=tuple(allow), restrict_mode="closed_world"),
        delegations=delegations,
        termination=Termination(conditions=_termination(w), max_turns=sdk.default_max_turns()),
        notes=tuple(dict.fromkeys(w.notes)),
    )
    return spec, w


def _unique_delegations(w: Walk) -> list[DelegationEdge]:
    seen: set[tuple[int, int, str]] = set()
    out = []
    for d in w.delegations:
        key = (id(d.source), id(d.target), d.trigger)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _agent_spec(agent: Any, w: Walk, locator: Locator) -> AgentSpec:
    ident = w.id_of(agent)
    name = str(getattr(agent, "name", "") or "")
    instructions = getattr(agent, "instructions", None)
    dynamic = callable(instructions)
    guardrails = tuple(
        sdk.guardrail_name(g)
        for g in [*(getattr(agent, "input_guardrails", None) or ()),
                  *(getattr(agent, "output_guardrails", None) or ())]
    )
    model = getattr(agent, "model", None)
    return AgentSpec(
        id=ident,
        name=name if name != ident else None,
        description=str(getattr(agent, "handoff_description", None) or ""),
        instructions="" if dynamic or instructions is None else str(instructions),
        instructions_dynamic=dynamic,
        model=model if isinstance(model, str) else (type(model).__name__ if model else None),
        model_settings=sdk.model_settings_dict(agent),
        guardrails=guardrails,
        source=locator.agent(agent, [e.tool for e in w.tools if e.owner is agent]),
    )


def _tool_spec(edge: ToolEdge, w: Walk, locator: Locator) -> ToolSpec:
    tool = edge.tool
    if edge.kind == "agent":
        source = locator.as_tool(edge.name, sdk.agent_of_tool(tool))
    elif edge.kind == "hosted":
        source = locator.hosted(tool, edge.owner)
    elif edge.kind == "mcp":  # where the app builds its server
        source = locator.hosted(edge.server, edge.owner)
    else:
        source = locator.function_tool(tool)
    return ToolSpec(
        id=edge.name,
        description=str(getattr(tool, "description", "") or ""),
        parameters=sdk.mcp_input_schema(tool) if edge.kind == "mcp" else
        dict(getattr(tool, "params_json_schema", None) or {}),
        kind=edge.kind,  # type: ignore[arg-type]
        enabled_condition=sdk.condition_text(tool) or None,
        source=source,
    )


_RUNNER_CALLS = {"run", "run_sync", "run_streamed"}


def _agents_started_in(edge: ToolEdge) -> list[str]:
    """Agents a function tool runs from inside its own code (`Runner.run(...)`) are invisible
    to the graph; say where they start so the user can add them to a manifest."""
    if edge.kind != "function":
        return []
    fn = sdk.tool_function(edge.tool)
    if fn is None:
        return []
    import ast

    found = source_of_callable(fn)
    if found is None:
        return []
    text, file, first = found
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    lines = [
        (first + node.lineno - 1, node.func.attr)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        and node.func.attr in _RUNNER_CALLS
        and isinstance(node.func.value, ast.Name) and node.func.value.id == "Runner"
    ]
    return [f"tool {edge.name}: runs agents inside its own code (Runner.{attr} at "
            f"{relative(file)}:{line}); they are not in the graph" for line, attr in sorted(lines)]


def _termination(w: Walk) -> tuple[str, ...]:
    out = ["final_output"]
    for agent in w.agents:
        behaviour = getattr(agent, "tool_use_behavior", "run_llm_again")
        if behaviour != "run_llm_again":
            text = behaviour if isinstance(behaviour, str) else (
                getattr(behaviour, "__name__", None) or repr(behaviour))
            out.append(f"{w.id_of(agent)}: tool_use_behavior={text}")
    return tuple(out)


def _system_id(target: str, module: Any, w: Walk) -> str:
    file = getattr(module, "__file__", None)
    if file:
        p = Path(file)
        stem = p.parent.name if p.stem in ("main", "app", "__init__", "agents") else p.stem
        if stem:
            return slug(stem)
    if target:
        return slug(target.split(":")[0].rsplit("/", 1)[-1].removesuffix(".py")) or w.id_of(w.agents[0])
    return w.id_of(w.agents[0])


