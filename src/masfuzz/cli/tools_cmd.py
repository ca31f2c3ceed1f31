"""`masfuzz tools TARGET`: ToolFuzz — runtime and correctness testing of agent tools."""

from __future__ import annotations

import argparse
import json

from masfuzz.cli.common import failure_gate
from masfuzz.options import Config, add_arguments


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "tools",
        help="fuzz agent tools for runtime errors and documentation-induced wrong answers",
        description="Fuzz every tool of TARGET: one tool (module:attr or file.py:attr: a Python "
        "function, an Agents SDK FunctionTool, an AutoGen tool, a LangChain tool, a tool of "
        "smolagents, llama-index, agno, CrewAI or PydanticAI), a list of tools, a module, an MCP "
        "server ('mcp:COMMAND ARGS' over stdio, or its http(s) URL), or a workflow (an Agents "
        "SDK agent, an AutoGen team). Every call runs in a sandbox: its own temporary folder, no "
        "network, CPU/memory/time limits.",
    )
    p.add_argument("target")
    add_arguments(p, "tools")
    p.set_defaults(func=run)


def run(args: Config) -> int:
    from masfuzz.api import run_tools

    data = run_tools(args)
    if args.format == "json":
        # ensure_ascii: a control character in an input or a message is shown escaped (\u009b)
        print(json.dumps(data, indent=2, default=str, ensure_ascii=True))
    else:
        from masfuzz.report.tools import tools_text

        print(tools_text(data), end="")
    return failure_gate(tool_failures(data), args.fail_on)


def tool_failures(data: dict) -> list[dict]:
    """The session's findings in the categories `--fail-on` names (`report.tools.gating_failures`)."""
    from masfuzz.report.tools import findings_of, gating_failures

    return gating_failures(findings_of(data))
