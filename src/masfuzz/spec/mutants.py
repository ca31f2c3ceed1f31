"""Mutation operators on the workflow: each a named, deterministic enumeration of mutants.

A mutant is a `masfuzz.scenario.Mutation` (operator and arguments) computed from the spec alone;
the adapter of the target's framework applies it to the live objects of the system at run time,
in the process that runs the scenario, and restores them after (the source is never edited).
The operators are the structural faults a workflow regression introduces:

- `remove_tool_edge(agent, tool)`: an allowed tool taken from the agent;
- `grant_restricted(agent, tool)`: a restricted tool given to the agent (the real tool);
- `retarget_delegation(from, to, new_to)`: a delegation sent to another agent instead;
- `drop_delegation(from, to)`: one delegation removed;
- `disconnect_agent(agent)`: every delegation into the agent removed (not the entry agent,
  which every run reaches first);
- `swap_descriptions(tool, tool)`: two tools' descriptions exchanged;
- `weaken_termination(max_turns, N)`: the turn limit raised tenfold (a runaway run stops later);
- `remove_termination(agent)`: an agent's stop condition (`tool_use_behavior`; CrewAI's
  `max_iter`) removed,
  `remove_termination(Condition)`: a team's termination condition of that class removed
  (AgentChat), or `remove_termination(max_turns)`: the turn limit lifted;
- `lower_turn_limit(N)`: the turn limit halved.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from masfuzz.errors import MasfuzzError
from masfuzz.scenario import Mutation
from masfuzz.spec.model import WorkflowSpec

# A turn limit standing for "none": a run without a limit is still bounded by its time limit.
UNBOUNDED_TURNS = 10_000


def _m(operator: str, *args: object) -> Mutation:
    return Mutation(operator=operator, args=tuple(str(a) for a in args))


def _agents(spec: WorkflowSpec) -> list[str]:
    return [a.id for a in spec.agents]


def restricted_pairs(spec: WorkflowSpec) -> list[tuple[str, str]]:
    """The (agent, tool) pairs the spec restricts: declared, or every reachable agent x workflow
    tool not allowed under the closed world (as the paper's Table I counts)."""
    p = spec.permissions
    if p.restrict_mode == "closed_world":
        allowed = set(p.allow)
        return [(a, t.id) for a in _agents(spec) for t in spec.tools
                if t.kind != "agent" and (a, t.id) not in allowed]
    return list(p.restrict)


def remove_tool_edge(spec: WorkflowSpec) -> list[Mutation]:
    return [_m("remove_tool_edge", a, t) for a, t in spec.permissions.allow]


def grant_restricted(spec: WorkflowSpec) -> list[Mutation]:
    return [_m("grant_restricted", a, t) for a, t in restricted_pairs(spec)]


def retarget_delegation(spec: WorkflowSpec) -> list[Mutation]:
    """Each delegation a->b sent to the first agent c (spec order) that a does not already
    delegate to and that is neither a nor b: one mutant per delegation, not one per c."""
    out = []
    for d in spec.delegations:
        taken = {e.to for e in spec.delegations if e.from_ == d.from_}
        other = next((c for c in _agents(spec) if c not in taken and c != d.from_), None)
        if other is not None:
            out.append(_m("retarget_delegation", d.from_, d.to, other))
    return out


def drop_delegation(spec: WorkflowSpec) -> list[Mutation]:
    return [_m("drop_delegation", d.from_, d.to) for d in spec.delegations]


def disconnect_agent(spec: WorkflowSpec) -> list[Mutation]:
    targets = dict.fromkeys(d.to for d in spec.delegations if d.to != spec.system.entry_agent)
    return [_m("disconnect_agent", a) for a in targets]


def swap_descriptions(spec: WorkflowSpec) -> list[Mutation]:
    """Neighbouring pairs of tools with different descriptions (t1<->t2, t2<->t3, ...): every
    tool swapped once or twice, not every pair."""
    tools = [t for t in spec.tools if t.kind != "agent"]
    return [_m("swap_descriptions", a.id, b.id) for a, b in zip(tools, tools[1:])
            if a.description != b.description]


def weaken_termination(spec: WorkflowSpec) -> list[Mutation]:
    limit = spec.termination.max_turns
    return [_m("weaken_termination", "max_turns", limit * 10)] if limit else []


# An AgentChat termination condition as the spec renders it (`TextMentionTermination(...)`);
# MaxMessageTermination is the turn limit, which the turn-limit operators change.
_CONDITION = re.compile(r"\b(\w+Termination)\(")
TURN_CONDITIONS = ("MaxMessageTermination",)


def stop_conditions(spec: WorkflowSpec) -> list[str]:
    """The stop conditions of the spec other than its turn limit, by the name a mutant gives
    them: an Agents SDK agent with a `tool_use_behavior` (the agent's id), an AgentChat
    termination condition (its class, every one of that class in the team's condition), a CrewAI
    agent's `max_iter` (the agent's id)."""
    out = []
    for c in spec.termination.conditions:
        if ": tool_use_behavior=" in c or ": max_iter=" in c:  # CrewAI: an agent's stop bound
            out.append(c.split(":", 1)[0])
        out += [n for n in _CONDITION.findall(c) if n not in TURN_CONDITIONS]
    return list(dict.fromkeys(out))


def remove_termination(spec: WorkflowSpec) -> list[Mutation]:
    out = [_m("remove_termination", name) for name in stop_conditions(spec)]
    if spec.termination.max_turns:
        out.append(_m("remove_termination", "max_turns"))
    return out


def lower_turn_limit(spec: WorkflowSpec) -> list[Mutation]:
    limit = spec.termination.max_turns
    return [_m("lower_turn_limit", limit // 2)] if limit and limit > 1 else []


OPERATORS: dict[str, Callable[[WorkflowSpec], list[Mutation]]] = {
    "remove_tool_edge": remove_tool_edge,
    "grant_restricted": grant_restricted,
    "retarget_delegation": retarget_delegation,
    "drop_delegation": drop_delegation,
    "disconnect_agent": disconnect_agent,
    "swap_descriptions": swap_descriptions,
    "weaken_termination": weaken_termination,
    "remove_termination": remove_termination,
    "lower_turn_limit": lower_turn_limit,
}
NAMES: tuple[str, ...] = tuple(OPERATORS)

DESCRIPTIONS = {
    "remove_tool_edge": "an allowed tool taken from its agent",
    "grant_restricted": "a restricted tool given to an agent",
    "retarget_delegation": "a delegation sent to another agent",
    "drop_delegation": "a delegation removed",
    "disconnect_agent": "every delegation into an agent removed",
    "swap_descriptions": "two tools' descriptions exchanged",
    "weaken_termination": "the turn limit raised tenfold",
    "remove_termination": "a stop condition or the turn limit removed",
    "lower_turn_limit": "the turn limit halved",
}


def parse_operators(value: str | Iterable[str] | None) -> list[str]:
    """`op1,op2` (or a list) -> operator names in the given order; None or empty: all."""
    if value is None:
        return list(NAMES)
    items = value.split(",") if isinstance(value, str) else list(value)
    names = [i.strip() for i in items if i.strip()]
    bad = [n for n in names if n not in OPERATORS]
    if bad:
        raise MasfuzzError(f"--operators: unknown operator {bad[0]!r} (choose from {', '.join(NAMES)})")
    return list(dict.fromkeys(names)) or list(NAMES)


def mutants(spec: WorkflowSpec, operators: Iterable[str] | None = None) -> dict[str, list[Mutation]]:
    """Operator -> its mutants of `spec`, in a fixed order (an empty list: none on this spec)."""
    return {name: OPERATORS[name](spec) for name in (operators or NAMES)}
