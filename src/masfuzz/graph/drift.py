"""Structural drift: how the workflow the code builds differs from the one a manifest declares
(`masfuzz inspect TARGET --against MANIFEST`).

A manifest is the reviewed statement of who may do what: the agents, the tools, which agent may
call which tool, which calls are restricted, who delegates to whom, where the work enters. Code
drifts from it silently: an agent is granted a tool, a restriction falls because a tool was
granted, a handoff is pointed at another agent, an agent disappears. Every such difference is a
`Drift`; CI fails on any. Delegations are compared as edges (how one is made, a handoff or a
graph edge, is the framework's business); restrictions as the restricted (agent, tool) pairs of
each coordination graph, so a closed-world code graph and a declared list compare alike. The
system's id is a name, not structure, and is not compared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.spec.model import WorkflowSpec


@dataclass(frozen=True)
class Drift:
    kind: str  # agent_added, tool_edge_added, restriction_removed, delegation_retargeted, ...
    subject: str  # the agent, tool, (agent, tool) or edge it is about, in words
    detail: str

    def line(self) -> str:
        return f"{self.kind.replace('_', ' ')}: {self.subject} ({self.detail})"


def drift(declared: WorkflowSpec, actual: WorkflowSpec) -> list[Drift]:
    """Every structural difference of `actual` (what the code builds) from `declared`."""
    out: list[Drift] = []
    if declared.system.entry_agent != actual.system.entry_agent:
        out.append(Drift("entry_changed", actual.system.entry_agent,
                         f"the manifest enters at {declared.system.entry_agent}"))
    out += _diff("agent", {a.id for a in declared.agents}, {a.id for a in actual.agents})
    out += _diff("tool", {t.id for t in declared.tools}, {t.id for t in actual.tools})
    out += _diff("tool_edge", set(declared.permissions.allow), set(actual.permissions.allow),
                 added="granted in the code, not in the manifest", removed="in the manifest, no longer granted")
    out += _diff("restriction", _restricted(declared), _restricted(actual),
                 added="restricted in the code, allowed or absent in the manifest",
                 removed="restricted in the manifest, no longer restricted in the code")
    out += _delegations({d.edge for d in declared.delegations}, {d.edge for d in actual.delegations})
    return out


def _restricted(spec: WorkflowSpec) -> set[tuple[str, str]]:
    keys = CoordinationGraph(spec).obligations().by_kind("restrict_tool").keys()
    return {(a, t) for a, t in keys}


def _diff(kind: str, declared: set[Any], actual: set[Any], *, added: str = "in the code, not in the manifest",
          removed: str = "in the manifest, not in the code") -> list[Drift]:
    """What `actual` has that `declared` has not, and the reverse; an (agent, tool) pair in words."""
    def name(x: Any) -> str:
        return " -> ".join(x) if isinstance(x, tuple) else x

    return ([Drift(f"{kind}_added", name(x), added) for x in sorted(actual - declared)]
            + [Drift(f"{kind}_removed", name(x), removed) for x in sorted(declared - actual)])


def _delegations(declared: set[tuple[str, str]], actual: set[tuple[str, str]]) -> list[Drift]:
    """Added and removed delegation edges; one removed and one added from the same agent are a
    delegation pointed elsewhere (retargeted)."""
    gone = sorted(declared - actual)
    new = sorted(actual - declared)
    out: list[Drift] = []
    for a, b in list(gone):
        moved = next(((x, y) for x, y in new if x == a), None)
        if moved is not None:
            gone.remove((a, b))
            new.remove(moved)
            out.append(Drift("delegation_retargeted", f"{a} -> {moved[1]}", f"the manifest has {a} -> {b}"))
    out += [Drift("delegation_added", f"{a} -> {b}", "in the code, not in the manifest") for a, b in new]
    out += [Drift("delegation_removed", f"{a} -> {b}", "in the manifest, not in the code") for a, b in gone]
    return out
