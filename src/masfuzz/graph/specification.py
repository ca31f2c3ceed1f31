"""FLARE's specification of a multi-agent system (§3.2.1, Fig. 4–5), and its deterministic skeleton.

Four parts: agent relationships (communication pattern, speaking order, dependencies among
agents), the termination pattern, task execution (per agent: tasks with their inputs, outputs
and responsibility) and tool calls (tools and agent–tool relations). Every clause has a stable
id (`rel::order`, `term::bound`, `task::faq_agent::use::faq_lookup_tool`, `tool::update_seat`)
that findings cite, so a failure says which part of the specification it violates.

`skeleton(spec)` derives all of it from what the adapter extracted — the pattern, the delegation
edges, the termination conditions and turn bound, each agent's instructions and tools — without a
model. The Specification Agent refines it with a tester model; with a weak model (or none) the
skeleton still stands, so the fuzzing loop and the deterministic oracles work offline.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.graph.paths import execution_paths
from masfuzz.spec.model import WorkflowSpec

FLARE_SPEC_FORMAT_VERSION = 1


class _Clause(BaseModel):
    model_config = ConfigDict(frozen=True)
    id: str


class Relationships(_Clause):
    pattern: str  # fixed_order | selector | handoff | graph | orchestrated
    order: tuple[str, ...] = ()  # the fixed speaking order, when the pattern has one
    dependencies: tuple[tuple[str, str], ...] = ()  # (before, after): `before` acts first
    edges: tuple[tuple[str, str], ...] = ()  # who may pass control to whom


class TerminationPattern(_Clause):
    conditions: tuple[str, ...] = ()  # how the system is meant to conclude, as written
    max_turns: int | None = None  # the bound that stops it otherwise
    closers: tuple[str, ...] = ()  # agents whose duty it is to conclude


class Task(_Clause):
    agent: str
    kind: str  # use_tool | conclude | answer
    description: str
    inputs: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()
    tool: str | None = None
    responsibility: str = ""  # what the agent answers for (Fig. 5), from the Specification Agent
    refines: str | None = None  # the task this atomic behaviour was split from (Space Agent)


class ToolClause(_Clause):
    tool: str
    description: str = ""
    parameters: tuple[str, ...] = ()
    agents: tuple[str, ...] = ()  # who may call it


class FlareSpec(BaseModel):
    model_config = ConfigDict(frozen=True)
    format_version: int = FLARE_SPEC_FORMAT_VERSION
    system: str
    relationships: Relationships
    termination: TerminationPattern
    tasks: tuple[Task, ...] = ()
    tools: tuple[ToolClause, ...] = ()

    def clause(self, clause_id: str) -> _Clause:
        for c in (self.relationships, self.termination, *self.tasks, *self.tools):
            if c.id == clause_id:
                return c
        raise KeyError(clause_id)

    def clause_ids(self) -> list[str]:
        return [c.id for c in (self.relationships, self.termination, *self.tasks, *self.tools)]

    def tasks_of(self, agent: str) -> list[Task]:
        return [t for t in self.tasks if t.agent == agent]


CLOSING_WORDS = ("terminate", "end the workflow", "approve", "final", "conclude", "finish")


def skeleton(spec: WorkflowSpec) -> FlareSpec:
    """The specification FLARE needs, from the extracted workflow alone."""
    graph = CoordinationGraph(spec)
    agents = graph.reachable
    pattern = spec.system.pattern
    order: tuple[str, ...] = ()
    if pattern == "fixed_order":
        order = execution_paths(spec).paths[0]
    relationships = Relationships(
        id="rel::order", pattern=pattern, order=order,
        dependencies=tuple(zip(order, order[1:])) if order else (),
        edges=tuple(e for e in graph.delegations if e[0] in agents))
    closers = tuple(a for a in agents if _concludes(spec, a))
    termination = TerminationPattern(
        id="term::bound", conditions=spec.termination.conditions,
        max_turns=spec.termination.max_turns, closers=closers)
    tasks: list[Task] = []
    for agent in agents:
        a = spec.agent(agent)
        for owner, tool in graph.allow:
            if owner != agent:
                continue
            t = spec.find_tool(tool)
            params = tuple((t.parameters.get("properties") or {}).keys()) if t else ()
            tasks.append(Task(id=f"task::{agent}::use::{tool}", agent=agent, kind="use_tool",
                              description=(t.description if t and t.description else f"use {tool}"),
                              inputs=params, outputs=(f"{tool} result",), tool=tool))
        if agent in closers:
            tasks.append(Task(id=f"task::{agent}::conclude", agent=agent, kind="conclude",
                              description="conclude the workflow when its goal is met"))
        tasks.append(Task(id=f"task::{agent}::answer", agent=agent, kind="answer",
                          description=_first_sentence(a.description or a.instructions)
                          or f"answer as {agent}"))
    tools = tuple(
        ToolClause(id=f"tool::{t.id}", tool=t.id, description=t.description,
                   parameters=tuple((t.parameters.get("properties") or {}).keys()),
                   agents=tuple(a for a, x in graph.allow if x == t.id))
        for t in spec.tools)
    return FlareSpec(system=spec.system.id, relationships=relationships, termination=termination,
                     tasks=tuple(tasks), tools=tools)


def _concludes(spec: WorkflowSpec, agent: str) -> bool:
    """Does the agent's own text make concluding its duty (a director who says TERMINATE)?"""
    a = spec.agent(agent)
    text = f"{a.description} {a.instructions}".lower()
    return any(w in text for w in CLOSING_WORDS)


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    for stop in (". ", "! ", "? "):
        if stop in text:
            text = text.split(stop, 1)[0] + stop.strip()
    return text[:200]
