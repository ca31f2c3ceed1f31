"""Who spent what: model calls, tokens, cache hits, wall time and cost, per role and per agent.

One `Ledger` is shared by the tester's and the system under test's clients of a campaign, so a
report can say "the judge agent used 40k tokens, the triage agent 3k". Cost is known for the
models in `PRICES` (USD per million tokens) and for local and scripted models (free); otherwise
it stays `None` rather than a guess.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Iterator
from dataclasses import asdict, dataclass

from masfuzz.llm.types import ChatReply

# USD per 1M tokens (input, output), list prices of the OpenAI API.
PRICES: dict[str, tuple[float, float]] = {
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "o4-mini": (1.10, 4.40),
}
FREE_PROVIDERS = ("local", "scripted")


def price_of(provider: str, model: str) -> tuple[float, float] | None:
    if provider in FREE_PROVIDERS:
        return (0.0, 0.0)
    if provider == "openai" or (provider == "litellm" and model.startswith("openai/")):
        return PRICES.get(model.rpartition("/")[2])
    return None


@dataclass
class Usage:
    calls: int = 0
    cache_hits: int = 0
    errors: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    wall_time: float = 0.0
    cost: float | None = 0.0  # None once any call's price was unknown

    def add(self, reply: ChatReply | None, wall: float, price: tuple[float, float] | None) -> None:
        self.calls += 1
        self.wall_time += wall
        if reply is None:
            self.errors += 1
            return
        if reply.cached:
            self.cache_hits += 1  # no tokens spent, no model time, no money
            return
        self.tokens_in += reply.usage.tokens_in
        self.tokens_out += reply.usage.tokens_out
        if price is None or self.cost is None:
            self.cost = None
        else:
            self.cost += (reply.usage.tokens_in * price[0] + reply.usage.tokens_out * price[1]) / 1e6

    def plus(self, other: "Usage") -> "Usage":
        """This usage and `other` together; cost unknown (None) when either's is."""
        cost = None if self.cost is None or other.cost is None else self.cost + other.cost
        return Usage(self.calls + other.calls, self.cache_hits + other.cache_hits,
                     self.errors + other.errors, self.tokens_in + other.tokens_in,
                     self.tokens_out + other.tokens_out, self.wall_time + other.wall_time, cost)


class Ledger:
    """Thread-safe totals keyed by role and by (role, agent)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.by_role: dict[str, Usage] = {}
        self.by_agent: dict[tuple[str, str], Usage] = {}

    def record(
        self,
        role: str,
        agent: str | None,
        reply: ChatReply | None,
        wall: float,
        price: tuple[float, float] | None,
    ) -> None:
        with self._lock:
            self.by_role.setdefault(role, Usage()).add(reply, wall, price)
            key = (role, agent or "-")
            self.by_agent.setdefault(key, Usage()).add(reply, wall, price)
        opened = _TAB.get()
        if opened is not None and opened is not self:
            opened.record(role, agent, reply, wall, price)

    def of_role(self, role: str) -> Usage:
        """A copy of the totals of one role (zero when it made no call)."""
        with self._lock:
            u = self.by_role.get(role)
            return Usage(**asdict(u)) if u is not None else Usage()

    def total(self) -> Usage:
        out = Usage()
        with self._lock:
            for u in self.by_role.values():
                out = out.plus(u)
        return out

    def as_dict(self) -> dict:
        with self._lock:
            return {
                "by_role": {r: asdict(u) for r, u in sorted(self.by_role.items())},
                "by_agent": [
                    {"role": r, "agent": a, **asdict(u)} for (r, a), u in sorted(self.by_agent.items())
                ],
            }


# The tab of the work under way in this context (an asyncio task and the threads it hands work
# to inherit it): each ledger's record also lands there, so what one piece of work spent is known
# while others spend through the same clients at the same time.
_TAB: contextvars.ContextVar[Ledger | None] = contextvars.ContextVar("masfuzz_tab", default=None)


@contextlib.contextmanager
def tab() -> Iterator[Ledger]:
    """A ledger of what the model calls made inside the block (in this task, or threads it
    starts) spend, whichever client's ledger they are recorded in."""
    ledger = Ledger()
    token = _TAB.set(ledger)
    try:
        yield ledger
    finally:
        _TAB.reset(token)
