"""The typed coordination graph G(S) = (V_A, V_T, E_allow, E_restrict, E_del) and its
reachable obligation space (structural-coverage §III-A).

Reachability is computed from the entry agent over delegation edges, so cycles are harmless, and
only the reachable part of the workflow carries obligations.
"""

from __future__ import annotations

from collections import deque
from functools import cached_property

from masfuzz.graph.obligations import ClosedWorldRestricted, ObligationSet, ObligationSpace
from masfuzz.spec.model import WorkflowSpec


class CoordinationGraph:
    def __init__(self, spec: WorkflowSpec) -> None:
        self.spec = spec
        self.agents: list[str] = [a.id for a in spec.agents]
        self.tools: list[str] = [t.id for t in spec.tools]
        self.allow: list[tuple[str, str]] = list(dict.fromkeys(spec.permissions.allow))
        self.delegations: list[tuple[str, str]] = list(
            dict.fromkeys(d.edge for d in spec.delegations)
        )
        self.allowed_by_agent: dict[str, set[str]] = {}
        for a, t in self.allow:
            self.allowed_by_agent.setdefault(a, set()).add(t)
        self.successors: dict[str, list[str]] = {}
        for a, b in self.delegations:
            self.successors.setdefault(a, []).append(b)

    @cached_property
    def reachable(self) -> list[str]:
        """A_reach in breadth-first order from the entry agent (so routes are shortest)."""
        return list(self.routes)

    @cached_property
    def routes(self) -> dict[str, tuple[str, ...]]:
        """A shortest delegation route from the entry agent to every reachable agent."""
        entry = self.spec.system.entry_agent
        routes = {entry: (entry,)}
        queue = deque([entry])
        while queue:
            a = queue.popleft()
            for b in self.successors.get(a, ()):
                if b not in routes:
                    routes[b] = routes[a] + (b,)
                    queue.append(b)
        return routes

    def route_to(self, agent: str) -> tuple[str, ...] | None:
        return self.routes.get(agent)

    def obligations(self) -> ObligationSpace:
        reach = set(self.reachable)
        a_reach = ObligationSet("reach", ((a,) for a in self.reachable))
        t_allow = ObligationSet("use_tool", ((a, t) for a, t in self.allow if a in reach))
        if self.spec.permissions.restrict_mode == "closed_world":
            t_restrict: ObligationSet = ClosedWorldRestricted(
                self.reachable, self.tools, self.allowed_by_agent
            )
        else:
            t_restrict = ObligationSet(
                "restrict_tool",
                ((a, t) for a, t in dict.fromkeys(self.spec.permissions.restrict) if a in reach),
            )
        d = ObligationSet(
            "delegate", ((a, b) for a, b in self.delegations if a in reach and b in reach)
        )
        return ObligationSpace(a_reach, t_allow, t_restrict, d)

    def unreachable_agents(self) -> list[str]:
        reach = set(self.reachable)
        return [a for a in self.agents if a not in reach]
