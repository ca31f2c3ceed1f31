"""`masfuzz judge --otel FILE [TARGET]`: traces from production, judged like masfuzz's own runs."""

from __future__ import annotations

import argparse

from masfuzz.options import add_arguments


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "judge", help="judge traces an instrumented app exported (OpenTelemetry spans)",
        description="Read OTLP/JSON spans (OpenTelemetry GenAI conventions, OpenInference, or "
        "AutoGen AgentChat's own instrumentation, as an instrumented app exports them), judge every trace in them with masfuzz's detectors, "
        "and report their structural coverage against TARGET's workflow (a Python target or a "
        "manifest; without one, the workflow the traces show), into the run store and its reports.")
    p.add_argument("target", nargs="?", default=None)
    add_arguments(p, "judge")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from masfuzz.api import run_judge
    from masfuzz.cli.common import print_analysis

    analysis = run_judge(args)
    return print_analysis(analysis, args.format, obligations=args.obligations, fail_under=args.fail_under,
                          reports=args.report, fail_on=args.fail_on)
