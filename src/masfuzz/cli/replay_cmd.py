"""`masfuzz replay SUITE [TARGET]`: re-execute a saved suite; exit 1 if a witness was lost, a
robustness case that held when recorded fails now, or the suite has no case. `--repeat K` runs
it K times and reports pass^k and the flaky cases. `--persistent N` (N > 1) runs it so, then each
case once more in a fresh fork of its own, and says which cases ran otherwise: AFL++'s
stability, whether what a run leaves in its process changes the next runs of this app."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from masfuzz.adapters.orchestration import Orchestration
from masfuzz.options import Config, add_arguments


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="re-execute a saved suite and check its witnesses",
                       description="Run every case of SUITE against TARGET (default: the target "
                       "recorded in the suite) and report which expected witnesses still hold.")
    p.add_argument("suite")
    p.add_argument("target", nargs="?", default=None)
    add_arguments(p, "replay")
    p.set_defaults(func=run)


def run(args: Config) -> int:
    from masfuzz.api import executor_for
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
    # the suite's coordinator and links, unless overridden
    graph = args.orchestration or Orchestration.from_data(suite.orchestration)
    rounds = asyncio.run(replay_with(executor_for(args), Target.of(target, graph),
                                     suite, args.sut_model, repeat=args.repeat, timeout=args.timeout))
    stability = None
    if args.persistent > 1:  # the same cases, each in a fresh fork: no run before it in its process
        fresh = asyncio.run(replay_with(executor_for(args.replace(persistent=1)), Target.of(target, graph),
                                        suite, args.sut_model, timeout=args.timeout))
        stability = _stability(args.persistent, rounds[0], fresh[0])
    if args.repeat > 1:
        return _print_repeated(args, target, rounds, stability)
    outcomes = rounds[0]
    held = sum(1 for o in outcomes if o.passed)
    if args.format == "json":
        print(json.dumps({
            "suite": args.suite, "target": target, "passed": held, "failed": len(outcomes) - held,
            "cases": [{"id": o.case.id, "title": o.case.title, "held": o.held, "lost": o.lost,
                       "detail": o.detail} for o in outcomes],
            **({"stability": stability} if stability else {}),
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
        _print_stability(stability)
    return 0 if held == len(outcomes) else 1


def _stability(persistent: int, shared: list[Any], fresh: list[Any]) -> dict[str, Any]:
    """AFL++'s stability for `--persistent`: the cases whose run in a process shared with earlier
    runs (`shared`) went otherwise than in a fresh fork (`fresh`): its events (their times
    aside) or its end. The model cache answers both runs alike, so what differs is the state
    an earlier run left, or the app's own nondeterminism."""
    from masfuzz.trace import PROCESS_RUN

    def run(outcome: Any) -> Any:
        trace = outcome.trace
        return ([e.model_dump(mode="json", exclude={"t"}) for e in trace.events],
                trace.termination.reason if trace.termination else None)

    differ = [a.case.id for a, b in zip(shared, fresh) if run(a) != run(b)]
    return {"persistent": persistent, "cases": len(shared), "same": len(shared) - len(differ),
            "shared": sum(1 for o in shared if o.trace.meta.get(PROCESS_RUN, 1) > 1), "differ": differ}


def _print_stability(stability: dict[str, Any] | None) -> None:
    if not stability:
        return
    s = stability
    print(f"stability under --persistent {s['persistent']}: {s['same']} of {s['cases']} case(s) ran as in "
          f"a fresh fork of their own ({s['shared']} shared a process with earlier runs)"
          + (f"; ran otherwise: {', '.join(s['differ'])} (what an earlier run left in the process, or "
             "the app's own nondeterminism: leave --persistent off for this app)" if s["differ"] else ""))


def _print_repeated(args: Config, target: str, rounds: list[list[Any]],
                    stability: dict[str, Any] | None = None) -> int:
    """`--repeat K`: per case, how many of the K runs held; pass^k over the suite (the share of
    cases that held in every run, as agent benchmarks measure reliability) and the flaky cases
    (held in some runs, not all)."""
    k = len(rounds)
    cases = [[r[i] for r in rounds] for i in range(len(rounds[0]))]
    passes = [sum(o.passed for o in runs) for runs in cases]
    always = sum(1 for n in passes if n == k)
    flaky = [runs[0].case.id for runs, n in zip(cases, passes) if 0 < n < k]
    pass_k = always / len(cases)
    if args.format == "json":
        print(json.dumps({
            "suite": args.suite, "target": target, "repeat": k, "pass^k": pass_k, "flaky": flaky,
            "cases": [{"id": runs[0].case.id, "title": runs[0].case.title, "passed": n, "runs": k,
                       "pass^k": 1 if n == k else 0,
                       "lost": sorted({w for o in runs for w in o.lost})} for runs, n in zip(cases, passes)],
            **({"stability": stability} if stability else {}),
        }, indent=2))
    else:
        for runs, n in zip(cases, passes):
            mark = "ok   " if n == k else ("FLAKY" if n else "LOST ")
            lost = sorted({w for o in runs for w in o.lost})
            print(f"{mark} {runs[0].case.id} {runs[0].case.title}  ({n}/{k} runs held)"
                  + (f"  lost: {', '.join(lost)}" if lost else ""))
        print(f"pass^{k} = {pass_k:.2f} ({always} of {len(cases)} case(s) held in all {k} runs); "
              f"flaky: {len(flaky)}")
        _print_stability(stability)
    return 0 if always == len(cases) else 1


async def replay_with(executor: Any, target: Any, suite: Any, sut_model: str | None, *,
                      repeat: int = 1, timeout: float | None = None) -> list[list[Any]]:
    """The suite replayed `repeat` times on one executor. Runs after the first carry a nonce
    (the run's number) as their execution nonce: a new sample of every model call, never a
    cached answer, so a flaky case shows."""
    from masfuzz.generate.replay import replay

    rounds = []
    try:
        for n in range(repeat):
            async def execute(scenario: Any, n: int = n) -> Any:
                return await executor.run(target, scenario.model_copy(update={"nonce": n}) if n else scenario)

            rounds.append(await replay(suite, execute, sut_model=sut_model, timeout=timeout))
    finally:
        await executor.aclose()
    return rounds
