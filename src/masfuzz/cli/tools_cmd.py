"""`masfuzz tools TARGET`: ToolFuzz — runtime and correctness testing of agent tools."""

from __future__ import annotations

import argparse
import json


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
    from masfuzz.cli.common import add_store_option

    add_store_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from masfuzz.api import run_tools

    data = run_tools(args)
    if args.format == "json":
        print(json.dumps(data, indent=2, default=str, ensure_ascii=False))
    else:
        from masfuzz.report.tools import tools_text

        print(tools_text(data), end="")
    return 0
