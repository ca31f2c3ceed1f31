"""`masfuzz inspect TARGET`: the workflow spec, its coordination graph and its obligations."""

from __future__ import annotations

import argparse

from masfuzz.options import Config, add_arguments


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "inspect",
        help="show the workflow spec, coordination graph and structural obligations",
        description="Extract the workflow spec of TARGET (file.py:attr, pkg.mod:attr, "
        "file.py:factory(...) or a manifest .yaml/.json) and show it.",
    )
    p.add_argument("target")
    add_arguments(p, "inspect")
    p.set_defaults(func=run)


def run(args: Config) -> int:
    from masfuzz.target import open_target
    from masfuzz.graph.render import to_dot, to_mermaid
    from masfuzz.report import Analysis, JsonReporter, TextReporter
    from masfuzz.spec.manifest import dump_manifest

    if args.check:
        return _check(args)
    if args.against:
        return _against(args)
    sut = open_target(args.target, args.orchestration)
    analysis = Analysis.of_spec(sut.spec)
    if args.format in ("yaml", "json"):
        print(dump_manifest(sut.spec, args.format), end="")
    elif args.format == "mermaid":
        print(to_mermaid(analysis.graph), end="")
    elif args.format == "dot":
        print(to_dot(analysis.graph), end="")
    elif args.format == "report-json":
        print(JsonReporter().render(analysis, obligations=args.obligations), end="")
    else:
        print(TextReporter().render(analysis, obligations=args.obligations), end="")
    return 0


def _check(args: Config) -> int:
    """`inspect --check`: the control check's report; exit 1 when a model call escaped masfuzz."""
    import json

    from masfuzz.control import run_check
    from masfuzz.scenario import surroundings
    from masfuzz.target import Target

    from masfuzz.api import sut_sandbox

    around = surroundings(args)
    report = run_check(Target.of(args.target, args.orchestration),
                       stubs=around["stubs"], context=around["context"], sandbox=sut_sandbox(args))
    if args.format == "json":
        print(json.dumps(report.as_dict(), indent=2))
    else:
        print(report.render(), end="")
    return 0 if report.ok else 1


def _against(args: Config) -> int:
    """`inspect --against MANIFEST`: the structural drift of the code from the manifest."""
    import json

    from masfuzz.graph.drift import drift
    from masfuzz.target import open_target

    actual = open_target(args.target, args.orchestration).spec
    declared = open_target(args.against).spec
    found = drift(declared, actual)
    if args.format == "json":
        print(json.dumps({"target": args.target, "manifest": args.against,
                          "drift": [vars(d) for d in found]}, indent=2))
    elif found:
        print(f"{len(found)} structural difference(s) of {args.target} from {args.against}:")
        print("\n".join(f"  {d.line()}" for d in found))
    else:
        print(f"no structural drift: {args.target} builds the workflow {args.against} declares")
    return 1 if found else 0
