"""Per-run tool instrumentation: error capture, injected faults and restricted-tool stubs.

The user's objects are changed only for the length of one run and always restored: each
reachable agent's `tools` list is swapped for a new list holding copies of its tools
(`dataclasses.replace`, so the originals stay untouched) and, in probe mode, recording stubs.

- Error capture: by default the SDK replaces a tool's exception with a generic string and a
  redacted span error. The copy gets a failure function that notes the exception for the trace
  and then answers the model exactly as the tool's own one would.
- Faults (`masfuzz.adapters.faults`): the copy's invoker misbehaves instead of calling the tool;
  an injected exception takes the same path the SDK gives a real one (the tool's failure
  function), so the model sees what it would see if the tool had really failed.
- Probe stubs (structural-coverage §IV-F): every workflow tool an agent does not own is offered
  to it as a stub with the real tool's name, description and schema, which refuses and records a
  `restricted_attempt`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Iterator
from typing import Any

from masfuzz.adapters import faults as fault_lib
from masfuzz.adapters.openai_agents import sdk
from masfuzz.adapters.openai_agents.recording import RunRecording
from masfuzz.adapters.probes import stands_for
from masfuzz.trace import MISSING_CONTEXT, RestrictedAttempt


def _current() -> tuple[RunRecording | None, str | None]:
    """The recording of the run this tool call belongs to (found by the trace id of the
    current span) and the tool call's span id. Looking the run up at call time lets one
    instrumented copy of a tool serve every run, so runs do not pay for re-copying tools."""
    from masfuzz.adapters.openai_agents.recording import dispatch

    span = sdk.require().tracing.get_current_span()
    if span is None:
        return None, None
    return dispatch().runs.get(span.trace_id), span.span_id


# Instrumented copies, made once per (tool object, fault mode) and per (agent, stubbed tool).
# The original is kept in the value so its id cannot be reused while the entry lives.
_copies: dict[tuple[int, fault_lib.Injection | None], tuple[Any, Any]] = {}
_stubs: dict[tuple[str, int], tuple[Any, Any]] = {}


def _default_failure(tool: Any, ctx: Any) -> Any:
    """The failure function the SDK would use for this tool (None: exceptions end the run)."""
    try:
        from agents.tool import resolve_function_tool_failure_error_function

        return resolve_function_tool_failure_error_function(tool, ctx)
    except ImportError:
        from agents.tool import default_tool_error_function

        return getattr(tool, "_failure_error_function", None) or default_tool_error_function


def _no_context(ctx: Any, error: Exception) -> bool:
    """The tool failed on the run context being None: it reads what the app's server passes
    (`ctx.context.state`, `ctx.context["user"]`) and masfuzz passed nothing."""
    return getattr(ctx, "context", None) is None and isinstance(error, (AttributeError, TypeError)) \
        and "NoneType" in str(error)


def _capturing(tool: Any) -> Any:
    """A copy of `tool` whose failures are noted (type and message) for the trace."""

    def failure(ctx: Any, error: Exception) -> Any:
        rec, span = _current()
        if rec is not None and span is not None:
            rec.error_spans[span] = f"{type(error).__name__}: {error}"
            if _no_context(ctx, error):
                rec.recorder.meta.setdefault(MISSING_CONTEXT, []).append(str(tool.name))
        inner = _default_failure(tool, ctx)
        return inner(ctx, error) if inner is not None else str(error)

    if not dataclasses.is_dataclass(tool):
        return tool
    fields = {f.name for f in dataclasses.fields(tool)}
    if not {"_failure_error_function", "_use_default_failure_error_function"} <= fields:
        return tool  # an SDK without these fields: errors keep the span's own text
    if getattr(tool, "_use_default_failure_error_function", True) is False and \
            getattr(tool, "_failure_error_function", None) is None:
        return tool  # the user wants exceptions to end the run; leave that alone
    return dataclasses.replace(tool, _failure_error_function=failure,
                               _use_default_failure_error_function=False)


def _faulty(tool: Any, injection: fault_lib.Injection) -> Any:
    name = sdk.tool_name(tool)

    async def invoke(ctx: Any, raw_arguments: str) -> Any:
        rec, span = _current()
        if rec is not None and span is not None:
            rec.fault_spans[span] = injection.mode
        try:
            return await fault_lib.inject(injection, name)
        except fault_lib.InjectedToolError as exc:
            if rec is not None and span is not None:
                rec.error_spans[span] = f"{type(exc).__name__}: {exc}"
            handler = _default_failure(tool, ctx)
            if handler is None:
                raise
            return handler(ctx, exc)

    return dataclasses.replace(tool, on_invoke_tool=invoke)


def _stub(tool_spec: Any, agent_id: str) -> Any:
    agents = sdk.require()

    async def refuse(ctx: Any, raw_arguments: str) -> str:
        rec, span = _current()
        if rec is None:
            return "Refused."
        if span is not None:
            rec.blocked_spans.add(span)
        try:
            args = json.loads(raw_arguments or "{}")
        except ValueError:
            args = {"_raw": raw_arguments}
        rec.recorder.add(RestrictedAttempt(
            agent=agent_id, tool=tool_spec.id,
            arguments=args if isinstance(args, dict) else {"_value": args},
            call_id=str(getattr(ctx, "tool_call_id", "") or ""), mode="probe"))
        return (f"Refused: {tool_spec.id} is not available to this agent. "
                "Hand the request to the agent responsible for it.")

    params = dict(tool_spec.parameters) or {"type": "object", "properties": {}}
    return agents.FunctionTool(name=tool_spec.id, description=tool_spec.description or tool_spec.id,
                               params_json_schema=params, on_invoke_tool=refuse,
                               strict_json_schema=False)


@contextlib.contextmanager
def instrumented(rec: RunRecording, tool_faults: dict[str, fault_lib.Injection]) -> Iterator[None]:
    """Swap every reachable agent's tools for instrumented copies; restore them on exit."""
    saved: list[tuple[Any, Any]] = []
    spec = rec.spec
    try:
        for agent in rec.walk.agents:
            me = rec.walk.id_of(agent)
            original = getattr(agent, "tools", None)
            if original is None:
                continue
            new = []
            for tool in original:
                if sdk.is_function_tool(tool):
                    injection = tool_faults.get(sdk.tool_name(tool))
                    key = (id(tool), injection)
                    cached = _copies.get(key)
                    if cached is None or cached[0] is not tool:
                        copy = _faulty(tool, injection) if injection else _capturing(tool)
                        cached = _copies[key] = (tool, copy)
                    tool = cached[1]
                new.append(tool)
            if rec.restricted == "probe":
                have = {sdk.tool_name(t) for t in original}
                for t in spec.tools:
                    if t.id not in have and t.id not in rec.owned.get(me, set()) \
                            and not stands_for(spec, t.id, me):  # never the agent itself
                        found = _stubs.get((me, id(t)))
                        if found is None or found[0] is not t:
                            found = _stubs[(me, id(t))] = (t, _stub(t, me))
                        new.append(found[1])
            saved.append((agent, original))
            agent.tools = new
        yield
    finally:
        for agent, original in reversed(saved):
            agent.tools = original
