"""Structural coverage C1–C4 (structural-coverage §III-A), computed from traces alone.

`observe(trace)` is obs(x) = (agents(x), tools(x), restricted(x), delegations(x)). `Cov(X, O, W)`
is 1 for an empty obligation set and the witnessed fraction otherwise. C3 counts only explicit
`restricted_attempt` events: the absence of a call never witnesses a restriction.

Like coverage.py's contexts, `StructuralCoverage` keeps, for every witnessed obligation, which
scenarios witnessed it, so a report can say why an obligation counts as covered.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from masfuzz.graph.obligations import CRITERIA, Obligation, ObligationSet, ObligationSpace
from masfuzz.trace import (
    AgentTurn,
    DelegationEvent,
    Message,
    RestrictedAttempt,
    ToolCall,
    Trace,
)


@dataclass(frozen=True)
class Observation:
    agents: frozenset[str]
    tools: frozenset[tuple[str, str]]
    restricted: frozenset[tuple[str, str]]
    delegations: frozenset[tuple[str, str]]

    def witnesses(self, ob: Obligation) -> bool:
        """W(x, ω): does this observation witness the obligation?"""
        if ob.kind == "reach":
            return ob.endpoints[0] in self.agents
        pair = (ob.endpoints[0], ob.endpoints[1])
        return pair in {
            "use_tool": self.tools,
            "restrict_tool": self.restricted,
            "delegate": self.delegations,
        }[ob.kind]

    def keys(self, kind: str) -> Iterable[tuple[str, ...]]:
        if kind == "reach":
            return ((a,) for a in self.agents)
        return {"use_tool": self.tools, "restrict_tool": self.restricted,
                "delegate": self.delegations}[kind]


def observe(trace: Trace) -> Observation:
    agents: set[str] = set()
    tools: set[tuple[str, str]] = set()
    restricted: set[tuple[str, str]] = set()
    delegations: set[tuple[str, str]] = set()
    for e in trace.events:
        if isinstance(e, AgentTurn):
            agents.add(e.agent)
        elif isinstance(e, Message) and e.role == "assistant" and e.agent:
            agents.add(e.agent)
        elif isinstance(e, ToolCall):
            agents.add(e.agent)
            tools.add((e.agent, e.tool))
        elif isinstance(e, RestrictedAttempt):
            agents.add(e.agent)
            restricted.add((e.agent, e.tool))
        elif isinstance(e, DelegationEvent):
            delegations.add((e.from_, e.to))
    return Observation(frozenset(agents), frozenset(tools), frozenset(restricted),
                       frozenset(delegations))


def structural_items(obs: Observation, space: ObligationSpace) -> set[str]:
    """What the structural coverage model counts for one observation: every obligation-shaped
    fact it shows (an agent acting, a tool edge, a restricted attempt, a delegation), whether
    or not Ω(S) declares it — a call to a restricted tool is left to C3, which counts only
    explicit restricted attempts."""
    out: set[str] = set()
    for s in space.sets():
        for key in obs.keys(s.kind):
            if s.kind == "use_tool" and key not in s and key in space.restrict_tool:
                continue
            out.add(Obligation(s.kind, tuple(key)).id)
    return out


class StructuralModel:
    """Structural coverage C1–C4 as a campaign's coverage model: items are obligation ids."""

    name = "structural"

    def __init__(self, space: ObligationSpace) -> None:
        self.space = space

    def items(self, trace: Trace) -> set[str]:
        return structural_items(observe(trace), self.space)

    def witnessed(self, trace: Trace) -> list[str]:
        """The obligations of Ω(S) this trace witnesses (W(x, ω) = 1)."""
        return sorted(i for i in self.items(trace) if Obligation.parse(i) in self.space)


def cov(obligations: ObligationSet, witnessed: set[tuple[str, ...]]) -> float:
    """Cov(X, O, W): 1 when O is empty, else the fraction of O witnessed by some test."""
    total = len(obligations)
    if total == 0:
        return 1.0
    return sum(1 for k in witnessed if k in obligations) / total


@dataclass
class CriterionResult:
    criterion: str
    kind: str
    total: int
    covered: int
    ratio: float


@dataclass
class StructuralCoverage:
    """Accumulates observations over a suite; contexts map obligation id -> scenario ids."""

    space: ObligationSpace
    contexts: dict[str, list[str]] = field(default_factory=dict)
    # Observed structure that is not in Ω(S): a delegation or tool edge the spec did not declare.
    unexpected: dict[str, list[str]] = field(default_factory=dict)

    def add(self, trace: Trace, scenario_id: str | None = None) -> Observation:
        obs = observe(trace)
        self.add_items(structural_items(obs, self.space), scenario_id or trace.scenario_id)
        return obs

    def add_items(self, items: Iterable[str], scenario_id: str) -> None:
        """Record that `scenario_id` exercised these structural items (obligation ids): those in
        Ω(S) are its contexts, the rest observed structure the spec does not declare."""
        for ob_id in items:
            bucket = self.contexts if Obligation.parse(ob_id) in self.space else self.unexpected
            ids = bucket.setdefault(ob_id, [])
            if scenario_id not in ids:
                ids.append(scenario_id)

    @classmethod
    def from_contexts(cls, space: ObligationSpace,
                      contexts: dict[str, list[str]]) -> "StructuralCoverage":
        """Coverage read back from stored contexts (item id -> scenario ids, in order)."""
        cov = cls(space)
        for item, scenario_ids in contexts.items():
            if Obligation.is_id(item):
                for sid in scenario_ids:
                    cov.add_items((item,), sid)
        return cov

    def add_all(self, traces: Iterable[Trace]) -> "StructuralCoverage":
        for t in traces:
            self.add(t)
        return self

    def witnessed(self, ob: Obligation) -> list[str]:
        return self.contexts.get(ob.id, [])

    def criterion(self, kind: str) -> CriterionResult:
        s = self.space.by_kind(kind)  # type: ignore[arg-type]
        keys = {Obligation.parse(i).endpoints for i in self.contexts if i.startswith(kind + "::")}
        total = len(s)
        covered = sum(1 for k in keys if k in s)
        return CriterionResult(CRITERIA[kind], kind, total, covered, cov(s, keys))  # type: ignore[index]

    def results(self) -> list[CriterionResult]:
        return [self.criterion(s.kind) for s in self.space.sets()]

    def total(self) -> CriterionResult:
        rs = self.results()
        total = sum(r.total for r in rs)
        covered = sum(r.covered for r in rs)
        return CriterionResult("all", "all", total, covered, covered / total if total else 1.0)


class CriterionTally:
    """Covered/total per criterion of Ω(S), counted as items arrive — what a running campaign
    shows without re-reading its contexts. It counts exactly what `StructuralCoverage.criterion`
    counts from the same items: the obligation ids in Ω(S), each once."""

    def __init__(self, space: ObligationSpace) -> None:
        self.space = space
        self.totals = space.counts()
        self.covered = dict.fromkeys(self.totals, 0)

    def _criterion(self, item: str) -> str | None:
        try:
            ob = Obligation.parse(item)
        except ValueError:
            return None  # another model's item (a path, a behaviour)
        return ob.criterion if ob in self.space else None

    def add(self, gain: Iterable[str]) -> None:
        """Count items covered for the first time (a coverage map's gain: each arrives once)."""
        for item in gain:
            criterion = self._criterion(item)
            if criterion is not None:
                self.covered[criterion] += 1

    def counts(self, also: Iterable[str] = ()) -> dict[str, tuple[int, int]]:
        """Criterion -> (covered, total), with `also` (items not yet added, none of them
        counted before) counted too."""
        covered = dict(self.covered)
        for item in set(also):
            criterion = self._criterion(item)
            if criterion is not None:
                covered[criterion] += 1
        return {c: (covered[c], self.totals[c]) for c in self.totals}
