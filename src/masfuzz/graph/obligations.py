"""Structural obligations (structural-coverage §III-A): what a test suite must witness.

An `Obligation` is one element of Ω(S) = (A_reach, T_allow, T_restrict, D) with a stable id such
as ``use_tool::faq_agent::faq_lookup_tool``. An `ObligationSet` holds one criterion's obligations;
the closed-world restricted set is kept implicit (reachable agents x tools minus allowed pairs),
because materialising it for a large workflow would cost |agents| x |tools| memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

ObligationKind = Literal["reach", "use_tool", "restrict_tool", "delegate"]

CRITERIA: dict[ObligationKind, str] = {
    "reach": "C1",
    "use_tool": "C2",
    "restrict_tool": "C3",
    "delegate": "C4",
}
CRITERION_NAMES = {
    "C1": "reachable agents",
    "C2": "allowed tool edges",
    "C3": "restricted tool edges",
    "C4": "delegation edges",
}


@dataclass(frozen=True, order=True)
class Obligation:
    kind: ObligationKind
    endpoints: tuple[str, ...]  # (agent,) | (agent, tool) | (from, to)

    @property
    def id(self) -> str:
        return "::".join((self.kind, *self.endpoints))

    @property
    def criterion(self) -> str:
        return CRITERIA[self.kind]

    @classmethod
    def parse(cls, ident: str) -> "Obligation":
        kind, *ends = ident.split("::")
        if kind not in CRITERIA or len(ends) != (1 if kind == "reach" else 2):
            raise ValueError(f"not an obligation id: {ident!r}")
        return cls(kind, tuple(ends))  # type: ignore[arg-type]

    @classmethod
    def is_id(cls, ident: str) -> bool:
        try:
            cls.parse(ident)
        except ValueError:
            return False
        return True

    def __str__(self) -> str:
        return self.id


class ObligationSet:
    """One criterion's obligations over (agent,) or (a, b) keys, explicit or implicit."""

    def __init__(self, kind: ObligationKind, keys: Iterable[tuple[str, ...]] = ()) -> None:
        self.kind = kind
        self._keys: dict[tuple[str, ...], None] = dict.fromkeys(keys)  # ordered, unique

    @property
    def criterion(self) -> str:
        return CRITERIA[self.kind]

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def keys(self) -> Iterator[tuple[str, ...]]:
        return iter(self._keys)

    def __iter__(self) -> Iterator[Obligation]:
        for key in self.keys():
            yield Obligation(self.kind, key)


class ClosedWorldRestricted(ObligationSet):
    """T_restrict derived closed-world: every reachable (agent, tool) pair that is not allowed."""

    def __init__(self, agents: Iterable[str], tools: Iterable[str],
                 allowed: Mapping[str, set[str]]) -> None:
        super().__init__("restrict_tool")
        self._agents = list(agents)
        self._tools = list(tools)
        self._tool_set = set(self._tools)
        self._agent_set = set(self._agents)
        self._allowed = allowed

    def __len__(self) -> int:
        n = len(self._tools)
        return sum(n - len(self._allowed.get(a, set()) & self._tool_set) for a in self._agents)

    def __contains__(self, key: object) -> bool:
        if not (isinstance(key, tuple) and len(key) == 2):
            return False
        a, t = key
        return a in self._agent_set and t in self._tool_set and t not in self._allowed.get(a, ())

    def keys(self) -> Iterator[tuple[str, ...]]:
        for a in self._agents:
            allowed = self._allowed.get(a, set())
            for t in self._tools:
                if t not in allowed:
                    yield (a, t)


@dataclass(frozen=True)
class ObligationSpace:
    """Ω(S): the four reachable obligation sets of a workflow."""

    reach: ObligationSet
    use_tool: ObligationSet
    restrict_tool: ObligationSet
    delegate: ObligationSet

    def sets(self) -> tuple[ObligationSet, ...]:
        return (self.reach, self.use_tool, self.restrict_tool, self.delegate)

    def by_kind(self, kind: ObligationKind) -> ObligationSet:
        return getattr(self, kind)

    def __len__(self) -> int:
        return sum(len(s) for s in self.sets())

    def __iter__(self) -> Iterator[Obligation]:
        for s in self.sets():
            yield from s

    def __contains__(self, ob: object) -> bool:
        return isinstance(ob, Obligation) and ob.endpoints in self.by_kind(ob.kind)

    def counts(self) -> dict[str, int]:
        return {s.criterion: len(s) for s in self.sets()}
