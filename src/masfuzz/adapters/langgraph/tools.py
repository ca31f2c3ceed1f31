"""A compiled graph's tools for tool fuzzing, with the parameters LangGraph injects bound.

The tools of a graph live in its tool nodes (`ToolNode`, also inside the graphs that
`create_agent`, `create_react_agent`, a supervisor or a swarm compile), so `masfuzz tools
graph.py:app` and `run`'s tools phase find them there, as `inspect` counts them. A handoff tool
(`transfer_to_<agent>`) is a delegation, not a tool: it is named in a note and not fuzzed.

A tool may take what the tool node hands it rather than the model: the graph's state
(`InjectedState`), its store (`InjectedStore`), the tool call's id (`InjectedToolCallId`), the
run's `RunnableConfig`, or the whole `ToolRuntime` (langchain 1.x). Those are left out of the
fuzzed schema (the model never writes them) and bound, on every call, to what a run of the graph
would give: a state dict of the graph's own state schema (the fuzzing call as its only message),
the graph's store or an empty in-memory one, a fresh tool call id and a config with a thread id.
The values come from the tool node's own injection (`ToolNode._inject_tool_args`), so a tool sees
exactly the shape a run gives it; were they fuzzed or missing, the framework would reject the
call before the tool's code ran, and that noise would be reported as the tool's errors.
"""

from __future__ import annotations

import inspect
import typing
import uuid
from typing import Any

from langchain_core.messages import HumanMessage, ToolMessage
from langgraph.prebuilt import ToolNode

from masfuzz.adapters.langgraph.extract import handoff_destination, tool_nodes
from masfuzz.adapters.langgraph.reach import subgraph
from masfuzz.toolfuzz.tools import FuzzTool, langchain_tool

STATE_MESSAGE = "masfuzz tool fuzzing: a direct call of this tool"  # the bound state's one message


def graph_tools(app: Any, notes: list[str]) -> list[FuzzTool]:
    """Every tool of the graph and of the graphs its nodes run, bound to its own graph's state
    and store; handoff tools are noted and left out. Tools are distinct by name."""
    out: dict[str, FuzzTool] = {}
    for graph, tnode in _tool_nodes_with_graphs(app):
        for name, tool in tnode.tools_by_name.items():
            if (dest := handoff_destination(tool)) is not None:
                note = f"tool {name!r} is a handoff to {dest!r} (a delegation): not fuzzed"
                if note not in notes:
                    notes.append(note)
                continue
            if name not in out:
                out[name] = bound_tool(tool, tnode, graph, getattr(app, "store", None))
    return list(out.values())


def standalone_tool(obj: Any) -> FuzzTool:
    """A tool named alone (a LangChain tool, or a plain function a graph would wrap) whose
    parameters LangGraph injects: bound as a tool node of its own would bind them, with a state
    holding the one message (no graph says more)."""
    from langchain_core.tools import BaseTool, StructuredTool

    tool = obj if isinstance(obj, BaseTool) else StructuredTool.from_function(obj)
    node = ToolNode([tool])
    wrapped = bound_tool(tool, node, None)
    injected = node._injected_args.get(tool.name)  # noqa: SLF001 - the node's own analysis
    if injected is not None and (injected.state or injected.runtime):
        wrapped.notes.append("its state is a guess (one message): name the graph that runs it "
                             "(file.py:app) to bind a state of the graph's own schema")
    return wrapped


def _tool_nodes_with_graphs(app: Any) -> list[tuple[Any, ToolNode]]:
    """(the graph a tool node belongs to, the node), the top graph first, then its subgraphs."""
    out: list[tuple[Any, ToolNode]] = []
    stack, seen = [app], set()
    while stack:
        graph = stack.pop(0)
        if graph is None or id(graph) in seen:
            continue
        seen.add(id(graph))
        out += [(graph, t) for t in tool_nodes(graph).values()]
        stack += [subgraph(graph, n) for n in graph.builder.nodes]
    return out


def bound_tool(tool: Any, tnode: ToolNode, graph: Any, store: Any = None) -> FuzzTool:
    """`tool` as a `FuzzTool` whose calls get the injected parameters a run of `graph` gives."""
    from langchain_core.tools.base import _get_runnable_config_param

    injected = tnode._injected_args.get(tool.name)  # noqa: SLF001 - the node's own analysis
    keys = set(injected.all_injected_keys) if injected else set()
    if injected and injected.runtime:
        keys.add(injected.runtime)
    call_ids = _call_id_params(tool)
    needs_call_id = bool(call_ids)
    plain = getattr(tool, "func", None) or getattr(tool, "coroutine", None)
    config_param = _get_runnable_config_param(plain) if plain is not None else None
    if config_param:
        keys.add(config_param)

    def call(arguments: dict[str, Any]) -> dict[str, Any]:
        """(the tool call with the injected arguments added, the config and call id used)"""
        call_id = f"call_masfuzz_{uuid.uuid4().hex[:12]}"
        config = {"configurable": {"thread_id": f"masfuzz-{uuid.uuid4().hex}"}}
        runtime = _runtime(graph, config, call_id, store, tnode)
        tool_call = {"name": tool.name, "args": dict(arguments), "id": call_id, "type": "tool_call"}
        if injected:
            tool_call = tnode._inject_tool_args(tool_call, runtime, tool)  # noqa: SLF001
        return {"args": tool_call["args"], "config": config, "id": call_id}

    def invoke(arguments: dict[str, Any]) -> Any:
        made = call(arguments)
        result = tool.run(made["args"], config=made["config"],
                          tool_call_id=made["id"] if needs_call_id else None)
        # a tool taking its call id answers as a ToolMessage: its content is what the agent reads
        if needs_call_id and isinstance(result, ToolMessage) and result.tool_call_id == made["id"]:
            return result.content
        return result

    wrapped = langchain_tool(tool, invoke=invoke, hidden=keys)
    fn = wrapped.function
    if fn is not None:
        params = inspect.signature(fn).parameters.values()
        known = None if any(p.kind == p.VAR_KEYWORD for p in params) else {p.name for p in params}

        def function(**arguments: Any) -> Any:
            # as the tool's own validation does, keys it does not declare are dropped: the
            # framework never passes them, so a TypeError for them would be masfuzz's noise
            arguments = {k: v for k, v in arguments.items()
                         if (known is None or k in known) and k not in keys}
            made = call(arguments)
            extra = {k: v for k, v in made["args"].items() if k in keys}
            extra.update({k: made["id"] for k in call_ids})
            if config_param:
                extra[config_param] = made["config"]
            return fn(**arguments, **extra)

        function.__wrapped__ = fn  # type: ignore[attr-defined]  # the priors read the tool's source
        wrapped.function = function
    if keys:
        wrapped.notes.append(f"bound, not fuzzed (LangGraph injects them): {', '.join(sorted(keys))}")
    return wrapped


def _runtime(graph: Any, config: dict[str, Any], call_id: str, store: Any, tnode: ToolNode) -> Any:
    from langgraph.prebuilt import ToolRuntime
    from langgraph.store.memory import InMemoryStore

    return ToolRuntime(state=default_state(graph), context=None, config=config,
                       stream_writer=lambda _chunk: None, tool_call_id=call_id,
                       store=store if store is not None else (getattr(graph, "store", None) or InMemoryStore()),
                       tools=list(tnode.tools_by_name.values()))


def _call_id_params(tool: Any) -> list[str]:
    """The parameters LangChain fills with the tool call's id (`InjectedToolCallId`)."""
    from langchain_core.tools import InjectedToolCallId
    from langchain_core.tools.base import _is_injected_arg_type, get_all_basemodel_annotations

    try:
        annotations = get_all_basemodel_annotations(tool.get_input_schema())
    except Exception:  # a schema LangChain cannot read: it injects no call id either
        return []
    return [k for k, v in annotations.items() if _is_injected_arg_type(v, injected_type=InjectedToolCallId)]


def default_state(graph: Any) -> dict[str, Any]:
    """A state of `graph`'s own state schema as a run would hold it when a tool is called: the
    messages channel holding one human message, a text field a placeholder naming it (a run has
    filled it with something; an empty string would fail where no run does), other required
    fields their type's empty value."""
    schema = getattr(getattr(graph, "builder", None), "state_schema", None)
    if graph is None:
        return {"messages": [HumanMessage(STATE_MESSAGE)]}
    try:
        hints = typing.get_type_hints(schema, include_extras=True) if schema is not None else {}
    except Exception:  # an unusual schema: its channels, types unknown
        hints = {k: Any for k in getattr(graph, "channels", {}) if not k.startswith(("__", "branch:"))}
    state: dict[str, Any] = {}
    for key, hint in hints.items():
        if typing.get_origin(hint) is typing.NotRequired:
            continue
        state[key] = [HumanMessage(STATE_MESSAGE)] if key == "messages" else _empty(key, hint)
    return state


def _empty(key: str, hint: Any) -> Any:
    while typing.get_origin(hint) in (typing.Annotated, typing.Required):
        hint = typing.get_args(hint)[0]
    cls = typing.get_origin(hint) or hint
    if cls is str:
        return f"masfuzz-{key}"
    if cls in (list, dict, set, tuple, int, float, bool):
        return cls()
    return None
