"""A detector's findings made once per judging pass, whichever detectors ask for them.

Some detectors read another's findings to stand aside where that fault is the one to name
(`handover_facts`, `participation` and FLARE's `tool_omission` each ask `misrouted_request`;
`handover_facts` asks `instructed_order`), so one judging of a trace ran those detectors up to
four times, a third of a worker's judging. Within a pass (`judging`: `detect`,
`flare.detect_cited`) a detector marked `once_per_pass` runs once per trace and spec object;
outside one it runs as called. Traces and specs are frozen, and a detector's findings depend on
them alone.

What the detectors read from a specification alone (the handoffs its instructions order, a
tool's documented formats) is the same for every trace judged against it: `once_per_object`
reads it once per object in this process (a worker judges a whole campaign's traces with one
rebuilt judge, `masfuzz.oracles.portable`)."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

_PASS: ContextVar[dict[tuple[Any, ...], Any] | None] = ContextVar("masfuzz_judging_pass", default=None)


@contextlib.contextmanager
def judging() -> Iterator[None]:
    """A judging pass; one opened inside another is the same pass."""
    if _PASS.get() is not None:
        yield
        return
    token = _PASS.set({})
    try:
        yield
    finally:
        _PASS.reset(token)


def once_per_pass(detector: Callable[[Any, Any], list[Any]]) -> Callable[[Any, Any], list[Any]]:
    @functools.wraps(detector)
    def once(trace: Any, spec: Any) -> list[Any]:
        made = _PASS.get()
        if made is None:
            return detector(trace, spec)
        key = (detector, id(trace), id(spec))
        if key not in made:
            # the trace and spec kept with the findings: a copy a detector makes and drops
            # within the pass cannot leave its identity to another
            made[key] = (trace, spec, detector(trace, spec))
        return list(made[key][2])  # a list of the caller's own; the findings are frozen

    return once


def once_per_object(read: Callable[..., Any], kept: int = 64) -> Callable[..., Any]:
    """`read(obj, *args)` made once per frozen `obj` (a spec, a tool) and `args`, kept for the
    next call with the same object; the object is kept with its reading, so that its id is not
    reused while the entry lives, and the `kept` newest entries stay. The reading is shared
    between callers: they only read it."""
    made: dict[tuple[Any, ...], tuple[Any, Any]] = {}

    @functools.wraps(read)
    def once(obj: Any, *args: Any) -> Any:
        key = (id(obj), *args)
        hit = made.get(key)
        if hit is None or hit[0] is not obj:
            if len(made) >= kept:
                made.pop(next(iter(made)), None)
            hit = made[key] = (obj, read(obj, *args))
        return hit[1]

    return once
