"""`masfuzz judge --otel FILE [TARGET]` / `--chat FILE|DIR`: traces from production and chat
transcripts, judged like masfuzz's own runs; a transcript also gets who and when."""

from __future__ import annotations

import argparse
import json

from masfuzz.options import Config, add_arguments


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "judge", help="judge traces an instrumented app exported (OpenTelemetry spans) or chat transcripts",
        description="Read OTLP/JSON spans (OpenTelemetry GenAI conventions, OpenInference, or "
        "AutoGen AgentChat's own instrumentation, as an instrumented app exports them) or chat "
        "transcripts (--chat: AG2, AgentChat / Magentic-One, OpenAI Agents SDK, LangGraph), judge "
        "every trace in them with masfuzz's detectors (and, with --model, FLARE's failure and judge "
        "agents), name for each transcript the agent most responsible and the decisive step, and "
        "report their structural coverage against TARGET's workflow (a Python target or a "
        "manifest; without one, the workflow the traces show), into the run store and its reports.")
    p.add_argument("target", nargs="?", default=None)
    add_arguments(p, "judge")
    p.set_defaults(func=run)


def run(args: Config) -> int:
    from masfuzz.api import run_judge
    from masfuzz.cli.common import failure_gate, print_analysis, said
    from masfuzz.report.judged import judged_text, log_view, log_view_text
    from masfuzz.report.json_report import JsonReporter
    from masfuzz.report.text import heading
    from masfuzz.report.verdict import verdict

    analysis = run_judge(args)
    judged = analysis.extra["judged"]
    if args.chat and len(judged["logs"]) > 1 and args.format == "text" and not args.report:
        # many logs: one line each and the totals, not the coverage of logs of unrelated runs
        print(judged_text(judged, batch=True), end="")
        return failure_gate(analysis.failures, args.fail_on)
    if args.chat and not args.target and args.format in ("text", "json") and not args.report:
        # logs nobody drove, against no workflow but their own: what a log shows, no coverage
        if args.format == "json":
            print(json.dumps(log_view(JsonReporter().data(analysis), analysis.spec), indent=2))
        else:
            print(log_view_text(heading(analysis), judged, analysis.spec), end="")
        return said(verdict(analysis, args.fail_under, args.fail_on))
    return print_analysis(analysis, args.format, obligations=args.obligations, fail_under=args.fail_under,
                          reports=args.report, fail_on=args.fail_on)
