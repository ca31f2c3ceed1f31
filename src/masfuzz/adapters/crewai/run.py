"""Run one scenario on the user's CrewAI crew and record its `Trace`.

CrewAI runs its own `Crew.kickoff` on the user's unmodified crew, in a thread of its own (the
call is synchronous). For the run every agent's `llm` is a `MasfuzzLLM` (`bridge`), the crew's
`manager_llm` too when CrewAI makes the manager, and each workflow tool's body is wrapped so
that a fault or a stub can take its place; all of it is put back afterwards. CrewAI's telemetry
and tracing are switched off (`CREWAI_DISABLE_TELEMETRY`, `OTEL_SDK_DISABLED`,
`CREWAI_TRACING_ENABLED=false`), so nothing leaves the machine.

The trace is recorded where CrewAI runs, in order: model calls by the bridge (agent turns, what
each agent said, a task boundary when a model call comes from the next task: a `sequence`
delegation to the task's agent), tool calls and results by CrewAI's global tool-call hooks
(`crewai.hooks`), which run in the executing thread before and after every tool. CrewAI's event
bus (`crewai.events`) says the same, but its handlers run later in a thread pool, so its order
is not the run's. A call of "Delegate work to coworker" / "Ask question to coworker" is a
`delegate` delegation to the coworker it names; a call of a workflow tool the calling agent
does not have (another agent's, or a restricted-tool probe masfuzz offered) is refused by the
hook, as CrewAI refuses a blocked tool, and recorded as a restricted attempt.

A `Flow` (`run_flow`) runs the same way on a fresh flow: the crews and agents its methods
make are controlled as they kick off (`Crew.kickoff` / `Agent.kickoff`, masfuzz's while the
run is current in the calling context), and CrewAI's step hooks record each method as a chat
of its own, a router's label in its end.

How a run ends: `completed` with the crew's (the flow's) final output, `timeout` at the
scenario's limit (CrewAI's threads released: `_kickoff`), `crash` when the crew raises (a task
without an agent, an agent's output it cannot parse).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from masfuzz.adapters.base import system_lock
from masfuzz.adapters.crewai.bridge import make_llm
from masfuzz.adapters.crewai.extract import (DELEGATION_TOOLS, FRAMEWORK, ManagerStandIn, Walk,
                                             add_tool, walk)
from masfuzz.adapters.crewai.flow import FlowWalk, step_hooks
from masfuzz.adapters.crewai.mutate import Mutant, mutated
from masfuzz.adapters.faults import Injection, injected, tool_faults
from masfuzz.adapters.ordering import in_speaking_order
from masfuzz.adapters.probes import restricted_probes
from masfuzz.errors import MasfuzzError, ModelCallFailed, ModelError
from masfuzz.llm.types import ChatReply, ChatRequest
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import (HARNESS_CAUSE, ChatEnd, ChatStart, DelegationEvent, ErrorEvent, Message,
                           RestrictedAttempt,
                           ToolCall, ToolResult, Trace, TraceRecorder)

DEFAULT_TIMEOUT = 60.0  # seconds, when the scenario sets none
UNWIND = 5.0  # seconds CrewAI's threads get to stop once the run's time is up
NO_NETWORK = {"CREWAI_DISABLE_TELEMETRY": "true", "OTEL_SDK_DISABLED": "true",
              "CREWAI_TRACING_ENABLED": "false", "CREWAI_DISABLE_TRACKING": "true"}


def quiet() -> None:
    """CrewAI's telemetry off for this process (read by CrewAI at every span it would send)."""
    os.environ.update(NO_NETWORK)


def _recording(w: Walk, spec: WorkflowSpec, scenario: Scenario) -> tuple[Recording, dict[str, Any]]:
    quiet()
    rec = TraceRecorder(scenario_id=scenario.id, system_id=spec.system.id, framework=FRAMEWORK)
    rec.meta.update({"sut_model": scenario.sut_model, "restricted": scenario.restricted,
                     "faults": {f.tool: f.mode for f in scenario.faults}})
    faults = tool_faults(scenario, [t.id for t in spec.tools])
    probes = restricted_probes(spec) if scenario.restricted == "probe" else {}
    rec.add(Message(agent=None, role="user", content=scenario.input, t=rec.now()))
    recording = Recording(rec, w, set(spec.permissions.allow), {t.id for t in spec.tools}, faults)
    recording.edges = {(d.from_, d.to, d.trigger) for d in spec.delegations}
    return recording, probes


async def run_scenario(crew: Any, w: Walk, spec: WorkflowSpec, scenario: Scenario,
                       clients: Any) -> Trace:
    recording, probes = _recording(w, spec, scenario)
    async with system_lock(crew):
        loop = asyncio.get_running_loop()

        def session(stack: contextlib.ExitStack) -> None:
            # the mutant first (bad input, NotApplicable, re-raised as masfuzz's): `controlled`
            # reads the agents and tools it changed
            mutant = stack.enter_context(mutated(w, scenario.mutant))
            stack.enter_context(controlled(w, scenario, clients, recording, probes, loop, mutant))
            stack.enter_context(hooked(recording))

        return await _outcome(recording, scenario, session,
                              lambda: crew.kickoff(inputs=_inputs(crew, scenario.input)))


async def run_flow(w: FlowWalk, spec: WorkflowSpec, scenario: Scenario, clients: Any) -> Trace:
    """One scenario on a fresh instance of the flow (a flow keeps its state): its `kickoff`,
    with every crew a method kicks off and every agent it runs itself answered by masfuzz's
    model, and each method's start and end (a router's label) recorded as a chat of its own."""
    if scenario.speaking_order:
        raise MasfuzzError("speaking order: a flow's methods and routers choose who works when")
    if scenario.mutant is not None:
        raise MasfuzzError(f"mutant {scenario.mutant.label}: not applicable on a CrewAI Flow "
                           "(its crews are made inside its methods)")
    recording, probes = _recording(w, spec, scenario)
    rec = recording.rec
    rec.meta["model_swapped_at"] = {a.id: ["Agent.llm"] for a in spec.agents}

    def started(method: str) -> None:
        if not recording.ended.is_set():
            rec.add(ChatStart(chat=method, kind="sequence", sender=w.flow.__name__,
                              recipient=method, t=rec.now()))

    def ended(method: str, output: Any) -> None:
        if not recording.ended.is_set():
            routed = w.methods.get(method) is not None and w.methods[method].router
            rec.add(ChatEnd(chat=method, reason=f"routed to {output}" if routed else "done",
                            summary=str(output)[:200] if output is not None else "", t=rec.now()))

    async with system_lock(w.flow):
        loop = asyncio.get_running_loop()

        def session(stack: contextlib.ExitStack) -> None:
            stack.enter_context(kickoffs_controlled(w, scenario, clients, recording, probes, loop))
            stack.enter_context(hooked(recording))
            stack.enter_context(step_hooks(w.flow, started, ended))

        return await _outcome(recording, scenario, session, lambda: _kickoff_flow(w.flow, scenario.input))


async def _outcome(recording: Recording, scenario: Scenario,
                   session: Callable[[contextlib.ExitStack], None], kickoff: Callable[[], Any]) -> Trace:
    """`kickoff()` in a thread inside the run's `session` (what masfuzz changes for it), ended
    as the trace says: completed, the model's failure, the time limit, or the app's crash."""
    rec = recording.rec
    limit = scenario.timeout or DEFAULT_TIMEOUT
    timeout = max(limit - min(0.5, limit * 0.1), 0.01)
    try:
        with contextlib.ExitStack() as stack:
            session(stack)
            result = await _kickoff(kickoff, timeout, recording.ended)
    except (ModelCallFailed, ModelError) as exc:
        return rec.model_failed(exc)
    except MasfuzzError:
        raise
    except asyncio.TimeoutError:
        return rec.timed_out(limit)
    except Exception as exc:  # the crew raised: a finding, not a masfuzz crash
        message = str(exc).splitlines()[0] if str(exc) else ""
        if _conversion_failed(exc):
            rec.meta[HARNESS_CAUSE] = (
                f"the crew crashed turning {recording.speaking}'s answer into its task's "
                "output_json / output_pydantic model: the model under test did not answer "
                "with that JSON (masfuzz's probe and scripted models answer in text)")
        rec.add(ErrorEvent(agent=recording.speaking, kind=type(exc).__name__, message=message))
        return rec.finish("crash", detail=f"{type(exc).__name__}: {message}")
    tasks = getattr(result, "tasks_output", None)
    return rec.finish("completed", detail=f"{len(tasks)} task(s) done" if tasks is not None else "flow done",
                      final_output=str(getattr(result, "raw", result)))


async def _kickoff(kickoff: Callable[[], Any], timeout: float, ended: threading.Event) -> Any:
    """`kickoff()` (the crew's, the flow's) in a thread, for at most `timeout` s. At the limit,
    or when the executor cancels the run first, the run's `ended` is set and CrewAI's threads
    are given `UNWIND` s to stop: a tool hung by a `timeout` fault, and the next model call,
    raise `RunEnded` there, which CrewAI (catching `Exception`) lets through; only then are the
    crew's objects put back, so an abandoned thread never reaches the app's own model. Without
    this the hung tool's thread outlived the run, and the event loop's shutdown (joining its
    threads) hung masfuzz."""
    work = asyncio.ensure_future(asyncio.to_thread(kickoff))
    try:
        return await asyncio.wait_for(asyncio.shield(work), timeout)
    finally:
        if not work.done():
            ended.set()
            await asyncio.wait({work}, timeout=UNWIND)
            if work.done() and not work.cancelled():
                work.exception()  # retrieved: RunEnded, or what the crew raised while unwinding


def _conversion_failed(exc: BaseException) -> bool:
    """The crash is CrewAI's conversion of an answer into a task's output model failing (its
    `ConverterError`, or the task output refusing what the conversion gave)."""
    seen: BaseException | None = exc
    while seen is not None:
        if type(seen).__name__ == "ConverterError" or (
                type(seen).__name__ == "ValidationError" and getattr(seen, "title", "") == "TaskOutput"):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _inputs(crew: Any, text: str) -> dict[str, str]:
    """The scenario's input for every `{placeholder}` the crew's tasks and agents interpolate
    (CrewAI refuses a kickoff missing one): the input is what the user asks, whatever it is
    called."""
    import re

    def original(obj: Any, attr: str) -> str:  # before an earlier kickoff filled it in
        return str(getattr(obj, f"_original_{attr}", None) or getattr(obj, attr, "") or "")

    texts = [original(t, a) for t in crew.tasks for a in ("description", "expected_output")]
    texts += [original(a, k) for a in crew.agents for k in ("role", "goal", "backstory")]
    names = set(re.findall(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", " ".join(texts)))
    return {n: text for n in sorted(names)} or {"input": text}


class Recording:
    """What the bridge and the tool hooks record, in the order CrewAI runs them."""

    def __init__(self, rec: TraceRecorder, w: Walk, allowed: set[tuple[str, str]],
                 workflow_tools: set[str], faults: dict[str, Injection]) -> None:
        self.rec, self.walk, self.allowed = rec, w, allowed
        # every crew's tasks that ran (a flow kicks off several, some at once): id -> under a
        # manager; and the agents a flow made at run time: id -> the flow's agent id
        self.tasks: dict[int, bool] = {id(t): w.manager is not None for t in (w.crew.tasks if w.crew else ())}
        self.made: dict[int, str] = {}
        self.edges: set[tuple[str, str, str]] = set()  # the spec's (from, to, trigger)
        self.workflow_tools, self.faults = workflow_tools, faults
        self.speaking: str | None = None
        self._task: Any = None  # the task of the latest model call
        self._blocked: set[int] = set()  # id(hook context input) of calls the hook refused
        self._probes: set[tuple[str, str]] = set()  # (agent, tool) probes its model is offered
        self.dropped: set[tuple[str, str]] = set()  # (agent, coworker) a mutant took away
        self.ended = threading.Event()  # the run's time is up: CrewAI's threads record nothing more

    def agent_of(self, agent: Any) -> str:
        if agent is None:
            return self.speaking or "agent"
        found = self.walk.ids.get(id(agent)) or self.made.get(id(agent)) \
            or self.walk.by_role(str(getattr(agent, "role", "")))
        return found or str(getattr(agent, "role", "agent"))

    # -- model calls (the bridge) ----------------------------------------------------------
    def on_reply(self, agent: str, request: ChatRequest, reply: ChatReply, task: Any) -> None:
        rec = self.rec
        # a task of the crew's own starts (a delegated piece of work is a task CrewAI makes
        # for the coworker: no boundary)
        if task is not self._task and id(task) in self.tasks:
            if self._task is not None and not self.tasks[id(task)]:
                self.hand_over(agent)
            self._task = task
        rec.received(agent, request.messages)
        rec.turn(agent)
        self.speaking = agent
        rec.replied(agent, request, reply)

    def hand_over(self, agent: str) -> None:
        """The next task (or a flow's next step) goes to `agent`: a `sequence` hand-over, or
        the `graph_edge` of a flow's router branch when that is the spec's edge between them."""
        if self.speaking and self.speaking != agent:
            routed = (self.speaking, agent, "graph_edge") in self.edges \
                and (self.speaking, agent, "sequence") not in self.edges
            self.rec.add(DelegationEvent(**{"from": self.speaking}, to=agent, t=self.rec.now(),
                                         trigger="graph_edge" if routed else "sequence"))

    # -- tools (CrewAI's tool-call hooks) --------------------------------------------------
    def before(self, ctx: Any) -> bool | None:
        if self.ended.is_set():
            return False
        agent = self.agent_of(ctx.agent)
        name = str(ctx.tool_name)
        args = dict(ctx.tool_input or {})
        if name in DELEGATION_TOOLS:
            # a coworker no agent's role names is no hand-over: CrewAI answers the model with
            # an error that lists the coworkers
            to = self.walk.by_role(str(args.get("coworker", "")))
            if (agent, to) in self.dropped:  # a mutant took this coworker from the agent
                self._blocked.add(id(ctx.tool_input))
                return False
            if to is not None:
                self.rec.add(DelegationEvent(**{"from": agent}, to=to, trigger="delegate",
                                             t=self.rec.now()))
            return None
        if name in self.workflow_tools and (agent, name) not in self.allowed:
            self.rec.add(RestrictedAttempt(agent=agent, tool=name, arguments=args, mode=(
                "probe" if (agent, name) in self._probes else "faithful"), t=self.rec.now()))
            self._blocked.add(id(ctx.tool_input))
            return False
        self.rec.add(ToolCall(agent=agent, tool=name, arguments=args, t=self.rec.now()))
        return None

    def after(self, ctx: Any) -> str | None:
        if self.ended.is_set():
            return None
        agent = self.agent_of(ctx.agent)
        name = str(ctx.tool_name)
        if id(ctx.tool_input) in self._blocked:
            self._blocked.discard(id(ctx.tool_input))
            if name in DELEGATION_TOOLS:
                return f"coworker {(ctx.tool_input or {}).get('coworker', '')} is not available"
            payload = f"tool {name} is not available to agent {agent}"
            self.rec.add(ToolResult(agent=agent, tool=name, status="blocked", payload=payload,
                                    t=self.rec.now()))
            return payload
        if name in DELEGATION_TOOLS:
            self.rec.turn(agent)  # the coworker answered: the delegator speaks again
            return None
        result = str(ctx.tool_result if ctx.tool_result is not None else "")
        injection = self.faults.get(name)
        self.rec.add(ToolResult(agent=agent, tool=name, payload=result,
                                status="error" if result.startswith("Error executing tool") else "ok",
                                fault=injection.mode if injection else None, t=self.rec.now()))
        return None


@contextlib.contextmanager
def hooked(recording: Recording) -> Iterator[None]:
    from crewai.hooks import (register_after_tool_call_hook, register_before_tool_call_hook,
                              unregister_after_tool_call_hook, unregister_before_tool_call_hook)

    register_before_tool_call_hook(recording.before)
    register_after_tool_call_hook(recording.after)
    try:
        yield
    finally:
        unregister_before_tool_call_hook(recording.before)
        unregister_after_tool_call_hook(recording.after)


@contextlib.contextmanager
def controlled(w: Walk, scenario: Scenario, clients: Any, recording: Recording,
               probes: dict[str, Any], loop: Any, mutant: Mutant) -> Iterator[None]:
    """Every agent's `llm` masfuzz's for the run (the manager's too), every tool with a fault or
    a stub answered by it, and the tasks in the scenario's speaking order; all put back on exit.
    The mutant's delegations dropped or redirected are the bridge's and the hook's to apply."""
    crew = w.crew
    undo: list[tuple[Any, str, Any]] = []
    recording._probes = {(a, t.name) for a, ts in probes.items() for t in ts}
    recording.allowed |= mutant.granted
    recording.dropped = mutant.dropped

    def llm_for(agent_id: str, current: Any) -> Any:
        return make_llm(model=_model_string(current), temperature=getattr(current, "temperature", None),
                        scenario=scenario, clients=clients, agent_of=recording.agent_of,
                        on_reply=recording.on_reply, extra_tools=probes, loop=loop,
                        ended=recording.ended, dropped=mutant.dropped, redirect=mutant.redirect,
                        roles={w.id_of(a): str(a.role) for a in w.agents})

    try:
        for agent in w.agents:
            if isinstance(agent, ManagerStandIn):
                undo += [(crew, "manager_llm", crew.manager_llm), (crew, "manager_agent", None)]
                crew.manager_llm = llm_for(w.id_of(agent), crew.manager_llm)
                continue
            undo.append((agent, "llm", agent.llm))
            agent.llm = llm_for(w.id_of(agent), agent.llm)
            # an agent that calls tools through another model sends those calls there too
            if getattr(agent, "function_calling_llm", None) is not None:
                undo.append((agent, "function_calling_llm", agent.function_calling_llm))
                agent.function_calling_llm = None
        recording.rec.meta.setdefault("model_swapped_at", {}).update({
            w.id_of(a): ["Crew.manager_llm" if isinstance(a, ManagerStandIn) else "Agent.llm"]
            for a in w.agents})
        for edge in w.tools:
            injection = recording.faults.get(edge.name)
            if injection is None or any(u[0] is edge.tool for u in undo):
                continue
            if "func" in type(edge.tool).model_fields:  # a `@tool` function: `run` calls it
                undo.append((edge.tool, "func", edge.tool.func))
                edge.tool.func = _replaced(injection, edge.name, recording.ended)
            else:  # a BaseTool subclass: `run` calls its `_run`, replaced on this object only
                object.__setattr__(edge.tool, "_run", _replaced(injection, edge.name, recording.ended))
                undo.append((edge.tool, "-_run", None))
        if scenario.speaking_order:
            undo.append((crew, "tasks", crew.tasks))
            crew.tasks = _ordered(w, scenario.speaking_order)
            recording.rec.meta["speaking_order"] = [w.id_of(t.agent) for t in crew.tasks]
        yield
    finally:
        for obj, attr, value in reversed(undo):
            if attr.startswith("-"):
                obj.__dict__.pop(attr[1:], None)
            else:
                setattr(obj, attr, value)


def _replaced(injection: Injection, name: str, ended: threading.Event) -> Any:
    def run(*args: Any, **kwargs: Any) -> Any:
        return injected(injection, name, ended)

    return run


def _model_string(llm: Any) -> str:
    if llm is None:
        return "masfuzz"
    return llm if isinstance(llm, str) else str(getattr(llm, "model", "") or "masfuzz")


def _ordered(w: Walk, order: tuple[str, ...]) -> list[Any]:
    """The crew's tasks with the named agents' tasks first, in the order given: who speaks when
    under the sequential process. The hierarchical manager chooses: no order to impose."""
    if w.manager is not None:
        raise MasfuzzError("speaking order: a hierarchical crew's manager chooses who works when; "
                           "only a sequential crew's tasks run in a set order")
    tasks = list(w.crew.tasks)
    by_agent: dict[str, list[Any]] = {}
    for t in tasks:
        by_agent.setdefault(w.id_of(t.agent), []).append(t)
    agents = in_speaking_order(list(by_agent), order, lambda a: a)
    return [t for a in agents for t in by_agent[a]]


# -- flows: the crews and agents a method makes at run time ----------------------------------

_flow_run: ContextVar[Any] = ContextVar("masfuzz_crewai_flow_run", default=None)
_install_lock = threading.Lock()


@dataclass
class _FlowRun:
    """What a flow's run changes in each crew and agent its methods kick off."""

    w: FlowWalk
    scenario: Scenario
    clients: Any
    recording: Recording
    probes: dict[str, Any]
    loop: Any

    def _controlled(self, cw: Walk, go: Callable[[], Any]) -> Any:
        # the flow's ids: an agent the walk saw, else (made again at run time) by its role in
        # the walked crew of the same roles (two crews may each have a "Researcher"), else in
        # the flow
        def roles(x: Walk) -> list[str]:
            return sorted(str(a.role).strip().lower() for a in x.agents)

        twin = next((s for s in self.w.crew_walks if roles(s) == roles(cw)), None)
        for agent in cw.agents:
            cw.ids[id(agent)] = self.w.ids.get(id(agent)) or (twin and twin.by_role(str(agent.role))) \
                or self.w.by_role(str(agent.role)) or cw.ids[id(agent)]
            self.recording.made[id(agent)] = cw.ids[id(agent)]
        if cw.crew is not None:
            self.recording.tasks.update({id(t): cw.manager is not None for t in cw.crew.tasks})
        with controlled(cw, self.scenario, self.clients, self.recording, self.probes, self.loop,
                        Mutant()):
            return go()

    def crew(self, crew: Any, go: Callable[[], Any]) -> Any:
        return self._controlled(walk(crew), go)

    def agent(self, agent: Any, go: Callable[[], Any]) -> Any:
        aw = Walk()
        aw.ids[id(agent)] = str(getattr(agent, "role", "agent"))
        aw.agents.append(agent)
        seen: set[str] = set()
        for tool in list(agent.tools or ()):
            add_tool(aw, agent, tool, seen)

        def handed_over() -> Any:  # an agent run by itself has no task: its start is the hand-over
            self.recording.hand_over(aw.id_of(agent))
            return go()

        return self._controlled(aw, handed_over)


def _install() -> None:
    """`Crew.kickoff` and `Agent.kickoff` answered by the flow run current in the calling
    context (CrewAI runs a flow's methods in threads that copy the context), and as CrewAI's
    own everywhere else. Installed once per process: a flow makes its crews inside its
    methods, where no object masfuzz walked is the one that runs."""
    from crewai import Agent, Crew

    with _install_lock:
        if getattr(Crew.kickoff, "_masfuzz", False):
            return
        crew_kickoff, agent_kickoff = Crew.kickoff, Agent.kickoff

        def kickoff(self: Any, *args: Any, **kwargs: Any) -> Any:
            run = _flow_run.get()
            go = lambda: crew_kickoff(self, *args, **kwargs)  # noqa: E731
            return go() if run is None else run.crew(self, go)

        def kickoff_agent(self: Any, *args: Any, **kwargs: Any) -> Any:
            run = _flow_run.get()
            go = lambda: agent_kickoff(self, *args, **kwargs)  # noqa: E731
            return go() if run is None else run.agent(self, go)

        kickoff._masfuzz = kickoff_agent._masfuzz = True  # type: ignore[attr-defined]
        Crew.kickoff, Agent.kickoff = kickoff, kickoff_agent


@contextlib.contextmanager
def kickoffs_controlled(w: FlowWalk, scenario: Scenario, clients: Any, recording: Recording,
                        probes: dict[str, Any], loop: Any) -> Iterator[None]:
    _install()
    token = _flow_run.set(_FlowRun(w, scenario, clients, recording, probes, loop))
    try:
        yield
    finally:
        _flow_run.reset(token)


def _kickoff_flow(cls: type, text: str) -> Any:
    """A fresh flow (it keeps its state; its construction, which makes a Memory, takes seconds
    and counts in the run's time) kicked off with the scenario's input."""
    from masfuzz.loader import call_user

    flow = call_user(cls, failed=f"{cls.__name__}()")
    flow.suppress_flow_events = True  # CrewAI's console panels and event-bus copies of each step
    return flow.kickoff(inputs=_flow_inputs(flow, text))


def _flow_inputs(flow: Any, text: str) -> dict[str, str]:
    """The scenario's input as the flow's inputs: the first text field of its state that starts
    empty (what a caller fills in; none, no input), or `input` in a flow with unstructured state."""
    from pydantic import BaseModel

    state = getattr(flow, "state", None)
    if isinstance(state, BaseModel):
        fields = [n for n, f in type(state).model_fields.items()
                  if n != "id" and f.annotation is str and not f.default]
        return {fields[0]: text} if fields else {}
    return {"input": text}
