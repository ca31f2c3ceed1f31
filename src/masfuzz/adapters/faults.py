"""Tool fault injection (structural-coverage §IV-G); the witness judging its runs is
`masfuzz.oracles.robustness`.

Framework-neutral: an adapter asks `tool_faults` which tools of a scenario misbehave, and calls
`inject(mode, tool)` in place of the real tool body. The four modes:

- `error`: the tool raises `InjectedToolError`, whose message carries `FAULT_MARKER`, the raw
  internal-error marker the witness checks the final reply for;
- `malformed`: the tool returns a garbage payload (truncated JSON with a control character);
- `timeout`: the tool hangs until the harness' time limit cancels the run;
- `empty`: the tool returns an empty string.

"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from masfuzz.errors import MasfuzzError
from masfuzz.scenario import Scenario
from masfuzz.oracles.robustness import FAULT_MARKER

MALFORMED_PAYLOAD = '{"status": 200, "result": [{"id": 1, "value": "\\u0000\x07<<<' + "\ufffd" + ', '


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
