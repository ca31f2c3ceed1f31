"""`masfuzz tools TARGET`: ToolFuzz — runtime and correctness testing of agent tools."""

from __future__ import annotations

import argparse
import json
import random
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "tools",
        help="fuzz agent tools for runtime errors and documentation-induced wrong answers",
        description="Fuzz every tool of TARGET: one tool (module:attr or file.py:attr: a Python "
        "function, an Agents SDK FunctionTool, an AutoGen tool, a LangChain tool), a list of "
        "tools, a module, or a workflow (an Agents SDK agent, an AutoGen team). Every call runs "
        "in a sandbox: its own temporary folder, no network, CPU/memory/time limits.",
    )
    p.add_argument("target")
    p.add_argument("--calls", type=int, default=200, help="fuzzed tool calls per tool (default 200)")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: a fresh one, printed)")
    p.add_argument("--model", default=None,
                   help="tester model: writes user requests, prompt sets, the oracle, doc fixes")
    p.add_argument("--sut-model", default=None, help="the agent's model (default: --model)")
    p.add_argument("--correctness", action="store_true", help="also run the correctness pipeline")
    p.add_argument("--fix-docs", action="store_true",
                   help="rewrite failing tools' descriptions (best of --candidates) and re-test")
    p.add_argument("--candidates", type=int, default=3, help="documentation fixes to try (default 3)")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per tool call (default 10)")
    p.add_argument("--memory-mb", type=int, default=1024, help="memory per sandbox worker (default 1024)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from masfuzz.loader import load_target
    from masfuzz.errors import MasfuzzError
    from masfuzz.toolfuzz.report import render_text
    from masfuzz.toolfuzz.sandbox import SandboxLimits
    from masfuzz.toolfuzz.session import FuzzSession, SessionConfig, session_dict
    from masfuzz.toolfuzz.targets import collect_tools

    if args.calls < 1:
        raise MasfuzzError(f"--calls must be at least 1, not {args.calls}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    print(f"masfuzz tools: seed {seed}", file=sys.stderr)
    tools, notes = collect_tools(load_target(args.target).obj, args.target)
    config = SessionConfig(
        calls=args.calls, seed=seed, model=args.model, sut_model=args.sut_model,
        correctness=args.correctness, fix_docs=args.fix_docs, fix_candidates=args.candidates,
        limits=SandboxLimits(time_s=args.timeout, cpu_s=max(1, int(args.timeout)), memory_mb=args.memory_mb),
    )
    report = FuzzSession(config).run(tools, notes, args.target)
    if args.format == "json":
        print(json.dumps(session_dict(report), indent=2, default=str, ensure_ascii=False))
    else:
        print(render_text(report))
    return 0
