"""Run one scenario on the user's agents and record its `Trace`.

The SDK runs its own loop (`Runner.run`) on the user's unmodified agent objects, with masfuzz's
model injected through `RunConfig(model=...)` (and into the runs the app starts itself:
`nested`), the calling agent learnt through
`RunConfig(call_model_input_filter=...)`, and the trace recorded by the tracing processor of
`recording`. An app's plain-Python pipeline (`pipeline.Pipeline`) is run by calling its own
function, whose `Runner.run` calls are recorded in the same trace, each after the other a
`sequence` delegation. How a run ends is part of the trace: `completed` with the final output,
`max_turns` when `MaxTurnsExceeded` stops it, `timeout` when the scenario's time limit cancels
it, `crash` when the system raises; the events up to that point are kept.
"""

from __future__ import annotations

import asyncio
import inspect
import re
import typing
import uuid
from typing import Any

from masfuzz.adapters import faults as fault_lib
from masfuzz.adapters.openai_agents import sdk
from masfuzz.adapters.openai_agents.bridge import make_model
from masfuzz.adapters.openai_agents.extract import Walk
from masfuzz.adapters.openai_agents.mutate import mutated
from masfuzz.adapters.openai_agents.nested import every_run_injected
from masfuzz.adapters.openai_agents.pipeline import INPUT_ENDED, Pipeline
from masfuzz.adapters.openai_agents.recording import RunRecording, adopting, dispatch
from masfuzz.adapters.openai_agents.tools import instrumented
from masfuzz.adapters.base import system_lock
from masfuzz.adapters.user_turns import UserWords
from masfuzz.errors import MasfuzzError, ModelCallFailed
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import APP_BOUND, APPROVED_CALLS, HARNESS_CAUSE, ErrorEvent, Trace, TraceRecorder

DEFAULT_TIMEOUT = 60.0  # seconds, when the scenario sets none (a hanging tool must end somehow)

async def run_scenario(entry: Any, walk: Walk, spec: WorkflowSpec, scenario: Scenario,
                       clients: Any, *, framework: str) -> Trace:
    agents = sdk.require()
    scenario_id = scenario.id  # a hash of the whole scenario: made once per run
    recorder = TraceRecorder(scenario_id=scenario_id, system_id=spec.system.id,
                             framework=framework)
    recorder.meta.update({"sut_model": scenario.sut_model, "restricted": scenario.restricted,
                          "faults": {f.tool: f.mode for f in scenario.faults}})
    tool_faults = fault_lib.tool_faults(scenario, [t.id for t in spec.tools])
    rec = RunRecording(recorder=recorder, spec=spec, walk=walk, restricted=scenario.restricted)
    trace_id = f"trace_{uuid.uuid4().hex}"
    processor = dispatch()
    provider = agents.tracing.get_trace_provider()
    restore_disabled = _enable_tracing(provider)

    def input_filter(data: Any) -> Any:
        rec.bind_current(data.agent, agents.tracing.get_current_span())
        return data.model_data

    run_config = agents.RunConfig(
        model=make_model(rec, scenario, clients),
        call_model_input_filter=input_filter,
        trace_id=trace_id,
        workflow_name=f"masfuzz {scenario_id}",
        tracing_disabled=False,
        trace_include_sensitive_data=True,
    )
    max_turns = scenario.max_turns or spec.termination.max_turns or sdk.default_max_turns()
    # End the run a little before the scenario's limit, at which an executor around this call
    # cancels it: stopping first keeps the partial trace and says why it ended.
    limit = scenario.timeout or DEFAULT_TIMEOUT
    timeout = max(limit - min(0.5, limit * 0.1), 0.01)
    rec.words = UserWords(recorder, scenario.input)

    async with system_lock(entry):
        processor.runs[trace_id] = rec
        try:
            with mutated(walk, scenario.mutant) as turns, instrumented(rec, tool_faults), \
                    every_run_injected(run_config, rec.run_input):
                max_turns = turns(max_turns)
                if isinstance(entry, Pipeline):  # the app's own function runs its agents
                    with adopting(rec):
                        final = await asyncio.wait_for(entry.start(scenario.input), timeout)
                else:
                    async with sdk.mcp_connected(walk.agents):
                        result = await asyncio.wait_for(_run_approving(
                            entry, scenario.input, rec, run_config=run_config, max_turns=max_turns,
                            context=run_context(scenario.context, entry)), timeout)
                    final = result.final_output
            if final is INPUT_ENDED:  # a chat loop asking for the next message: the user left
                return recorder.finish("other", detail=f"{entry.name}() asked for more input after "
                                       "the user's last words (the task, then exit)", final_output=None)
            if final is None and isinstance(entry, Pipeline):
                # the app's own gate stopped its pipeline (`exit(0)`, a bare `return`), as a
                # tripped guardrail does: the app's decision on what its agents said, not a
                # conclusion whose missing steps would be the agents' omission
                return recorder.finish("other", detail=f"{entry.name}() stopped without a result "
                                       "(the app's own code ended the pipeline)", final_output=None)
            text = final if isinstance(final, str) else _dump(final)
            return recorder.finish("completed", final_output=text)
        except ModelCallFailed as exc:  # the model under test failed, not the system: no finding
            rec.close_open_calls("the model under test did not answer")
            return recorder.model_failed(exc)
        except MasfuzzError:
            raise
        except asyncio.TimeoutError:
            rec.close_open_calls(f"cancelled at the {limit:g} s time limit")
            return recorder.timed_out(limit)
        except agents.MaxTurnsExceeded as exc:
            if isinstance(entry, Pipeline) or f"({max_turns})" not in str(exc):
                # an agent run the app's code or an agent-as-tool started, with its own bound
                # or the SDK's default, which the max_turns masfuzz gave its own run does not reach
                recorder.meta[APP_BOUND] = f"the Agents SDK's turn limit of a run the app started ({exc})"
            rec.close_open_calls("the run stopped at its turn limit")
            return recorder.finish("max_turns", detail=f"{exc} (max_turns={max_turns})")
        except Exception as exc:  # the system under test raised: a finding, not a masfuzz crash
            return _crashed(rec, exc)
        finally:
            processor.runs.pop(trace_id, None)
            restore_disabled()


async def _run_approving(entry: Any, task: str, rec: RunRecording, *, context: Any, **options: Any) -> Any:
    """`Runner.run`, resumed after each pause for a human's approval (a tool or agent tool with
    `needs_approval`): masfuzz's stand-in human approves every call, as the SDK's examples do
    unattended, and the trace names them (`meta.approved_calls`). A run left paused would end
    with no output, before the approved work, which the app never does."""
    agents = sdk.require()
    result = await agents.Runner.run(entry, task, context=context, **options)
    for _ in range(options["max_turns"]):  # each resume takes a turn at least
        if not getattr(result, "interruptions", None):
            break
        state = result.to_state()
        rec.paused(result.interruptions)
        for item in result.interruptions:
            state.approve(item)
            rec.recorder.meta.setdefault(APPROVED_CALLS, []).append(str(getattr(item, "name", None) or "?"))
        result = await agents.Runner.run(entry, state, **options)
    return result


def _crashed(rec: RunRecording, exc: Exception) -> Trace:
    agents = sdk.require()
    rec.close_open_calls(f"the run ended with {type(exc).__name__}")
    tripwires = tuple(getattr(agents, n) for n in ("InputGuardrailTripwireTriggered",
                                                    "OutputGuardrailTripwireTriggered")
                      if hasattr(agents, n))
    message = str(exc).splitlines()[0] if str(exc) else ""
    if tripwires and isinstance(exc, tripwires):
        return rec.recorder.finish("other", detail=f"{type(exc).__name__}: {message}")
    if _read_missing_context(exc):
        # an `is_enabled` check, dynamic instructions or a hook read the run context the app's
        # own code passes (`Runner.run(..., context=AppContext(...))`), which masfuzz had none
        # to pass: the harness's doing, not the app's
        rec.recorder.meta[HARNESS_CAUSE] = (f"the app read its run context ({message}), which "
                                            "masfuzz did not have to pass: give --context MODULE:FACTORY")
    agent = getattr(getattr(getattr(exc, "run_data", None), "last_agent", None), "name", None)
    rec.recorder.add(ErrorEvent(agent=rec.id_by_name(agent) if agent else None,
                                kind=type(exc).__name__, message=message))
    return rec.recorder.finish("crash", detail=f"{type(exc).__name__}: {message}")


def _read_missing_context(exc: BaseException) -> bool:
    """Did `exc` come from the app reading a run context that is None (`ctx.context.x` on
    `None`) which the app says it runs with: a frame of its traceback holding the SDK's run
    context wrapper with no context, in a function that declares the context's type
    (`RunContextWrapper[AppContext]`) or in a module that passes one to `Runner.run`? Code that
    declares none and reads it anyway (`ctx.context["tier"]` behind an untyped wrapper) crashes
    on a run its own callers may start without one: that is the app's."""
    if not isinstance(exc, (AttributeError, TypeError)) or "NoneType" not in str(exc):
        return False
    wrapper = sdk.require().RunContextWrapper
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame  # the SDK's own frames hold (and type) the wrapper too: the app's only
        if str(frame.f_globals.get("__name__", "")).partition(".")[0] != wrapper.__module__.partition(".")[0] \
                and any(isinstance(v, wrapper) and v.context is None for v in frame.f_locals.values()) \
                and _declares_context(frame, wrapper):
            return True
        tb = tb.tb_next
    return False


_TYPED_WRAPPER = re.compile(r"\bRunContextWrapper\[")
_PASSES_CONTEXT = re.compile(r"\bRunner\.run\w*\((?:[^()]|\([^()]*\))*\bcontext\s*=")


def _declares_context(frame: Any, wrapper: type) -> bool:
    """Does the function of `frame` annotate its wrapper with the context's type, or does its
    module hand a context to `Runner.run` (the app's own entry point runs it with one)?"""
    code = frame.f_code
    fn = next((v for v in list(frame.f_globals.values()) if getattr(v, "__code__", None) is code), None)
    for note in getattr(fn, "__annotations__", {}).values():
        if typing.get_origin(note) is wrapper or (isinstance(note, str) and _TYPED_WRAPPER.search(note)):
            return True
    try:
        source = inspect.getsource(inspect.getmodule(code) or code)
    except (OSError, TypeError):
        return False
    return bool(_PASSES_CONTEXT.search(source))


def run_context(context: str | None, entry: Any, factory: Any = None) -> Any:
    """A run's context: what the user's factory (`--context`, the scenario's `context`) makes
    afresh, else a default one. `factory`: that function already loaded (the tools phase loads
    it before its sandbox, which shows a tool its own folder, not the factory's)."""
    if context:
        from masfuzz.loader import load_callable

        factory = factory if factory is not None else load_callable(context, "--context")
        try:
            return factory()
        except Exception as exc:
            raise MasfuzzError(f"--context {context}: the factory failed: "
                               f"{type(exc).__name__}: {exc}") from None
    return default_context(entry)


def default_context(entry: Any) -> Any:
    """A fresh run context of the type the entry agent declares (`Agent[Ctx](...)`), when
    that type builds without arguments: apps pass one to `Runner.run`, and their tools and
    handoff hooks expect it."""
    import typing

    alias = getattr(entry, "__orig_class__", None)
    args = typing.get_args(alias) if alias is not None else ()
    if len(args) != 1 or not isinstance(args[0], type):
        return None
    try:
        return args[0]()
    except Exception:
        return None


def _enable_tracing(provider: Any) -> Any:
    """Tracing switched off (OPENAI_AGENTS_DISABLE_TRACING) would hide the run from the
    processor: switch it on for the run, and give back a function restoring the setting."""
    refresh = getattr(provider, "_refresh_disabled_flag", None)
    if callable(refresh):
        refresh()
    if not getattr(provider, "_disabled", False):
        return lambda: None
    before = getattr(provider, "_manual_disabled", None)
    provider.set_disabled(False)

    def restore() -> None:
        provider._manual_disabled = before
        if callable(refresh):
            refresh()

    return restore


def _dump(value: Any) -> str:
    dump = getattr(value, "model_dump_json", None)
    if callable(dump):
        return dump()
    return str(value)
