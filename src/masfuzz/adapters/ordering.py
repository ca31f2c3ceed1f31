"""A team's participants in a scenario's speaking order (FLARE's initial sequence, §3.3.3).

`Scenario.speaking_order` is a permutation of the participants, or a prefix of one: those it
names come first, in its order, then the others in the team's own order. An adapter builds the
team with its participants in that order, which is who speaks when for a round robin, and the
order in which a speaker-selecting model is shown the candidates (it still chooses).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from masfuzz.errors import MasfuzzError

T = TypeVar("T")


def in_speaking_order(members: Sequence[T], order: Sequence[str], name: Callable[[T], str]) -> list[T]:
    """`members` reordered by `order`; a name that is no member's, or is named twice, is bad
    input, said in one line."""
    by_name = {name(m): m for m in members}
    for i, n in enumerate(order):
        if n not in by_name:
            raise MasfuzzError(f"speaking order: no participant {n!r} in the team "
                               f"(participants: {', '.join(by_name)})")
        if n in order[:i]:
            raise MasfuzzError(f"speaking order: {n!r} is named twice")
    first = [by_name[n] for n in order]
    return first + [m for m in members if name(m) not in order]
