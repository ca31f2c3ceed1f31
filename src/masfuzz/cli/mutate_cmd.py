"""`masfuzz mutate TARGET --suite SUITE`: mutation analysis of a suite. Workflow mutants (a tool
edge removed, a restricted tool granted, a delegation retargeted or dropped, an agent
disconnected, two tools' descriptions swapped, a termination condition weakened or removed, the
turn limit lowered) are applied to the live target at run time; the suite runs against each.
Prints the mutation score per operator and the surviving mutants; exit 0 (an analysis), 2 on
bad input."""

from __future__ import annotations

import argparse
import json

from masfuzz.options import Config, add_arguments


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("mutate", help="mutation analysis: does a suite kill workflow mutants?",
                       description="Run every case of SUITE against TARGET and against each "
                       "mutant of its workflow (applied at run time, never to the source); "
                       "report the mutation score per operator and the surviving mutants.")
    p.add_argument("target")
    add_arguments(p, "mutate")
    p.set_defaults(func=run)


def run(args: Config) -> int:
    from masfuzz.api import run_mutate
    from masfuzz.report.mutation import killed_text, mutation_text

    data = run_mutate(args)
    if args.format == "json":
        print(json.dumps(data, indent=2))
    else:
        print(mutation_text(data) + killed_text(data), end="")
    return 0
