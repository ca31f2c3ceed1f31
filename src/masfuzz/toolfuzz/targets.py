"""Which tools a target holds: one tool, a collection of tools, a module, or a whole workflow.

A workflow's tools are found through its adapter's hook (`tools_of`: the Agents SDK walk over
handoffs and tools; AutoGen agents' tools and workbenches; a LangGraph graph's tool nodes and AG2
agents' function maps, with the parameters their frameworks inject bound), so `masfuzz tools
app.py:agent` fuzzes exactly the tools `masfuzz inspect` shows. Agent-as-tool and hosted tools have no Python
function to fuzz and are skipped with a note.
"""

from __future__ import annotations

import inspect
import types
from typing import Any

from masfuzz.errors import TargetError
from masfuzz.toolfuzz.libraries import collection_tools, library_of
from masfuzz.toolfuzz.tools import FuzzTool, wrap_tool


def collect_tools(obj: Any, target: str = "", context: str | None = None) -> tuple[list[FuzzTool], list[str]]:
    """(tools, notes). Tools are distinct by name; the first of a name wins. `context`: the
    user's `--context` factory, the run context the app's server passes."""
    from masfuzz.adapters.base import discover_tool_context

    notes: list[str] = []
    found: list[FuzzTool] = []
    contexts = discover_tool_context(obj, context)  # what the workflow's runs hand each tool
    for item in _candidates(obj, notes, target):
        try:
            tools = _mcp_tools(item) if isinstance(item, dict) and "mcp_server" in item else [
                wrap_tool(item, context=_of(contexts, item))]
        except TargetError as exc:
            notes.append(str(exc))
            continue
        found += [tool for tool in tools if all(t.name != tool.name for t in found)]
    if not found:
        raise TargetError(f"{target or obj!r}: no tool to fuzz found" + (f" ({'; '.join(notes)})" if notes else ""))
    return found, notes


def _of(contexts: Any, item: Any) -> Any:
    return (lambda: contexts(item)) if contexts is not None else None


def _mcp_tools(params: dict[str, Any]) -> list[FuzzTool]:
    """The tools of an agent's MCP server (as its adapter describes it), listed by the server
    in the sandbox (masfuzz.toolfuzz.mcp)."""
    from masfuzz.toolfuzz.mcp import mcp_tools, server_from_params
    from masfuzz.toolfuzz.sandbox import SandboxLimits

    return mcp_tools(server_from_params(params), SandboxLimits())[0]


def _candidates(obj: Any, notes: list[str], target: str) -> list[Any]:
    if isinstance(obj, (list, tuple, set)):
        return _unpacked(list(obj))
    if isinstance(obj, dict):
        return _unpacked(list(obj.values()))
    if isinstance(obj, types.ModuleType):
        return _unpacked(_module_tools(obj))
    held = collection_tools(obj)  # a library's toolkit, tool spec, toolset or collection
    if held is not None:
        return held
    from masfuzz.adapters.base import discover_tools

    found = discover_tools(obj, notes)  # a workflow: its adapter knows where its tools are
    if found is not None:
        return found
    return [obj]


def _unpacked(items: list[Any]) -> list[Any]:
    """Items, a library's collection among them replaced by the tools it holds."""
    return [t for item in items for t in (collection_tools(item) or [item])]


def _module_tools(module: types.ModuleType) -> list[Any]:
    """Tool objects defined in a module; failing those, its public documented functions."""
    values = [v for k, v in vars(module).items() if not k.startswith("_")]
    tools = [v for v in values if not inspect.isfunction(v) and not inspect.isclass(v)
             and not isinstance(v, types.ModuleType) and _looks_like_tool(v)]
    if tools:
        return tools
    return [v for v in values if inspect.isfunction(v) and v.__module__ == module.__name__ and v.__doc__]


def _looks_like_tool(v: Any) -> bool:
    if library_of(v) is not None or collection_tools(v) is not None:
        return True
    return any(hasattr(v, a) for a in ("params_json_schema", "args_schema", "inputSchema")) or (
        hasattr(v, "schema") and hasattr(v, "run_json"))
