"""One interface over every kind of agent tool: name, description, JSON schema, invoke.

ToolFuzz tests a tool the way an agent uses it (its documentation and schema) and the way its
code fails (the Python function behind it). `FuzzTool` keeps both: `invoke(arguments)` goes
through the framework's own calling path where that path raises (LangChain, AutoGen, plain
callables), and `function` is the plain Python callable underneath, which the syntax-prior
analysis reads and the dynamic tainting calls. Taint goes to `function`, never through a
framework wrapper: LangChain's pydantic validation turns str subclasses into plain `str`.

Frameworks are recognised by the module of the object's type, so wrapping a plain function never
imports LangChain, AutoGen or the Agents SDK.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import inspect
import json
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from contextlib import AbstractContextManager
from typing import Any, Callable

from masfuzz.errors import TargetError

# Tool libraries whose `function` (libraries.py) already checks arguments as their agents do.
_LIBRARY_CHECKED = ("smolagents", "llama_index", "agno", "crewai", "pydantic_ai")

# LangChain reserves these names for its own run plumbing; a tool argument with one of them
# never reaches the tool function through LangChain's wrapper.
LANGCHAIN_RESERVED = ("config", "callbacks", "run_manager")


@dataclass
class FuzzTool:
    name: str
    description: str
    schema: dict[str, Any]
    invoke_fn: Callable[[dict[str, Any]], Any]
    function: Callable[..., Any] | None = None  # the plain code under test, for priors and taint
    kind: str = "python"  # python | openai_agents | autogen | langchain | mcp | a library's (libraries.py)
    notes: list[str] = field(default_factory=list)
    # A tool whose calls go to a process of its own (an MCP server): entered once in the
    # sandbox's worker, which then runs each call itself (masfuzz.toolfuzz.mcp says why).
    connection: Callable[[], AbstractContextManager[None]] | None = None
    readable: list[str] = field(default_factory=list)  # folders the sandbox must show besides its code
    reaches: tuple[str, int] | None = None  # the one address its calls must reach (a server's URL)

    def invoke(self, arguments: dict[str, Any]) -> Any:
        return settle(self.invoke_fn(dict(arguments)))

    def call_function(self, arguments: dict[str, Any]) -> Any:
        """Call the plain function with these (possibly tainted) arguments."""
        if self.function is None:
            return self.invoke(arguments)
        if self.kind in _LIBRARY_CHECKED:  # its plain function checks the arguments as the library does
            return settle(self.function(**arguments))
        return settle(self.function(**as_declared(self.function, arguments)))

    @property
    def source_file(self) -> str | None:
        fn = inspect.unwrap(self.function) if self.function is not None else None
        try:
            return inspect.getsourcefile(fn) if fn is not None else None
        except TypeError:
            return None

    @property
    def return_types(self) -> tuple[type, ...] | None:
        """The plain types the function declares it returns (`-> str`, `-> str | None`), or
        None when it declares nothing checkable (no annotation, `Any`, a generic alias of a
        class masfuzz does not check)."""
        fn = inspect.unwrap(self.function) if self.function is not None else None
        if fn is None:
            return None
        try:
            hint = typing.get_type_hints(fn).get("return", inspect.Signature.empty)
        except Exception:  # an annotation that does not resolve: nothing to check
            return None
        return _plain_types(hint)

    @property
    def definition_frame(self) -> tuple[str, int, str]:
        """Where the function is defined, as a traceback frame: what a contract violation of
        its return type points at."""
        fn = inspect.unwrap(self.function) if self.function is not None else None
        code = getattr(getattr(fn, "__func__", fn), "__code__", None)
        if code is None:
            return (f"<{self.name}>", 0, self.name)
        return (code.co_filename, code.co_firstlineno, code.co_name)

    @property
    def own_code_root(self) -> str | None:
        """The folder whose frames count as the tool's own code: the top package that holds
        its source (a library tool's errors are grouped by the library's innermost frame), or
        the file itself for a script."""
        src = self.source_file
        if not src:
            return None
        path = Path(src).resolve()
        folder = path.parent
        if not (folder / "__init__.py").exists():
            return str(path)
        while (folder.parent / "__init__.py").exists():
            folder = folder.parent
        return str(folder)

    def with_description(self, description: str) -> "FuzzTool":
        """The same tool documented differently (documentation auto-fix)."""
        return FuzzTool(self.name, description, self.schema, self.invoke_fn, self.function,
                        self.kind, list(self.notes), self.connection, list(self.readable), self.reaches)


class ReturnedError(str):
    """A result its framework marks as an error (an MCP result with `isError`): the tool's own
    error handling, whatever its text says."""


class RemoteFailure(Exception):
    """A tool's server failed the call (it died, broke the protocol or answered an internal
    error): a finding of the server, pointed at it rather than at masfuzz's client code.
    `error_type` and `frames`, when given, are those of the exception the server's tool raised
    (`mcp.escaped_exception`), in its own process."""

    frames = [("<the tool's server>", 0, "tools/call")]

    def __init__(self, message: str, error_type: str | None = None,
                 frames: list[tuple[str, int, str]] | None = None) -> None:
        super().__init__(message)
        self.error_type = error_type or type(self).__name__
        if frames:
            self.frames = frames


_CHECKED = (str, int, float, bool, bytes, list, dict, tuple, set, type(None))


def _plain_types(hint: Any) -> tuple[type, ...] | None:
    if hint is inspect.Signature.empty or hint is Any:
        return None
    if hint is None:
        return (type(None),)
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        parts = [_plain_types(a) for a in typing.get_args(hint)]
        if any(p is None for p in parts):
            return None
        return tuple(t for p in parts for t in p)  # type: ignore[union-attr]
    cls = origin if origin is not None else hint
    return (cls,) if cls in _CHECKED else None


def settle(value: Any) -> Any:
    """Run a coroutine a tool returned to completion (tools are called from sync code)."""
    if inspect.isawaitable(value):
        async def wait() -> Any:
            return await value
        return asyncio.run(wait())
    return value


def wrap_tool(obj: Any, *, name: str | None = None,
              context: Callable[[], Any] | None = None) -> FuzzTool:
    """Wrap any supported tool object; a clear TargetError names what was given otherwise.
    `context` makes the run context a tool that takes one receives (the workflow's adapter
    says what its runs pass; without it such a tool gets None)."""
    if isinstance(obj, FuzzTool):
        return obj
    mod = type(obj).__module__ or ""
    if mod.startswith("agents.") and hasattr(obj, "params_json_schema"):
        return _from_agents_sdk(obj, context)
    if mod.startswith(("autogen_core.", "autogen_ext.", "autogen_agentchat.")) and hasattr(obj, "schema"):
        return _from_autogen(obj)
    from masfuzz.toolfuzz.libraries import library_tool

    native = library_tool(obj, context)  # smolagents, llama-index, agno, CrewAI, PydanticAI
    if native is not None:
        return native
    langchain = mod.startswith(("langchain", "langchain_core.", "langchain_community.")) or _is_langchain_tool(obj)
    if (langchain or inspect.isfunction(obj)) and _takes_injected(obj):
        # its framework hands it values the model never writes: they are bound, not fuzzed
        from masfuzz.adapters.langgraph.tools import standalone_tool

        return standalone_tool(obj)
    if langchain:
        return langchain_tool(obj)
    if mod.startswith(("mcp.", "mcp_types")) and (hasattr(obj, "inputSchema") or hasattr(obj, "input_schema")):
        raise TargetError(
            f"MCP tool {obj.name!r}: name its server instead (masfuzz tools mcp:COMMAND or URL), "
            "or wrap it with masfuzz.toolfuzz.tools.from_mcp(tool, server)"
        )
    if callable(obj) and (inspect.isfunction(obj) or inspect.ismethod(obj) or inspect.isbuiltin(obj)):
        return from_callable(obj, name=name)
    raise TargetError(
        f"a {mod}.{type(obj).__qualname__} is not a tool masfuzz can fuzz (expected a Python "
        "function, an Agents SDK FunctionTool, an AutoGen tool, a LangChain tool, an MCP tool, or a "
        "tool of smolagents, llama-index, agno, CrewAI or PydanticAI)"
    )


# How LangChain marks the parameters its tool node and runner fill (read by class name, so a
# plain function is checked without importing LangChain): `Annotated[..., InjectedState]` and the
# other `InjectedToolArg`s, `ToolRuntime`, `RunnableConfig`.
_INJECTED_MARKS = ("InjectedToolArg", "_DirectlyInjectedToolArg")


def _takes_injected(obj: Any) -> bool:
    """A LangChain tool or a plain function with a parameter LangChain injects."""
    fn = getattr(obj, "func", None) or getattr(obj, "coroutine", None) if not inspect.isfunction(obj) else obj
    if fn is None:
        return False
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception:  # annotations that do not resolve: nothing is known to be injected
        return False
    for name, hint in hints.items():
        if name == "return":
            continue
        marks = [hint, *typing.get_args(hint)[1:]] if typing.get_origin(hint) is typing.Annotated else [hint]
        for mark in marks:
            cls = mark if isinstance(mark, type) else type(mark)
            if any(c.__name__ in _INJECTED_MARKS for c in getattr(cls, "__mro__", ())) or \
                    getattr(mark, "__name__", "") == "RunnableConfig":
                return True
    return False


def _is_langchain_tool(obj: Any) -> bool:
    return any(c.__module__.startswith("langchain_core.tools") for c in type(obj).__mro__)


def from_callable(fn: Callable[..., Any], *, name: str | None = None,
                  description: str | None = None) -> FuzzTool:
    """A plain Python function; its JSON schema comes from its signature via pydantic."""
    schema = schema_from_signature(fn)
    doc = description if description is not None else inspect.getdoc(fn) or ""

    def invoke(arguments: dict[str, Any]) -> Any:
        return fn(**as_declared(fn, arguments))

    return FuzzTool(name or fn.__name__, doc, schema, invoke, fn, "python")


def as_declared(fn: Callable[..., Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments as an agent's framework hands them to `fn`: each validated against the
    type its parameter declares, as the Agents SDK, LangChain, PydanticAI, AutoGen and AG2 all
    do (pydantic, lax) before calling the function — a JSON object becomes the declared model
    or dataclass, "5" the declared int. A tool's code never sees a dict where it declares a
    model, or a list of lists where it declares `list[str]`: failing on one, it failed on
    masfuzz's call. A value the declared type refuses is refused here, in masfuzz's frame (the
    framework's refusal: the model is told and writes the call again). A string the declared type
    takes as it is is passed as it was given (a taint object stays one)."""
    adapters = _declared_types(fn)
    if not adapters:
        return arguments
    out = dict(arguments)
    for name, adapter in adapters.items():
        if name not in out:
            continue
        value = adapter.validate_python(out[name])
        # str.__eq__ itself: a taint object's own == would record the comparison as a prior
        if not (isinstance(out[name], str) and isinstance(value, str) and str.__eq__(out[name], value)):
            out[name] = value
    return out


@functools.lru_cache(maxsize=512)
def _declared_types(fn: Callable[..., Any]) -> dict[str, Any]:
    try:
        hints = typing.get_type_hints(inspect.unwrap(fn))
        params = inspect.signature(fn).parameters
    except Exception:  # an annotation that does not resolve: nothing to check
        return {}
    from pydantic import TypeAdapter

    adapters = {}
    for name, hint in hints.items():
        param = params.get(name)
        if (name == "return" or hint in (Any, object) or param is None
                or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD)):
            continue
        try:
            adapters[name] = TypeAdapter(hint)
        except Exception:  # a type pydantic cannot validate (a run context, a client): as given
            continue
    return adapters


def schema_from_signature(fn: Callable[..., Any], skip: Any = ()) -> dict[str, Any]:
    """`skip`: parameters the caller binds itself (a framework's injected values)."""
    from pydantic import create_model

    fields: dict[str, Any] = {}
    try:  # annotations written as text (`from __future__ import annotations`) resolved
        hints = typing.get_type_hints(fn)
    except Exception:
        hints = {}
    for pname, param in inspect.signature(fn).parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD) or pname in skip:
            continue
        ann = hints.get(pname, param.annotation if param.annotation is not inspect.Parameter.empty else str)
        default = param.default if param.default is not inspect.Parameter.empty else ...
        fields[pname] = (ann, default)
    try:
        schema = create_model(f"{fn.__name__}_args", **fields).model_json_schema()
    except Exception as exc:  # an annotation pydantic cannot express
        raise TargetError(f"{fn.__qualname__}: cannot build a JSON schema from its signature: {exc}") from None
    schema.pop("title", None)
    close_to_signature(schema, fn)
    return schema


def close_to_signature(schema: dict[str, Any], fn: Callable[..., Any] | None) -> None:
    """Mark the schema closed (`additionalProperties: false`) when the function takes no other
    keyword (no `**kwargs`): a key the signature has no parameter for can only fail in the
    binding of the call, before any of the tool's code runs, so it is never worth a call."""
    if fn is None or "additionalProperties" in schema:
        return
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: nothing known
        return
    if not any(p.kind == p.VAR_KEYWORD for p in params):
        schema["additionalProperties"] = False


def _from_agents_sdk(tool: Any, context: Callable[[], Any] | None = None) -> FuzzTool:
    # The SDK swallows tool exceptions into a generic string (docs/architecture.md); the function it wraps
    # raises them, so both invoke and taint call the wrapped function.
    fn = _agents_sdk_function(tool)
    if fn is None:
        raise TargetError(f"Agents SDK tool {tool.name!r}: cannot find the Python function it wraps")
    takes_ctx = _first_param_is_context(fn)

    def invoke(arguments: dict[str, Any]) -> Any:
        arguments = as_declared(fn, arguments)  # the SDK validates them into the declared models
        if not takes_ctx:
            return fn(**arguments)
        ctx = context() if context is not None else None
        return call_needing_context(tool.name, ctx, lambda: settle(fn(ctx, **arguments)))

    schema = dict(tool.params_json_schema)
    return FuzzTool(tool.name, tool.description or "", schema, invoke,
                    (lambda **kw: invoke(kw)) if takes_ctx else fn, "openai_agents",
                    ["called through the wrapped function: the SDK hides tool exceptions"])


# What a tool's failure on a run context it lacks says (`grouping.attribution`: the harness's).
NO_RUN_CONTEXT = "masfuzz: no run context"


def call_needing_context(name: str, ctx: Any, call: Callable[[], Any]) -> Any:
    """`call()`, a tool's call with `ctx`; a tool that fails on the run context being None (it
    reads what the app's server passes: `ctx.context.state`) failed on what masfuzz could not
    give it, not on its own code."""
    try:
        return call()
    except (AttributeError, TypeError) as exc:
        if getattr(ctx, "context", ctx) is None and "NoneType" in str(exc):
            raise RuntimeError(f"{NO_RUN_CONTEXT}: {name} reads the run context the app's server "
                               f"passes, and the tool was called with none ({exc})") from exc
        raise


def _agents_sdk_function(tool: Any) -> Callable[..., Any] | None:
    impl = getattr(tool.on_invoke_tool, "_invoke_tool_impl", tool.on_invoke_tool)
    code = getattr(impl, "__code__", None)
    for var, cell in zip(code.co_freevars if code else (), getattr(impl, "__closure__", None) or ()):
        if var in ("the_func", "original_callable"):
            return cell.cell_contents
    return None


def _first_param_is_context(fn: Callable[..., Any]) -> bool:
    params = list(inspect.signature(fn).parameters.values())
    if not params:
        return False
    ann = params[0].annotation
    text = ann if isinstance(ann, str) else getattr(ann, "__name__", "")
    return "Context" in str(text)


def _from_autogen(tool: Any) -> FuzzTool:
    schema = dict(tool.schema.get("parameters") or {"type": "object", "properties": {}})

    def invoke(arguments: dict[str, Any]) -> Any:
        from masfuzz.adapters.autogen.tools import call_tool  # the framework stays in adapters/

        return call_tool(tool, arguments)

    fn = getattr(tool, "_func", None)
    return FuzzTool(tool.name, tool.description or "", schema, invoke, fn, "autogen")


def langchain_tool(tool: Any, *, invoke: Callable[[dict[str, Any]], Any] | None = None,
                   hidden: Any = ()) -> FuzzTool:
    """A LangChain tool. `invoke` replaces its calling path and `hidden` names parameters the
    caller binds itself (a graph's injected state, store, config): an adapter's, which knows
    what its framework's runs hand the tool (`masfuzz.adapters.langgraph.tools`)."""
    schema = _langchain_schema(tool)
    for key in hidden:  # bound by the caller: never the model's, never fuzzed
        schema.get("properties", {}).pop(key, None)
        if key in schema.get("required", ()):
            schema["required"] = [r for r in schema["required"] if r != key]

    def call(arguments: dict[str, Any]) -> Any:
        return tool.invoke(arguments)

    fn = getattr(tool, "func", None) or getattr(tool, "coroutine", None)
    if fn is None:
        run = getattr(tool, "_run", None)
        if run is not None:
            takes_manager = "run_manager" in inspect.signature(run).parameters

            def fn(**kw: Any) -> Any:
                return run(**kw, run_manager=None) if takes_manager else run(**kw)

            fn.__wrapped__ = run  # type: ignore[attr-defined]  # so source lookups find the tool
    # The schema is LangChain's (an args_schema, or one it inferred from `_run`'s signature), and
    # an open one invites keys the function cannot bind: through BaseTool.run a TypeError
    # "unexpected keyword argument", through the tainted function one masfuzz's own call raised.
    close_to_signature(schema, getattr(fn, "__wrapped__", fn))
    notes = []
    if any(k in LANGCHAIN_RESERVED for k in schema.get("properties", {})):
        notes.append("an argument name is reserved by LangChain (config/callbacks/run_manager)")
    return FuzzTool(tool.name, tool.description or "", schema, invoke or call, fn, "langchain", notes)


def _langchain_schema(tool: Any) -> dict[str, Any]:
    try:
        schema = tool.tool_call_schema.model_json_schema()
    except Exception:
        schema = {"type": "object", "properties": {k: v for k, v in (tool.args or {}).items()}}
    schema.pop("title", None)
    schema.setdefault("type", "object")
    return schema


def from_mcp(tool: Any, server: Any) -> FuzzTool:
    """An MCP tool (`mcp.types.Tool`, SDK 1.x or 2.x) of a server: an `McpServer`, a command
    (`"mcp:python server.py"`) or a URL. Its calls open their own session inside the sandbox
    (masfuzz.toolfuzz.mcp); a session of the caller's cannot be used there."""
    from masfuzz.toolfuzz.mcp import McpServer, parse_target, tool_for

    if isinstance(server, str):
        server = parse_target(server if server.startswith(("http://", "https://", "mcp:")) else "mcp:" + server)
    if not isinstance(server, McpServer):
        raise TargetError(f"MCP tool {tool.name!r}: give its server (a command or a URL), not a "
                          f"{type(server).__name__}: a client session lives on the caller's event "
                          "loop, and the sandbox opens its own")
    schema = getattr(tool, "input_schema", None) or getattr(tool, "inputSchema", None) or {"type": "object"}
    return tool_for(server, {"name": tool.name, "description": tool.description or "", "schema": dict(schema)})


def tool_doc(tool: FuzzTool) -> str:
    """The documentation an agent sees: name, description and argument schema."""
    return f"{tool.name}: {tool.description}\narguments (JSON schema): {json.dumps(tool.schema)}"
