"""`masfuzz cover TARGET`: structural test generation — obligations to witnessed coverage."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

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
    p.add_argument("--fresh", action="store_true", help="do not resume an unfinished run")
    p.add_argument("--format", choices=("text", "json"), default="text")
    add_store_option(p)
    add_executor_option(p)
    orchestration.add_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from masfuzz.cli.common import executor_for, make_client, open_store, progress_printer
    from masfuzz.target import open_target
    from masfuzz.generate.campaign import cover
    from masfuzz.generate.realizer import NativeRealizer
    from masfuzz.generate.suite import suite_from_result
    from masfuzz.report import Analysis, JsonReporter, TextReporter
    from masfuzz.report.generation import generation_data, generation_text
    from masfuzz.errors import MasfuzzError

    orch = orchestration.from_args(args)
    sut = open_target(args.target, orch)
    faults = tuple(m for m in args.faults.split(",") if m and m != "none")
    bad = [m for m in faults if m not in ("error", "malformed", "timeout", "empty")]
    if bad:
        raise MasfuzzError(f"--faults: unknown mode {bad[0]!r} (error, malformed, timeout, empty)")
    if args.attempts < 1:
        raise MasfuzzError("--attempts: must be at least 1")
    tester = make_client(args.model, role="tester", args=args)
    if args.realizer == "dspy":
        from masfuzz.generate.dspy_realizer import DSPyRealizer  # one-line error without dspy

        realizer = DSPyRealizer(tester, seed=args.seed)
    else:
        realizer = NativeRealizer(tester, seed=args.seed)
    config = {"model": args.model, "realizer": args.realizer, "sut_model": args.sut_model,
              "attempts": args.attempts,
              "bundle": not args.no_bundle, "route": not args.no_route, "faults": list(faults),
              "seed": args.seed, "criteria": args.criteria}
    if orch:  # the graph the user supplied is part of the system: resume and replay need it
        config["orchestration"] = orch.to_data()
    store = open_store(args.store)
    run_id = None if args.fresh else store.find_resumable("cover", args.target, config)
    resumed = run_id is not None
    if run_id is None:
        run_id = store.start_run("cover", sut.spec, target=args.target, config=config)
    say = progress_printer(args.format != "json")
    if resumed:
        say(f"resuming run {run_id} from {args.store}")
    try:
        result = asyncio.run(cover(
            sut.spec, realizer, executor_for(args.target, args), sut_model=args.sut_model,
            attempts=args.attempts, merge=not args.no_bundle, path_aware=not args.no_route,
            fault_modes=faults, seed=args.seed, max_turns=args.max_turns, timeout=args.timeout,
            store=store, run_id=run_id, tester_calls=lambda: tester.ledger.total().calls,
            progress=say, criteria=tuple(c.strip() for c in args.criteria.split(",")),
        ))
    except KeyboardInterrupt:
        store.finish_run(run_id, "running")
        raise
    store.finish_run(run_id, "completed")
    suite = suite_from_result(result, target=args.target, spec=sut.spec,
                              models={"tester": args.model, "sut": args.sut_model}, seed=args.seed,
                              orchestration=orch.to_data())
    path = suite.save(args.suite)
    analysis = Analysis.of_spec(sut.spec)
    analysis.coverage = result.coverage
    analysis.scenarios = len({a.scenario.id for r in result.realizations for a in r.attempts
                              if a.scenario is not None})
    analysis.failures = result.failures  # every execution's, one per fingerprint (masfuzz.oracles)
    gen = generation_data(result, suite_path=str(path))
    if args.format == "json":
        data = JsonReporter().data(analysis, obligations=True)
        data["generation"] = gen
        print(json.dumps(data, indent=2))
    else:
        print(TextReporter().render(analysis, obligations=True), end="")
        print(generation_text(gen), end="")
    if args.fail_under is not None:
        rs = [r for r in result.coverage.results() if r.criterion != "C3"]
        total = sum(r.total for r in rs)
        pct = 100.0 * sum(r.covered for r in rs) / total if total else 100.0
        if pct < args.fail_under:
            print(f"masfuzz: coverage {pct:.1f}% is under --fail-under {args.fail_under:g}%",
                  file=sys.stderr)
            return 1
    return 0
