"""`LangGraphAdapter`: extract a compiled graph's workflow, and run one scenario on it.

A run swaps masfuzz's chat model into the node functions (see `inject`), injects tool faults
into the tool nodes, streams the graph's updates and task starts (subgraphs included, so the
prebuilt agents' own steps are seen) under the recursion limit, and restores everything
afterwards. A workflow mutant (`mutate`) is applied first and undone last; one that changes the
graph's edges runs a graph compiled again from the app's builder. Runs of one graph are
serialised, since the swap is shared state; each run gets a fresh thread id, so a checkpointer never carries state across scenarios.
"""

from __future__ import annotations

import asyncio
import typing
import uuid
from contextlib import ExitStack
from collections.abc import Callable
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.errors import GraphRecursionError
from langgraph.pregel import Pregel

from masfuzz.adapters.base import Adapter, system_lock
from masfuzz.adapters.faults import modes, tool_faults
from masfuzz.adapters.probes import restricted_probes
from masfuzz.adapters.langgraph.chat_model import MasfuzzChatModel
from masfuzz.adapters.langgraph.extract import FRAMEWORK, extract_graph, handoff_tools, recursion_limit, tool_nodes
from masfuzz.adapters.langgraph.inject import described, model_slots, swap_models, swap_tools
from masfuzz.adapters.langgraph.mutate import OPERATORS, mutated, problem
from masfuzz.adapters.langgraph.trace import UpdateRecorder
from masfuzz.errors import MasfuzzError, ModelError, TargetError
from masfuzz.llm.types import ChatRequest, ToolDef
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import APP_BOUND, SYSTEM_PROMPTS, ErrorEvent, Message, Trace, TraceRecorder


class LangGraphAdapter(Adapter):
    framework = FRAMEWORK
    extra = "langgraph"

    @classmethod
    def accepts(cls, obj: Any) -> bool:
        return isinstance(obj, Pregel) and hasattr(obj, "get_graph")

    def extract(self, obj: Any, *, target: str = "") -> WorkflowSpec:
        input_field(obj)  # a graph with nowhere to put the task is refused at load
        return extract_graph(obj, target)

    def model_places(self, obj: Any, spec: WorkflowSpec) -> dict[str, list[str]]:
        return described(model_slots(obj, [a.id for a in spec.agents]))

    @property
    def mutation_operators(self) -> frozenset[str]:
        return OPERATORS

    def mutation_problem(self, obj: Any, spec: WorkflowSpec, mutation: Any) -> str | None:
        return problem(obj, spec, mutation)

    async def run(self, obj: Any, spec: WorkflowSpec, scenario: Scenario) -> Trace:
        rec = TraceRecorder(scenario_id=scenario.id, system_id=spec.system.id, framework=FRAMEWORK)
        faults = tool_faults(scenario, [t.id for t in spec.tools])
        probes = restricted_probes(spec) if scenario.restricted == "probe" else {}
        offered: dict[str, set[str]] = {}  # the tools the app bound to each agent's model, seen at run time
        model, errors = _model(spec, scenario, probes, rec, offered, lambda: updates.speaker)
        updates = UpdateRecorder(rec, spec, tool_node_ids=set(tool_nodes(obj)), tool_faults=modes(faults),
                                 probes={a: {t.name for t in ts} for a, ts in probes.items()},
                                 handoffs=handoff_tools(obj), offered=offered,
                                 user_message=USER_MESSAGE_ID)
        thread = {"thread_id": f"masfuzz-{uuid.uuid4().hex}"}
        async with system_lock(obj):
            # the mutant first: the model swap reads the bindings it changed
            with mutated(obj, spec, scenario.mutant) as mutant, ExitStack() as stack:
                limit = mutant.turns(scenario.max_turns or recursion_limit(obj))
                config = {"recursion_limit": limit, "configurable": thread}
                if model is not None:
                    slots = model_slots(obj, [a.id for a in spec.agents])
                    swap_models(stack, slots, model)
                    rec.meta["model_swapped_at"] = described(slots)
                swap_tools(stack, obj, faults)
                graph_input = _input(obj, scenario)
                rec.add(Message(agent=None, role="user", content=scenario.input))
                try:
                    async with asyncio.timeout(scenario.timeout):
                        async for chunk in mutant.graph.astream(graph_input, config, subgraphs=True,
                                                                stream_mode=["updates", "tasks"]):
                            updates.feed(chunk)
                except TimeoutError:
                    return rec.finish("timeout", f"no end within {scenario.timeout:g} s", updates.final_output)
                except GraphRecursionError as exc:
                    if f" {limit} " not in f" {exc} ":
                        # a graph the app's code ran (in a tool, a node) with its own recursion
                        # limit or LangGraph's default, not the one masfuzz gave the graph
                        rec.meta[APP_BOUND] = f"LangGraph's recursion limit of a graph the app ran ({exc})"
                    return rec.finish("max_turns", f"recursion_limit={limit} reached", updates.final_output)
                except Exception as exc:  # the system under test crashed: recorded, not raised
                    return _crash(rec, updates, exc, errors)
        return rec.finish("completed", "the graph reached END", updates.final_output)


def _model(spec: WorkflowSpec, scenario: Scenario, probes: dict[str, tuple[ToolDef, ...]],
           rec: TraceRecorder, offered: dict[str, set[str]], speaker: Callable[[], str | None],
           ) -> tuple[MasfuzzChatModel | None, list[tuple[str | None, BaseException]]]:
    """One chat model for every node; per-node model strings become per-agent clients, all made
    before the run so a bad model string is an input error, not a crash of the system. Each
    request's tools, but masfuzz's probes, go into `offered`: a node may bind its tools where the
    extractor cannot read them (a helper that builds nodes), and what the app bound is what the
    agent owns. `speaker`: the agent node whose update came last."""
    from masfuzz.llm.settings import sut_client

    errors: list[tuple[str | None, BaseException]] = []
    if scenario.sut_model is None and not scenario.agent_models:
        return None, errors
    clients = {a.id: sut_client(m) for a in spec.agents if (m := scenario.model_for(a.id))}

    def count(agent: str | None, reply: Any) -> None:
        rec.usage.model_calls += 1
        rec.usage.tokens_in += reply.usage.tokens_in
        rec.usage.tokens_out += reply.usage.tokens_out

    visits: dict[str, str | None] = {}  # agent -> the run of its node its latest call was in

    def told(agent: str | None, request: ChatRequest, visit: str | None) -> None:
        # a node's own SystemMessage is its instructions, which extraction cannot read
        system = "\n".join(m.content or "" for m in request.messages if m.role == "system").strip()
        if agent and system:
            rec.meta.setdefault(SYSTEM_PROMPTS, {}).setdefault(agent, system)
        if agent:
            stubs = {t.name for t in probes.get(agent, ())}
            offered.setdefault(agent, set()).update(t.name for t in request.tools if t.name not in stubs)
            rec.offered(agent, [t for t in request.tools if t.name not in stubs])
        # a new run of the agent's node after another agent's node spoke is a hand-over (from a
        # router that is plain code too), which the updates record only once the node is done
        handed = visit is not None and visits.get(agent or "") != visit and speaker() not in (None, agent)
        if agent is not None:
            visits[agent] = visit
        rec.received(agent, request.messages, handed)

    model = MasfuzzChatModel(
        model=scenario.sut_model or "", clients=clients, extra_tools=probes,
        on_request=told, on_reply=count, on_error=lambda agent, exc: errors.append((agent, exc)),
    )
    return model, errors


USER_MESSAGE_ID = "masfuzz-user-message"  # the id of the user's message in the graph's state


def _input(app: Any, scenario: Scenario) -> dict[str, Any]:
    """The user's input in the graph's own input schema: the key named by
    `scenario.extra["input_key"]`, else the field `input_field` names."""
    key = scenario.extra.get("input_key") or input_field(app)
    if key == "messages":  # its id names it in the trace when a node takes it out or rewrites it
        return {"messages": [HumanMessage(scenario.input, id=USER_MESSAGE_ID)]}
    return {key: scenario.input}


def input_field(app: Any) -> str:
    """The field of the graph's input the user's task goes in: its 'messages', else its only
    string field. A graph with neither is refused (TargetError, at load: exit 2)."""
    fields = _input_fields(app)
    if "messages" in fields:
        return "messages"
    strings = [k for k, v in fields.items() if v is str]
    if len(strings) != 1:
        raise TargetError(
            f"the graph's input has no 'messages' field and {len(strings)} string fields "
            f"({', '.join(fields) or 'none'}): masfuzz has no field to put the task in (it takes "
            "a graph whose input has 'messages' or exactly one string field)")
    return strings[0]


def _input_fields(app: Any) -> dict[str, Any]:
    schema = getattr(getattr(app, "builder", None), "input_schema", None)
    try:
        return typing.get_type_hints(schema)
    except Exception:  # an unusual schema: the graph's state channels, types unknown
        return {k: Any for k in getattr(app, "channels", {}) if not k.startswith(("__", "branch:"))}


def _crash(rec: TraceRecorder, updates: UpdateRecorder, exc: BaseException,
           errors: list[tuple[str | None, BaseException]]) -> Trace:
    if errors and isinstance(errors[-1][1], ModelError):
        agent, err = errors[-1]
        rec.add(ErrorEvent(agent=agent, kind="model_error", message=str(err)))
        return rec.finish("crash", str(err), updates.final_output)
    if isinstance(exc, MasfuzzError):
        raise exc
    message = f"{type(exc).__name__}: {exc}"
    updates.fail_pending(message)
    rec.add(ErrorEvent(agent=updates.active, kind=type(exc).__name__, message=str(exc)))
    return rec.finish("crash", message, updates.final_output)


