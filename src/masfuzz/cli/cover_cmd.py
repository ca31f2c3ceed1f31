"""`masfuzz cover TARGET`: structural test generation — obligations to witnessed coverage."""

from __future__ import annotations

import argparse
from masfuzz.adapters import orchestration
from masfuzz.cli.common import add_executor_option, add_model_options, add_store_option


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "cover",
        help="generate scenarios that witness every structural obligation (C1-C4)",
        description="Realize a user request for every witness objective of TARGET, execute it, "
        "and keep it only if the trace shows the witness. Writes coverage, a suite and the run "
        "store; re-running the same command resumes an interrupted run.",
    )
    p.add_argument("target")
    add_model_options(p, tester=True)
    p.add_argument("--realizer", choices=("native", "dspy"), default="native",
                   help="who writes the requests: masfuzz's own prompts, or DSPy signatures "
                   "(one per criterion, dspy.Refine; needs the dspy extra)")
    p.add_argument("--attempts", type=int, default=5, help="refine attempts per bundle (default 5)")
    p.add_argument("--fail-under", type=float, default=None, metavar="PCT",
                   help="exit 1 when C1+C2+C4 coverage is below PCT percent")
    p.add_argument("--suite", default=".masfuzz/suite.yaml", help="where to write the suite")
    p.add_argument("--no-bundle", action="store_true", help="one scenario per objective")
    p.add_argument("--no-route", action="store_true",
                   help="do not give the realizer the delegation route (path-aware help)")
    p.add_argument("--faults", default="error,malformed",
                   help="fault modes re-run on witnessed tool scenarios (comma list, or none)")
    p.add_argument("--criteria", default="C1,C2,C3,C4", help="criteria to generate for")
    p.add_argument("--budget-time", type=float, default=None, metavar="S",
                   help="stop generating after S seconds (the run is kept and reported)")
    p.add_argument("--budget-executions", type=int, default=None, metavar="N",
                   help="stop after N executions in the run")
    p.add_argument("--budget-model-calls", type=int, default=None, metavar="N",
                   help="stop after N tester model calls")
    p.add_argument("--fresh", action="store_true", help="do not resume an unfinished run")
    p.add_argument("--format", choices=("text", "json"), default="text")
    add_store_option(p)
    add_executor_option(p)
    orchestration.add_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from masfuzz.api import run_cover
    from masfuzz.cli.common import print_analysis, progress_printer

    analysis = run_cover(args, progress=progress_printer(args.format != "json"))
    return print_analysis(analysis, args.format, obligations=True, fail_under=args.fail_under)
