"""How each phase of a campaign ended, as every report and the exit status say it.

A campaign records one result per phase (`masfuzz.campaign.PhaseResult`, kept in the run's
summary): `done`; `stopped` (the budget, or the phase's share of it, ended it); `not run` (the
budget was spent before it, or it could not run: no seed, no sandbox, and why); `failed`
(masfuzz's own error, or part of its work, such as one tool, left undone for masfuzz's own
reasons: its `problems`). Only `failed` is masfuzz's fault: such a run is incomplete and exits
with `EXIT_INCOMPLETE` unless the app has failures of its own (exit 1 wins: they are real)."""

from __future__ import annotations

from typing import Any

EXIT_FINDINGS = 1  # the app has a failure --fail-on names, or coverage is under --fail-under
EXIT_BAD_INPUT = 2  # bad input or settings (`masfuzz.errors.MasfuzzError.exit_code`)
EXIT_INCOMPLETE = 3  # a phase, or part of one, did not run for masfuzz's own reasons


def phases_of(analysis: Any) -> list[dict[str, Any]]:
    return list(analysis.extra.get("phases") or [])


def failed(phases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The phases that failed for masfuzz's own reasons (wholly or in part)."""
    return [p for p in phases if p["status"] == "failed"]


def phase_words(p: dict[str, Any]) -> str:
    """`fuzz: not run (no seed: ...)`; `structural: done; 6 executions, 1 new failure, 3
    obligations met first`: how it ended and what it found (a result stored before a phase
    counted what it found says how it ended only)."""
    status = p["status"] if p["status"] == "done" else p["status"].upper()
    words = f"{p['phase']}: {status}" + (f" ({p['reason']})" if p.get("reason") else "")
    if "executions" not in p or p["status"] == "not run":
        return words
    found = (f"{_count(p['executions'], 'execution')}, {_count(p['failures'], 'new failure')}, "
             f"{_count(p['met'], 'obligation')} met first")
    if p.get("passes", 1) > 1:
        found += f", in {p['passes']} passes (it went on with the budget left)"
    return f"{words}; {found}"


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def phase_lines(phases: list[dict[str, Any]]) -> list[str]:
    """The text report's lines: every phase, and under a failed one what it left undone. Shown
    when any phase did not simply end done (a run of one phase that did says nothing more)."""
    if all(p["status"] == "done" for p in phases) and len(phases) < 2:
        return []
    out = ["phases"]
    for p in phases:
        out.append(f"  {phase_words(p)}")
        out.extend(f"      {problem}" for problem in p.get("problems") or ())
    return out


def incomplete_line(phases: list[dict[str, Any]]) -> str | None:
    """The one line on stderr for a run masfuzz could not complete, or None."""
    bad = failed(phases)
    if not bad:
        return None
    return ("the campaign is incomplete: " + "; ".join(phase_words(p) for p in bad)
            + f" (exit {EXIT_INCOMPLETE} when the app has no failure of its own)")
