"""FLARE's inter-agent behaviour coverage (§3.3.4): which legal execution paths (§3.2.2) the runs
covered, as a campaign coverage model whose items are `path::a>b>c`.

What a run covers. A legal path orders distinct agents, each acting once, so a run is read by
its *first round*: the longest prefix of its speaker sequence in which no agent repeats. A run
covers the path equal to its first round, and at most that one path:

- a run that goes round again (the video team's bug: script_writer, voice_actor,
  graphic_designer, director, script_writer, ... until the message limit) covers the path of
  its first pass, as FLARE counts that fixed-order run as covering its single path; later passes
  are not read, because a loop that restarts mid-order would otherwise be credited with other
  orderings (a rotation of a free-form path is another permutation) and the fuzzer would be
  rewarded for dead loops rather than for new coordination;
- for handoff and graph patterns the space holds every prefix of a delegation path: a run whose
  first round ends early (it stopped, or handed back to an agent that already acted) covers that
  prefix, the run that stopped there;
- a first round that is no legal path (an undeclared agent or hand-over, a free-form run that
  looped before everyone spoke) covers nothing: that is for the oracles to judge.

Relaxation rules, tried after the direct check (FLARE's "merging consecutive utterances, inlining
nested tool calls, and reordering independent steps"); each stage applies every rule before it:

- `direct`: the speakers (`AgentTurn` events) as recorded;
- `merge_consecutive`: consecutive turns of one agent are one utterance (A A B -> A B);
- `inline_nested`: a turn taken inside another agent's tool call (an agent run as a tool: its
  turns lie between the caller's `ToolCall` and the matching `ToolResult`) belongs to the caller
  and is dropped. Only answered calls bracket: an unanswered one (a killed run) does not say
  where it would have ended;
- `reorder_independent`: the first round matches a legal path p when it is a permutation of p in
  which every pair of agents whose order differs has no dependency either way in the transitive
  closure of the dependency relation. It only adds matches where the space is not closed under
  such swaps (a fixed order, delegation paths); the first such p in enumeration order is taken.

The stage whose first round matches the longest path wins, the earliest stage on ties: in handoff
spaces the bare entry agent is always a legal prefix, so the earliest match alone would hide what
a relaxation explains (A A B would cover (A,) instead of (A, B)).

Only when no rule matched is the optional `model_match(sequence, candidate_paths)` hook asked
(FLARE delegates matching to an LLM); its answer counts only if it names a legal path, tagged
`model`. Without the hook `match` is a pure function of the trace, so a report recomputes which
rule matched from stored traces; with it, it is as repeatable as the model is.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Union

from masfuzz.graph.paths import DEFAULT_CAP, PathSpace, execution_paths
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import AgentTurn, ToolCall, ToolResult, Trace

RULES = ("direct", "merge_consecutive", "inline_nested", "reorder_independent")
Path = tuple[str, ...]
ModelMatch = Callable[[Path, tuple[Path, ...]], Union[Sequence[str], None, Awaitable[Any]]]


def path_item(path: Iterable[str]) -> str:
    return "path::" + ">".join(path)


@dataclass(frozen=True)
class PathMatch:
    path: Path
    rule: str  # one of RULES (including those before it), or "model"
    sequence: Path  # what matched: the relaxed first round (for "model", the relaxed run)

    @property
    def item(self) -> str:
        return path_item(self.path)


class PathModel:
    """Execution-path coverage: the legal path each run's (relaxed) first round follows."""

    name = "path"

    def __init__(self, spec: WorkflowSpec, dependencies: Iterable[tuple[str, str]] = (), *,
                 max_turns: int | None = None, cap: int = DEFAULT_CAP,
                 model_match: ModelMatch | None = None) -> None:
        deps = list(dependencies)
        self.space: PathSpace = execution_paths(spec, deps, max_turns=max_turns, cap=cap)
        self.closure = transitive_closure(deps)
        self.model_match = model_match
        self._paths = set(self.space.paths)
        self._by_agents: dict[frozenset[str], list[Path]] = {}
        for p in self.space.paths:
            self._by_agents.setdefault(frozenset(p), []).append(p)

    def items(self, trace: Trace) -> set[str]:
        found = self.match(trace)
        return {found.item} if found else set()

    def match(self, trace: Trace) -> PathMatch | None:
        found = self.match_rules(trace)
        if found or self.model_match is None:
            return found
        run = relaxed(trace)
        return self._accept(run, _resolved(self.model_match(run, self.space.paths)))

    async def amatch(self, trace: Trace) -> PathMatch | None:
        """`match` for callers inside an event loop whose hook must run on that loop."""
        found = self.match_rules(trace)
        if found or self.model_match is None:
            return found
        run = relaxed(trace)
        answer = self.model_match(run, self.space.paths)
        return self._accept(run, await answer if inspect.isawaitable(answer) else answer)

    def match_rules(self, trace: Trace) -> PathMatch | None:
        """The deterministic match: the stage matching the longest path, earliest on ties."""
        found = [m for m in self._stages(trace) if m is not None]
        return max(found, key=lambda m: len(m.path)) if found else None

    def coverage(self, items: Iterable[str]) -> tuple[int, int, bool]:
        """(paths covered, legal paths, whether the enumeration was capped) for a report."""
        covered = {path_item(p) for p in self.space.paths} & set(items)
        return len(covered), self.space.count, self.space.truncated

    def _stages(self, trace: Trace) -> Iterable[PathMatch | None]:
        speakers = tuple(trace.speaker_order)
        inlined = first_round(relaxed(trace))
        yield self._direct(first_round(speakers), "direct")
        yield self._direct(first_round(merged(speakers)), "merge_consecutive")
        yield self._direct(inlined, "inline_nested")
        yield self._reordered(inlined)

    def _direct(self, seq: Path, rule: str) -> PathMatch | None:
        return PathMatch(seq, rule, seq) if seq in self._paths else None

    def _reordered(self, seq: Path) -> PathMatch | None:
        for p in self._by_agents.get(frozenset(seq), []):
            if reorders_independent(seq, p, self.closure):
                return PathMatch(p, "reorder_independent", seq)
        return None

    def _accept(self, run: Path, answer: Sequence[str] | None) -> PathMatch | None:
        path = tuple(answer) if answer else None
        return PathMatch(path, "model", run) if path in self._paths else None


def first_round(seq: Sequence[str]) -> Path:
    """The longest prefix in which no agent repeats: the run's first pass."""
    seen: list[str] = []
    for agent in seq:
        if agent in seen:
            break
        seen.append(agent)
    return tuple(seen)


def merged(seq: Sequence[str]) -> Path:
    """Consecutive turns of one agent as one utterance (A A B -> A B)."""
    return tuple(a for i, a in enumerate(seq) if i == 0 or seq[i - 1] != a)


def relaxed(trace: Trace) -> Path:
    """The speakers with nested turns inlined into their callers, then merged."""
    return merged(unnested_speakers(trace))


def unnested_speakers(trace: Trace) -> Path:
    """The speakers without the turns taken inside another agent's tool call."""
    events = trace.events
    brackets = [(i, end, events[i].agent) for i, end in answered_calls(trace).items()]
    return tuple(e.agent for j, e in enumerate(events) if isinstance(e, AgentTurn)
                 and not any(i < j < end and caller != e.agent for i, end, caller in brackets))


def answered_calls(trace: Trace) -> dict[int, int]:
    """Event index of each answered tool call -> index of its result. Results pair by call id,
    or by caller and tool when the adapter gave none, innermost call first."""
    waiting: dict[object, list[int]] = {}
    pairs: dict[int, int] = {}
    for i, e in enumerate(trace.events):
        if isinstance(e, (ToolCall, ToolResult)):
            calls = waiting.setdefault(e.call_id or (e.agent, e.tool), [])
            if isinstance(e, ToolCall):
                calls.append(i)
            elif calls:
                pairs[calls.pop()] = i
    return pairs


def transitive_closure(deps: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
    out = set(deps)
    while True:
        more = {(a, d) for a, b in out for c, d in out if b == c} - out
        if not more:
            return out
        out |= more


def reorders_independent(seq: Sequence[str], path: Sequence[str],
                         closure: set[tuple[str, str]]) -> bool:
    """Is `seq` a permutation of `path` that only swaps agents with no dependency either way?"""
    if len(seq) != len(path) or sorted(seq) != sorted(path) or len(set(seq)) != len(seq):
        return False
    where = {a: i for i, a in enumerate(seq)}
    return all(where[a] < where[b] or ((a, b) not in closure and (b, a) not in closure)
               for a, b in combinations(path, 2))


def _resolved(answer: Any) -> Any:
    """A sync caller's view of the hook's answer: an awaitable is run to completion, on a
    worker thread when an event loop is already running here (items() is synchronous)."""
    if not inspect.isawaitable(answer):
        return answer

    async def wait() -> Any:
        return await answer

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(wait())
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, wait()).result()
