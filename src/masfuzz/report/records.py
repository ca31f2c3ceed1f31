"""Typed records of what a run's phases decided, kept in the run's summary: the report reads
them, never deciding again what the phase decided (a re-plan from the configuration could
disagree with the run it reports when the planner changed since).

A record is written by its phase (`summary()`, stored by the campaign's finish) as plain data
under its `KEY`, and read back by `of_summary`; a run stored before its phase wrote one gives
None, and its section is rebuilt from the configuration as it was before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class PlannedBundle:
    """One objective bundle the structural phase planned: the objectives one request is
    written for (`masfuzz.graph.objectives.Bundle`)."""

    id: str  # the driving objective's obligation id
    label: str  # as the report shows it
    obligations: tuple[str, ...]


@dataclass(frozen=True)
class StructuralRecord:
    """What the structural phase decided: the objectives and bundles it planned, the bundle
    each accepted scenario realized, and the bundles the budget left unfinished."""

    KEY: ClassVar[str] = "structural"

    objectives: int
    bundles: tuple[PlannedBundle, ...]
    realized: tuple[tuple[str, str], ...] = ()  # (bundle id, the accepted scenario's id)
    unfinished: tuple[str, ...] = ()

    def to_data(self) -> dict[str, Any]:
        return {"objectives": self.objectives,
                "bundles": [{"id": b.id, "label": b.label, "obligations": list(b.obligations)}
                            for b in self.bundles],
                "realized": [list(r) for r in self.realized], "unfinished": list(self.unfinished)}

    @classmethod
    def of_summary(cls, summary: dict[str, Any]) -> "StructuralRecord | None":
        data = summary.get(cls.KEY)
        if not isinstance(data, dict):
            return None
        return cls(objectives=int(data["objectives"]),
                   bundles=tuple(PlannedBundle(b["id"], b["label"], tuple(b["obligations"]))
                                 for b in data["bundles"]),
                   realized=tuple((r[0], r[1]) for r in data.get("realized", ())),
                   unfinished=tuple(data.get("unfinished", ())))
