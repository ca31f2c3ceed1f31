"""The execution-path space of a workflow (FLARE §3.2.2), enumerated exactly and deterministically.

A path is the order in which agents get to act in one run. Which orders are possible depends on
the communication pattern and on a dependency relation among agents ("a acts before b"), which
the FLARE specification proposes and validation checks:

- fixed order (round robin, sequences): the one path, the participants in their order;
- free-form (a selector, an LLM choosing speakers): every ordering of the participants
  consistent with the dependencies — all permutations when there are none (FLARE's rule);
- handoff, graph and orchestrated patterns (a masfuzz extension: FLARE is AutoGen-only): every
  simple path over delegation edges from the entry agent, each of its prefixes being a run that
  stopped there, no longer than the turn limit.

Enumeration stops at `cap` paths and says so (`truncated`); `count` is then a lower bound.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from masfuzz.errors import SpecError
from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.spec.model import WorkflowSpec

DEFAULT_CAP = 10_000
FREE_FORM = ("selector",)
FIXED = ("fixed_order",)


@dataclass(frozen=True)
class PathSpace:
    pattern: str
    paths: tuple[tuple[str, ...], ...]
    truncated: bool  # the cap stopped the enumeration: more paths exist
    cap: int

    @property
    def count(self) -> int:
        return len(self.paths)

    def __contains__(self, path: object) -> bool:
        return tuple(path) in set(self.paths) if isinstance(path, (list, tuple)) else False

    def __len__(self) -> int:
        return len(self.paths)


def execution_paths(spec: WorkflowSpec, dependencies: Iterable[tuple[str, str]] = (), *,
                    max_turns: int | None = None, cap: int = DEFAULT_CAP) -> PathSpace:
    """The path space of `spec` under `dependencies` ((before, after) agent pairs)."""
    if cap < 1:
        raise SpecError(f"path cap must be at least 1, not {cap}")
    graph = CoordinationGraph(spec)
    agents = graph.reachable
    deps = _checked(dependencies, set(agents))
    pattern = spec.system.pattern
    limit = max_turns or spec.termination.max_turns or len(agents)
    if pattern in FIXED:
        paths: Iterator[tuple[str, ...]] = iter([_fixed_order(graph, agents)])
    elif pattern in FREE_FORM:
        paths = _orderings(agents, deps)
    else:
        paths = _simple_paths(graph, spec.system.entry_agent, limit, deps)
    found: list[tuple[str, ...]] = []
    for path in paths:
        if len(found) == cap:
            return PathSpace(pattern, tuple(found), True, cap)
        found.append(path)
    return PathSpace(pattern, tuple(found), False, cap)


def _checked(dependencies: Iterable[tuple[str, str]], agents: set[str]) -> set[tuple[str, str]]:
    deps = set()
    for before, after in dependencies:
        for agent in (before, after):
            if agent not in agents:
                raise SpecError(f"dependency {before}->{after}: no reachable agent {agent!r} "
                                f"(agents: {', '.join(sorted(agents))})")
        if before == after:
            raise SpecError(f"dependency {before}->{after}: an agent cannot precede itself")
        deps.add((before, after))
    return deps


def _fixed_order(graph: CoordinationGraph, agents: list[str]) -> tuple[str, ...]:
    """Follow the sequence edges from the entry agent once round."""
    order = [graph.spec.system.entry_agent]
    while True:
        nxt = [b for b in graph.successors.get(order[-1], []) if b not in order]
        if not nxt:
            break
        order.append(nxt[0])
    return tuple(order) + tuple(a for a in agents if a not in order)


def _orderings(agents: list[str], deps: set[tuple[str, str]]) -> Iterator[tuple[str, ...]]:
    """Every permutation of `agents` in which each `before` precedes its `after` (all
    topological orders), in the agents' own order first."""
    needs = {a: {b for b, c in deps if c == a} for a in agents}

    def extend(prefix: list[str], left: list[str]) -> Iterator[tuple[str, ...]]:
        if not left:
            yield tuple(prefix)
            return
        placed = set(prefix)
        for a in left:
            if needs[a] <= placed:
                yield from extend(prefix + [a], [b for b in left if b != a])

    return extend([], list(agents))


def _simple_paths(graph: CoordinationGraph, entry: str, limit: int,
                  deps: set[tuple[str, str]]) -> Iterator[tuple[str, ...]]:
    """Every simple delegation path from `entry` (each prefix is a run that stopped there), at
    most `limit` agents long, in which no agent acts before every agent it depends on has."""

    def ok(path: tuple[str, ...]) -> bool:
        where = {a: i for i, a in enumerate(path)}
        return all(b in where and where[b] < where[a] for b, a in deps if a in where)

    def walk(path: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        # checked on entry, the entry agent included: one that depends on another has no path
        if not ok(path):
            return
        yield path
        if len(path) >= limit:
            return
        for nxt in graph.successors.get(path[-1], []):
            if nxt not in path:
                yield from walk(path + (nxt,))

    return walk((entry,))
