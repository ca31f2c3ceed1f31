"""What earlier runs of this process left for a run's tools: the calls answered otherwise.

The in-process executor runs every scenario in masfuzz's own process, and a persistent worker's
fork serves several (AFL++'s persistent mode); a tool's module-level data (a booking list, a
counter, a cache) outlives the run that changed it. A run whose call of a tool, with the same
arguments as a call an earlier run of the process made, got another answer was answered by that
state, not by the app as a fresh process starts it: such calls are recorded in the trace
(`EARLIER_ANSWERS`), and a finding that rests on one is set aside as the settings' doing
(`masfuzz.oracles.attribution`), since a fresh process would not show it. A fresh fork per run
(the default) starts from the same empty record, so it records nothing.
"""

from __future__ import annotations

import json

from masfuzz.trace import EARLIER_ANSWERS, ToolCall, ToolResult, Trace

_MAX_CALLS = 20_000  # distinct calls remembered: a long campaign's memory stays bounded
_first: dict[str, tuple[str, str, int]] = {}  # call (tool, arguments) -> its first answer, and the run
_runs = 0  # runs this process has served


def note(trace: Trace) -> Trace:
    """`trace` with the calls an earlier run of this process answered otherwise said in its meta;
    remembers this run's answers for the runs after it."""
    global _runs
    run, _runs = _runs, _runs + 1
    calls = {e.call_id: e for e in trace.events if isinstance(e, ToolCall) and e.call_id}
    differ: dict[str, dict[str, object]] = {}
    for r in trace.events:
        call = calls.get(r.call_id) if isinstance(r, ToolResult) and r.call_id else None
        if call is None or r.fault or r.status == "blocked":  # masfuzz's own answers: no state of the app's
            continue
        key = json.dumps([r.tool, call.arguments], sort_keys=True, default=str)
        first = _first.get(key)
        if first is None:
            if len(_first) < _MAX_CALLS:
                _first[key] = (r.status, r.payload, run)
        elif first[2] < run and first[:2] != (r.status, r.payload):
            differ[r.call_id] = {"status": first[0], "payload": first[1][:500], "runs_before": run}
    if not differ:
        return trace
    return trace.model_copy(update={"meta": {**trace.meta, EARLIER_ANSWERS: differ}})
