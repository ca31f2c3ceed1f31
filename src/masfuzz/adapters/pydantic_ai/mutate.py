"""Workflow mutants (`masfuzz mutate`) of a PydanticAI system, for one run.

Nothing of the user's objects is changed: a run already gives each agent its toolsets through
`agent.override(toolsets=...)` (`run`), so a mutant is what that override hides, adds or
re-describes, and the request limit the run gets. A tool taken from its agent is hidden from the
agent's toolsets; a restricted tool granted is added to the agent's toolsets; two tools swap
descriptions in what the model is offered. A delegation lives in a tool's code
(`await other.run(...)`), so dropping it hides the tools through which the source runs the
target (every tool running the target, to disconnect it); retargeting it would mean rewriting
that code and is not applicable, nor is any mutant of a `sequence` edge, the app's own code,
or of a pydantic-graph graph's `graph_edge` (a node's return type).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from masfuzz.adapters import mutation as shared
from masfuzz.adapters.mutation import NotApplicable, TurnLimit
from masfuzz.adapters.pydantic_ai.extract import Walk
from masfuzz.scenario import Mutation

OPERATORS: frozenset[str] = frozenset({
    "remove_tool_edge", "grant_restricted", "drop_delegation", "disconnect_agent",
    "swap_descriptions", "weaken_termination", "remove_termination", "lower_turn_limit",
    "retarget_delegation"})  # offered, and said not applicable to each system (`problem`)


@dataclass
class Mutant:
    hidden: dict[str, set[str]] = field(default_factory=dict)  # agent -> tools hidden from it
    granted: dict[str, list[Any]] = field(default_factory=dict)  # agent -> Tools added to it
    descriptions: dict[str, str] = field(default_factory=dict)  # tool -> the description offered
    turns: TurnLimit = shared.same  # the run's request limit -> the mutant's


def mutant(w: Walk, m: Mutation | None) -> Mutant:
    """What `m` changes in a run of the system `w` walked (nothing when there is no mutant)."""
    out = Mutant()
    if m is None:
        return out
    op, args = m.operator, m.args
    ids = {w.id_of(a) for a in w.agents}

    def agent(ident: str) -> str:
        if ident not in ids:
            raise NotApplicable(f"{m.label}: no agent {ident!r}")
        return ident

    def tool(name: str) -> Any:
        found = next((e.tool for e in w.tools if e.name == name and e.kind == "function"), None)
        if found is None:
            raise NotApplicable(f"{m.label}: no function tool {name!r}")
        return found

    if op == "remove_tool_edge":
        owner = agent(args[0])
        if not any(w.id_of(e.owner) == owner and e.name == args[1] for e in w.tools):
            raise NotApplicable(f"{m.label}: agent {owner} has no tool {args[1]!r}")
        out.hidden.setdefault(owner, set()).add(args[1])
    elif op == "grant_restricted":
        out.granted.setdefault(agent(args[0]), []).append(tool(args[1]))
    elif op in ("drop_delegation", "disconnect_agent"):
        edges = [(s, t, trigger, why) for s, t, trigger, why in w.delegations
                 if w.id_of(t) == agent(args[-1] if op == "disconnect_agent" else args[1])
                 and (op == "disconnect_agent" or w.id_of(s) == args[0])]
        if not edges:
            raise NotApplicable(f"{m.label}: no such delegation in the system")
        if any(trigger != "as_tool" for _, _, trigger, _ in edges):
            raise NotApplicable(f"{m.label}: the app's own code or graph makes this hand-off (a "
                                "sequence or a graph edge): masfuzz does not rewrite it")
        for source, _, _, why in edges:
            out.hidden.setdefault(w.id_of(source), set()).add(why.removeprefix("tool "))
    elif op == "swap_descriptions":
        one, two = tool(args[0]), tool(args[1])
        out.descriptions = {args[0]: str(two.description or ""), args[1]: str(one.description or "")}
    elif op == "remove_termination" and args[:1] != ("max_turns",):
        raise NotApplicable(f"{m.label}: a PydanticAI agent ends by its answer, which masfuzz does "
                            "not remove")
    elif op == "remove_termination" or op in shared.TURN_OPERATORS:
        out.turns = shared.turn_limit(m)
    elif op == "retarget_delegation":
        raise NotApplicable(f"{m.label}: the delegating tool's code names the agent it runs; "
                            "masfuzz does not rewrite it")
    else:
        raise shared.unknown(m)
    return out


def problem(w: Walk, m: Mutation) -> str | None:
    """Why `m` cannot apply to this system, or None."""
    try:
        mutant(w, m)
    except NotApplicable as exc:
        return str(exc)
    return None
