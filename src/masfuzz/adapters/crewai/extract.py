"""The static structure of a CrewAI crew: agents, tools, tasks, permissions and delegations.

The walk reads what `Crew.kickoff` itself follows:

- `agents`: each a CrewAI `Agent`, its role, goal and backstory its instructions (CrewAI's own
  system prompt is made of the three); its id the snake-case form of its role, the name its
  coworkers delegate to;
- `tasks`, in their order: under `Process.sequential` each task's agent hands over to the next
  task's agent (a `sequence` edge), and a task's `context` (the earlier tasks whose outputs it
  is given) is an edge from each of those tasks' agents (a `sequence` edge too: an output
  handed over in the crew's order); the entry agent is the first task's;
- `Process.hierarchical`: the manager (the app's `manager_agent`, or the "Crew Manager" CrewAI
  makes from `manager_llm` at kickoff) runs every task and delegates it to the agents with
  CrewAI's delegation tools: a `delegate` edge to each agent; the manager is the entry agent;
- `allow_delegation=True` under the sequential process: CrewAI gives that agent the tools
  "Delegate work to coworker" and "Ask question to coworker" over every other agent of the
  crew: a `delegate` edge to each (the tools are the delegation, not workflow tools);
- `tools` of every agent and of every task (a task's tools replace its agent's for that task):
  CrewAI `BaseTool`s (`@tool` functions included), named as the model sees them (CrewAI's
  `sanitize_tool_name`: "Add numbers" is `add_numbers`), with their `args_schema`.

Restricted edges are closed-world over the agents (every agent x workflow tool pair it does not
have). A `Flow`, which starts its crews inside its methods, is walked by `flow`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from masfuzz.adapters.base import numbered
from masfuzz.adapters.adk.extract import ToolEdge, spec_edges
from masfuzz.adapters.openai_agents.extract import DelegationEdge
from masfuzz.adapters.openai_agents.extract import Walk as SharedWalk
from masfuzz.adapters.openai_agents.extract import slug
from masfuzz.spec.model import (AgentSpec, Permissions, SourceLocation, SystemInfo, Termination,
                                WorkflowSpec)

FRAMEWORK = "crewai"
MANAGER_ROLE = "Crew Manager"  # the role of the manager CrewAI makes from `manager_llm`
DELEGATE_TOOL = "delegate_work_to_coworker"  # CrewAI's delegation tools, as the model sees them
ASK_TOOL = "ask_question_to_coworker"
DELEGATION_TOOLS = (DELEGATE_TOOL, ASK_TOOL)


class Walk(SharedWalk):
    """The crew's agents (the manager first under the hierarchical process), with their ids."""

    crew: Any = None
    manager: Any = None  # the app's manager agent, or a stand-in naming CrewAI's own

    def by_role(self, role: str) -> str | None:
        wanted = (role or "").strip().lower()
        for agent in self.agents:
            if str(getattr(agent, "role", "")).strip().lower() == wanted:
                return self.ids[id(agent)]
        return None


class ManagerStandIn:
    """CrewAI's own manager, made only at kickoff from `manager_llm`: what the spec says of it."""

    def __init__(self, llm: Any) -> None:
        self.role = MANAGER_ROLE
        self.goal = "Manage the team to complete the task in the best way possible."
        self.backstory = ""
        self.llm = llm
        self.tools: list[Any] = []
        self.allow_delegation = True


def tool_name(tool: Any) -> str:
    from crewai.utilities.string_utils import sanitize_tool_name

    return sanitize_tool_name(str(tool.name))


def is_hierarchical(crew: Any) -> bool:
    from crewai import Process

    return crew.process == Process.hierarchical


def walk(crew: Any) -> Walk:
    w = Walk()
    w.crew = crew

    def visit(agent: Any) -> None:
        if id(agent) in w.ids:
            return
        base = slug(str(getattr(agent, "role", "") or "agent"))
        w.ids[id(agent)] = numbered(base, w.ids.values())
        w.agents.append(agent)

    members = list(crew.agents)
    if is_hierarchical(crew):
        w.manager = crew.manager_agent or ManagerStandIn(crew.manager_llm)
        visit(w.manager)
    for agent in members:
        visit(agent)
    for task in crew.tasks:
        if task.agent is not None:
            visit(task.agent)
            members += [] if task.agent in members else [task.agent]
    for agent in w.agents:
        seen: set[str] = set()
        for tool in list(getattr(agent, "tools", None) or ()):
            add_tool(w, agent, tool, seen)
    for task in crew.tasks:
        seen = {e.name for e in w.tools if e.owner is task.agent}
        for tool in list(task.tools or ()) if task.agent is not None else ():
            add_tool(w, task.agent, tool, seen)
    if w.manager is not None:
        w.delegations += [DelegationEdge(w.manager, a, "delegate", "Delegate work to coworker")
                          for a in members if a is not w.manager]
        if crew.tasks and any(t.agent is not None for t in crew.tasks):
            w.notes.append("hierarchical process: the manager runs every task, whatever agent a "
                           "task names")
    else:
        tasks = [t for t in crew.tasks if t.agent is not None]
        w.delegations += [DelegationEdge(a.agent, b.agent, "sequence", f"task {_task_name(b)}")
                          for a, b in zip(tasks, tasks[1:]) if a.agent is not b.agent]
        for agent in members:
            if getattr(agent, "allow_delegation", False):
                w.delegations += [DelegationEdge(agent, other, "delegate", "Delegate work to coworker")
                                  for other in members if other is not agent]
    for task in crew.tasks:
        for earlier in task.context if isinstance(task.context, list) else ():
            if earlier.agent is not None and task.agent is not None and earlier.agent is not task.agent:
                w.delegations.append(DelegationEdge(earlier.agent, task.agent, "sequence",
                                                    f"context of task {_task_name(task)}"))
    if any(t.agent is None for t in crew.tasks) and w.manager is None:
        w.notes.append("a task names no agent: CrewAI refuses it under the sequential process")
    if any(getattr(t, "async_execution", False) for t in crew.tasks):
        w.notes.append("a task runs with async_execution: its agent works beside the next task's")
    return w


def add_tool(w: Walk, owner: Any, tool: Any, seen: set[str]) -> None:
    name = tool_name(tool)
    if name in DELEGATION_TOOLS or name in seen:
        return
    seen.add(name)
    schema = getattr(tool, "args_schema", None)
    params = schema.model_json_schema() if schema is not None and hasattr(schema, "model_json_schema") \
        else {"type": "object", "properties": {}}
    w.tools.append(ToolEdge(owner=owner, tool=tool, name=name, kind="function",
                            description=str(getattr(tool, "description", "") or ""),
                            parameters=params))


def _task_name(task: Any) -> str:
    return str(task.name or task.description.strip().splitlines()[0][:40])


def model_name(agent: Any) -> str | None:
    llm = getattr(agent, "llm", None)
    if llm is None:
        return "gpt-4.1-mini (CrewAI's default)" if isinstance(agent, ManagerStandIn) else None
    return llm if isinstance(llm, str) else str(getattr(llm, "model", "") or type(llm).__name__)


def instructions(agent: Any) -> str:
    """CrewAI's system prompt is made of these three: "You are ROLE. BACKSTORY\\nYour personal
    goal is: GOAL"."""
    return f"You are {agent.role}. {agent.backstory}\nYour personal goal is: {agent.goal}".strip()


def extract(crew: Any, *, target: str = "") -> tuple[WorkflowSpec, Walk]:
    w = walk(crew)
    entry = w.manager if w.manager is not None else next(
        (t.agent for t in crew.tasks if t.agent is not None), w.agents[0] if w.agents else None)
    return spec_of(w, entry, "orchestrated" if w.manager is not None else "fixed_order",
                   _termination(crew, w), target), w


def spec_of(w: Walk, entry: Any, pattern: str, termination: tuple[str, ...],
            target: str) -> WorkflowSpec:
    """The spec of a walk (a crew's, or a flow's and its crews'), its entry agent `entry`."""
    tools, allow, delegations = spec_edges(w, _source)
    return WorkflowSpec(
        system=SystemInfo(id=_system_id(target), entry_agent=w.id_of(entry) if entry else "",
                          framework=FRAMEWORK, pattern=pattern),  # type: ignore[arg-type]
        agents=tuple(_agent_spec(a, w) for a in w.agents),
        tools=tuple(tools.values()),
        permissions=Permissions(allow=tuple(allow), restrict=tuple(
            (w.id_of(a), t) for a in w.agents for t in tools if (w.id_of(a), t) not in allow)),
        delegations=tuple(delegations),
        termination=Termination(conditions=termination),
        notes=tuple(dict.fromkeys(w.notes)),
    )


def _agent_spec(agent: Any, w: Walk) -> AgentSpec:
    llm = getattr(agent, "llm", None)
    settings = {k: getattr(llm, k) for k in ("temperature", "max_tokens")
                if getattr(llm, k, None) is not None} if llm is not None and not isinstance(llm, str) else {}
    for attr in ("max_iter", "allow_delegation"):
        if getattr(agent, attr, None) is not None:
            settings[attr] = getattr(agent, attr)
    return AgentSpec(id=w.id_of(agent), description=str(agent.goal or ""),
                     instructions=instructions(agent), model=model_name(agent),
                     model_settings=settings)


def _termination(crew: Any, w: Walk) -> tuple[str, ...]:
    out = ["every task done" if w.manager is None else "the manager's every task done"]
    out += iteration_bounds(w)
    if crew.max_rpm:
        out.append(f"max_rpm={crew.max_rpm}")
    return tuple(out)


def iteration_bounds(w: Walk) -> list[str]:
    """Each agent's stop bound: CrewAI forces its answer after `max_iter` iterations of a task."""
    return [f"{w.id_of(a)}: max_iter={a.max_iter}" for a in w.agents if getattr(a, "max_iter", None)]


def _source(tool: Any) -> SourceLocation | None:
    from masfuzz.adapters.openai_agents.locate import relative, source_of_callable

    func = getattr(tool, "func", None) or type(tool)._run
    found = source_of_callable(func) if callable(func) else None
    return SourceLocation(file=relative(found[1]), line=found[2]) if found else None


def _system_id(target: str) -> str:
    where = target.split(":")[0].rstrip("/") if target else ""
    p = Path(where)
    stem = p.parent.name if p.stem in ("crew", "main", "app", "__init__") else p.stem
    return slug(stem or "crew")
