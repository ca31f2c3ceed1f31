"""`AutoGenAdapter`: extract an AgentChat team's workflow, and run one scenario on it.

A run never reuses the user's team object: the team is rebuilt from its own settings around the
same agents (reset first), with its participants in the scenario's speaking order
(`masfuzz.adapters.ordering`) and team events switched on. A round robin speaks in that order, a
swarm starts with its first, and a selector team's model sees the candidates in it and still
chooses: no speaker is forced, since a forced first speaker could be one whose work has nothing
to start from. A GraphFlow's edges decide who speaks, so the order leaves it as it is. The teams
inside its members (a member team, a society of mind's, a team tool's) are the app's objects
and are not rebuilt: what a run's event loop owns in them is made fresh for each run instead
(`masfuzz.adapters.autogen.fresh`), and the tools that run a team or an agent tell, for the run,
which call each of the events they pass on is of (`masfuzz.adapters.autogen.calls`).
Each agent's model client is swapped for a bridge to the scenario's model and restored after, as
are its tools when faults or restricted probes apply. A `UserProxyAgent` that would read the
terminal (AgentChat's default `input_func`) gets a user who says nothing instead, as AG2's human
prompts do (`masfuzz.adapters.ag2.live`): masfuzz's stdin is closed, and the EOF crash it met
would be the harness's doing blamed on the app. A workflow mutant (`mutate`) is applied
to the team and its agents before all that and undone after. Runs of one team are serialised,
because the agents are shared; for the same reason a run its time limit ends is stopped (its
task cancelled and awaited) before the next one starts, never left going (`_stop`).
"""

from __future__ import annotations

import asyncio
import inspect
from contextlib import AsyncExitStack
from typing import Any

from autogen_agentchat.base import TaskResult, Team
from autogen_agentchat.agents import BaseChatAgent, UserProxyAgent
from autogen_agentchat.agents._user_proxy_agent import cancellable_input
from autogen_agentchat.teams import BaseGroupChat, GraphFlow, RoundRobinGroupChat, SelectorGroupChat, Swarm
from autogen_core import CancellationToken
from autogen_core.tools import StaticStreamWorkbench

from masfuzz.adapters.autogen.bridge import MasfuzzChatCompletionClient
from masfuzz.adapters.autogen.calls import CallOrigins
from masfuzz.adapters.autogen.capture import capture_team, find_team
from masfuzz.adapters.autogen.fresh import renew
from masfuzz.adapters.autogen.extract import (FRAMEWORK, extract_team, first_speakers, inner_agent,
                                              model_holders, nested_teams, own_tools, participants,
                                              workflow_agents)
from masfuzz.adapters.autogen.mutate import OPERATORS, mutated, problem
from masfuzz.adapters.autogen.tools import CodeStandIn, FaultyTool, ProbeStub
from masfuzz.adapters.autogen.trace import TRIGGER, StreamRecorder, termination_reason
from masfuzz.adapters.base import Adapter, system_lock
from masfuzz.adapters.probes import stands_for
from masfuzz.adapters.faults import Injection, modes, tool_faults
from masfuzz.adapters.mutation import TurnLimit, same
from masfuzz.adapters.ordering import in_speaking_order
from masfuzz.errors import MasfuzzError, TargetError
from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import STAND_IN_USERS, ErrorEvent, Trace, TraceRecorder

_GRACE = 1.0  # seconds a timed-out run gets to wind down after cancellation
SELECTOR = "selector"  # the agent name the selector's speaker-selection model calls carry


class AutoGenAdapter(Adapter):
    framework = FRAMEWORK
    model_setting = "model_client"
    extra = "autogen"

    @classmethod
    def accepts(cls, obj: Any) -> bool:
        return isinstance(obj, (BaseGroupChat, BaseChatAgent))

    def extract(self, obj: Any, *, target: str = "") -> WorkflowSpec:
        team = as_team(obj)
        runnable(team)  # refused at load, not at its first run
        return extract_team(team, target)

    @property
    def mutation_operators(self) -> frozenset[str]:
        return OPERATORS

    def mutation_problem(self, obj: Any, spec: WorkflowSpec, mutation: Any) -> str | None:
        return problem(as_team(obj), mutation)

    async def run(self, obj: Any, spec: WorkflowSpec, scenario: Scenario) -> Trace:
        team = as_team(obj)
        rec = TraceRecorder(scenario_id=scenario.id, system_id=spec.system.id, framework=FRAMEWORK)
        faults = tool_faults(scenario, [t.id for t in spec.tools])
        async with system_lock(team):
            # the mutant first: the run reads the agents' tools and handoffs it changed
            with mutated(team, scenario.mutant) as turns:
                run = _Run(team, spec, scenario, faults, turns)
                async with AsyncExitStack() as stack:
                    await run.prepare(stack)
                    return await run.execute(rec)


def as_team(obj: Any) -> Any:
    """A lone agent runs as a one-member round robin for one turn (AgentChat's own idiom)."""
    if isinstance(obj, BaseChatAgent):
        return RoundRobinGroupChat([obj], max_turns=1)
    return obj


# The teams a run can rebuild with masfuzz's members (`_Run.rebuild`); another kind (MagenticOne,
# a team class of the app's own) has constructor arguments masfuzz does not know.
RUNNABLE = (SelectorGroupChat, GraphFlow, RoundRobinGroupChat, Swarm)


def runnable(team: Any) -> None:
    """Refuse a team masfuzz cannot run, in one line (TargetError: exit 2)."""
    if not isinstance(team, RUNNABLE):
        raise TargetError(f"{type(team).__name__}: masfuzz cannot run this kind of AutoGen team yet "
                          f"(it runs {', '.join(t.__name__ for t in RUNNABLE)})")


def capture(obj: Any, target: str) -> Any | None:
    """The team an app builds in `async main()` (a module, or an async function named as the
    target); None if `obj` is neither. Called by `masfuzz.adapters.base.resolve`."""
    if inspect.ismodule(obj):
        return find_team(obj, target)
    if inspect.iscoroutinefunction(obj):
        return capture_team(obj, target)
    return None




class _Run:
    def __init__(self, team: Any, spec: WorkflowSpec, scenario: Scenario,
                 faults: dict[str, Injection], turns: TurnLimit = same) -> None:
        self.team, self.spec, self.scenario, self.faults = team, spec, scenario, faults
        self.turns = turns  # the mutant's change of the team's max_turns
        self.members = participants(team)
        self.bridges: list[MasfuzzChatCompletionClient] = []
        self.model_errors: list[tuple[str | None, BaseException]] = []
        self.handoff_tools = {
            m.name: {n: h.target for n, h in (getattr(m, "_handoffs", None) or {}).items()}
            for m in workflow_agents(team)  # an inner Swarm's too: its handoff calls are no tool calls
        }
        self.probes: dict[str, set[str]] = {}
        self.code_not_run: list[dict[str, str]] = []  # what the executors' stand-ins were given
        self.stand_in_users: list[str] = []  # the humans masfuzz's silent user stands in for
        self.order: list[str] | None = None  # set by rebuild()
        self.rec: TraceRecorder | None = None  # set by execute(): what the agents' models receive goes there
        self.origins = CallOrigins()  # the call each event of a team or agent a tool runs is of

    # --- preparing the agents -----------------------------------------------------------

    def _bridge(self, agent: str, own: Any = None) -> MasfuzzChatCompletionClient | None:
        """masfuzz's model for `agent`, in place of its client `own` (whose settings that shape
        an answer it keeps: one tool call per answer)."""
        model = self.scenario.model_for(agent)
        if model is None:
            return None  # no model string: the agent keeps the app's own client
        from masfuzz.llm.settings import sut_client

        bridge = MasfuzzChatCompletionClient(
            sut_client(model), agent=agent, handoffs=self.handoff_tools.get(agent),
            on_error=lambda who, exc: self.model_errors.append((who, exc)),
            on_request=lambda who, request: self.rec is not None and self.rec.received(who, request.messages),
            parallel_tool_calls=(getattr(own, "_create_args", None) or {}).get("parallel_tool_calls") is not False,
        )
        self.bridges.append(bridge)
        return bridge

    async def prepare(self, stack: AsyncExitStack) -> None:
        restricted: list[tuple[str, ...]] = []
        if self.scenario.restricted == "probe":
            restricted = list(CoordinationGraph(self.spec).obligations().by_kind("restrict_tool").keys())
        for member in self.members:
            # an agent built without a model (a CodeExecutorAgent running others' code) holds none;
            # a wrapper's agent and the agents inside a member (a society of mind's team) do
            for name, holder in model_holders(member):
                # a selector team inside the member: its calls are speaker selections, as the outer's
                bridge = self._bridge(SELECTOR if isinstance(holder, Team) else name, holder._model_client)
                if bridge is not None:
                    _swap(stack, holder, "_model_client", bridge)
        # the agents inside members (inner teams', those a tool runs) are the workflow's agents as
        # the members are: their users, executors, faults and restricted probes alike
        for member in workflow_agents(self.team):
            agent = inner_agent(member)
            if isinstance(agent, UserProxyAgent) and agent.input_func is cancellable_input:
                _swap(stack, agent, "input_func", _silent_user)
                self.stand_in_users.append(member.name)
            if getattr(agent, "_code_executor", None) is not None and not self.scenario.run_code:
                _swap(stack, agent, "_code_executor",
                      CodeStandIn(member.name, agent._code_executor, self.code_not_run))
            stubs = [ProbeStub(member.name, self.spec.tool(t)) for a, t in restricted
                     if a == member.name and not stands_for(self.spec, t, a)]  # never itself
            self.probes[member.name] = {s.name for s in stubs}
            self._patch_tools(stack, agent, stubs)
            self.origins.watch(stack, own_tools(agent))
        # no history leaks between scenarios, nor anything an earlier run's event loop owns; after
        # the swaps above, since a team's reset builds its manager with the team's model client
        await renew(stack, self.members, _swap)
        cond = getattr(self.team, "_termination_condition", None)
        if cond is not None:
            await cond.reset()
        context = getattr(self.team, "_model_context", None)
        if context is not None:
            await context.clear()

    def _patch_tools(self, stack: AsyncExitStack, member: Any, stubs: list[ProbeStub]) -> None:
        benches = getattr(member, "_workbench", None)
        if benches is None:
            return
        new: list[Any] = []
        changed = bool(stubs)
        for wb in benches:
            tools = getattr(wb, "_tools", None)
            if isinstance(wb, StaticStreamWorkbench) and tools and any(t.name in self.faults for t in tools):
                wb = StaticStreamWorkbench([FaultyTool(t, self.faults[t.name]) if t.name in self.faults else t
                                            for t in tools])
                changed = True
            new.append(wb)
        if stubs:
            new.append(StaticStreamWorkbench(stubs))
        if changed:
            _swap(stack, member, "_workbench", new)

    # --- the team for this scenario -----------------------------------------------------

    def rebuild(self) -> Any:
        """The team for this scenario; `self.order` is then the speaking order it was built with
        (None for a GraphFlow, whose edges decide)."""
        team = self.team
        members = in_speaking_order(self.members, self.scenario.speaking_order, lambda m: m.name)
        self.order = None if isinstance(team, GraphFlow) else [m.name for m in members]
        max_turns = self.scenario.max_turns or getattr(team, "_max_turns", None)
        common: dict[str, Any] = dict(
            name=team.name, description=team.description,
            termination_condition=getattr(team, "_termination_condition", None),
            max_turns=None if max_turns is None else self.turns(max_turns),
        )
        if isinstance(team, SelectorGroupChat):
            selector = self._bridge(SELECTOR) or team._model_client  # noqa: SLF001
            new = SelectorGroupChat(
                members, model_client=selector, selector_prompt=team._selector_prompt,  # noqa: SLF001
                allow_repeated_speaker=team._allow_repeated_speaker,  # noqa: SLF001
                max_selector_attempts=team._max_selector_attempts,  # noqa: SLF001
                selector_func=team._selector_func, candidate_func=team._candidate_func,  # noqa: SLF001
                emit_team_events=True, model_client_streaming=team._model_client_streaming,  # noqa: SLF001
                model_context=team._model_context, **common,  # noqa: SLF001
            )
        elif isinstance(team, GraphFlow):
            new = GraphFlow(self.members, graph=team._graph, **common)  # noqa: SLF001
        else:
            runnable(team)
            new = type(team)(members, emit_team_events=True, **common)
        new._message_factory = team._message_factory  # noqa: SLF001 - the app's custom message types
        return new

    async def execute(self, rec: TraceRecorder) -> Trace:
        self.rec = rec
        team = self.rebuild()
        nested = nested_teams(self.team)
        everyone = [*self.members, *(m for n in nested for m in n.members)]
        stream_rec = StreamRecorder(
            rec, self.spec, tool_faults=modes(self.faults), handoff_tools=self.handoff_tools,
            probes=self.probes, restricted_mode=self.scenario.restricted,
            aliases={inner_agent(m).name: m.name for m in everyone if inner_agent(m) is not m},
            nested={m.name: (n.wrapper, TRIGGER.get(n.pattern, "delegate"), n.via)
                    for n in nested for m in n.members},
            tool_runs={(n.wrapper, n.via): first_speakers(n.team, n.names)[0]
                       for n in nested if n.via is not None and n.names},
            origins=self.origins, model_errors=self.model_errors,
        )
        rec.meta["speaking_order"] = self.order
        if self.stand_in_users:
            rec.meta[STAND_IN_USERS] = self.stand_in_users
        token = CancellationToken()
        results: list[TaskResult] = []

        async def consume() -> None:
            async for item in team.run_stream(task=self.scenario.input, cancellation_token=token):
                if isinstance(item, TaskResult):
                    results.append(item)
                else:
                    stream_rec.feed(item)

        task = asyncio.ensure_future(consume())
        try:
            done, _ = await asyncio.wait({task}, timeout=self.scenario.timeout)
        except BaseException:  # the caller's own limit (the in-process executor's) ended the run
            await _stop(task, token, team)
            raise
        if not done:
            if not await _stop(task, token, team):
                rec.meta["abandoned"] = True
            stream_rec.flush()  # what the calls cut off by the time limit did
            self._usage(rec)
            return rec.finish("timeout", f"no end within {self.scenario.timeout:g} s", stream_rec.final_output)
        stream_rec.flush()
        exc = task.exception()
        if exc is not None:
            if isinstance(exc, MasfuzzError):
                raise exc
            self._record_crash(rec, stream_rec, exc)
            self._usage(rec)
            return rec.finish("crash", rec.events[-1].message, stream_rec.final_output)  # type: ignore[attr-defined]
        result = results[-1] if results else None
        self._usage(rec)
        stop = result.stop_reason if result is not None else None
        reason = termination_reason(stop)
        detail = stop or ""
        if reason == "text_mention" and stream_rec.agent_messages == 0:
            detail += " (matched the user's task text: no agent spoke)"
        return rec.finish(reason, detail, stream_rec.final_output)

    def _record_crash(self, rec: TraceRecorder, stream_rec: StreamRecorder, exc: BaseException) -> None:
        # a model error a tool's run took in (its caller got it as the tool's error and went on)
        # is not what crashed the run
        errors = [(a, e) for a, e in self.model_errors if all(e is not x for x in stream_rec.absorbed)]
        if errors:
            agent, err = errors[-1]
            if isinstance(err, MasfuzzError) and not _is_model_error(err):
                raise err
            rec.add(ErrorEvent(agent=agent, kind="model_error", message=str(err)))
            return
        text = str(exc).strip().splitlines()
        rec.add(ErrorEvent(agent=stream_rec.speaker, kind=type(exc).__name__, message=text[0] if text else ""))

    def _usage(self, rec: TraceRecorder) -> None:
        """What the run used: model calls and tokens, and the code its executors did not run."""
        rec.usage.model_calls = sum(b.calls for b in self.bridges)
        rec.usage.tokens_in = sum(b.total_usage().prompt_tokens for b in self.bridges)
        rec.usage.tokens_out = sum(b.total_usage().completion_tokens for b in self.bridges)
        if self.code_not_run:
            rec.meta["code_not_run"] = self.code_not_run


async def _stop(task: asyncio.Future[None], token: CancellationToken, team: Any) -> bool:
    """End a run that ran out of time, for good, before its lock is released: the next run
    reuses the same agents and termination condition, so a run left going would keep calling
    the models (the next run's, once swapped in) and count its messages towards the next run's
    limit. The agents' work is cancelled through the run's token (the model and tool calls
    linked to it), the stream through its task; a handler that ignores both is cancelled in the
    rebuilt team's runtime (AgentChat's `stop_when_idle` waits for it otherwise). False: the run
    is still going after that (a handler that swallows cancellation), and is abandoned.
    A tool blocked in a thread is left to finish there, but its result reaches no one."""
    token.cancel()
    task.cancel()
    await asyncio.wait({task}, timeout=_GRACE)
    if not task.done():
        runtime = getattr(team, "_runtime", None)
        for handler in list(getattr(runtime, "_background_tasks", ())):  # noqa: SLF001
            handler.cancel()
        await asyncio.wait({task}, timeout=_GRACE)
    if task.done() and not task.cancelled():
        task.exception()  # retrieved: the cancellation's own error is not a finding
    return task.done()


async def _silent_user(prompt: str, cancellation_token: CancellationToken | None) -> str:
    """The stand-in for a human at the terminal: it says nothing (an empty reply)."""
    return ""


def _is_model_error(err: BaseException) -> bool:
    from masfuzz.errors import ModelError

    return isinstance(err, ModelError)


def _swap(stack: AsyncExitStack, obj: Any, attr: str, value: Any) -> None:
    old = getattr(obj, attr)
    setattr(obj, attr, value)
    stack.callback(setattr, obj, attr, old)
