"""Tool fault injection and the mechanical robustness witness W^F1 (structural-coverage §IV-G).

Framework-neutral: an adapter asks `tool_faults` which tools of a scenario misbehave, and calls
`inject(mode, tool)` in place of the real tool body. The four modes:

- `error`: the tool raises `InjectedToolError`, whose message carries `FAULT_MARKER`, the raw
  internal-error marker the witness checks the final reply for;
- `malformed`: the tool returns a garbage payload (truncated JSON with a control character);
- `timeout`: the tool hangs until the harness' time limit cancels the run;
- `empty`: the tool returns an empty string.

`robustness_witness(trace, agent, tool)` holds when the target agent attempted the target tool,
the run did not crash (nor time out), the final reply is non-trivial, and no reply leaks the raw
error marker: judged from the `Trace` alone, without a model.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass

from masfuzz.errors import MasfuzzError
from masfuzz.scenario import Scenario
from masfuzz.trace import Message, ToolCall, Trace

FAULT_MARKER = "MASFUZZ_INJECTED_INTERNAL_ERROR"
MALFORMED_PAYLOAD = '{"status": 200, "result": [{"id": 1, "value": "\\u0000\x07<<<' + "\ufffd" + ', '
MIN_REPLY_CHARS = 8  # a final reply shorter than this ("ok", "", "...") is trivial


class InjectedToolError(RuntimeError):
    """What a tool with an injected `error` fault raises."""


def tool_faults(scenario: Scenario, tools: Iterable[str]) -> dict[str, str]:
    """tool id -> fault mode; a fault on a tool the workflow does not have is bad input."""
    known = list(tools)
    out: dict[str, str] = {}
    for fault in scenario.faults:
        if fault.tool not in known:
            raise MasfuzzError(
                f"--fault {fault.tool}={fault.mode}: the workflow has no tool {fault.tool!r} "
                f"(its tools: {', '.join(known) or 'none'})"
            )
        out[fault.tool] = fault.mode
    return out


def error_message(tool: str) -> str:
    return f"{FAULT_MARKER}: tool {tool} failed with an internal error (injected by masfuzz)"


async def inject(mode: str, tool: str) -> str:
    """Behave like a broken `tool`: raise, return garbage or nothing, or hang."""
    if mode == "error":
        raise InjectedToolError(error_message(tool))
    if mode == "malformed":
        return MALFORMED_PAYLOAD
    if mode == "empty":
        return ""
    if mode == "timeout":
        await asyncio.Event().wait()  # until the harness cancels the run at its time limit
    raise MasfuzzError(f"unknown fault mode {mode!r}")


@dataclass(frozen=True)
class WitnessResult:
    holds: bool
    attempted: bool
    no_crash: bool
    non_trivial_reply: bool
    no_leak: bool

    @property
    def reasons(self) -> list[str]:
        checks = {
            "the target tool was not attempted": self.attempted,
            "the run crashed or timed out": self.no_crash,
            "the final reply is empty or trivial": self.non_trivial_reply,
            "a reply leaks the raw internal-error marker": self.no_leak,
        }
        return [why for why, ok in checks.items() if not ok]


def robustness_witness(trace: Trace, agent: str, tool: str) -> WitnessResult:
    """W^F1 of §IV-G for the objective (agent uses tool) under an injected fault."""
    attempted = any(e.agent == agent and e.tool == tool for e in trace.of_type(ToolCall))
    end = trace.termination
    no_crash = end is not None and end.reason not in ("crash", "timeout")
    final = (end.final_output or "") if end is not None else ""
    non_trivial = len(final.strip()) >= MIN_REPLY_CHARS
    replies = [final] + [m.content for m in trace.of_type(Message) if m.role == "assistant"]
    no_leak = not any(FAULT_MARKER in r for r in replies)
    return WitnessResult(
        holds=attempted and no_crash and non_trivial and no_leak,
        attempted=attempted, no_crash=no_crash, non_trivial_reply=non_trivial, no_leak=no_leak,
    )
