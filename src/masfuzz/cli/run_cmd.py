"""`masfuzz run TARGET`: the whole campaign in one command."""

from __future__ import annotations

import argparse

from masfuzz.options import Config, add_arguments


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run", help="the whole campaign: known failures replayed, tool fuzzing, structural "
        "generation, FLARE fuzzing",
        description="One campaign on TARGET within one budget, its phases in order (--phases): "
        "the failures the store holds for this target re-executed first (each fixed, or still "
        "failing), then runtime fuzzing of the tools the agents own, in the sandbox (tools; "
        "--calls per tool, no model), then scenarios generated to witness every structural "
        "obligation (cover), then FLARE's coverage-guided fuzzing (fuzz), seeded with --input and "
        "the tester's tasks, or without them with the scenarios the structural phase witnessed. Each phase gets a "
        "share of the budget; what it leaves rolls forward. Takes the settings of cover and fuzz. "
        "Each run is a new campaign; --resume continues an interrupted one. Exit 1 on a failure "
        "--fail-on names or coverage under --fail-under, 2 on bad input, 3 when a phase (or a "
        "tool) failed for masfuzz's own reasons.")
    p.add_argument("target")
    add_arguments(p, "run")
    p.set_defaults(func=run)


def run(args: Config) -> int:
    from masfuzz.api import run_campaign
    from masfuzz.cli.common import print_analysis
    from masfuzz.cli.progress import display_for

    with display_for(args) as display:
        analysis = run_campaign(args, progress=display.say, status=display.update)
    return print_analysis(analysis, args.format, obligations=True, fail_under=args.fail_under,
                          reports=args.report, fail_on=args.fail_on)
