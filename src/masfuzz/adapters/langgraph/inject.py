"""Put masfuzz's chat model and faulty tools into a compiled graph for one run, then restore.

A LangGraph app calls its chat model from inside node functions, so the model is found where
those functions look it up (see `reach`): closure cells, module globals, and the nodes of the
prebuilt agents a node runs. What holds the model may be the model itself, a model bound to
tools (`model.bind_tools(...)`, a `RunnableBinding`) or a prebuilt agent's `prompt | model`
(a `RunnableSequence`): each is rebuilt around masfuzz's model, so the tools and prompt the app
declared are what the model is offered.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableBinding, RunnableSequence
from langchain_core.tools import StructuredTool

from masfuzz.adapters.faults import Injection, inject, injected
from masfuzz.adapters.langgraph.extract import all_tool_nodes
from masfuzz.adapters.langgraph.reach import Place, graph_places


def with_model(value: Any, model: BaseChatModel) -> Any:
    """`value` rebuilt around `model` in place of the chat model it holds, or None when it holds none."""
    if isinstance(value, BaseChatModel):
        return model
    if isinstance(value, RunnableBinding):
        inner = with_model(value.bound, model)
        return None if inner is None else value.model_copy(update={"bound": inner})
    if isinstance(value, RunnableSequence):
        steps = [with_model(s, model) for s in value.steps]
        if all(s is None for s in steps):
            return None
        return RunnableSequence(*[new if new is not None else old for new, old in zip(steps, value.steps)],
                                name=value.name)
    return None


def holds_model(value: Any) -> bool:
    if isinstance(value, BaseChatModel):
        return True
    if isinstance(value, RunnableBinding):
        return holds_model(value.bound)
    return isinstance(value, RunnableSequence) and any(holds_model(s) for s in value.steps)


def model_slots(app: Any, agents: list[str]) -> dict[str, list[Place]]:
    """Agent -> the places holding its chat model (empty: masfuzz cannot replace its model)."""
    out: dict[str, list[Place]] = {}
    for agent in agents:
        found = {p.ident: p for p in graph_places(app, agent) if holds_model(p.get())}
        out[agent] = list(found.values())
    return out


def described(slots: dict[str, list[Place]]) -> dict[str, list[str]]:
    """Agent -> where its model is swapped, in words."""
    return {agent: sorted({p.where for p in places}) for agent, places in slots.items()}


def swap_models(stack: ExitStack, slots: dict[str, list[Place]], model: BaseChatModel) -> None:
    done: set[tuple[int, str | None]] = set()
    for place in (p for ps in slots.values() for p in ps):
        if place.ident in done:  # a model two agents share
            continue
        done.add(place.ident)
        old = place.get()
        place.set(with_model(old, model))
        stack.callback(place.set, old)


def faulty_tool(tool: Any, injection: Injection) -> StructuredTool:
    """The tool under `injection`, callable both ways the app's code may call it: awaited (the
    graph's own `ainvoke`) and synchronously (a node that runs a prebuilt agent with `invoke`,
    whose tool node then calls its tools without awaiting). A tool with only a coroutine would
    fail there with LangChain's own "does not support sync invocation", masfuzz's error, not
    the fault it meant to inject."""
    async def broken(**kwargs: Any) -> str:
        return await inject(injection, tool.name)

    def broken_sync(**kwargs: Any) -> str:
        return injected(injection, tool.name)

    return StructuredTool(name=tool.name, description=tool.description, args_schema=tool.args_schema,
                          func=broken_sync, coroutine=broken)


def swap_tools(stack: ExitStack, app: Any, faults: dict[str, Injection]) -> None:
    for tnode in all_tool_nodes(app):
        table = tnode._tools_by_name  # noqa: SLF001 - the dict ToolNode dispatches calls through
        for name, injection in faults.items():
            if name in table:
                old = table[name]
                table[name] = faulty_tool(old, injection)
                stack.callback(table.__setitem__, name, old)

