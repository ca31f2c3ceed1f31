"""Workflow mutants (`masfuzz mutate`) applied to the live Agents SDK objects for one run.

`mutated(walk, mutation)` changes the reachable agents the way the mutation says (their `tools`
and `handoffs` lists, a tool's description, an agent's `tool_use_behavior`) and gives back how
the run's turn limit changes; on exit every attribute it set is put back. Lists are replaced,
never edited, and tools are copied (`dataclasses.replace`), so the user's objects are unchanged
after the run and the source is never touched. It runs inside the run's system lock, like the
tool instrumentation, so concurrent runs of one system never see another run's mutant.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from collections.abc import Iterator
from typing import Any

from masfuzz.adapters import mutation as shared
from masfuzz.adapters.mutation import Changes, NotApplicable, TurnLimit
from masfuzz.adapters.openai_agents import sdk
from masfuzz.adapters.openai_agents.extract import Walk
from masfuzz.spec.mutants import NAMES
from masfuzz.scenario import Mutation

OPERATORS: frozenset[str] = frozenset(NAMES)  # every operator applies to this framework

# description-swapped copies, made once per (tool object, description); the original is kept
# in the value so that its id cannot be reused while the entry lives
_copies: dict[tuple[int, str], tuple[Any, Any]] = {}


@contextlib.contextmanager
def mutated(w: Walk, mutation: Mutation | None) -> Iterator[TurnLimit]:
    """Apply `mutation` to the objects of `w` until exit; yields turn limit -> mutant's limit."""
    with shared.applied(lambda changes, m: _apply(w, m, changes), mutation, shared.same) as turns:
        yield turns


def problem(w: Walk, mutation: Mutation) -> str | None:
    """Why `mutation` cannot apply to this system, or None: it is applied and undone at once."""
    return shared.problem(lambda changes, m: _apply(w, m, changes), mutation)


def _apply(w: Walk, m: Mutation, changes: Changes) -> TurnLimit:
    op, args = m.operator, m.args
    put = changes.put
    by_id = {w.id_of(a): a for a in w.agents}

    def agent(ident: str) -> Any:
        try:
            return by_id[ident]
        except KeyError:
            raise NotApplicable(f"{m.label}: no agent {ident!r}") from None

    if op == "remove_tool_edge":
        a, tool = agent(args[0]), args[1]
        tools = list(getattr(a, "tools", None) or ())
        kept = [t for t in tools if sdk.is_handoff(t) or sdk.tool_name(t) != tool]
        if len(kept) == len(tools):
            raise NotApplicable(f"{m.label}: agent {args[0]} has no tool {tool!r}")
        put(a, "tools", kept)
    elif op == "grant_restricted":
        a, tool = agent(args[0]), args[1]
        found = next((e.tool for e in w.tools if e.name == tool and e.kind != "agent"), None)
        if found is None:
            raise NotApplicable(f"{m.label}: no tool {tool!r} to grant")
        put(a, "tools", [*(getattr(a, "tools", None) or ()), found])
    elif op in ("drop_delegation", "retarget_delegation", "disconnect_agent"):
        if op == "disconnect_agent":
            agent(args[0])
            edges = [d for d in w.delegations if w.id_of(d.target) == args[0]]
        else:
            edges = [d for d in w.delegations
                     if (w.id_of(d.source), w.id_of(d.target)) == (args[0], args[1])]
        if not edges:
            raise NotApplicable(f"{m.label}: no such delegation in the system")
        new = agent(args[2]) if op == "retarget_delegation" else None
        for edge in edges:
            _rewire(edge, new, w, put)
    elif op == "swap_descriptions":
        one, two = (_function_tool(w, t, m) for t in args[:2])
        texts = {args[0]: getattr(two, "description", ""), args[1]: getattr(one, "description", "")}
        for a in w.agents:
            tools = list(getattr(a, "tools", None) or ())
            if any(not sdk.is_handoff(t) and sdk.tool_name(t) in texts for t in tools):
                put(a, "tools", [_described(t, texts[sdk.tool_name(t)])
                                 if not sdk.is_handoff(t) and sdk.tool_name(t) in texts else t
                                 for t in tools])
    elif op == "remove_termination" and args[:1] != ("max_turns",):
        a = agent(args[0])
        if getattr(a, "tool_use_behavior", "run_llm_again") == "run_llm_again":
            raise NotApplicable(f"{m.label}: agent {args[0]} has no stop condition to remove")
        put(a, "tool_use_behavior", "run_llm_again")
    elif op == "remove_termination" or op in shared.TURN_OPERATORS:
        return shared.turn_limit(m)
    else:
        raise shared.unknown(m)
    return shared.same


def _rewire(edge: Any, new: Any, w: Walk, put: Any) -> None:
    """Remove the object that makes `edge` (a handoff or an `as_tool` tool) from its source's
    list, or put one delegating to `new` in its place."""
    for attr in ("handoffs", "tools"):
        items = list(getattr(edge.source, attr, None) or ())
        if not any(x is edge.via for x in items):
            continue
        if new is None:
            replacement: list[Any] = []
        elif edge.trigger == "as_tool":
            name = re.sub(r"\W", "_", w.id_of(new))
            replacement = [new.as_tool(tool_name=name,
                                       tool_description=getattr(edge.via, "description", "") or name)]
        else:
            replacement = [new]  # the SDK's default handoff to it (transfer_to_<name>)
        put(edge.source, attr, [y for x in items for y in (replacement if x is edge.via else [x])])
        return


def _function_tool(w: Walk, name: str, m: Mutation) -> Any:
    found = next((e.tool for e in w.tools if e.name == name and e.kind != "agent"), None)
    if found is None:
        raise NotApplicable(f"{m.label}: no tool {name!r}")
    if not dataclasses.is_dataclass(found) or not hasattr(found, "description"):
        raise NotApplicable(f"{m.label}: tool {name!r} has no description masfuzz can set")
    return found


def _described(tool: Any, text: str) -> Any:
    key = (id(tool), text)
    cached = _copies.get(key)
    if cached is None or cached[0] is not tool:
        cached = _copies[key] = (tool, dataclasses.replace(tool, description=text))
    return cached[1]
