"""Run one scenario on the user's PydanticAI agents and record its `Trace`.

PydanticAI runs its own loop (`agent.run`) on the user's unmodified agents. For the run, every
agent of the walk is entered into `agent.override(...)` with masfuzz's model (`bridge`) and its
toolsets wrapped for recording, faults and stubs (`recording.RunRecording`); the overrides are
context variables, so they reach the agents the app's tools run. There is no speaking order:
the entry agent speaks, and another agent speaks only when a tool of a speaking agent runs it,
or the app's code (a pipeline) or graph (a pydantic-graph graph, run node by node) does.

How a run ends is part of the trace: `completed` with the entry agent's output (a graph's: the
value of its End, after the node the detail names); `max_turns` when a `UsageLimits` bound
(PydanticAI's request limit, 50 by default, or the scenario's `max_turns` as a request limit)
stops it, or a graph runs more nodes than that; `timeout` at the scenario's time limit; `crash` when
the system raises (a tool's exception propagates out of a PydanticAI run; a model answer that
fails validation more often than the agent's retries allow is `UnexpectedModelBehavior`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from contextlib import ExitStack, nullcontext
from typing import Any

from masfuzz.adapters.base import system_lock
from masfuzz.adapters.faults import injected_cause, tool_faults
from masfuzz.adapters.handover import Handovers
from masfuzz.adapters.pydantic_ai.bridge import AgentModel
from masfuzz.adapters.pydantic_ai.extract import FRAMEWORK, Walk
from masfuzz.adapters.pydantic_ai.mutate import mutant
from masfuzz.adapters.pydantic_ai.pipeline import AgentPipeline
from masfuzz.adapters.probes import restricted_probes
from masfuzz.adapters.pydantic_ai.nested import built_agents_overridden
from masfuzz.adapters.pydantic_ai.recording import CURRENT_TOOL, RunRecording, recording_toolset
from masfuzz.adapters.user_turns import UserWords
from masfuzz.errors import MasfuzzError, ModelCallFailed
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import APP_BOUND, HARNESS_CAUSE, ErrorEvent, ToolResult, Trace, TraceRecorder

DEFAULT_TIMEOUT = 60.0  # seconds, when the scenario sets none (a hanging tool must end somehow)
DEFAULT_REQUEST_LIMIT = 50  # PydanticAI's own UsageLimits default
DEFAULT_NODE_LIMIT = 50  # node runs of a pydantic-graph graph, which has no bound of its own


async def run_scenario(entry: Any, walk: Walk, spec: WorkflowSpec, scenario: Scenario,
                       clients: Any) -> Trace:
    from pydantic_ai import UsageLimits

    recorder = TraceRecorder(scenario_id=scenario.id, system_id=spec.system.id, framework=FRAMEWORK)
    recorder.meta.update({"sut_model": scenario.sut_model, "restricted": scenario.restricted,
                          "faults": {f.tool: f.mode for f in scenario.faults}})
    owned: dict[str, set[str]] = {}
    for agent, tool in spec.permissions.allow:
        owned.setdefault(agent, set()).add(tool)
    probes = restricted_probes(spec) if scenario.restricted == "probe" else {}
    rec = RunRecording(recorder=recorder, workflow_tools={t.id for t in spec.tools}, owned=owned,
                       faults=tool_faults(scenario, [t.id for t in spec.tools]),
                       probes={a: {t.name for t in ts} for a, ts in probes.items()})
    mut = mutant(walk, scenario.mutant)
    limits = UsageLimits(request_limit=mut.turns(scenario.max_turns or DEFAULT_REQUEST_LIMIT))
    limit = scenario.timeout or DEFAULT_TIMEOUT
    # end a little before the scenario's limit, at which an executor cancels the run: stopping
    # first keeps the partial trace and says why it ended
    timeout = max(limit - min(0.5, limit * 0.1), 0.01)
    rec.words = UserWords(recorder, scenario.input)
    rec.handovers = Handovers({d.edge: d.trigger for d in spec.delegations if d.trigger != "as_tool"})
    deps, graph_args = None, {}
    if walk.graph is not None:
        graph_args, missing = graph_arguments(scenario, entry)
        no_deps = bool(missing)
        if missing:
            recorder.meta["graph_arguments_missing"] = missing
    else:
        deps = None if isinstance(entry, AgentPipeline) else _deps(scenario, entry)
        # the app's code may read dependencies masfuzz had none to give (its failing then is ours)
        no_deps = deps is None and getattr(entry, "deps_type", object) is not object
    async with system_lock(entry):
        with ExitStack() as stack:
            for agent in walk.agents:
                me = walk.id_of(agent)
                model = AgentModel(me, rec, scenario, clients, probes.get(me, ())).model()
                toolsets = [recording_toolset(ts, me, rec, hidden=mut.hidden.get(me, set()),
                                              descriptions=mut.descriptions)
                            for ts in [*agent.toolsets, *_granted(mut.granted.get(me))]]
                # its name too: PydanticAI names an unnamed agent at its first run after the
                # variable that ran it (`specialist_agent`), which would change its id
                stack.enter_context(agent.override(name=me, model=model, tools=[], toolsets=toolsets))
            recorder.meta["model_swapped_at"] = {walk.id_of(a): ["Agent.override(model=...)"]
                                                 for a in walk.agents}
            stack.enter_context(built_agents_overridden(_BuiltAgents(walk, rec, scenario, clients)))
            try:
                if walk.graph is not None:  # the graph runs its nodes, they their agents
                    ended = await asyncio.wait_for(run_graph(entry, graph_args, rec, mut.turns(
                        scenario.max_turns or DEFAULT_NODE_LIMIT)), timeout)
                    if ended is not None:
                        return ended
                    output = rec.graph_output
                    path = recorder.meta["graph_path"]
                    return recorder.finish("completed", final_output=_text(output), detail="the graph's "
                                           f"End after node {path[-2] if len(path) > 1 else '?'}")
                elif isinstance(entry, AgentPipeline):  # the app's own code runs its agents
                    output = await asyncio.wait_for(entry.start(scenario.input), timeout)
                    if output is None and not entry.returns_value:  # it prints, returns nothing
                        output = rec.final.get(rec.top or "")  # its last agent's answer
                    elif output is None:  # its own gate stopped it, as a tripped guardrail does
                        return recorder.finish("other", detail=f"{entry.name}() stopped without a "
                                               "result (the app's own code ended the pipeline)")
                else:
                    output = (await asyncio.wait_for(entry.run(scenario.input, usage_limits=limits,
                                                               deps=deps), timeout)).output
            except Exception as exc:  # how the run ended early; the system raising is a finding
                if isinstance(exc, MasfuzzError) and not isinstance(exc, ModelCallFailed):
                    raise  # masfuzz's own failure or bad input, never the system's
                return _ended(rec, exc, limit, no_deps,
                              limits.request_limit if walk.graph is None and not isinstance(entry, AgentPipeline) else None)
    return recorder.finish("completed", final_output=_text(output))


async def run_graph(graph: Any, arguments: dict[str, Any], rec: RunRecording, limit: int) -> Trace | None:
    """Run a pydantic-graph graph node by node (`Graph.iter`), the nodes it runs in the trace's
    `graph_path`; its End's value is `rec.graph_output`. A graph whose loop would not end is
    stopped after `limit` node runs (`max_turns`), as LangGraph's recursion limit stops one."""
    from pydantic_graph import EndMarker

    from masfuzz.adapters.pydantic_ai.graph import node_function

    path: list[str] = rec.recorder.meta.setdefault("graph_path", [])
    runs = 0
    async with graph.iter(**arguments, infer_name=False) as graph_run:
        async for item in graph_run:
            if isinstance(item, EndMarker):
                path.append("End")
                rec.graph_output = item.value
                return None
            for task in item:  # the app's nodes and steps; not the graph's decisions, forks, joins
                if node_function(graph.nodes.get(task.node_id)) is not None:
                    path.append(str(task.node_id))
                    runs += 1
            if runs > limit:
                rec.fail_pending("the run stopped at its node limit")
                return rec.recorder.finish("max_turns", detail=f"the graph ran more than {limit} "
                                           "nodes (--max-turns)")
    return None


def graph_arguments(scenario: Scenario, graph: Any) -> tuple[dict[str, Any], list[str]]:
    """The graph run's `state`, `deps` and `inputs`, and which of those it declares that masfuzz
    had none to give. `--context`'s factory gives the state, or a dict of any of the three;
    otherwise a declared state or deps type that builds without arguments is built. The
    scenario's task is the graph's input when it takes text."""
    out: dict[str, Any] = {}
    if scenario.context:
        from masfuzz.loader import call_user, load_callable

        made = call_user(load_callable(scenario.context, "--context"),
                         failed=f"--context {scenario.context}: the factory failed")
        keys = {"state", "deps", "inputs"}
        out = dict(made) if isinstance(made, dict) and made and set(made) <= keys else {"state": made}
    for key, declared in (("state", graph.state_type), ("deps", graph.deps_type)):
        if key not in out and isinstance(declared, type) and declared is not type(None):
            try:
                out[key] = declared()
            except Exception:
                pass
    if "inputs" not in out and graph.input_type in (str, Any):
        out["inputs"] = scenario.input
    declared = {"state": graph.state_type, "deps": graph.deps_type, "inputs": graph.input_type}
    missing = [k for k, t in declared.items() if k not in out and t not in (None, type(None), Any)]
    return out, missing


def _ended(rec: RunRecording, exc: Exception, limit: float, no_deps: bool, requests: int | None) -> Trace:
    """The trace of a run that raised `exc`: the model under test failing (no finding), the
    time limit, a usage limit, or the system under test crashing. `requests`: the request limit
    masfuzz gave the entry agent's run (None: masfuzz ran no agent itself, the app's code did)."""
    from pydantic_ai.exceptions import UnexpectedModelBehavior, UsageLimitExceeded

    recorder = rec.recorder
    if isinstance(exc, ModelCallFailed):
        rec.fail_pending("the model under test did not answer")
        return recorder.model_failed(exc)
    if isinstance(exc, asyncio.TimeoutError):
        rec.fail_pending(f"cancelled at the {limit:g} s time limit")
        return recorder.timed_out(limit)
    if isinstance(exc, UsageLimitExceeded):
        if (bound := _app_bound(recorder, exc, requests)) is not None:
            recorder.meta[APP_BOUND] = bound
        rec.fail_pending("the run stopped at its usage limit")
        return recorder.finish("max_turns", detail=str(exc))
    message = str(exc).splitlines()[0] if str(exc) else ""
    if isinstance(exc, UnexpectedModelBehavior) and "output retries" in message:
        # the agent's type is the app's; an answer that does not fit it, retry after retry, is
        # the model's (a real model that cannot fill the schema, or a scripted one's mistake)
        rec.recorder.meta[HARNESS_CAUSE] = (f"the model under test gave no answer of the agent's "
                                            f"output type within its retries ({message})")
    elif isinstance(exc, UnexpectedModelBehavior) and injected_cause(exc):
        # a tool's retries that masfuzz's fault used up (it fails every call): the fault's
        # message stays in the crash's, so that the crash is told apart as the fault's doing
        message = f"{message.split('. ')[0]}, after {injected_cause(exc)}"
    elif no_deps and isinstance(exc, (AttributeError, TypeError)) \
            and "NoneType" in message:
        # instructions or a hook read the dependencies the app's own code passes (`deps=`),
        # which masfuzz had none to pass: the harness's doing, not the app's
        recorder.meta[HARNESS_CAUSE] = (f"the app read its run dependencies or graph state ({message}), which "
                                        "masfuzz did not have to pass: give --context MODULE:FACTORY")
    rec.fail_pending(f"the run ended with {type(exc).__name__}")
    speaker = next((e.agent for e in reversed(rec.recorder.events) if e.type == "agent_turn"), None)
    rec.recorder.add(ErrorEvent(agent=speaker, kind=type(exc).__name__, message=message))
    return rec.recorder.finish("crash", detail=f"{type(exc).__name__}: {message}")


def _app_bound(recorder: TraceRecorder, exc: Exception, requests: int | None) -> str | None:
    """Which of the app's or PydanticAI's own limits a `UsageLimitExceeded` is, or None when it
    is the request limit masfuzz gave the entry agent's run (`requests`, the scenario's
    --max-turns or PydanticAI's 50). A limit raised through a tool is that of the run the tool
    started (`await cards_agent.run(..., usage=ctx.usage)`: the agent's own `usage_limits`,
    PydanticAI's request_limit of 50 when it passes none), which --max-turns does not reach, and
    so is any limit the app's own code ran into (a pipeline, a graph's node)."""
    said = str(exc)
    through = next((e.tool for e in reversed(recorder.events) if isinstance(e, ToolResult)
                    and e.status == "error" and said and said in (e.payload or "")), None)
    if requests is not None and through is None and f"request_limit of {requests}" in said:
        return None
    where = f"the run {through} started" if through else "a run of the app's own code"
    return f"PydanticAI's usage limit of {where} ({said.split('. ')[0]})"


class _BuiltAgents:
    """The override of an agent the app builds while the run goes (in a tool's body, per
    request): masfuzz's model and the recording, as the walk's agents have. Its id is its name,
    else the tool that built it; the walk's own agents are already overridden."""

    def __init__(self, walk: Walk, rec: RunRecording, scenario: Scenario, clients: Any) -> None:
        self.walked = {id(a) for a in walk.agents}
        self.taken = {walk.id_of(a) for a in walk.agents}
        self.rec, self.scenario, self.clients = rec, scenario, clients
        self.ids: dict[int, str] = {}

    def __call__(self, agent: Any) -> Any:
        if id(agent) in self.walked:
            return nullcontext()
        me = self.ids.get(id(agent)) or self._name(agent)
        swapped = self.rec.recorder.meta.setdefault("model_swapped_at", {})
        swapped.setdefault(me, ["Agent.iter: built while the run went, overridden for its run"])
        model = AgentModel(me, self.rec, self.scenario, self.clients).model()
        toolsets = [recording_toolset(ts, me, self.rec) for ts in agent.toolsets]
        return agent.override(name=me, model=model, tools=[], toolsets=toolsets)

    def _name(self, agent: Any) -> str:
        tool = CURRENT_TOOL.get()
        base = agent.name or (f"{tool[1]}.agent" if tool else "agent")
        me, n = base, 1
        while me in self.taken:  # a walk agent's name, or another built agent's: one id each
            n += 1
            me = f"{base}#{n}"
        self.taken.add(me)
        self.ids[id(agent)] = me
        return me


def _granted(tools: list[Any] | None) -> list[Any]:
    """A workflow mutant's restricted tools given to an agent, as a toolset of their own."""
    if not tools:
        return []
    from pydantic_ai.toolsets import FunctionToolset

    return [FunctionToolset(tools)]


def _deps(scenario: Scenario, entry: Any) -> Any:
    """The run's dependencies: what the user's factory (`--context`) makes afresh, else an
    instance of the agent's `deps_type` when it builds without arguments, else None."""
    if scenario.context:
        from masfuzz.loader import call_user, load_callable

        return call_user(load_callable(scenario.context, "--context"),
                         failed=f"--context {scenario.context}: the factory failed")
    deps_type = getattr(entry, "deps_type", None)
    if isinstance(deps_type, type) and deps_type not in (object, type(None)):
        try:
            return deps_type()
        except Exception:
            return None
    return None


def _text(output: Any) -> str:
    """The run's output as the trace's text, whatever the app returned: an object that cannot
    be written as JSON as it is (a dataclass holding a lock or a client, which `asdict` cannot
    copy) is written field by field, else as its repr; masfuzz failing to write it must never
    end the run as the app's crash."""
    if isinstance(output, str):
        return output
    try:
        dump = getattr(output, "model_dump_json", None)
        if callable(dump):
            return dump()
        if dataclasses.is_dataclass(output) and not isinstance(output, type):  # a graph's End(Email(...))
            output = dataclasses.asdict(output)
        return json.dumps(output, default=str)
    except Exception:
        from pydantic_core import to_json

        try:
            return to_json(output, fallback=repr).decode()
        except Exception:
            return repr(output)
