"""`masfuzz report`: render a run kept in the run store, without running anything again."""

from __future__ import annotations

import argparse

from masfuzz.options import Config, add_arguments


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="show the coverage of a stored run (default: the latest)",
                       description="Rebuild a run's structural coverage from the run store: its "
                       "spec, every execution's trace and the scenarios that witnessed each "
                       "obligation, and list the failures the detectors recorded. Lists the runs "
                       "with --list.")
    add_arguments(p, "report")
    p.set_defaults(func=run)


def run(args: Config) -> int:
    import datetime as dt
    from pathlib import Path

    from masfuzz.api import report
    from masfuzz.cli.common import print_analysis
    from masfuzz.errors import MasfuzzError
    from masfuzz.store.db import RunStore

    if args.list:
        if not Path(args.store).exists():
            raise MasfuzzError(f"{args.store}: no run store here (run `masfuzz cover` first, or give --store)")
        with RunStore(args.store, read_only=True) as store:
            for r in store.runs():
                when = dt.datetime.fromtimestamp(r["started"]).isoformat(timespec="seconds")
                print(f"{r['id']:>4}  {when}  {r['command']:<6} {r['status']:<9} "
                      f"{r['executions']:>4} executions  {r['target']}")
        return 0
    analysis = report(args.store, args.run)
    return print_analysis(analysis, args.format, obligations=args.obligations,
                          fail_under=args.fail_under, reports=args.report)
