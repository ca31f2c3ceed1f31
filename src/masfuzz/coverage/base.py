"""The protocol every coverage model follows, and the map a campaign keeps of what it covered.

A coverage model turns a trace into the namespaced ids of the coverage items it exercised
(`items(trace)`); structural coverage's items are obligation ids (`use_tool::faq_agent::faq_lookup_tool`),
later models add their own namespaces (execution paths, behaviours). The campaign records every
execution's items in the store (the contexts) and reads coverage back from there; the gain of a
trace is what it covered that no earlier execution of the campaign did — FLARE's feedback.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol, runtime_checkable

from masfuzz.trace import Trace


@runtime_checkable
class CoverageModel(Protocol):
    name: str

    def items(self, trace: Trace) -> set[str]:
        """The ids of the coverage items this trace exercised, namespaced by kind."""
        ...


class CoverageMap:
    """What a campaign covered so far, over any number of coverage models."""

    def __init__(self, models: Iterable[CoverageModel]) -> None:
        self.models = list(models)
        self.seen: set[str] = set()
        # told each gain as it happens (a campaign's running count of covered obligations)
        self.listeners: list[Callable[[frozenset[str]], None]] = []

    def items(self, trace: Trace) -> set[str]:
        out: set[str] = set()
        for m in self.models:
            out |= m.items(trace)
        return out

    def add(self, items: Iterable[str]) -> frozenset[str]:
        """Mark `items` covered; the gain is those not covered before."""
        gain = frozenset(i for i in items if i not in self.seen)
        self.seen |= gain
        if gain:
            for listener in self.listeners:
                listener(gain)
        return gain
