"""`masfuzz exec TARGET --input TEXT`: run one scenario and print its trace.

TARGET is a Python target (`file.py:attr`, `pkg.mod:attr`, `file.py:factory(...)`) or a
manifest file, which is materialised as runnable agents with recording tool stubs. A black-box
app (`--blackbox COMMAND`) needs no --input when its command carries the task itself. The JSON
output is the versioned `Trace` itself; the text output is one line per event, then the failures
the deterministic detectors (`masfuzz.oracles`) find in it. `--failures` (or `--coverage`) makes
the JSON output an object: {"trace": <Trace>, "failures": [...]} (plus "coverage").
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from masfuzz.cli.common import failure_gate
from masfuzz.options import Config, add_arguments


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "exec",
        help="run one scenario on a system under test and print its trace",
        description="Run one scenario on TARGET (file.py:attr, pkg.mod:attr, file.py:factory(...) "
        "or a manifest .yaml/.json), or on an unmodified app (--blackbox COMMAND), and print the "
        "trace it produced.",
    )
    p.add_argument("target", nargs="?")
    p.add_argument("--input", metavar="TEXT", help="the user message that starts the run; "
                   "optional with --blackbox COMMAND, whose own arguments may carry the task "
                   "({input} in COMMAND is replaced by --input)")
    add_arguments(p, "exec")
    p.set_defaults(func=run)


def run(args: Config) -> int:
    from masfuzz.api import execute_scenario, scenario_from, target_of

    scenario = scenario_from(args)
    if args.blackbox or not args.target:
        trace = run_from_args(args, scenario)
    else:
        trace = asyncio.run(execute_scenario(target_of(args), scenario, args))
    spec = _spec(trace, args)
    from masfuzz.oracles import detect

    declared = bool(args.target and not args.blackbox) or bool(args.spec)
    failures = [f.model_dump(mode="json") for f in detect(trace, spec if declared else None)]
    if args.coverage:
        _print_with_coverage(trace, spec, args, failures)
    elif args.format == "json" and args.failures:
        print(json.dumps({"trace": trace.model_dump(mode="json", by_alias=True),
                          "failures": failures}, indent=2))
    elif args.format == "json":
        print(trace.model_dump_json(by_alias=True, indent=2))
    else:
        print(_with_failures(trace, failures))
    return failure_gate(failures, args.fail_on)


def run_from_args(args: Config, scenario: Any) -> Any:
    """`exec --blackbox COMMAND`: the app run as a black box, its agents named by --bb-agent or
    by the workflow of --spec."""
    from masfuzz.adapters.base import execute
    from masfuzz.adapters.blackbox import BlackboxAdapter, BlackboxApp
    from masfuzz.errors import MasfuzzError
    from masfuzz.target import open_target

    if not args.blackbox:
        raise MasfuzzError("exec: give a TARGET, or --blackbox COMMAND")
    agents: list[tuple[str, str]] = []
    if args.spec:
        agents = [(a.id, a.instructions) for a in open_target(args.spec).spec.agents if a.instructions]
    for item in args.bb_agent:  # one name may be given several times, one prompt each
        name, sep, prompt = item.partition("=")
        if not sep or not name:
            raise MasfuzzError(f"--bb-agent {item!r}: expected NAME=PROMPT")
        agents.append((name, prompt))
    app = BlackboxApp(args.blackbox, cwd=args.cwd, answers=args.answer, agents=agents)
    adapter = BlackboxAdapter()
    return asyncio.run(execute(adapter, app, adapter.extract(app), scenario))


def _spec(trace: Any, args: Config) -> Any:
    """What the run is judged and measured against: the target's own spec, with the graph the
    user supplied (--coordinator/--link), the --spec of a black-box run, or else (for coverage)
    the workflow observed in the run."""
    from masfuzz.target import Target

    if args.target and not args.blackbox:
        return Target.of(args.target, args.orchestration).open().spec
    if args.spec:
        return Target.of(args.spec).open().spec
    if args.coverage and trace.speaker_order:
        from masfuzz.adapters.blackbox import spec_from_traces

        return spec_from_traces([trace])
    return None


def _print_with_coverage(trace: Any, spec: Any, args: Config,
                         failures: list[dict[str, Any]]) -> None:
    """`masfuzz exec ... --coverage`: the trace, then its structural coverage."""
    from masfuzz.report import Analysis, JsonReporter, TextReporter

    analysis = Analysis.of_traces(spec, [trace]) if spec is not None else None
    if args.format == "json":
        report = JsonReporter().data(analysis, obligations=True) if analysis else None
        print(json.dumps({"trace": trace.model_dump(mode="json", by_alias=True),
                          "coverage": report, "failures": failures}, indent=2))
    else:
        print(_with_failures(trace, failures))
        print()
        print(TextReporter().render(analysis, obligations=True) if analysis else
              "no structural coverage: no agent called the model in this run\n", end="")


def _with_failures(trace: Any, failures: list[dict[str, Any]]) -> str:
    from masfuzz.report.text import failure_lines
    from masfuzz.report.trace_text import render_text

    if not failures:  # a clean run prints just its trace
        return render_text(trace)
    return render_text(trace) + "\n\n" + "\n".join(failure_lines(failures))
