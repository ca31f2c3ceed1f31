"""Run one scenario on the user's ADK agents and record its `Trace`.

ADK runs its own loop on the user's unmodified agent tree, with an `InMemoryRunner` (in-memory
session, artifact and memory services: no Google service, no credentials; ADK 2's graph
`Workflow`, a node and no agent, is given to it as its root node). For the run, every
`LlmAgent` reached (a workflow's agent nodes too) gets a `MasfuzzLlm` as its `model` (`bridge`), a `SequentialAgent` its
sub-agents in the scenario's speaking order, and the runner masfuzz's recording plugin
(`recording`); all of it is put back afterwards. The turn bound is ADK's own
`RunConfig.max_llm_calls`.

How a run ends is part of the trace: `completed` with the last final response (the detail says
who gave it, which loop escalated and who escalated it, or which loop used up its
`max_iterations`), `max_turns` when ADK's model-call limit stops it or the root loop runs out
of iterations without anyone escalating, `timeout` at the scenario's time limit (its own
timer's, or the executor's cancel once past it: a blocking tool holds the timer back), `crash`
when the system raises; the events up to that point are kept.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

from masfuzz.adapters.adk.bridge import Exchange, bridge_class
from masfuzz.adapters.adk.extract import ADK_DEFAULT, FRAMEWORK, Walk, is_workflow, kind_of, model_name
from masfuzz.adapters.adk.mutate import mutated
from masfuzz.adapters.adk.recording import make_plugin
from masfuzz.adapters.base import system_lock
from masfuzz.adapters.faults import tool_faults
from masfuzz.adapters.ordering import in_speaking_order
from masfuzz.adapters.probes import restricted_probes
from masfuzz.errors import MasfuzzError, ModelCallFailed, ModelError
from masfuzz.llm.types import ChatReply, ChatRequest
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import APP_BOUND, HARNESS_CAUSE, ErrorEvent, Message, RestrictedAttempt, Trace, TraceRecorder

DEFAULT_TIMEOUT = 60.0  # seconds, when the scenario sets none (a hanging tool must end somehow)
APP_NAME = "masfuzz"


async def run_scenario(root: Any, w: Walk, spec: WorkflowSpec, scenario: Scenario,
                       clients: Any) -> Trace:
    from google.adk.agents.run_config import RunConfig
    from google.adk.runners import InMemoryRunner
    from google.genai import types

    rec = TraceRecorder(scenario_id=scenario.id, system_id=spec.system.id, framework=FRAMEWORK)
    rec.meta.update({"sut_model": scenario.sut_model, "restricted": scenario.restricted,
                     "faults": {f.tool: f.mode for f in scenario.faults}})
    faults = tool_faults(scenario, [t.id for t in spec.tools])
    exchange = Exchange(lambda *a: None, restricted_probes(spec) if scenario.restricted == "probe" else {},
                        {str(a.name): w.id_of(a) for a in w.agents})
    exchange.on_reply = _recorder(rec, exchange)
    plugin = make_plugin(recorder=rec, walk=w, allowed=set(spec.permissions.allow),
                         workflow_tools={t.id for t in spec.tools}, faults=faults,
                         open_probes=exchange.open_probes)
    limit = scenario.timeout or DEFAULT_TIMEOUT
    timeout = max(limit - min(0.5, limit * 0.1), 0.01)  # end first, keeping the partial trace
    max_calls = scenario.max_turns or spec.termination.max_turns
    final: list[tuple[str, str]] = []  # (author, text) of the final responses
    rec.add(Message(agent=None, role="user", content=scenario.input, t=rec.now()))

    async def drive() -> None:
        # a graph `Workflow` is a node, not an agent: ADK runs it as the root node
        runner = InMemoryRunner(**{"node" if is_workflow(root) else "agent": root},
                                app_name=APP_NAME, plugins=[plugin])
        session = await runner.session_service.create_session(app_name=APP_NAME, user_id="masfuzz")
        message = types.Content(role="user", parts=[types.Part(text=scenario.input)])
        async for event in runner.run_async(user_id="masfuzz", session_id=session.id,
                                            new_message=message, run_config=run_config):
            if event.is_final_response() and event.content and event.content.parts:
                text = "".join(p.text or "" for p in event.content.parts if not p.thought)
                if text:
                    final.append((plugin.agent_id(event.author), text))
            if event.error_code:
                rec.add(ErrorEvent(agent=plugin.agent_id(event.author) if event.author else None,
                                   kind=str(event.error_code), message=str(event.error_message or "")))

    async with system_lock(root):
        try:
            # the mutant first: the model injection reads the agents it changed
            with mutated(w, scenario.mutant) as turns, injected(w, scenario, clients, exchange, rec):
                max_calls = turns(max_calls) if max_calls else max_calls
                run_config = RunConfig(max_llm_calls=max_calls) if max_calls else RunConfig()
                await asyncio.wait_for(drive(), timeout)
        except (ModelCallFailed, ModelError) as exc:  # the model under test failed: no finding
            return rec.model_failed(exc)
        except MasfuzzError:
            raise
        except asyncio.TimeoutError:
            return rec.timed_out(limit, final_output=_last(final))
        except asyncio.CancelledError:
            # ADK runs a plain-function tool on the event loop: one that blocks (a poll that
            # waits) holds our timer back until the executor's own limit cancels the run. Past
            # our limit that is the same time-out: end it here, with the events up to it (a
            # loop polled until then is seen), rather than let the cancel drop them all
            if rec.now() < timeout or (task := asyncio.current_task()) is None:
                raise
            task.uncancel()
            return rec.timed_out(limit, final_output=_last(final))
        except Exception as exc:  # the system under test raised: a finding, not a masfuzz crash
            if type(exc).__name__ == "LlmCallsLimitExceededError":
                return rec.finish("max_turns", detail=f"{exc} (max_llm_calls={max_calls})",
                                  final_output=_last(final))
            message = str(exc).splitlines()[0] if str(exc) else ""
            if _answer_off_schema(exc):
                # ADK checks the model's final answer against the agent's `output_schema` (a
                # real Gemini is held to it by the request's response schema): an answer that
                # does not fit is the model's, as a scripted one's plain text for a JSON type
                rec.meta[HARNESS_CAUSE] = (f"the model under test answered off the agent's "
                                           f"output_schema ({message})")
            elif exchange.open_probes:  # the app's code met a reply its own tools never get
                agent, tool = exchange.open_probes[-1]
                rec.meta[HARNESS_CAUSE] = (
                    f"the run crashed on masfuzz's restricted-tool probe: {agent}'s model called "
                    f"{tool}, which masfuzz offered it (--restricted probe) and the app never "
                    "does, before ADK refused the call")
            rec.add(ErrorEvent(agent=_speaker(rec), kind=type(exc).__name__, message=message))
            return rec.finish("crash", detail=f"{type(exc).__name__}: {message}", final_output=_last(final))
        finally:
            plugin.restore()
    return _ended(rec, w, plugin, final)


def _ended(rec: TraceRecorder, w: Walk, plugin: Any, final: list[tuple[str, str]]) -> Trace:
    """The termination of a run ADK ended by itself, in ADK's terms."""
    details = []
    root = w.agents[0]
    for loop in (a for a in w.agents if kind_of(a) == "loop"):
        lid = w.id_of(loop)
        done = plugin.iterations.get(lid, 0)
        escalated = [a for a in plugin.escalated if _inside(w, a, loop)]
        if escalated:
            details.append(f"loop {lid}: {escalated[-1]} escalated after {done} iteration(s)")
        elif loop.max_iterations and done >= loop.max_iterations:
            details.append(f"loop {lid}: max_iterations={loop.max_iterations} reached")
            if loop is root:  # the app's own bound, which --max-turns (ADK's max_llm_calls) is not
                rec.meta[APP_BOUND] = f"ADK: loop {lid}'s max_iterations={loop.max_iterations}"
                return rec.finish("max_turns", detail="; ".join(details), final_output=_last(final))
    if final:
        details.insert(0, f"final response of {final[-1][0]}")
    return rec.finish("completed", detail="; ".join(details), final_output=_last(final))


def _answer_off_schema(exc: BaseException) -> bool:
    """Did ADK's check of a model's answer against an `output_schema` raise `exc`? (Its JSON
    check of an LLM answer, or a workflow's check of an LLM agent node's output; a function
    node's output failing its schema is the app's.)"""
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name == "validate_schema" and code.co_filename.endswith("_schema_utils.py"):
            return True
        if code.co_name == "_validate_output_data" and kind_of(tb.tb_frame.f_locals.get("self")) == "llm":
            return True
        tb = tb.tb_next
    return False


def _inside(w: Walk, agent_id: str, loop: Any) -> bool:
    for agent in w.agents:
        if w.id_of(agent) == agent_id:
            current = agent
            while current is not None:
                if current is loop:
                    return True
                current = current.parent_agent
    return False


def _last(final: list[tuple[str, str]]) -> str | None:
    return final[-1][1] if final else None


def _speaker(rec: TraceRecorder) -> str | None:
    turns = [e for e in rec.events if getattr(e, "type", "") == "agent_turn"]
    return turns[-1].agent if turns else None


@contextlib.contextmanager
def injected(w: Walk, scenario: Scenario, clients: Any, exchange: Exchange,
             rec: TraceRecorder) -> Iterator[None]:
    """Every `LlmAgent`'s model masfuzz's for the run, and every `SequentialAgent`'s sub-agents
    in the scenario's speaking order; both put back on exit."""
    model = bridge_class()
    undo: list[tuple[Any, str, Any]] = []
    try:
        for agent in w.llm_agents():
            undo.append((agent, "model", agent.model))
            # named as the app's model: ADK's request processing (a built-in tool's check that
            # the model is a Gemini) goes as with it; the call itself is masfuzz's
            name = (model_name(agent) or "").removesuffix(ADK_DEFAULT)
            agent.model = model(model=name or "masfuzz", agent=w.id_of(agent),
                                scenario=scenario, clients=clients, exchange=exchange)
        rec.meta["model_swapped_at"] = {w.id_of(a): ["LlmAgent.model"] for a in w.llm_agents()}
        if scenario.speaking_order:
            ordered = _ordered(w, scenario.speaking_order)
            for agent, members in ordered:
                undo.append((agent, "sub_agents", agent.sub_agents))
                agent.sub_agents = members
            rec.meta["speaking_order"] = {w.id_of(a): [w.id_of(m) for m in ms] for a, ms in ordered}
        yield
    finally:
        for obj, attr, value in reversed(undo):
            setattr(obj, attr, value)


def _ordered(w: Walk, order: tuple[str, ...]) -> list[tuple[Any, list[Any]]]:
    """The sequential agents whose sub-agents the order names, with their new order. ADK fixes
    who speaks when only in a `SequentialAgent` (and a `LoopAgent`'s iteration); an order for a
    system without one is bad input, said in one line."""
    out = []
    for agent in w.agents:
        if kind_of(agent) in ("sequential", "loop"):
            names = [w.id_of(s) for s in agent.sub_agents]
            wanted = [n for n in order if n in names]
            if wanted:
                out.append((agent, in_speaking_order(agent.sub_agents, wanted, w.id_of)))
    if not out:
        raise MasfuzzError("speaking order: this ADK system fixes no order among "
                           f"{', '.join(order)} (only a SequentialAgent's or a LoopAgent's "
                           "sub-agents speak in a set order; LLM agents choose their transfers)")
    return out


def _recorder(rec: TraceRecorder, exchange: Exchange) -> Any:
    def on_reply(agent: str, request: ChatRequest, reply: ChatReply) -> None:
        rec.received(agent, request.messages)
        rec.turn(agent)
        rec.replied(agent, request, reply)
        probes = {t.name for t in exchange.extra_tools.get(agent, ())}
        for call in reply.tool_calls:
            if call.name in probes:  # recorded as the model asks: the app may fail before ADK runs it
                rec.add(RestrictedAttempt(agent=agent, tool=call.name, arguments=dict(call.arguments),
                                          call_id=call.id, mode="probe", t=rec.now()))
                exchange.open_probes.append((agent, call.name))

    return on_reply
