"""A process's run history: what the runs before a run left in this process, kept in one place.

Several runs share a process under the in-process executor (every scenario runs in masfuzz's
own) and in a persistent worker's fork (`--persistent N`, AFL++'s persistent mode); what one run
leaves there (a tool's module-level booking list, a counter, a cache, a diary) outlives it and
can change the runs after it. A fresh fork per run (the workers' default) starts each run from
the same empty history, so it has nothing to say. Both executors ask this module, per system
(the `Target` opened in this process: two systems that happen to name a tool alike never share a
record), for:

- a run's place among the runs of its system in this process (`begin`), said in its trace as
  `PROCESS_RUN` so that a report can flag a failure a later run showed (`shared_process`);
- the calls of the run that an earlier run of the same system made with the same arguments and
  got another answer to (`note`, `EARLIER_ANSWERS`): that answer came from what the earlier runs
  left, not from the app as a fresh process starts it, and the oracles set aside a finding that
  rests on one as the settings' doing (`masfuzz.oracles.attribution`);
- what runs of the system that had already ended tried to record meanwhile (`late`,
  `LATE_EVENTS`): the in-process executor cannot stop a run it abandons at its time limit (a
  tool blocked in a thread goes on), so its late events are dropped (`masfuzz.trace.RunScope`)
  and counted in the next trace of the system instead of landing in it.
"""

from __future__ import annotations

import json
from typing import Hashable

from masfuzz.trace import EARLIER_ANSWERS, LATE_EVENTS, PROCESS_RUN, ToolCall, ToolResult, Trace

_MAX_CALLS = 20_000  # distinct calls remembered: a long campaign's memory stays bounded
_runs: dict[Hashable, int] = {}  # system -> the runs of it this process has begun
# (system, tool, arguments) -> the call's first answer (status, payload) and the place of its run
_first: dict[str, tuple[str, str, int]] = {}
_late: dict[Hashable, int] = {}  # system -> events its ended runs recorded since its latest trace


def begin(system: Hashable) -> int:
    """A new run of `system` (its `Target`) in this process: its place among them, from 1."""
    place = _runs[system] = _runs.get(system, 0) + 1
    return place


def late(system: Hashable) -> None:
    """A run of `system` that had ended tried to record one more event (dropped)."""
    _late[system] = _late.get(system, 0) + 1


def note(trace: Trace, system: Hashable, place: int) -> Trace:
    """`trace`, the run at `place` of `system` (`begin`), with its place and the calls an earlier
    run of the same system answered otherwise said in its meta; remembers this run's answers for
    the runs after it."""
    calls = {e.call_id: e for e in trace.events if isinstance(e, ToolCall) and e.call_id}
    differ: dict[str, dict[str, object]] = {}
    for r in trace.events:
        call = calls.get(r.call_id) if isinstance(r, ToolResult) and r.call_id else None
        if call is None or r.fault or r.status == "blocked":  # masfuzz's own answers: no state of the app's
            continue
        key = json.dumps([repr(system), r.tool, call.arguments], sort_keys=True, default=str)
        first = _first.get(key)
        if first is None:
            if len(_first) < _MAX_CALLS:
                _first[key] = (r.status, r.payload, place)
        elif first[2] < place and first[:2] != (r.status, r.payload):
            differ[r.call_id] = {"status": first[0], "payload": first[1][:500], "runs_before": place - 1}
    meta = {**trace.meta, PROCESS_RUN: place}
    if differ:
        meta[EARLIER_ANSWERS] = differ
    dropped = _late.pop(system, 0)
    if dropped:
        meta[LATE_EVENTS] = dropped
    return trace.model_copy(update={"meta": meta})


__all__ = ["begin", "late", "note"]
