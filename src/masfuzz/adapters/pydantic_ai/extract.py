"""The static structure of a PydanticAI system: agents, tools, delegations, restrictions.

PydanticAI has no hand-off object: an agent delegates by a tool of its own whose code runs
another agent (`await other_agent.run(..., usage=ctx.usage)`, the "agent delegation" of
PydanticAI's multi-agent documentation) and takes the answer back. The walk starts at the
entry agent and follows what a run would reach: the agent's toolsets (the function toolset of
`@agent.tool` / `tools=[...]`, the app's own `FunctionToolset`s, and toolsets whose tools are
known only once connected, such as MCP servers, which become notes), its native tools (run on
the provider's side: hosted tools), and, in each function tool's source and in the helpers of its
module it calls, the agents it runs.
The agent a call runs is the object its expression names in the tool's globals or closure, a
local variable assigned from one, or every agent of a dict or list the tool picks from
(`SPECIALIST_MAP.get(specialty).run(...)` may run any of the map's agents): each is an `as_tool`
delegation from the tool's owner, as the structural-coverage paper counts an agent used as a tool.

Output tools (`final_result`, one per member of a union output type) are how the model gives the
agent's typed answer; they are not tools of the app and are not in the spec (the run turns the
model's structured answer into that call). Agents are distinct by object; an agent's id is its
`name`, else the variable that names it where it was found, as PydanticAI itself infers it.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from masfuzz.adapters.base import numbered
from masfuzz.adapters.source import code_of, function_site
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, Termination
from masfuzz.spec.model import ToolSpec, WorkflowSpec

FRAMEWORK = "pydantic-ai"
RUN_METHODS = ("run", "run_sync", "run_stream", "run_stream_events", "iter")


def is_agent(obj: Any) -> bool:
    return instance_of(obj, "pydantic_ai", "Agent")


def instance_of(obj: Any, module: str, name: str) -> bool:
    """Is `obj` a `module.name`? False when the extra is not installed."""
    try:
        cls = getattr(importlib.import_module(module), name)
    except ImportError:  # pragma: no cover - the extra is not installed
        return False
    return isinstance(obj, cls)


@dataclass
class ToolEdge:
    owner: Any  # the agent object
    name: str
    kind: str  # function | hosted
    tool: Any = None  # the pydantic_ai Tool (function tools), or the native tool


@dataclass
class Walk:
    """The reachable object graph, with the ids the spec gives each agent object."""

    agents: list[Any] = field(default_factory=list)
    ids: dict[int, str] = field(default_factory=dict)  # id(agent) -> agent id
    tools: list[ToolEdge] = field(default_factory=list)
    # (from, to, trigger, condition): `as_tool` through a tool, `sequence` in the app's code
    delegations: list[tuple[Any, Any, str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    graph: Any = None  # the `graph.GraphPlan` of a pydantic-graph graph

    def id_of(self, agent: Any) -> str:
        return self.ids[id(agent)]


def walk(entry: Any, entry_name: str = "") -> Walk:
    """The graph reachable from an agent, from every agent of an app's programmatic hand-off
    (`pipeline.AgentPipeline`: its first agent first, its code's order as sequence edges), or
    from every agent a pydantic-graph graph's nodes run (`graph`: its edges as graph edges)."""
    from masfuzz.adapters.pydantic_ai.graph import is_graph
    from masfuzz.adapters.pydantic_ai.pipeline import AgentPipeline

    w = Walk()
    taken: set[str] = set()
    queue: deque[Any] = deque()

    def visit(agent: Any, found_as: str) -> None:
        if id(agent) in w.ids:
            return
        # two agents of one name are told apart by their order of discovery
        base = str(agent.name or found_as or "agent")
        ident = numbered(base, taken)
        taken.add(ident)
        w.ids[id(agent)] = ident
        w.agents.append(agent)
        queue.append(agent)

    if isinstance(entry, AgentPipeline):
        names = getattr(entry.function, "__globals__", {})
        for root in entry.roots:
            visit(root, _name_in(root, names))
        w.delegations += [(entry.agents[a], entry.agents[b], "sequence", why) for a, b, why in entry.order.edges]
        w.notes.append(f"the app's own {entry.order.function} runs its agents: "
                       + " -> ".join(w.id_of(entry.agents[s.agent]) for s in entry.order.steps))
    elif is_graph(entry):
        _graph_roots(entry, w, visit)
    else:
        visit(entry, entry_name)
    while queue:
        agent = queue.popleft()
        me = w.id_of(agent)
        for name, tool in function_tools(agent, w.notes, me):
            w.tools.append(ToolEdge(agent, name, "function", tool))
            for target, found_as in agents_run_by(tool.function):
                visit(target, found_as)
                w.delegations.append((agent, target, "as_tool", f"tool {name}"))
            if builds_agent(tool.function):
                w.notes.append(f"agent {me}: tool {name} builds an agent in its own code: that agent "
                               "exists only while the tool runs and is not in the graph (a run gives "
                               "it masfuzz's model and records it, as the walk's agents)")
        for native in _native_tools(agent):
            name = str(getattr(native, "kind", None) or type(native).__name__)
            w.tools.append(ToolEdge(agent, name, "hosted", native))
    return w


def _graph_roots(graph: Any, w: Walk, visit: Any) -> None:
    """The agents a graph's nodes run, in the order a run first reaches their nodes; node
    edges between agents as `graph_edge` delegations, two agents of one node as a `sequence`."""
    from masfuzz.adapters.pydantic_ai.graph import label, plan
    from masfuzz.errors import TargetError

    p = w.graph = plan(graph)
    nodes = p.agent_nodes()
    if not nodes:
        raise TargetError("the graph's nodes run no PydanticAI agent (masfuzz reads the agents a "
                          "node's `run` or a step's function runs): no multi-agent system to test")
    for node in nodes:
        for agent, found_as in p.agents[node]:
            visit(agent, found_as)
    for node in nodes:
        agents = [a for a, _ in p.agents[node]]
        w.delegations += [(a, b, "sequence", f"node {node}") for a, b in zip(agents, agents[1:])]
        for after in p.next_agent_nodes(node):
            target = p.agents[after][0][0]
            if target is not agents[-1]:
                w.delegations.append((agents[-1], target, "graph_edge", f"{label(node)} -> {label(after)}"))
    w.notes.append("a pydantic-graph graph: its nodes " + ", ".join(
        f"{n} ({', '.join(w.id_of(a) for a, _ in p.agents[n])})" if p.agents.get(n) else n
        for n in p.order if n not in ("__start__", "__end__")))


def function_tools(agent: Any, notes: list[str], me: str) -> list[tuple[str, Any]]:
    """(name, Tool) of the agent's function tools, in every toolset whose tools are known before
    a run; a toolset known only once connected (an MCP server) is a note."""
    from pydantic_ai.toolsets import FunctionToolset

    out: list[tuple[str, Any]] = []
    leaves: list[Any] = []
    for toolset in agent.toolsets:
        toolset.apply(leaves.append)
    for leaf in leaves:
        if isinstance(leaf, FunctionToolset):
            out += list(leaf.tools.items())
        else:
            notes.append(f"agent {me}: toolset {leaf.label}: its tools are known only when it "
                         "connects and are not in the graph")
    return out


def _native_tools(agent: Any) -> list[Any]:
    """The provider-side tools the app gave (web search, code execution: `capabilities=`); an
    optional one PydanticAI adds by itself (tool search, used only when the provider has it) is
    none of the app's."""
    natives = getattr(agent, "_cap_native_tools", None) or ()
    return [n for n in natives if not getattr(n, "optional", False)]


def agents_run_by(function: Any, owner: Any = None) -> list[tuple[Any, str]]:
    """(agent, the name it was found by) for every agent `function`'s code runs: in its own body,
    and in the helpers it calls, one level down (a function of its module, or a method of
    `owner`'s class called as `self.method(...)`): `return await ask(berth_t, question)` runs
    berth_t when `ask` runs its `agent` parameter. An agent the code builds itself
    (`Agent(...)` in the body) exists only once it runs, and is none of these."""
    code = code_of(function)
    if code is None:
        return []
    tree, names = code
    assigned = _assignments(tree)
    out = dict(_runs(tree, names, assigned))
    for call in ast.walk(tree):
        helper = _helper(call, names, owner, function)
        helper_code = code_of(helper) if helper is not None else None
        if helper_code is None:
            continue
        # the helper's parameters stand for what this call passes them (and, unresolved, shadow
        # its module's names)
        params = list(inspect.signature(helper).parameters)
        bound = {k: v for k, v in helper_code[1].items() if k not in params}
        params = params[1:] if params[:1] == ["self"] else params
        passed = [*zip(params, call.args), *((k.arg, k.value) for k in call.keywords if k.arg)]  # type: ignore[attr-defined]
        for param, arg in passed:
            found = _agents_of(arg, names, assigned, 0)
            if len(found) == 1:
                bound[param] = found[0][0]
        for key, (agent, found_as) in _runs(helper_code[0], bound, _assignments(helper_code[0])):
            out.setdefault(key, (agent, _name_in(agent, names) or found_as))
    return list(out.values())


def builds_agent(function: Any) -> bool:
    """Does the function's code make an agent (`Agent(...)`) rather than run one it is given?"""
    from pydantic_ai import Agent

    code = code_of(function)
    return code is not None and any(
        isinstance(node, ast.Call) and isinstance(cls := _value_of(node.func, code[1]), type)
        and issubclass(cls, Agent) for node in ast.walk(code[0]))


def _runs(tree: ast.AST, names: dict[str, Any], assigned: dict[str, ast.AST]) -> list[tuple[int, tuple[Any, str]]]:
    """The agents whose run methods the code calls, by object id."""
    out: dict[int, tuple[Any, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in RUN_METHODS:
            for agent, found_as in _agents_of(node.func.value, names, assigned, 0):
                out.setdefault(id(agent), (agent, _name_in(agent, names) or found_as))
    return list(out.items())


def _assignments(tree: ast.AST) -> dict[str, ast.AST]:
    assigned: dict[str, ast.AST] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned[node.targets[0].id] = node.value
    return assigned


def _helper(call: ast.AST, names: dict[str, Any], owner: Any, function: Any) -> Any:
    """The user's function a call in `function` calls: a function of the same module by its
    name, or a method of `owner`'s class (`self.ask(...)`); None for anything else."""
    if not isinstance(call, ast.Call):
        return None
    helper = None
    if isinstance(call.func, ast.Name):
        helper = names.get(call.func.id)
    elif isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) \
            and call.func.value.id == "self" and owner is not None:
        helper = getattr(owner, call.func.attr, None)
    if inspect.isfunction(helper) and helper is not function \
            and helper.__module__ == getattr(function, "__module__", None):
        return helper
    return None


def _agents_of(expr: ast.AST, names: dict[str, Any], assigned: dict[str, ast.AST],
               depth: int) -> list[tuple[Any, str]]:
    if depth > 4:
        return []
    if isinstance(expr, ast.Name):
        if expr.id in assigned:
            return _agents_of(assigned[expr.id], names, assigned, depth + 1)
        return _agents_in(names.get(expr.id), expr.id)
    if isinstance(expr, ast.Attribute):
        inner = _value_of(expr.value, names)
        return _agents_in(getattr(inner, expr.attr, None), expr.attr) if inner is not None else []
    if isinstance(expr, ast.Subscript):  # MAP[key]: any agent of the map
        return _agents_in(_value_of(expr.value, names), "", every=True)
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "get":
        return _agents_in(_value_of(expr.func.value, names), "", every=True)  # MAP.get(key)
    return []


def _value_of(expr: ast.AST, names: dict[str, Any]) -> Any:
    if isinstance(expr, ast.Name):
        return names.get(expr.id)
    if isinstance(expr, ast.Attribute):
        inner = _value_of(expr.value, names)
        return getattr(inner, expr.attr, None) if inner is not None else None
    return None


def _agents_in(value: Any, name: str, every: bool = False) -> list[tuple[Any, str]]:
    if is_agent(value):
        return [(value, name)]
    if every and isinstance(value, dict):
        return [(v, str(k)) for k, v in value.items() if is_agent(v)]
    if every and isinstance(value, (list, tuple)):
        return [(v, "") for v in value if is_agent(v)]
    return []


def _name_in(agent: Any, names: dict[str, Any]) -> str:
    return next((k for k, v in names.items() if v is agent and not k.startswith("_")), "")


def output_tool_names(agent: Any) -> list[str]:
    """The agent's output tools (its typed answer), which are not tools of the app."""
    toolset = getattr(agent, "_output_toolset", None)
    return [d.name for d in getattr(toolset, "_tool_defs", None) or ()]


def extract(entry: Any, *, target: str = "") -> tuple[WorkflowSpec, Walk]:
    entry_name = target.rsplit(":", 1)[1] if ":" in target else ""
    w = walk(entry, entry_name if entry_name.isidentifier() else "")
    tools: dict[str, ToolSpec] = {}
    allow: dict[tuple[str, str], None] = {}
    for edge in w.tools:
        allow[(w.id_of(edge.owner), edge.name)] = None
        if edge.name not in tools:  # tools are distinct by name: the first one describes it
            tools[edge.name] = _tool_spec(edge)
    delegations: dict[tuple[str, str], Delegation] = {}
    for source, target_agent, trigger, condition in w.delegations:
        key = (w.id_of(source), w.id_of(target_agent))
        delegations.setdefault(key, Delegation(**{"from": key[0]}, to=key[1], trigger=trigger,  # type: ignore[arg-type]
                                               condition=condition))
    spec = WorkflowSpec(
        system=SystemInfo(id=_system_id(target, w), entry_agent=w.id_of(w.agents[0]), framework=FRAMEWORK,
                          pattern="graph" if w.graph is not None else
                          "orchestrated" if delegations else "handoff"),
        agents=tuple(_agent_spec(a, w) for a in w.agents),
        tools=tuple(tools.values()),
        permissions=Permissions(allow=tuple(allow), restrict_mode="closed_world"),
        delegations=tuple(delegations.values()),
        termination=Termination(conditions=_termination(w)),
        notes=tuple(dict.fromkeys(w.notes)),
    )
    return spec, w


def _agent_spec(agent: Any, w: Walk) -> AgentSpec:
    texts, dynamic = instructions_of(agent)
    model = agent.model
    settings = dict(agent.model_settings or {}) if isinstance(agent.model_settings, dict) else {}
    return AgentSpec(
        id=w.id_of(agent),
        description=str(agent.description or ""),
        instructions="\n\n".join(texts),
        instructions_dynamic=dynamic,
        model=model if isinstance(model, str) or model is None else model_string(model),
        model_settings=settings,
        source=_agent_site(agent, w),
    )


def model_string(model: Any) -> str:
    """`provider:name`, as the app would write it (`openai:gpt-5.2`)."""
    name = getattr(model, "model_name", None)
    system = getattr(model, "system", None)
    return f"{system}:{name}" if system and name else str(name or type(model).__name__)


def instructions_of(agent: Any) -> tuple[list[str], bool]:
    """The agent's literal instructions and system prompts, and whether a function adds more."""
    texts: list[str] = []
    dynamic = bool(getattr(agent, "_system_prompt_functions", None))
    for part in list(getattr(agent, "_instructions", None) or ()):
        text = getattr(part, "instruction", part)
        if isinstance(text, str):
            texts.append(text.strip())
        else:
            dynamic = True
    texts += [str(p).strip() for p in getattr(agent, "_system_prompts", None) or ()]
    return texts, dynamic


def _agent_site(agent: Any, w: Walk) -> Any:
    """Where the agent's first tool is defined (its agent is made in the same file)."""
    for edge in w.tools:
        if edge.owner is agent and edge.kind == "function":
            site = function_site(edge.tool.function)
            if site is not None:
                return site.model_copy(update={"line": None})
    return None


def _tool_spec(edge: ToolEdge) -> ToolSpec:
    if edge.kind == "hosted":
        return ToolSpec(id=edge.name, kind="hosted", description=f"{type(edge.tool).__name__} "
                        "(runs on the model provider's side)")
    tool = edge.tool
    return ToolSpec(id=edge.name, description=str(tool.description or ""),
                    parameters=dict(tool.function_schema.json_schema or {}), kind="function",
                    source=function_site(tool.function))


def _termination(w: Walk) -> tuple[str, ...]:
    out = ["final_output"]
    if w.graph is not None:  # the graph ends when a node returns End (the end node)
        from masfuzz.adapters.pydantic_ai.graph import END

        out += [f"graph End after node {n} ({w.id_of(w.graph.agents[n][-1][0])})"
                for n in w.graph.agent_nodes() if w.graph.ends(n)]
        if END not in w.graph.order:
            out.append("the graph has no path to its End")
    for agent in w.agents:
        if output_tool_names(agent):
            out.append(f"{w.id_of(agent)}: output tool {', '.join(output_tool_names(agent))}")
        strategy = getattr(agent, "end_strategy", _DEFAULT_END)
        if strategy != _DEFAULT_END:
            out.append(f"{w.id_of(agent)}: end_strategy={strategy}")
    return tuple(out)


_DEFAULT_END = "graceful"  # PydanticAI's default end_strategy


def _system_id(target: str, w: Walk) -> str:
    parts = target.split(":", 1)[0].removesuffix(".py").split("/")
    stem = parts[-2] if parts[-1] in ("main", "app", "__init__", "agents") and len(parts) > 1 else parts[-1]
    return stem or w.id_of(w.agents[0])
