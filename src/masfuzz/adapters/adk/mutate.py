"""Workflow mutants (`masfuzz mutate`) applied to the live ADK agent tree for one run.

The operators ADK can express on its own objects: a tool taken from an `LlmAgent`'s `tools` or
a restricted one given to it; a transfer edge dropped (a sub-agent taken from its parent's
`sub_agents`, or `disallow_transfer_to_parent` set), an `AgentTool` dropped; the turn limit
(ADK's `max_llm_calls`) raised, lowered or lifted. Lists are replaced, never edited, and every attribute is put back on
exit (`masfuzz.adapters.mutation`). Peer transfers, workflow order and descriptions are not
mutated: ADK offers them together (one flag for every peer), so one edge cannot go alone.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from masfuzz.adapters import mutation as shared
from masfuzz.adapters.adk.extract import Walk, kind_of, tool_edge
from masfuzz.adapters.mutation import Changes, NotApplicable, TurnLimit
from masfuzz.scenario import Mutation

OPERATORS: frozenset[str] = frozenset({"remove_tool_edge", "grant_restricted", "drop_delegation",
                                       "remove_termination", *shared.TURN_OPERATORS})


@contextlib.contextmanager
def mutated(w: Walk, mutation: Mutation | None) -> Iterator[TurnLimit]:
    with shared.applied(lambda changes, m: _apply(w, m, changes), mutation, shared.same) as turns:
        yield turns


def problem(w: Walk, mutation: Mutation) -> str | None:
    if mutation.operator not in OPERATORS:
        return "not applicable on adk"
    return shared.problem(lambda changes, m: _apply(w, m, changes), mutation)


def _name(agent: Any, tool: Any) -> str | None:
    edge = tool_edge(agent, tool)
    return edge.name if edge is not None else None


def _apply(w: Walk, m: Mutation, changes: Changes) -> TurnLimit:
    op, args = m.operator, m.args
    by_id = {w.id_of(a): a for a in w.agents}

    def agent(ident: str) -> Any:
        if ident not in by_id:
            raise NotApplicable(f"{m.label}: no agent {ident!r}")
        return by_id[ident]

    if op == "remove_tool_edge" or (op == "drop_delegation" and _as_tool(w, args)):
        a = agent(args[0])
        tools = list(getattr(a, "tools", None) or ())
        kept = [t for t in tools if _name(a, t) != args[1]]
        if len(kept) == len(tools):
            raise NotApplicable(f"{m.label}: agent {args[0]} has no tool {args[1]!r}")
        changes.put(a, "tools", kept)
    elif op == "grant_restricted":
        a = agent(args[0])
        if kind_of(a) != "llm":
            raise NotApplicable(f"{m.label}: {args[0]} is a workflow agent and calls no tool")
        found = next((e.tool for e in w.tools if e.name == args[1] and e.kind != "agent"), None)
        if found is None:
            raise NotApplicable(f"{m.label}: no tool {args[1]!r} to grant")
        changes.put(a, "tools", [*a.tools, found])
    elif op == "drop_delegation":
        source, target = agent(args[0]), agent(args[1])
        if target.parent_agent is source and kind_of(source) == "llm":
            changes.put(source, "sub_agents", [s for s in source.sub_agents if s is not target])
        elif source.parent_agent is target and kind_of(source) == "llm":
            changes.put(source, "disallow_transfer_to_parent", True)
        else:
            raise NotApplicable(f"{m.label}: ADK cannot drop this edge alone (a peer transfer, "
                                "or a workflow agent's order or graph edge)")
    elif (op == "remove_termination" and args[:1] == ("max_turns",)) or op in shared.TURN_OPERATORS:
        return shared.turn_limit(m)
    else:
        raise shared.unknown(m)
    return shared.same


def _as_tool(w: Walk, args: tuple[str, ...]) -> bool:
    return any(e.kind == "agent" and w.id_of(e.owner) == args[0] and w.id_of(e.tool.agent) == args[1]
               for e in w.tools)
