"""Put masfuzz's chat model and faulty tools into a compiled graph for one run, then restore.

A LangGraph app calls its chat model from inside node functions, so the model is found where
those functions look it up: their closure cells (a graph built by `build_graph(model)`) and the
module globals they name (a module-level `model = ChatOpenAI(...)`), following helper functions
of the same module a little way. A model bound to tools (`model.bind_tools(...)`, a
`RunnableBinding`) is replaced by the same binding around masfuzz's model, so the tools the app
declared are what the model is offered.
"""

from __future__ import annotations

import types
from pathlib import Path
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableBinding
from langchain_core.tools import StructuredTool

from masfuzz.adapters.faults import Injection, inject
from masfuzz.adapters.langgraph.extract import node_function, tool_nodes

_DEPTH = 2  # helper functions followed from a node function


@dataclass
class Slot:
    """One place holding a chat model: a closure cell or a module global."""

    holder: Any  # a cell, or a module's globals dict
    key: str | None  # the global's name (None for a cell)
    where: str

    def get(self) -> Any:
        return self.holder.cell_contents if self.key is None else self.holder[self.key]

    def set(self, value: Any) -> None:
        if self.key is None:
            self.holder.cell_contents = value
        else:
            self.holder[self.key] = value


def is_model(value: Any) -> bool:
    return isinstance(value, BaseChatModel) or (
        isinstance(value, RunnableBinding) and isinstance(value.bound, BaseChatModel)
    )


def model_slots(app: Any, agents: list[str]) -> list[Slot]:
    found: dict[tuple[int, str | None], Slot] = {}
    seen: set[int] = set()

    def visit(func: Any, depth: int) -> None:
        if id(func) in seen or not isinstance(func, types.FunctionType):
            return
        seen.add(id(func))
        code = func.__code__
        for name, cell in zip(code.co_freevars, func.__closure__ or ()):
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if is_model(value):
                found.setdefault((id(cell), None), Slot(cell, None, f"{func.__qualname__}: {name}"))
            elif depth < _DEPTH:
                visit(value, depth + 1)
        for name in code.co_names:
            value = func.__globals__.get(name)
            if is_model(value):
                found.setdefault((id(func.__globals__), name),
                                 Slot(func.__globals__, name, f"global {name} of {Path(code.co_filename).name}"))
            elif depth < _DEPTH and getattr(value, "__module__", None) == func.__module__:
                visit(value, depth + 1)

    for agent in agents:
        visit(node_function(app, agent), 0)
    return list(found.values())


def swap_models(stack: ExitStack, slots: list[Slot], model: BaseChatModel) -> None:
    for slot in slots:
        old = slot.get()
        new = model if isinstance(old, BaseChatModel) else old.model_copy(update={"bound": model})
        slot.set(new)
        stack.callback(slot.set, old)


def faulty_tool(tool: Any, injection: Injection) -> StructuredTool:
    async def broken(**kwargs: Any) -> str:
        return await inject(injection, tool.name)

    return StructuredTool(name=tool.name, description=tool.description, args_schema=tool.args_schema,
                          coroutine=broken)


def swap_tools(stack: ExitStack, app: Any, faults: dict[str, Injection]) -> None:
    for tnode in tool_nodes(app).values():
        table = tnode._tools_by_name  # noqa: SLF001 - the dict ToolNode dispatches calls through
        for name, injection in faults.items():
            if name in table:
                old = table[name]
                table[name] = faulty_tool(old, injection)
                stack.callback(table.__setitem__, name, old)
