"""Workflow mutants (`masfuzz mutate`) of a CrewAI crew, for one run.

In CrewAI's own terms:

- a tool edge is an entry of the agent's `tools` (and of its tasks' `tools`, which replace the
  agent's for that task): `remove_tool_edge` takes the tool out of both lists, `grant_restricted`
  adds the real tool to them (and the run's hook lets the agent call it);
- a `delegate` edge (`allow_delegation`, the hierarchical manager) is a coworker CrewAI's
  delegation tools name: `drop_delegation` no longer offers the agent the tools that reach that
  coworker and refuses a call naming it, `retarget_delegation` sends the agent's hand-over to
  another coworker;
- a `sequence` edge carries one task's output into a later task (the crew's order, or the later
  task's `context`): `drop_delegation` takes the earlier agent's tasks out of the later task's
  `context` (a task without `context` is given every earlier output; it then gets the others');
  the order of the tasks is the app's and stays;
- `disconnect_agent` is every edge into the agent dropped; `swap_descriptions` exchanges two
  tools' `description`s; `remove_termination(agent)` lifts the agent's `max_iter` (its stop
  bound: CrewAI forces an answer after that many iterations of a task).

Lists are replaced, never edited, and every attribute is put back on exit
(`masfuzz.adapters.mutation`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from masfuzz.adapters import mutation as shared
from masfuzz.adapters.crewai.extract import ManagerStandIn, Walk, tool_name
from masfuzz.adapters.mutation import Changes, NotApplicable
from masfuzz.scenario import Mutation
from masfuzz.spec.mutants import UNBOUNDED_TURNS

OPERATORS: frozenset[str] = frozenset({
    "remove_tool_edge", "grant_restricted", "drop_delegation", "disconnect_agent",
    "retarget_delegation", "swap_descriptions", "remove_termination"})


@dataclass
class Mutant:
    """What a run does beyond the objects' changes: delegations refused or redirected (by the
    model bridge and the tool hook) and tools granted (the hook lets them through)."""

    dropped: set[tuple[str, str]] = field(default_factory=set)  # (from, to) coworker not offered
    redirect: dict[tuple[str, str], str] = field(default_factory=dict)  # (from, to) -> new to
    granted: set[tuple[str, str]] = field(default_factory=set)  # (agent, tool)


@contextlib.contextmanager
def mutated(w: Walk, mutation: Mutation | None) -> Iterator[Mutant]:
    with shared.applied(lambda changes, m: _apply(w, m, changes), mutation, Mutant()) as mutant:
        yield mutant


def problem(w: Walk, mutation: Mutation) -> str | None:
    if mutation.operator not in OPERATORS:
        return "not applicable on crewai"
    return shared.problem(lambda changes, m: _apply(w, m, changes), mutation)


def _apply(w: Walk, m: Mutation, changes: Changes) -> Mutant:
    op, args = m.operator, m.args
    out = Mutant()
    by_id = {w.id_of(a): a for a in w.agents}

    def agent(ident: str) -> Any:
        if ident not in by_id:
            raise NotApplicable(f"{m.label}: no agent {ident!r}")
        return by_id[ident]

    def tool(name: str) -> Any:
        found = next((e.tool for e in w.tools if e.name == name), None)
        if found is None:
            raise NotApplicable(f"{m.label}: no tool {name!r}")
        return found

    if op == "remove_tool_edge":
        a = agent(args[0])
        if not any(e.owner is a and e.name == args[1] for e in w.tools):
            raise NotApplicable(f"{m.label}: agent {args[0]} has no tool {args[1]!r}")
        for holder in [a, *_tasks_of(w, a)]:
            tools = list(getattr(holder, "tools", None) or ())
            if any(tool_name(t) == args[1] for t in tools):
                changes.put(holder, "tools", [t for t in tools if tool_name(t) != args[1]])
    elif op == "grant_restricted":
        a, t = agent(args[0]), tool(args[1])
        if isinstance(a, ManagerStandIn):
            raise NotApplicable(f"{m.label}: CrewAI makes its manager at kickoff, with no tools")
        for holder in [a, *(task for task in _tasks_of(w, a) if task.tools)]:
            changes.put(holder, "tools", [*(getattr(holder, "tools", None) or ()), t])
        out.granted.add((args[0], args[1]))
    elif op in ("drop_delegation", "disconnect_agent", "retarget_delegation"):
        target = agent(args[0] if op == "disconnect_agent" else args[1])
        edges = [(d.source, d.trigger) for d in w.delegations if d.target is target
                 and (op == "disconnect_agent" or w.id_of(d.source) == args[0])]
        if not edges:
            raise NotApplicable(f"{m.label}: no such delegation in the system")
        if op == "retarget_delegation":
            if any(trigger != "delegate" for _, trigger in edges):
                raise NotApplicable(f"{m.label}: the crew's task order makes this hand-over "
                                    "(a sequence): masfuzz does not reorder it")
            new = agent(args[2])
            if isinstance(new, ManagerStandIn) or new is agent(args[0]):
                raise NotApplicable(f"{m.label}: {args[2]} is no coworker of {args[0]}")
            out.redirect[(args[0], args[1])] = args[2]
        for source, trigger in edges:
            if trigger != "delegate":
                _drop_context(w, source, target, changes)
            elif op != "retarget_delegation":
                out.dropped.add((w.id_of(source), w.id_of(target)))
    elif op == "swap_descriptions":
        one, two = tool(args[0]), tool(args[1])
        first, second = one.description, two.description
        changes.put(one, "description", second)
        changes.put(two, "description", first)
    elif op == "remove_termination":
        a = agent(args[0]) if args and args[0] in by_id else None
        if a is None or isinstance(a, ManagerStandIn) or not getattr(a, "max_iter", None):
            raise NotApplicable(f"{m.label}: a crew's stop bounds are its agents' max_iter; "
                                f"no agent {args[0] if args else ''!r} with one")
        changes.put(a, "max_iter", UNBOUNDED_TURNS)
    else:
        raise shared.unknown(m)
    return out


def _tasks_of(w: Walk, agent: Any) -> list[Any]:
    return [t for t in w.crew.tasks if t.agent is agent]


def _drop_context(w: Walk, source: Any, target: Any, changes: Changes) -> None:
    """The tasks of `target` no longer given the output of `source`'s tasks: their `context`
    without those (a task without one is given every earlier task's output: all but those)."""
    tasks = list(w.crew.tasks)
    for i, task in enumerate(tasks):
        if task.agent is not target:
            continue
        given = task.context if isinstance(task.context, list) else tasks[:i]
        changes.put(task, "context", [t for t in given if t.agent is not source])
