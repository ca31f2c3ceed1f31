"""The leak check of the refine loop's reward: a candidate naming a tool or agent scores 0.

A request that says "use update_seat" or "ask the seat_booking_agent" tests nothing about
routing. Identifiers are matched as whole words, case-insensitively, in their literal form and
with `_`/`-` read as spaces ("faq lookup tool"). A single plain word ("search", "planner") is
not forbidden: users say such words naturally and forbidding them would forbid the domain.
"""

from __future__ import annotations

import re

from masfuzz.spec.model import WorkflowSpec


def _forms(ident: str) -> list[str]:
    ident = ident.strip()
    if not ident or not re.search(r"[_\-\s]|[a-z][A-Z]|\d", ident):
        return []  # a plain word
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", ident)
    spaced = re.sub(r"[_\-\s]+", " ", spaced).strip()
    return list(dict.fromkeys(f for f in (ident, spaced) if f))


def forbidden_identifiers(spec: WorkflowSpec) -> tuple[str, ...]:
    names: list[str] = []
    for a in spec.agents:
        names += [a.id] + ([a.name] if a.name else [])
    names += [t.id for t in spec.tools]
    return tuple(dict.fromkeys(f for n in names for f in _forms(n)))


def leaked(text: str, forbidden: tuple[str, ...]) -> str | None:
    """The first forbidden identifier `text` contains, or None."""
    for ident in forbidden:
        if re.search(rf"(?<![\w]){re.escape(ident)}(?![\w])", text, re.IGNORECASE):
            return ident
    return None
