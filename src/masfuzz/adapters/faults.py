"""Tool fault injection (structural-coverage §IV-G); the witness judging its runs is
`masfuzz.oracles.robustness`.

Framework-neutral: an adapter asks `tool_faults` which tools of a scenario misbehave, and calls
`inject(injection, tool)` in place of the real tool body; the trace's `ToolResult.fault` records
the injection's mode. The four fault modes:

- `error`: the tool fails with a message that carries `FAULT_MARKER`, the raw internal-error
  marker the witness checks the final reply for, in the form the framework's own tools report a
  failure where it has one (PydanticAI: `ModelRetry`, the tool's error channel, which the
  framework turns into a retry prompt for the model), else by raising `InjectedToolError` (the
  Agents SDK, AgentChat, AG2, LangGraph's `ToolNode` and CrewAI hand a raising tool's error to
  the model as its result). masfuzz replaces the tool's body, so its own error handling never
  sees the fault: a framework that lets the raised error end the run shows the fault, not the
  app (`masfuzz.oracles.attribution`);
- `malformed`: the tool returns a garbage payload (truncated JSON with a control character);
- `timeout`: the tool hangs until the harness' time limit cancels the run;
- `empty`: the tool returns an empty string.

and `stub`, which is not a fault but the user's stand-in for a tool that needs a paid service or
the network (`--stub TOOL=RESULT`): the tool returns the canned result, as if it had worked.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterable
from typing import NamedTuple

from masfuzz.errors import MasfuzzError
from masfuzz.scenario import Scenario
from masfuzz.oracles.robustness import FAULT_MARKER

MALFORMED_PAYLOAD = '{"status": 200, "result": [{"id": 1, "value": "\\u0000\x07<<<' + "\ufffd" + ', '


class InjectedToolError(RuntimeError):
    """What a tool with an injected `error` fault raises."""


class RunEnded(BaseException):
    """What a tool hung by a `timeout` fault raises once the run it hung has ended (its time
    limit): a BaseException, so that a framework's `except Exception` around a tool does not
    hand it to the model as the tool's answer, and the run's thread unwinds instead of hanging."""


class Injection(NamedTuple):
    """What runs in place of one tool's body: a fault mode, or `stub` with its canned result."""

    mode: str
    result: str = ""


def tool_faults(scenario: Scenario, tools: Iterable[str]) -> dict[str, Injection]:
    """tool id -> what replaces its body in this scenario (a fault wins over a stub); a fault or
    a stub on a tool the workflow does not have is bad input."""
    known = list(tools)
    wanted = [(f"--stub {tool}", tool, Injection("stub", result)) for tool, result in scenario.stubs.items()]
    wanted += [(f"--fault {f.tool}={f.mode}", f.tool, Injection(f.mode)) for f in scenario.faults]
    out: dict[str, Injection] = {}
    for flag, tool, injection in wanted:
        if tool not in known:
            raise MasfuzzError(f"{flag}: the workflow has no tool {tool!r} "
                               f"(its tools: {', '.join(known) or 'none'})")
        out[tool] = injection
    return out


# What a code executor inside the system answers in place of running the code its model wrote
# (the default: code an LLM writes is not run on the user's machine unless `--run-code`). Exit
# code 0, so that the conversation goes on as after a run, instead of the model rewriting code
# that never failed. The code is kept in the trace's meta (`code_not_run`).
CODE_NOT_RUN = ("(masfuzz did not run this code: the app's code executor is replaced by a "
                "recording stand-in; --run-code runs it)")
CODE_KEPT = 4000  # characters of each code block kept


def kept_code(agent: str, language: str, code: str) -> dict[str, str]:
    """One code block a stand-in was given and did not run, as the trace's meta keeps it."""
    return {"agent": agent, "language": language, "code": code[:CODE_KEPT]}


def modes(injections: dict[str, Injection]) -> dict[str, str]:
    """tool id -> the mode a trace records for its results."""
    return {tool: i.mode for tool, i in injections.items()}


def error_message(tool: str) -> str:
    return f"{FAULT_MARKER}: tool {tool} failed with an internal error (injected by masfuzz)"


def injected_cause(exc: BaseException) -> str:
    """The injected fault's message when it is in `exc`'s chain of causes (a framework that
    wrapped it, e.g. a retry limit the fault used up), else ""."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if FAULT_MARKER in str(cur):
            return str(cur).splitlines()[0]
        cur = cur.__cause__ or cur.__context__
    return ""


def injected(injection: Injection, tool: str, ended: threading.Event | None = None) -> str:
    """The result of `tool` under `injection`, for frameworks that call tools synchronously: raise,
    return garbage, nothing or the stub's result, or hang: block the calling thread until the
    run's `ended` is set (the adapter's time limit), then raise `RunEnded`; without `ended`, until
    the harness kills the worker process."""
    mode = injection.mode
    if mode == "stub":
        return injection.result
    if mode == "error":
        raise InjectedToolError(error_message(tool))
    if mode == "malformed":
        return MALFORMED_PAYLOAD
    if mode == "empty":
        return ""
    if mode == "timeout":
        (ended or threading.Event()).wait()
        raise RunEnded(f"the run ended while tool {tool} hung (--fault {tool}=timeout)")
    raise MasfuzzError(f"unknown fault mode {mode!r}")


async def inject(injection: Injection, tool: str) -> str:
    """`injected`, for frameworks that await tools; a hanging tool waits until the harness
    cancels the run at its time limit."""
    if injection.mode == "timeout":
        await asyncio.Event().wait()
    return injected(injection, tool)
