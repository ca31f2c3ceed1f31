"""An AG2 app's tools for tool fuzzing, with the parameters AG2 injects bound.

An AG2 tool is a function in an executing agent's function map (`register_for_execution`,
`register_function(f, caller=..., executor=...)`, or an old-style `function_map={...}`), offered
to a model agent through its `llm_config` (`register_for_llm`). The agents are those the app
reaches (`extract.Plan`), so a program (`app.py`, or `app.py:main`) is read as `inspect` reads
it, its chats noted and none run: `masfuzz tools` and `run`'s tools phase fuzz the tools
`inspect` lists.

AG2 hands a tool what the model never writes: a `ChatContext` (the executing agent's chat), a
`Depends(...)` value, and the `context_variables` of its agent. The executing agent binds those
in its function map; masfuzz calls the function underneath that binding (`_origin`), without
AG2's serialisation of the result to text (a tool's declared return type is checked against
what it returns) and without `execute_function`'s catching of exceptions (it turns a tool's
exception into an "Error: ..." message), with the same values bound. The fuzzed schema is the
one the model is offered, which leaves them out.

The context variables are those the app starts its group with; what its tools add to them in a
run (a login tool storing the user, which the order tools then read) is not there when a tool
is called alone. A tool failing on a variable the app never sets up but another of its tools
sets failed on the run's earlier steps masfuzz skipped: the harness's (`NO_RUN_CONTEXT`).
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from masfuzz.adapters.ag2.live import llm_config, tool_parameters
from masfuzz.toolfuzz.tools import NO_RUN_CONTEXT, FuzzTool, schema_from_signature

CONTEXT_VARIABLES = "context_variables"  # AG2's name for the agent's shared variables


def app_tools(obj: Any, notes: list[str]) -> list[FuzzTool]:
    """Every function an agent of the app executes, distinct by name (the first executor wins),
    as a tool with AG2's injected parameters bound."""
    from masfuzz.adapters.ag2.adapter import plan_of

    plan = plan_of(obj)
    offered: dict[str, dict[str, Any]] = {}  # name -> the function schema a model agent is offered
    for agent in plan.everyone():
        for t in [*(llm_config(agent).get("tools") or ()), *(llm_config(agent).get("functions") or ())]:
            fn = t.get("function", t)
            offered.setdefault(fn.get("name", ""), fn)
    out: dict[str, FuzzTool] = {}
    writes: dict[str, set[str]] = {}  # tool -> the context variables its code sets
    for agent in plan.everyone():
        for name, entry in (getattr(agent, "function_map", None) or {}).items():
            if name in out or entry is None:
                continue
            out[name] = executed_tool(agent, name, entry, offered.get(name),
                                      setters=lambda key, me=name: [t for t, keys in writes.items()
                                                                    if key in keys and t != me])
            writes[name] = _variables_set(out[name].function)
    for name in offered:
        if name not in out:
            notes.append(f"tool {name!r} is offered to a model but no agent executes it: not fuzzed")
    return list(out.values())


def executed_tool(executor: Any, name: str, entry: Any, offered: dict[str, Any] | None,
                  setters: Any = lambda key: []) -> FuzzTool:
    """The function `executor` runs for `name`, its injected parameters bound as `executor`
    binds them; its schema the one offered to the model (else read from its signature).
    `setters(key)`: the app's other tools that set context variable `key`."""
    from autogen.function_utils import load_basemodels_if_needed

    origin = getattr(entry, "_origin", entry)  # under AG2's wrapper: chat context, serialising
    offered_keys = set(((offered or {}).get("parameters") or {}).get("properties") or {})
    bound = _bound(executor, entry, origin, written_by_model=offered_keys)
    call = load_basemodels_if_needed(origin)  # pydantic arguments arrive as models, as in AG2

    def function(**arguments: Any) -> Any:
        values = bound()
        try:
            return call(**arguments, **values)
        except KeyError as exc:
            missing = _missing_variable(exc, values.get(CONTEXT_VARIABLES))
            by = setters(missing) if missing is not None else []
            if by:
                raise RuntimeError(f"{NO_RUN_CONTEXT}: {name} reads context variable {missing!r}, "
                                   f"which {', '.join(by)} sets in a run; called alone, it is not "
                                   "set") from exc
            raise

    source = inspect.unwrap(origin)
    function.__wrapped__ = source  # type: ignore[attr-defined]  # priors and frames read the tool's code
    if offered is not None:
        schema = tool_parameters(offered) or {"type": "object", "properties": {}}
        description = offered.get("description", "") or inspect.getdoc(source) or ""
    else:  # registered for execution only: what its signature says, less what AG2 binds
        schema = schema_from_signature(origin, skip=set(bound()))
        description = inspect.getdoc(source) or ""
    schema = _without(schema, set(bound()))
    tool = FuzzTool(name, description, schema, lambda arguments: function(**arguments), function, "ag2")
    if bound():
        tool.notes.append(f"bound, not fuzzed (AG2 injects them): {', '.join(sorted(bound()))}")
    return tool


def _bound(executor: Any, entry: Any, origin: Any, written_by_model: set[str]) -> Any:
    """A function giving the values AG2 binds for this tool on each call: the chat context the
    executor's wrapper holds, and the executor's context variables for a parameter of that name
    that no `Depends` fills and the model is not asked for (a group chat's tool executor
    injects them; in a plain chat the model writes them, and they are fuzzed)."""
    held = _wrapper_params(entry)
    takes_variables = CONTEXT_VARIABLES in inspect.signature(origin).parameters \
        and CONTEXT_VARIABLES not in written_by_model

    def values() -> dict[str, Any]:
        out = dict(held)
        if takes_variables:
            from autogen.agentchat.group import ContextVariables

            own = getattr(executor, "context_variables", None)
            out[CONTEXT_VARIABLES] = own if own is not None else ContextVariables()
        return out

    return values


def _wrapper_params(entry: Any) -> dict[str, Any]:
    """The `inject_params` of AG2's `_wrap_function` closure, however many decorators wrap it."""
    seen = entry
    for _ in range(4):
        closure = getattr(seen, "__closure__", None) or ()
        names = getattr(getattr(seen, "__code__", None), "co_freevars", ())
        for var, cell in zip(names, closure):
            if var == "inject_params" and isinstance(cell.cell_contents, dict):
                return dict(cell.cell_contents)
        seen = getattr(seen, "__wrapped__", None)
        if seen is None:
            break
    return {}


def _without(schema: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    if not keys:
        return schema
    schema = dict(schema)
    schema["properties"] = {k: v for k, v in (schema.get("properties") or {}).items() if k not in keys}
    if "required" in schema:
        schema["required"] = [r for r in schema["required"] if r not in keys]
    return schema


def _missing_variable(exc: KeyError, variables: Any) -> str | None:
    """The context variable a KeyError says is missing: AG2's "Context variable 'x' not found"
    (the group's tool executor may be the one passing them), or a bare key `variables` lacks."""
    text = str(exc.args[0]) if exc.args else ""
    found = re.fullmatch(r"Context variable '(.+)' not found", text)
    if found:
        return found.group(1)
    if variables is None or not text:
        return None
    return text if text not in (getattr(variables, "data", None) or {}) else None


def _variables_set(function: Any) -> set[str]:
    """The context variables a tool's code sets (`context_variables["x"] = ...`,
    `context_variables.set("x", ...)`, `.update({"x": ...})`)."""
    try:
        source = inspect.getsource(apps_own(function))
    except (OSError, TypeError, ValueError):
        return set()
    keys = set(re.findall(r"""context_variables\[\s*['"]([^'"]+)['"]\s*\]\s*=(?!=)""", source))
    keys |= set(re.findall(r"""context_variables\.set\(\s*['"]([^'"]+)['"]""", source))
    for body in re.findall(r"context_variables\.update\(\s*\{([^}]*)\}", source):
        keys |= set(re.findall(r"""['"]([^'"]+)['"]\s*:""", body))
    return keys


def apps_own(function: Any) -> Any:
    """The app's function under AG2's wrappers (`__wrapped__`, and the closures of a group's
    tool executor, which wraps it again to inject the context variables)."""
    for _ in range(6):
        function = inspect.unwrap(function)
        if not (getattr(function, "__module__", "") or "").startswith("autogen"):
            return function
        inner = [c.cell_contents for c in getattr(function, "__closure__", None) or ()
                 if inspect.isfunction(c.cell_contents)]
        if not inner:
            return function
        function = inner[0]
    return function
