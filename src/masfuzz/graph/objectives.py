"""Witness objectives (rules R1–R4) and obligation-preserving bundling (structural-coverage §III-B).

R1–R4 turn every obligation into one typed objective: Reach(a), UseTool(a, t), RestrictTool(a, t),
Delegate(a, b). Bundling merges them into fewer tests without losing any obligation: a bundle has
one driver (which picks the realizer) plus the reachability objectives the driver entails. Two
non-reachability drivers are never merged, so no bundle can ask one agent to both use and be
refused the same tool.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.graph.obligations import CRITERIA, Obligation, ObligationSpace

Family = Literal["Reach", "UseTool", "RestrictTool", "Delegate"]
FAMILY: dict[str, Family] = {
    "reach": "Reach", "use_tool": "UseTool", "restrict_tool": "RestrictTool", "delegate": "Delegate",
}
# Drivers that tend to succeed first absorb the reachability objectives, so a reach objective is
# not lost when its driver is a hard (often unrealized) restricted-tool probe.
_DRIVER_ORDER = {"use_tool": 0, "delegate": 1, "restrict_tool": 2}


@dataclass(frozen=True)
class Objective:
    obligation: Obligation

    @property
    def family(self) -> Family:
        return FAMILY[self.obligation.kind]

    @property
    def id(self) -> str:
        return self.obligation.id

    def entailed_agents(self) -> tuple[str, ...]:
        """Agents a trace witnessing this objective necessarily shows acting."""
        ob = self.obligation
        if ob.kind == "delegate":
            return ob.endpoints  # the parent hands over and the child then acts
        return ob.endpoints[:1]

    def __str__(self) -> str:
        return f"{self.family}({', '.join(self.obligation.endpoints)})"


@dataclass(frozen=True)
class Bundle:
    driver: Objective
    secondary: tuple[Objective, ...] = ()

    @property
    def objectives(self) -> tuple[Objective, ...]:
        return (self.driver, *self.secondary)

    @property
    def obligation_ids(self) -> tuple[str, ...]:
        return tuple(o.id for o in self.objectives)

    @property
    def id(self) -> str:
        return self.driver.id

    def __str__(self) -> str:
        extra = f" + {', '.join(map(str, self.secondary))}" if self.secondary else ""
        return f"{self.driver}{extra}"


def objectives(space: ObligationSpace, kinds: tuple[str, ...] | None = None) -> list[Objective]:
    """R1–R4: one objective per obligation, in criterion order."""
    return [Objective(ob) for ob in space if kinds is None or ob.kind in kinds]


def bundle(objs: list[Objective], *, merge: bool = True) -> list[Bundle]:
    """Obligation-preserving merge: each driver takes the reach objectives it entails."""
    if not merge:
        return [Bundle(o) for o in objs]
    reach = {o.obligation.endpoints[0]: o for o in objs if o.obligation.kind == "reach"}
    drivers = sorted(
        (o for o in objs if o.obligation.kind != "reach"),
        key=lambda o: _DRIVER_ORDER[o.obligation.kind],
    )
    bundles: list[Bundle] = []
    for d in drivers:
        taken = tuple(reach.pop(a) for a in d.entailed_agents() if a in reach)
        bundles.append(Bundle(d, taken))
    bundles.extend(Bundle(o) for o in reach.values())  # agents no driver entails
    # Present bundles in criterion order (C2, C3, C4, then C1), as the report lists them.
    order = {"use_tool": 0, "restrict_tool": 1, "delegate": 2, "reach": 3}
    return sorted(bundles, key=lambda b: order[b.driver.obligation.kind])


def plan(spec: Any, *, criteria: tuple[str, ...] = tuple(CRITERIA.values()),
         merge: bool = True) -> tuple[CoordinationGraph, list[Objective], list[Bundle]]:
    """The graph, objectives and bundles of a spec: a pure function of the spec and the
    configuration, so a report can rebuild them from a stored run."""
    graph = CoordinationGraph(spec)
    kinds = tuple(k for k, c in CRITERIA.items() if c in criteria)
    objs = objectives(graph.obligations(), kinds)
    return graph, objs, bundle(objs, merge=merge)
