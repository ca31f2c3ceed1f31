"""`masfuzz report`: render a run kept in the run store, without running anything again."""

from __future__ import annotations

import argparse

from masfuzz.cli.common import add_store_option


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="show the coverage of a stored run (default: the latest)",
                       description="Rebuild a run's structural coverage from the run store: its "
                       "spec, every execution's trace and the scenarios that witnessed each "
                       "obligation, and list the failures the detectors recorded. Lists the runs "
                       "with --list.")
    p.add_argument("--run", type=int, default=None, help="run id (default: the latest)")
    p.add_argument("--list", action="store_true", help="list the runs in the store")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--obligations", action="store_true", help="list every obligation")
    add_store_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import datetime as dt
    import json
    from pathlib import Path

    from masfuzz.errors import MasfuzzError
    from masfuzz.report import Analysis, JsonReporter, TextReporter
    from masfuzz.store.db import RunStore

    if not Path(args.store).exists():
        raise MasfuzzError(f"{args.store}: no run store here (run `masfuzz cover` first, or give --store)")
    with RunStore(args.store) as store:
        if args.list:
            for r in store.runs():
                when = dt.datetime.fromtimestamp(r["started"]).isoformat(timespec="seconds")
                print(f"{r['id']:>4}  {when}  {r['command']:<6} {r['status']:<9} "
                      f"{r['executions']:>4} executions  {r['target']}")
            return 0
        run_id = args.run if args.run is not None else store.latest_run()
        if run_id is None:
            raise MasfuzzError(f"{args.store}: the store holds no run")
        info = store.run_info(run_id)
        if info["spec_id"] is None:
            raise MasfuzzError(f"{args.store}: run {run_id} has no workflow spec to measure against")
        spec = store.get_spec(info["spec_id"])
        traces = [t.model_copy(update={"scenario_id": s.id}) for _, s, t in store.executions(run_id)]
        failures = store.failures(run_id)
    analysis = Analysis.of_traces(spec, traces)
    analysis.failures = failures
    if args.format == "json":
        data = JsonReporter().data(analysis, obligations=args.obligations)
        data["run"] = info
        print(json.dumps(data, indent=2))
    else:
        print(f"run {run_id}: masfuzz {info['command']} {info['target']} ({info['status']})")
        print(TextReporter().render(analysis, obligations=args.obligations), end="")
    return 0
