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
  and counted in the next trace of the system instead of landing in it;
- whether an earlier run of the system ran under another event loop (`begin`'s `loop`): the
  in-process executor runs each command (and a Python caller each `asyncio.run`) on a loop of
  its own, while a worker keeps one loop for all its runs. What a run's loop owns (an asyncio
  queue, an agent runtime, a client's connections) breaks when a later run on another loop
  uses it; the adapters make fresh what they can reach (AgentChat's inner teams:
  `masfuzz.adapters.autogen.fresh`), and a crash that still says so (`LOOP_BOUND`) is masfuzz's
  running the app that way, not the app's bug (`HARNESS_CAUSE`): a fresh process, where the
  app's object meets one loop only, does not show it. A tool call that failed so (a queue, an
  event or a client the app made at import and a tool awaits: AgentChat hands the error to the
  model as the tool's result, the run goes on) is named in `LOOP_BOUND_CALLS`, for the oracles
  to set aside what rests on it alike.
"""

from __future__ import annotations

import asyncio
import json
import re
import weakref
from typing import Hashable

from masfuzz.trace import (EARLIER_ANSWERS, HARNESS_CAUSE, LATE_EVENTS, LOOP_BOUND_CALLS, PROCESS_RUN,
                           ErrorEvent, ToolCall, ToolResult, Trace)

_MAX_CALLS = 20_000  # distinct calls remembered: a long campaign's memory stays bounded
_runs: dict[Hashable, int] = {}  # system -> the runs of it this process has begun
# (system, tool, arguments) -> the call's first answer (status, payload) and the place of its run
_first: dict[str, tuple[str, str, int]] = {}
_late: dict[Hashable, int] = {}  # system -> events its ended runs recorded since its latest trace
_first_loop: dict[Hashable, weakref.ref[asyncio.AbstractEventLoop]] = {}  # system -> its first run's loop
_loops_changed: set[Hashable] = set()  # systems whose runs in this process met more than one loop
# asyncio's words for an object used on a loop other than the one it is bound to: a queue, lock
# or event (`mixins._LoopBoundMixin`), a future awaited from another loop's task, a closed loop
# (a client's connection from an earlier `asyncio.run`)
LOOP_BOUND = re.compile(r"bound to a different event loop|attached to a different loop|Event loop is closed")


def begin(system: Hashable, loop: asyncio.AbstractEventLoop | None = None) -> int:
    """A new run of `system` (its `Target`) in this process: its place among them, from 1.
    `loop`: the event loop it runs on, when runs of this process may each have their own (the
    in-process executor's; a worker keeps one)."""
    place = _runs[system] = _runs.get(system, 0) + 1
    if loop is not None:
        first = _first_loop.setdefault(system, weakref.ref(loop))()
        if first is not loop:  # another loop, or the first one is gone: a later one
            _loops_changed.add(system)
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
    if system in _loops_changed and HARNESS_CAUSE not in meta and (bound := _loop_bound_crash(trace)):
        meta[HARNESS_CAUSE] = (
            f"the run crashed on an object an earlier run in this process bound to its event loop "
            f"({bound}): masfuzz ran the app again on a loop of its own and could not renew that "
            "object (the app holds it where masfuzz cannot reach it); a fresh process does not "
            "show it (run with the default executor)")
    if system in _loops_changed and (bound_calls := {
            r.call_id: r.payload.strip().splitlines()[0] for r in trace.events
            if isinstance(r, ToolResult) and r.status == "error" and r.call_id and LOOP_BOUND.search(r.payload)}):
        meta[LOOP_BOUND_CALLS] = bound_calls
    dropped = _late.pop(system, 0)
    if dropped:
        meta[LATE_EVENTS] = dropped
    return trace.model_copy(update={"meta": meta})


def _loop_bound_crash(trace: Trace) -> str:
    """The words of a crash of `trace` that asyncio raises for an object bound to another event
    loop (`LOOP_BOUND`); empty when it did not crash so."""
    if trace.termination is None or trace.termination.reason != "crash":
        return ""
    said = [trace.termination.detail, *(e.message for e in trace.events if isinstance(e, ErrorEvent))]
    return next((s for s in said if s and LOOP_BOUND.search(s)), "")


__all__ = ["LOOP_BOUND", "begin", "late", "note"]
