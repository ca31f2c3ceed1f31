"""One analysis of a run that every reporter renders (coverage.py's analysis/report split).

An `Analysis` holds the structure of the system (the counts the paper's Table I reports), the
structural coverage with its contexts, and whatever later stages attach (failures, usage). The
reporters never recompute anything: they format this.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from masfuzz.coverage.structural import CriterionResult, StructuralCoverage
from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.graph.obligations import CRITERION_NAMES, ObligationSpace
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import Trace


@dataclass
class Structure:
    """The paper's Table I columns for one workflow."""

    agents: int
    tools: int
    allowed: int
    restricted: int
    delegations: int
    obligations: int
    unreachable: list[str]

    @classmethod
    def of(cls, graph: CoordinationGraph, space: ObligationSpace) -> "Structure":
        return cls(
            agents=len(space.reach), tools=len(graph.tools), allowed=len(space.use_tool),
            restricted=len(space.restrict_tool), delegations=len(space.delegate),
            obligations=len(space), unreachable=graph.unreachable_agents(),
        )


@dataclass
class Analysis:
    spec: WorkflowSpec
    graph: CoordinationGraph
    space: ObligationSpace
    structure: Structure
    coverage: StructuralCoverage | None = None
    scenarios: int = 0
    failures: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of_spec(cls, spec: WorkflowSpec) -> "Analysis":
        graph = CoordinationGraph(spec)
        space = graph.obligations()
        return cls(spec, graph, space, Structure.of(graph, space))

    @classmethod
    def of_traces(cls, spec: WorkflowSpec, traces: list[Trace]) -> "Analysis":
        a = cls.of_spec(spec)
        a.coverage = StructuralCoverage(a.space).add_all(traces)
        a.scenarios = len({t.scenario_id for t in traces})
        return a

    def criteria(self) -> list[CriterionResult]:
        return self.coverage.results() if self.coverage else []

    @staticmethod
    def criterion_name(criterion: str) -> str:
        return CRITERION_NAMES.get(criterion, criterion)
