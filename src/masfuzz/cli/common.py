"""Plumbing shared by the commands (their options are declared once, in `masfuzz.options`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable

def executor_for(args: argparse.Namespace) -> Any:
    """The executor a command's options ask for (the caller closes it: `await ex.aclose()`)."""
    from masfuzz.exec import make_executor
    from masfuzz.options import model_settings

    return make_executor(args.executor, timeout=args.timeout, models=model_settings(args))


def progress_printer(enabled: bool) -> Callable[[str], None]:
    def say(msg: str) -> None:
        if enabled:
            print(f"  .. {msg}", file=sys.stderr, flush=True)

    return say


def print_analysis(analysis: Any, fmt: str, *, obligations: bool = False,
                   fail_under: float | None = None, reports: Any = ()) -> int:
    """Render an analysis: each `--report FORMAT[:PATH]` (a file written atomically, or the
    terminal), else `--format` to the terminal; exit 1 when `--fail-under` fails it."""
    from masfuzz.report import write_report

    for spec in reports or [fmt]:
        kind, _, path = spec.partition(":")
        write_report(analysis, kind, path or None, obligations=obligations)
    why = analysis.gate(fail_under)
    if why:
        print(f"masfuzz: {why}", file=sys.stderr)
        return 1
    return 0
