"""What every adapter's workflow mutation (`masfuzz mutate`) shares: the record of the changes a
mutant makes to the live objects, undone after the run, and the turn-limit operators.

An adapter's `mutate` module turns a `Mutation` into changes of its framework's objects through
`Changes` (an attribute set, a mapping entry set or deleted), inside `applied(apply, mutation, ...)`,
which undoes them in reverse order on exit, so the user's objects are as before after the run and
the source is never touched. `problem` applies a mutation and undoes it at once to tell whether
it applies to a system. The adapters run this inside the run's system lock, so concurrent runs of
one system never see another run's mutant.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any, TypeVar

from masfuzz.errors import TargetError
from masfuzz.spec.mutants import UNBOUNDED_TURNS
from masfuzz.scenario import Mutation

T = TypeVar("T")
TurnLimit = Callable[[int], int]
TURN_OPERATORS = ("weaken_termination", "lower_turn_limit")
_MISSING = object()


class NotApplicable(TargetError):
    """The mutation names something this system does not have (an agent, a tool, an edge), or
    something its framework cannot express; the message says which."""


class Changes:
    """The changes one mutant made, in order, so that they can be undone in reverse."""

    def __init__(self) -> None:
        self._undo: list[Callable[[], None]] = []

    def replace(self, get: Callable[[], Any], set_: Callable[[Any], None], value: Any) -> None:
        """Whatever `get` reads set to `value` through `set_` (a closure cell, a global)."""
        old = get()
        self._undo.append(lambda: set_(old))
        set_(value)

    def put(self, obj: Any, attr: str, value: Any) -> None:
        self.replace(lambda: getattr(obj, attr), lambda v: setattr(obj, attr, v), value)

    def put_item(self, table: MutableMapping[Any, Any], key: Any, value: Any = _MISSING) -> None:
        """`table[key] = value`, or the entry deleted when no value is given."""
        old = table.get(key, _MISSING)
        self._undo.append(lambda: table.__setitem__(key, old) if old is not _MISSING
                          else table.pop(key, None))
        if value is _MISSING:
            table.pop(key, None)
        else:
            table[key] = value

    def undo(self) -> None:
        while self._undo:
            self._undo.pop()()


@contextlib.contextmanager
def applied(apply: Callable[[Changes, Mutation], T], mutation: Mutation | None,
            unmutated: T) -> Iterator[T]:
    """`apply(changes, mutation)` in force until exit, whatever the run did; yields its result
    (`unmutated` when there is no mutation: the target as written)."""
    if mutation is None:
        yield unmutated
        return
    changes = Changes()
    try:
        yield apply(changes, mutation)
    finally:
        changes.undo()


def problem(apply: Callable[[Changes, Mutation], Any], mutation: Mutation) -> str | None:
    """Why `mutation` cannot apply to this system, or None: it is applied and undone at once."""
    try:
        with applied(apply, mutation, None):
            pass
    except NotApplicable as exc:
        return str(exc)
    return None


def same(n: int) -> int:
    return n


def turn_limit(m: Mutation) -> TurnLimit:
    """How a turn-limit mutant changes a limit: `weaken_termination(max_turns, N)` raises it to
    N, `lower_turn_limit(N)` lowers it to N, `remove_termination(max_turns)` lifts it."""
    if m.operator == "remove_termination":
        return lambda n: UNBOUNDED_TURNS
    try:
        limit = int(m.args[-1])
    except (IndexError, ValueError):
        raise NotApplicable(f"{m.label}: expected a turn limit") from None
    return (lambda n: max(n, limit)) if m.operator == "weaken_termination" else (lambda n: min(n, limit))


def unknown(m: Mutation) -> NotApplicable:
    return NotApplicable(f"{m.label}: unknown operator {m.operator!r}")
