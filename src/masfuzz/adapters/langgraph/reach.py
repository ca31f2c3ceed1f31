"""What a node of a compiled graph can reach: the places its code looks things up.

A LangGraph node is a function (wrapped in LangGraph's `RunnableCallable`) or a compiled graph of
its own (a prebuilt agent: `create_react_agent`, `create_agent`, a supervisor's or swarm's
members). A function finds its chat model, its prompt and the agent it calls in its closure cells
(a graph built by `build_graph(model)`, LangGraph's own prebuilt factories) and in the module
globals it names (a module-level `model = ChatOpenAI(...)`), so `places` follows those, and the
helper functions of the same module or closure, a little way. A subgraph is entered through its
own nodes. Both the extraction (prompts, subgraphs) and the model swap read the same walk.
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from langgraph.pregel import Pregel

_DEPTH = 2  # helper functions followed from a node function


@dataclass
class Place:
    """One place holding a value: a closure cell or a module global."""

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

    @property
    def ident(self) -> tuple[int, str | None]:
        return (id(self.holder), self.key)


def is_graph(value: Any) -> bool:
    """A compiled graph (LangGraph's `Pregel`)."""
    return isinstance(value, Pregel)


def node_runnable(app: Any, name: str) -> Any:
    spec = getattr(getattr(app, "builder", None), "nodes", {}).get(name)
    return getattr(spec, "runnable", None)


def node_function(app: Any, name: str) -> Any:
    """The user's function behind a node (None for tool nodes and subgraphs)."""
    runnable = node_runnable(app, name)
    return getattr(runnable, "func", None) or getattr(runnable, "afunc", None)


def subgraph(app: Any, name: str) -> Any:
    """The compiled graph a node runs: the node itself (`add_node(agent)`), or one its function
    calls (langgraph-supervisor wraps each member in a `call_agent` function)."""
    runnable = node_runnable(app, name)
    if is_graph(runnable):
        return runnable
    func = node_function(app, name)
    if func is None:
        return None
    return next((p.get() for p in places(func) if is_graph(p.get())), None)


def places(func: Any, depth: int = 0, seen: set[int] | None = None) -> Iterator[Place]:
    """Every closure cell and named module global a function reaches, following functions of
    its own module or closure up to `_DEPTH` calls deep. Graphs are not entered (see `graph_places`)."""
    seen = set() if seen is None else seen
    if id(func) in seen or not isinstance(func, types.FunctionType):
        return
    seen.add(id(func))
    code = func.__code__
    for name, cell in zip(code.co_freevars, func.__closure__ or ()):
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        yield Place(cell, None, f"{func.__qualname__}: {name}")
        if depth < _DEPTH:
            for inner in _functions(value):
                yield from places(inner, depth + 1, seen)
    for name in code.co_names:
        if name not in func.__globals__:
            continue
        value = func.__globals__[name]
        yield Place(func.__globals__, name, f"global {name} of {Path(code.co_filename).name}")
        if depth < _DEPTH and getattr(value, "__module__", None) == func.__module__:
            for inner in _functions(value):
                yield from places(inner, depth + 1, seen)


def graph_places(app: Any, node: str) -> Iterator[Place]:
    """The places of a node, and of every node of the graphs it runs, however deeply nested."""
    seen: set[int] = set()
    stack = [(app, node)]
    while stack:
        graph, name = stack.pop()
        yield from places(node_function(graph, name), 0, seen)
        inner = subgraph(graph, name)
        if inner is not None and id(inner) not in seen:
            seen.add(id(inner))
            stack += [(inner, n) for n in getattr(inner.builder, "nodes", {})]


def _functions(value: Any) -> list[Any]:
    """A plain function, the one a `RunnableCallable`/`RunnableLambda` wraps, or those of the
    steps of a `RunnableSequence` (a prebuilt agent's `prompt | model`)."""
    if isinstance(value, types.FunctionType):
        return [value]
    steps = getattr(value, "steps", None) if not is_graph(value) else None
    runnables = steps if isinstance(steps, list) else [value]
    return [f for r in runnables if (f := getattr(r, "func", None) or getattr(r, "afunc", None)) is not None]
