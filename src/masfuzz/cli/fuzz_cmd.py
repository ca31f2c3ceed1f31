"""`masfuzz fuzz TARGET --input TASK`: FLARE's coverage-guided fuzzing."""

from __future__ import annotations

import argparse

from masfuzz.options import Config, add_arguments


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "fuzz", help="coverage-guided fuzzing of the agents' configurations and order (FLARE)",
        description="Execute each seed task (--input, and --seed-tasks written by the tester "
        "model), then mutants of them: one agent's temperature or model changed and, for "
        "free-form teams, a new speaking order, chosen by weights that coverage gains raise. "
        "Reports FLARE's Table-1 row (SC, BC, path and behaviour coverage, failures by symptom). "
        "Writes the run store; re-running the same command resumes.")
    p.add_argument("target")
    add_arguments(p, "fuzz")
    p.set_defaults(func=run)


def run(args: Config) -> int:
    from masfuzz.api import run_fuzz
    from masfuzz.cli.common import print_analysis
    from masfuzz.cli.progress import display_for

    with display_for(args) as display:
        analysis = run_fuzz(args, progress=display.say, status=display.update)
    return print_analysis(analysis, args.format, fail_on=args.fail_on, fail_under=args.fail_under,
                          reports=args.report)
