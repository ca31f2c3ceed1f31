"""`masfuzz replay SUITE [TARGET]`: re-execute a saved suite; exit 1 if a witness was lost, a
robustness case that held when recorded fails now, or the suite has no case."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from masfuzz.adapters import orchestration
from masfuzz.options import add_arguments


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="re-execute a saved suite and check its witnesses",
                       description="Run every case of SUITE against TARGET (default: the target "
                       "recorded in the suite) and report which expected witnesses still hold.")
    p.add_argument("suite")
    p.add_argument("target", nargs="?", default=None)
    add_arguments(p, "replay")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from masfuzz.cli.common import executor_for
    from masfuzz.errors import MasfuzzError
    from masfuzz.generate.suite import load_suite
    from masfuzz.target import Target

    suite = load_suite(args.suite)
    if not suite.cases:
        print(f"masfuzz: {args.suite}: the suite has no case to replay", file=sys.stderr)
        return 1
    target = args.target or suite.target
    if not target:
        raise MasfuzzError(f"{args.suite}: no target recorded; give TARGET")
    if not orchestration.from_args(args):  # the suite's coordinator and links, unless overridden
        recorded = orchestration.Orchestration.from_data(suite.orchestration)
        args.coordinator, args.link = recorded.coordinator, recorded.link_texts()
    outcomes = asyncio.run(replay_with(executor_for(args), Target.of(target, orchestration.from_args(args)),
                                       suite, args.sut_model))
    held = sum(1 for o in outcomes if o.passed)
    if args.format == "json":
        print(json.dumps({
            "suite": args.suite, "target": target, "passed": held, "failed": len(outcomes) - held,
            "cases": [{"id": o.case.id, "title": o.case.title, "held": o.held, "lost": o.lost,
                       "detail": o.detail} for o in outcomes],
        }, indent=2))
    else:
        for kind, heading in (("witness", None), ("fault", "robustness (fault re-runs)")):
            mine = [o for o in outcomes if o.case.kind == kind]
            if heading and mine:
                print(heading)
            for o in mine:
                mark = "ok  " if o.passed else "LOST"
                extra = f"  lost: {', '.join(o.lost)} {o.detail}".rstrip() if not o.passed else \
                    (f"  ({o.detail})" if o.detail else "")
                print(f"{mark} {o.case.id} {o.case.title}{extra}")
        print(f"{held} passed, {len(outcomes) - held} failed")
    return 0 if held == len(outcomes) else 1


async def replay_with(executor: Any, target: Any, suite: Any, sut_model: str | None) -> Any:
    from masfuzz.generate.replay import replay

    async def execute(scenario: Any) -> Any:
        return await executor.run(target, scenario)

    try:
        return await replay(suite, execute, sut_model=sut_model)
    finally:
        await executor.aclose()
