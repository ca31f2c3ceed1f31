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
                   fail_under: float | None = None) -> int:
    """Render an analysis in the chosen format; exit 1 when `--fail-under` fails it."""
    from masfuzz.report import REPORTERS

    print(REPORTERS[fmt]().render(analysis, obligations=obligations), end="")
    why = analysis.gate(fail_under)
    if why:
        print(f"masfuzz: {why}", file=sys.stderr)
        return 1
    return 0
