"""The static structure of a Google ADK system: agents, tools, permissions and delegations.

The walk starts at the root agent (`root_agent`, what `InMemoryRunner(agent=...)` is given) and
follows what ADK itself follows at run time:

- `sub_agents` of every agent. Under an `LlmAgent` they are reached by LLM-driven transfer
  (the `transfer_to_agent` tool): a `handoff` edge to each target ADK's own transfer rules offer
  (its sub-agents, its parent unless `disallow_transfer_to_parent`, its peers unless
  `disallow_transfer_to_peers`, both only under an `LlmAgent` parent; sub-agents in the task
  modes `task` / `single_turn` are delegated as tasks: a `delegate` edge);
- under a `SequentialAgent`: a `delegate` edge to the first sub-agent and a `sequence` edge from
  each to the next; under a `LoopAgent` the same, plus the edge from the last back to the first
  (the next iteration, up to `max_iterations` or until one escalates); under a `ParallelAgent`:
  a `delegate` edge to each sub-agent, run concurrently;
- ADK 2's graph `Workflow` (`_graph_edges`): an agent with no model, a `delegate` edge to each
  agent node it starts with and a `graph_edge` from each agent node to the next agent nodes its
  edges reach through its nodes of code (function, tool and join nodes); the agents a function
  node's code runs (`ctx.run_node`) in the order of those calls;
- `tools` of every `LlmAgent`: an `AgentTool` is both a tool edge of its owner (kind `agent`)
  and an `as_tool` delegation to the agent it wraps (walked in turn); a function or a
  `FunctionTool` is a `function` tool; a tool the model never calls by name (Gemini's built-in
  `google_search`, which ADK hands to Gemini as a request setting) is `hosted`; one that only
  changes the request (`ExampleTool`'s few-shot examples) is no tool edge; a toolset (an
  MCP toolset, an OpenAPI toolset) has tools known only once it connects: a note.

Agents are distinct by object, with their ADK name as id (ADK requires unique names in one
tree; an `AgentTool`'s agent from another tree that repeats a name gets `name#2`); tools are
distinct by name. Workflow agents (sequential, parallel, loop) are agents with no model: reached
when they run. Restricted edges are closed-world over the agents with a model (every `LlmAgent`
x workflow tool pair not allowed): a workflow agent calls no tool, so it can attempt none.
"""

from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from masfuzz.adapters.base import numbered
from masfuzz.adapters.source import code_of
from masfuzz.adapters.openai_agents.extract import Walk as SharedWalk
from masfuzz.spec.model import (AgentSpec, Delegation, Permissions, SourceLocation, SystemInfo,
                                Termination, ToolSpec, WorkflowSpec)

FRAMEWORK = "adk"
TRANSFER_TOOL = "transfer_to_agent"  # ADK's own tool for LLM-driven transfer
ADK_DEFAULT = " (ADK's default)"  # said after the model an LlmAgent gets when no agent sets one
_TASK_MODES = ("task", "single_turn")  # ADK's delegated task modes (utils._agent_mode)
# ADK's tools that Gemini runs on its side, handed over as a request setting
GEMINI_BUILT_INS = frozenset({"GoogleSearchTool", "VertexAiSearchTool", "UrlContextTool",
                              "EnterpriseWebSearchTool", "BuiltInCodeExecutionTool",
                              "GoogleMapsGroundingTool"})


def kind_of(agent: Any) -> str:
    """llm | sequential | parallel | loop | graph (ADK 2's `Workflow`) | other (a custom
    `BaseAgent`)."""
    from google.adk.agents import LlmAgent, LoopAgent, ParallelAgent, SequentialAgent

    for cls, kind in ((LlmAgent, "llm"), (SequentialAgent, "sequential"),
                      (ParallelAgent, "parallel"), (LoopAgent, "loop")):
        if isinstance(agent, cls):
            return kind
    return "graph" if is_workflow(agent) else "other"


def is_workflow(obj: Any) -> bool:
    """ADK 2's graph `Workflow` (none in an ADK without one)."""
    try:
        from google.adk.workflow import Workflow
    except ImportError:  # pragma: no cover - ADK 1
        return False
    return isinstance(obj, Workflow)


@dataclass
class ToolEdge:
    owner: Any  # the LlmAgent
    tool: Any  # the ADK tool object (or the plain function ADK wraps)
    name: str
    kind: str  # function | hosted | agent
    description: str = ""
    parameters: dict[str, Any] = field(default_factory=dict)


@dataclass
class DelegationEdge:
    source: Any
    target: Any
    trigger: str  # handoff | as_tool | sequence | delegate
    condition: str = ""


class Walk(SharedWalk):
    """The reachable object graph, with the ids the spec gives each agent object (the Agents
    SDK adapter's, holding ADK objects)."""

    def by_name(self, name: str) -> str | None:
        """The id of the agent ADK calls `name` (ids are names, but for a repeated name)."""
        for agent in self.agents:
            if getattr(agent, "name", None) == name:
                return self.ids[id(agent)]
        return None

    def llm_agents(self) -> list[Any]:
        return [a for a in self.agents if kind_of(a) == "llm"]


def walk(root: Any) -> Walk:
    w = Walk()
    queue: deque[Any] = deque()

    def visit(agent: Any) -> None:
        if id(agent) in w.ids:
            return
        base = str(getattr(agent, "name", "") or "agent")
        w.ids[id(agent)] = numbered(base, w.ids.values())
        w.agents.append(agent)
        queue.append(agent)

    visit(root)
    while queue:
        agent = queue.popleft()
        subs = list(getattr(agent, "sub_agents", None) or ())
        for sub in subs:
            visit(sub)
        kind = kind_of(agent)
        if kind == "llm":
            _llm_edges(agent, w, visit)
        elif kind in ("sequential", "loop") and subs:
            w.delegations.append(DelegationEdge(agent, subs[0], "delegate", f"{kind} start"))
            w.delegations += [DelegationEdge(a, b, "sequence", f"{kind} order")
                              for a, b in zip(subs, subs[1:])]
            if kind == "loop" and len(subs) > 1:
                limit = getattr(agent, "max_iterations", None)
                w.delegations.append(DelegationEdge(
                    subs[-1], subs[0], "sequence",
                    f"next iteration (max_iterations={limit})" if limit else "next iteration"))
        elif kind == "parallel":
            w.delegations += [DelegationEdge(agent, s, "delegate", "parallel") for s in subs]
        elif kind == "graph":
            _graph_edges(agent, w, visit)
        elif kind == "other" and subs:
            w.notes.append(f"agent {w.id_of(agent)}: a custom {type(agent).__name__} runs its "
                           "sub-agents in its own code; which it runs, and when, is not in the graph")
            w.delegations += [DelegationEdge(agent, s, "delegate", "custom agent") for s in subs]
    return w


START = "__START__"  # the name of a Workflow graph's start node


def is_agent_node(node: Any) -> bool:
    """A node of a `Workflow` graph that is an agent: an ADK agent, or a workflow of its own.
    Function nodes, tool nodes and joins are the graph's code, run between agents."""
    from google.adk.agents import BaseAgent

    return isinstance(node, BaseAgent) or is_workflow(node)


def graph_successors(workflow: Any) -> dict[str, list[tuple[str, str]]]:
    """Node name -> (next node's name, the route that edge is taken on, '' for always)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for edge in workflow.graph.edges if workflow.graph is not None else ():
        route = edge.route
        label = "" if route is None else "|".join(map(str, route)) if isinstance(route, list) else str(route)
        out.setdefault(edge.from_node.name, []).append((edge.to_node.name, label))
    return out


def next_agent_nodes(workflow: Any, start: str) -> list[tuple[str, str]]:
    """The nearest agent nodes after node `start` (through the nodes that run no agent), each
    with the path there (`route_weekend[value_ideas] -> value_agent`)."""
    nodes = {n.name: n for n in workflow.graph.nodes}
    succ = graph_successors(workflow)
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    queue = deque([(start, "")])
    while queue:
        name, path = queue.popleft()
        for nxt, route in succ.get(name, ()):
            step = f"{path}{name}[{route}] -> " if route else f"{path}{name} -> "
            if nxt in seen:
                continue
            seen.add(nxt)
            if is_agent_node(nodes[nxt]):
                out.append((nxt, step + nxt))
            else:
                queue.append((nxt, step))
    return out


def _graph_edges(workflow: Any, w: Walk, visit: Any) -> None:
    """ADK 2's graph `Workflow`: its agent nodes are its sub-agents, a `delegate` edge to each it
    can start with, a `graph_edge` from each agent node to the next agent nodes its edges reach
    (through function nodes, tool nodes and joins: the graph's code, not agents)."""
    me = w.id_of(workflow)
    if workflow.graph is None:
        w.notes.append(f"workflow {me}: no graph (no edges): it runs nothing")
        return
    nodes = {n.name: n for n in workflow.graph.nodes}
    for name, node in nodes.items():
        if name != START and is_agent_node(node):
            visit(node)
    for name, path in next_agent_nodes(workflow, START):
        w.delegations.append(DelegationEdge(workflow, nodes[name], "delegate", f"graph start: {path}"))
    for name, node in nodes.items():
        if name != START and is_agent_node(node):
            w.delegations += [DelegationEdge(node, nodes[nxt], "graph_edge", path)
                              for nxt, path in next_agent_nodes(workflow, name)]
    code = [n for n in nodes if n != START and not is_agent_node(nodes[n])]
    if code:
        w.notes.append(f"workflow {me}: nodes of code, run between its agents: {', '.join(code)}")
    for name in code:  # ADK 2's dynamic workflows: a node's code runs agents (`ctx.run_node`)
        run = agents_run_by_node(nodes[name])
        for agent in run:
            visit(agent)
        if run:
            w.delegations.append(DelegationEdge(workflow, run[0], "delegate", f"node {name} runs it"))
            w.delegations += [DelegationEdge(a, b, "sequence", f"node {name}'s code")
                              for a, b in zip(run, run[1:])]
            w.notes.append(f"workflow {me}: node {name} runs "
                           f"{', '.join(w.id_of(a) for a in run)} in its own code (ctx.run_node), "
                           "read in the order of the calls; its loops and branches are not in the graph")


def graph_members(workflow: Any) -> list[Any]:
    """The agents a graph workflow runs: its agent nodes, and the agents its nodes' code runs."""
    nodes = list(workflow.graph.nodes) if workflow.graph is not None else []
    return [n for n in nodes if n.name != START and is_agent_node(n)] + [
        a for n in nodes if not is_agent_node(n) for a in agents_run_by_node(n)]


def agents_run_by_node(node: Any) -> list[Any]:
    """The ADK agents a function node's code runs (`await ctx.run_node(agent, ...)`, ADK 2's
    dynamic workflows), in the order of the calls in its source."""
    code = code_of(getattr(node, "_func", None)) if getattr(node, "_func", None) is not None else None
    if code is None:
        return []
    tree, names = code
    calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call)
                    and isinstance(n.func, ast.Attribute) and n.func.attr == "run_node"
                    and n.args and isinstance(n.args[0], ast.Name)),
                   key=lambda n: (n.lineno, n.col_offset))
    out: list[Any] = []
    for call in calls:
        value = names.get(call.args[0].id)  # type: ignore[attr-defined]
        if value is not None and is_agent_node(value) and all(value is not a for a in out):
            out.append(value)
    return out


def transfer_targets(agent: Any) -> list[Any]:
    """The agents `agent`'s `transfer_to_agent` tool offers, by ADK's own rules."""
    try:
        from google.adk.flows.llm_flows.extensions._agent_transfer import _get_transfer_targets
    except ImportError:  # another ADK version: the rules as ADK 2.13 states them
        return _transfer_targets(agent)
    return list(_get_transfer_targets(agent))


def _transfer_targets(agent: Any) -> list[Any]:
    out = [s for s in agent.sub_agents if getattr(s, "mode", None) not in _TASK_MODES]
    parent = agent.parent_agent
    if parent is None or kind_of(parent) != "llm":
        return out
    if not agent.disallow_transfer_to_parent:
        out.append(parent)
    if not agent.disallow_transfer_to_peers:
        out += [p for p in parent.sub_agents
                if p.name != agent.name and getattr(p, "mode", None) not in _TASK_MODES]
    return out


def _llm_edges(agent: Any, w: Walk, visit: Any) -> None:
    me = w.id_of(agent)
    for target in transfer_targets(agent):
        w.delegations.append(DelegationEdge(agent, target, "handoff", TRANSFER_TOOL))
    for sub in agent.sub_agents:
        if getattr(sub, "mode", None) in _TASK_MODES:
            w.delegations.append(DelegationEdge(agent, sub, "delegate", f"mode={sub.mode}"))
    for tool in list(agent.tools or ()):
        edge = tool_edge(agent, tool)
        if edge is None:
            w.notes.append(f"agent {me}: toolset {type(tool).__name__}: its tools are unknown "
                           "until it connects and are not in the graph")
            continue
        if edge.kind == "hosted" and type(edge.tool).__name__ not in GEMINI_BUILT_INS:
            w.notes.append(f"agent {me}: {type(edge.tool).__name__} {edge.name!r} declares no "
                           "function: it changes the model's request (examples, memory), no "
                           "model calls it; not a tool edge")
            continue
        w.tools.append(edge)
        if edge.kind == "agent":
            visit(tool.agent)
            w.delegations.append(DelegationEdge(agent, tool.agent, "as_tool", edge.name))
        elif edge.kind == "hosted":
            w.notes.append(f"agent {me}: built-in tool {edge.name!r} runs inside Gemini, not in "
                           "the app: masfuzz's model cannot call it")


def tool_edge(owner: Any, tool: Any) -> ToolEdge | None:
    """One entry of an `LlmAgent.tools` list as a tool edge; None for a toolset."""
    from google.adk.tools.agent_tool import AgentTool
    from google.adk.tools.base_tool import BaseTool
    from google.adk.tools.base_toolset import BaseToolset
    from google.adk.tools.function_tool import FunctionTool

    if isinstance(tool, BaseToolset):
        return None
    if isinstance(tool, AgentTool):
        kind = "agent"
    elif callable(tool) and not isinstance(tool, BaseTool):
        tool = FunctionTool(tool)  # what ADK wraps a plain function in
        kind = "function"
    else:
        kind = "function"
    declaration = None
    try:
        declaration = tool._get_declaration()
    except Exception:  # a tool whose declaration needs a connection or credentials
        pass
    if declaration is None and kind != "agent":
        kind = "hosted"
    return ToolEdge(owner=owner, tool=tool, name=str(tool.name), kind=kind,
                    description=str(getattr(tool, "description", "") or ""),
                    parameters=_schema(declaration))


def _schema(declaration: Any) -> dict[str, Any]:
    if declaration is None:
        return {}
    if declaration.parameters_json_schema:
        return dict(declaration.parameters_json_schema)
    if declaration.parameters is not None:
        return declaration.parameters.json_schema.model_dump(mode="json", exclude_none=True)
    return {"type": "object", "properties": {}}


def model_name(agent: Any) -> str | None:
    """The model an `LlmAgent` runs with, as the app set it: its own, or inherited from its
    nearest `LlmAgent` ancestor, or ADK's default; None for a workflow agent."""
    if kind_of(agent) != "llm":
        return None
    current = agent
    while current is not None:
        if kind_of(current) == "llm" and current.model:
            model = current.model
            return model if isinstance(model, str) else type(model).__name__
        current = current.parent_agent
    return f"{type(agent).DEFAULT_MODEL}{ADK_DEFAULT}"


def extract(root: Any, *, target: str = "") -> tuple[WorkflowSpec, Walk]:
    w = walk(root)
    agents = tuple(_agent_spec(a, w) for a in w.agents)
    tools, allow, delegations = spec_edges(w, lambda tool: _source(getattr(tool, "func", None) or tool))
    spec = WorkflowSpec(
        system=SystemInfo(id=_system_id(target, root), entry_agent=w.id_of(root),
                          framework=FRAMEWORK, pattern=_pattern(root, delegations)),
        agents=agents,
        tools=tuple(tools.values()),
        # closed world over the agents that can call a tool: a workflow agent has no model
        permissions=Permissions(allow=tuple(allow), restrict=tuple(
            (w.id_of(a), t) for a in w.llm_agents() for t in tools if (w.id_of(a), t) not in allow)),
        delegations=tuple(delegations),
        termination=Termination(conditions=_termination(w), max_turns=_max_llm_calls()),
        notes=tuple(dict.fromkeys(w.notes)),
    )
    return spec, w


def spec_edges(w: SharedWalk, source: Any) -> tuple[dict[str, ToolSpec], dict[tuple[str, str], None],
                                                    list[Delegation]]:
    """A walk's tools (by name, the first seen), allowed (agent, tool) pairs and delegations
    (one per source, target and trigger), as the spec states them; `source(tool)` locates a tool."""
    tools: dict[str, ToolSpec] = {}
    allow: dict[tuple[str, str], None] = {}
    for edge in w.tools:
        allow[(w.id_of(edge.owner), edge.name)] = None
        tools.setdefault(edge.name, ToolSpec(
            id=edge.name, description=edge.description, parameters=edge.parameters,
            kind=edge.kind,  # type: ignore[arg-type]
            source=source(edge.tool)))
    seen: set[tuple[str, str, str]] = set()
    delegations = []
    for d in w.delegations:
        key = (w.id_of(d.source), w.id_of(d.target), d.trigger)
        if key not in seen:
            seen.add(key)
            delegations.append(Delegation(**{"from": key[0]}, to=key[1], trigger=d.trigger,
                                          condition=d.condition))
    return tools, allow, delegations


def _pattern(root: Any, delegations: list[Delegation]) -> str:
    triggers = {d.trigger for d in delegations}
    if kind_of(root) == "graph":
        return "graph"
    if kind_of(root) == "sequential" or (triggers and triggers <= {"sequence", "delegate"}):
        return "fixed_order"
    if "handoff" in triggers:
        return "handoff"
    return "orchestrated"


def _agent_spec(agent: Any, w: Walk) -> AgentSpec:
    kind = kind_of(agent)
    instruction = getattr(agent, "instruction", "")
    dynamic = callable(instruction)
    settings: dict[str, Any] = {}
    config = getattr(agent, "generate_content_config", None)
    if config is not None:
        settings = {k: v for k, v in config.model_dump(mode="json", exclude_none=True).items()
                    if not isinstance(v, (dict, list))}
    if kind != "llm":
        settings["workflow"] = kind
    if kind == "loop" and agent.max_iterations:
        settings["max_iterations"] = agent.max_iterations
    return AgentSpec(
        id=w.id_of(agent),
        description=str(getattr(agent, "description", "") or ""),
        instructions="" if dynamic else str(instruction or ""),
        instructions_dynamic=dynamic,
        model=model_name(agent),
        model_settings=settings,
        guardrails=tuple(_callbacks(agent)),
    )


_GUARD_CALLBACKS = ("before_agent_callback", "before_model_callback", "before_tool_callback",
                    "after_model_callback")


def _callbacks(agent: Any) -> list[str]:
    """The callbacks that can stop or change an agent's turn: ADK's guardrails."""
    out = []
    for attr in _GUARD_CALLBACKS:
        value = getattr(agent, attr, None)
        for cb in value if isinstance(value, list) else [value] if value else []:
            out.append(f"{attr}:{getattr(cb, '__name__', type(cb).__name__)}")
    return out


def _max_llm_calls() -> int | None:
    """ADK's own bound on a run's model calls (`RunConfig.max_llm_calls`), the turn limit."""
    from google.adk.agents.run_config import RunConfig

    limit = RunConfig().max_llm_calls
    return limit if limit and limit > 0 else None


def _termination(w: Walk) -> tuple[str, ...]:
    out = ["final_response", f"max_llm_calls={_max_llm_calls()}"]
    for agent in w.agents:
        if kind_of(agent) == "graph" and agent.graph is not None:
            ends = sorted(agent.graph._terminal_node_names)  # computed when ADK validated the graph
            out.append(f"{w.id_of(agent)}: the graph ends after node {', '.join(ends)}")
        if kind_of(agent) == "loop":
            limit = agent.max_iterations
            out.append(f"{w.id_of(agent)}: escalate" + (f" or max_iterations={limit}" if limit
                                                        else " (no max_iterations)"))
    return tuple(out)


def _source(obj: Any) -> SourceLocation | None:
    """Where a tool function is defined, as far as Python tells."""
    from masfuzz.adapters.openai_agents.locate import relative, source_of_callable

    found = source_of_callable(obj) if callable(obj) else None
    return SourceLocation(file=relative(found[1]), line=found[2]) if found else None


def _system_id(target: str, root: Any) -> str:
    from masfuzz.adapters.openai_agents.extract import slug

    if target:
        where = target.split(":")[0].rstrip("/")
        p = Path(where)
        stem = p.parent.name if p.stem in ("agent", "main", "app", "__init__", "agents") else p.stem
        if stem:
            return slug(stem)
    return slug(str(root.name))
