"""Plumbing shared by the commands (their options are declared once, in `masfuzz.options`)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any


def print_analysis(analysis: Any, fmt: str, *, obligations: bool = False,
                   fail_under: float | None = None, reports: Any = (),
                   fail_on: Sequence[str] | None = None) -> int:
    """Render an analysis: each `--report FORMAT[:PATH]` (a file written atomically, or the
    terminal), else `--format` to the terminal; then its verdict (`masfuzz.report.verdict`):
    its lines on stderr, its exit status returned."""
    from masfuzz.report import write_report
    from masfuzz.report.verdict import verdict

    for spec in reports or [fmt]:
        kind, _, path = spec.partition(":")
        write_report(analysis, kind, path or None, obligations=obligations)
        if path:  # coverage.py's habit: say where the file went
            print(f"masfuzz: wrote the {kind} report to {path}", file=sys.stderr)
    return said(verdict(analysis, fail_under, fail_on))


def failure_gate(failures: list[dict[str, Any]], fail_on: Sequence[str] | None,
                 tool_failures: Sequence[dict[str, Any]] = ()) -> int:
    """The `--fail-on` gate of a command with failures and no analysis (`exec`, `tools`)."""
    from masfuzz.report.verdict import failure_verdict

    return said(failure_verdict(failures, fail_on, tool_failures))


def said(outcome: Any) -> int:
    """A verdict's lines on stderr; its exit status."""
    for line in outcome.lines:
        print(f"masfuzz: {line}", file=sys.stderr)
    return outcome.exit_code
