"""Plumbing shared by the commands (their options are declared once, in `masfuzz.options`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any


def executor_for(args: argparse.Namespace) -> Any:
    """The executor a command's options ask for (the caller closes it: `await ex.aclose()`)."""
    from masfuzz.api import sut_sandbox
    from masfuzz.exec import make_executor
    from masfuzz.options import model_settings

    return make_executor(args.executor, ray_address=getattr(args, "ray_address", None),
                         ray_cpus=getattr(args, "ray_cpus", None),
                         concurrency=getattr(args, "workers", None) or 1,
                         timeout=args.timeout, models=model_settings(args), sandbox=sut_sandbox(args))


def print_analysis(analysis: Any, fmt: str, *, obligations: bool = False,
                   fail_under: float | None = None, reports: Any = (),
                   fail_on: str | None = None) -> int:
    """Render an analysis: each `--report FORMAT[:PATH]` (a file written atomically, or the
    terminal), else `--format` to the terminal; exit 1 when `--fail-under` or `--fail-on`
    fails it, else 3 when a phase failed for masfuzz's own reasons (`masfuzz.report.phases`)."""
    from masfuzz.report import write_report
    from masfuzz.report.phases import EXIT_FINDINGS, EXIT_INCOMPLETE, incomplete_line, phases_of
    from masfuzz.report.tools import gating_failures

    for spec in reports or [fmt]:
        kind, _, path = spec.partition(":")
        write_report(analysis, kind, path or None, obligations=obligations)
        if path:  # coverage.py's habit: say where the file went
            print(f"masfuzz: wrote the {kind} report to {path}", file=sys.stderr)
    incomplete = incomplete_line(phases_of(analysis))
    if incomplete:  # whatever else the exit says, a phase masfuzz failed to run is said
        print(f"masfuzz: {incomplete}", file=sys.stderr)
    why = analysis.gate(fail_under)
    if why:
        print(f"masfuzz: {why}", file=sys.stderr)
        return EXIT_FINDINGS
    tools = analysis.extra.get("tools") or {}  # the findings of a run's tool fuzzing count too
    code = failure_gate(analysis.failures, fail_on, gating_failures(tools.get("findings") or []))
    return code or (EXIT_INCOMPLETE if incomplete else 0)


def failure_gate(failures: list[dict[str, Any]], fail_on: str | None,
                 tool_failures: Sequence[dict[str, Any]] = ()) -> int:
    """1 (and one line on stderr) when the system under test has a failure `--fail-on` names;
    a run's tool-fuzzing findings count with its runs' and the line says how many they are, so
    the figure agrees with the report's two lists (the runs' failures, the tools')."""
    from masfuzz.oracles.failure import gating

    failing = gating([*failures, *tool_failures], fail_on)
    if not failing:
        return 0
    kinds = ", ".join(sorted({f["category"].replace("_", " ") for f in failing}))
    by_tools = len(gating(list(tool_failures), fail_on))
    split = f"; {len(failing) - by_tools} in runs, {by_tools} by tool fuzzing" if by_tools else ""
    print(f"masfuzz: --fail-on {fail_on}: the system under test has {len(failing)} failure(s) "
          f"({kinds}{split})", file=sys.stderr)
    return 1
