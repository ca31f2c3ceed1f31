"""Prompt-prefix reuse for the embedded model: the context state each caller left, restored for
the next prompt that starts as one of them did.

llama-cpp-python evaluates again only the part of a prompt after the longest common prefix with
the tokens its context holds. masfuzz alternates callers on one model (the tester's realizer,
then each agent of the system under test, then the tester again), each with a long start of its
own (an agent's instructions, the worked examples, its tools), so the context held the last
caller's tokens and the next call evaluated its whole prompt again. `PrefixStates` keeps, per
caller, the sequence state its last call left (the key/value cells of the context's one sequence,
`llama_state_seq_get_data`: not `Llama.save_state`, which also copies a row of logits per
token, a megabyte each for Gemma's 262,144-token vocabulary); before a call, the kept state that
shares the longest prefix with the new prompt is restored when it shares more than the context
does. This module keeps and chooses; `masfuzz.llm.local.Engine` saves and restores.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# Kept states, together, at most this many bytes (Gemma 3 270M keeps 18 KB a token: a 1,000-token
# prompt is 18 MB), the least recently used dropped first.
CAPACITY_BYTES = 256 << 20
# A restore copies the state in (milliseconds); worth it only for a prefix longer than this.
MIN_GAIN = 16


@dataclass(frozen=True)
class Saved:
    """The context state a caller's call left: its tokens and the sequence's state data."""

    tokens: tuple[int, ...]
    data: Any  # a ctypes buffer of `size` bytes
    size: int


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


class PrefixStates:
    """The last state of each caller (`slot`: the request's role and agent), least recently
    used first, within `capacity` bytes; and how much they saved."""

    def __init__(self, capacity: int = CAPACITY_BYTES) -> None:
        self.capacity = capacity
        self._states: OrderedDict[str, Saved] = OrderedDict()
        self.restores = 0
        self.reused = 0  # prompt tokens not evaluated again thanks to a restore

    def best(self, tokens: Sequence[int], live: int) -> tuple[Saved, int] | None:
        """The kept state to restore for a prompt of `tokens` and the prefix it shares, when that
        prefix is longer than `live` (what the context shares with it now) by MIN_GAIN or more.
        A prefix never covers the whole prompt: the last token is evaluated to sample from."""
        found: tuple[Saved, int] | None = None
        for saved in self._states.values():
            n = min(common_prefix(saved.tokens, tokens), len(tokens) - 1)
            if n >= live + MIN_GAIN and (found is None or n > found[1]):
                found = (saved, n)
        return found

    def restored(self, slot_of: Saved, shared: int, live: int) -> None:
        """Count a restore of `slot_of`'s state that spared `shared - live` tokens."""
        self.restores += 1
        self.reused += shared - live
        for slot, saved in self._states.items():
            if saved is slot_of:
                self._states.move_to_end(slot)
                break

    def keep(self, slot: str, saved: Saved) -> None:
        """`saved` is `slot`'s state now (its earlier one dropped); the least recently used
        states go while the kept ones weigh more than the capacity (a state bigger than the
        capacity is not kept at all)."""
        self._states.pop(slot, None)
        if saved.size > self.capacity:
            return
        self._states[slot] = saved
        while sum(s.size for s in self._states.values()) > self.capacity:
            self._states.popitem(last=False)

    def __len__(self) -> int:
        return len(self._states)

    def clear(self) -> None:
        self._states.clear()
