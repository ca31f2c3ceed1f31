"""The speaker changes an AG2 group pattern allows, read from its agents' hand-offs.

A group started with `initiate_group_chat(pattern=...)` (DefaultPattern, AutoPattern,
RoundRobinPattern, ...) gives its `GroupChat` every agent and no transition limits: who speaks
next is decided by AG2's group transition, not by the manager's model. That transition follows,
for the agent that just spoke (AG2's `determine_next_agent`):
- its tool calls' `ReplyResult(target=...)`, read from each tool's source;
- its hand-offs: LLM conditions (offered as `transfer_to_*` tools), context conditions and
  after-work conditions, then the group's after-work when none of its own is unconditional.

Each target resolves to the agents it can give the floor to: an agent (`AgentTarget`,
`AgentNameTarget`), one of a list (`RandomAgentTarget`), any other agent when the manager's model
picks (`GroupManagerTarget`), nobody (`StayTarget`, `TerminateTarget`, and the user, who hands
the floor back to the agent that asked). A target masfuzz cannot read (a function deciding, a
`ReplyResult` target computed at run time) may lead to any other agent: reading less would
declare edges a run then takes.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any, Iterable

from masfuzz.adapters.ag2.tools import apps_own

_TRANSITION = "create_group_transition.<locals>.group_transition"
_NAMED = {"AgentTarget": "agent", "AgentNameTarget": "agent_name"}
_NOBODY = {"StayTarget", "TerminateTarget", "RevertToUserTarget", "AskUserTarget"}


def pattern_transition(group: Any) -> dict[str, Any] | None:
    """The state AG2's group transition closes over (`group_after_work`, `user_agent`, ...),
    or None when the group's speakers are chosen otherwise."""
    fn = getattr(group, "speaker_selection_method", None)
    if not callable(fn) or getattr(fn, "__qualname__", "") != _TRANSITION:
        return None
    try:
        return dict(inspect.getclosurevars(fn).nonlocals)
    except (TypeError, ValueError):
        return None


def pattern_edges(group: Any, state: dict[str, Any]) -> set[tuple[str, str]]:
    """(speaker, next speaker) for every participant of a pattern's group, model-less ones
    (a nested chat's wrapper agent) included: the caller follows edges through those."""
    members = [m.name for m in group.agents]
    after_all = state.get("group_after_work")
    edges: set[tuple[str, str]] = set()
    for agent in group.agents:
        hand = getattr(agent, "handoffs", None)
        if hand is None:
            continue
        targets = [c.target for c in (*hand.llm_conditions, *hand.context_conditions, *hand.after_works)]
        if after_all is not None and not any(aw.condition is None for aw in hand.after_works):
            targets.append(after_all)
        others = [m for m in members if m != agent.name]
        names: set[str] = set()
        for t in targets:
            names.update(_resolve(t, others))
        for func in _tool_functions(agent):
            names.update(_reply_targets(func, others))
        edges.update((agent.name, n) for n in names if n != agent.name)
    return edges


def _resolve(target: Any, others: list[str]) -> Iterable[str]:
    kind = type(target).__name__
    if kind in _NAMED:
        return [target.agent_name]
    if kind in _NOBODY:
        return []
    if kind == "RandomAgentTarget":
        return list(target.agent_names)
    return others  # GroupManagerTarget (the manager's model picks), or one masfuzz cannot read


def _tool_functions(agent: Any) -> list[Any]:
    funcs = [getattr(t, "func", None) for t in getattr(agent, "tools", ())]
    funcs += list((getattr(agent, "function_map", None) or {}).values())
    return [f for f in dict.fromkeys(funcs) if f is not None]


def _reply_targets(func: Any, others: list[str]) -> set[str]:
    """The agents a tool's `ReplyResult(target=...)` names. Any other agent when its source
    cannot be read or a target is computed at run time."""
    func = apps_own(func)
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    except (OSError, TypeError, SyntaxError):
        return set(others)
    scope = {**getattr(func, "__globals__", {}), **_closure(func)}
    out: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _name(node.func) == "ReplyResult"):
            continue
        for kw in node.keywords:
            if kw.arg == "target" and not (isinstance(kw.value, ast.Constant) and kw.value.value is None):
                out.update(_target_names(kw.value, scope, others))
    return out


def _target_names(expr: ast.expr, scope: dict[str, Any], others: list[str]) -> list[str]:
    if not isinstance(expr, ast.Call):
        return others
    kind = _name(expr.func)
    if kind in _NOBODY:
        return []
    if kind not in _NAMED:
        return others
    arg = expr.args[0] if expr.args else next(
        (k.value for k in expr.keywords if k.arg == _NAMED[kind]), None)
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return [arg.value]
    if isinstance(arg, ast.Name):
        value = scope.get(arg.id)
        name = value if isinstance(value, str) else getattr(value, "name", None)
        if isinstance(name, str):
            return [name]
    return others


def _name(expr: ast.expr) -> str:
    if isinstance(expr, ast.Name):
        return expr.id
    return expr.attr if isinstance(expr, ast.Attribute) else ""


def _closure(func: Any) -> dict[str, Any]:
    try:
        return dict(inspect.getclosurevars(func).nonlocals)
    except (TypeError, ValueError):
        return {}
