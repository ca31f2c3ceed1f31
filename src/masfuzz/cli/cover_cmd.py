"""`masfuzz cover TARGET`: structural test generation — obligations to witnessed coverage."""

from __future__ import annotations

import argparse
from masfuzz.options import Config, add_arguments


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "cover",
        help="generate scenarios that witness every structural obligation (C1-C4)",
        description="Realize a user request for every witness objective of TARGET, execute it, "
        "and keep it only if the trace shows the witness. Writes coverage, a suite and the run "
        "store; re-running the same command resumes an interrupted run.",
    )
    p.add_argument("target")
    add_arguments(p, "cover")
    p.set_defaults(func=run)


def run(args: Config) -> int:
    from masfuzz.api import run_cover
    from masfuzz.cli.common import print_analysis
    from masfuzz.cli.progress import display_for

    with display_for(args) as display:
        analysis = run_cover(args, progress=display.say, status=display.update)
    return print_analysis(analysis, args.format, obligations=True, fail_under=args.fail_under,
                          reports=args.report, fail_on=args.fail_on)
