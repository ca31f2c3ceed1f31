"""Everything masfuzz reads from or needs of the Agents SDK, in one place, with fallbacks.

The SDK's objects change shape between releases (private fields come and go), so each accessor
tries the current attribute first and falls back to older spellings. `require()` checks once
that the installed SDK has what masfuzz relies on and otherwise raises a one-line `TargetError`
naming what is missing, instead of a traceback from deep inside a run.
"""

from __future__ import annotations

import contextlib
import inspect
import weakref
from typing import Any, AsyncIterator, Callable, Iterator

from masfuzz.errors import TargetError

TESTED_WITH = "0.24"
_checked: str | None = None


def require() -> Any:
    """The imported `agents` package, after checking it offers what masfuzz uses."""
    global _checked
    try:
        import agents
    except ModuleNotFoundError:
        raise TargetError(
            "the OpenAI Agents SDK is not installed: pip install 'masfuzz[openai-agents]'"
        ) from None
    version = str(getattr(agents, "__version__", "unknown"))
    if _checked == version:
        return agents
    missing = [name for name in ("Agent", "Runner", "RunConfig", "FunctionTool", "Handoff",
                                 "Model", "ModelResponse", "Usage", "set_trace_processors",
                                 "TracingProcessor")
               if not hasattr(agents, name)]
    try:
        from agents.run_config import CallModelData  # noqa: F401
    except ImportError:
        missing.append("RunConfig.call_model_input_filter")
    if not missing and "call_model_input_filter" not in getattr(agents.RunConfig,
                                                                "__dataclass_fields__", {}):
        missing.append("RunConfig.call_model_input_filter")
    if missing:
        raise TargetError(
            f"openai-agents {version} is not supported: it lacks {', '.join(missing)} "
            f"(masfuzz is tested with openai-agents {TESTED_WITH}; pip install "
            "'masfuzz[openai-agents]')"
        )
    _checked = version
    return agents


def is_agent(obj: Any) -> bool:
    agents = require()
    return isinstance(obj, agents.Agent)


def is_handoff(obj: Any) -> bool:
    return isinstance(obj, require().Handoff)


def is_function_tool(obj: Any) -> bool:
    return isinstance(obj, require().FunctionTool)


def is_hosted_mcp(obj: Any) -> bool:
    cls = getattr(require(), "HostedMCPTool", None)
    return cls is not None and isinstance(obj, cls)


def mcp_tools(server: Any, timeout_s: float = 30.0) -> list[Any]:
    """The tools an agent's MCP server lists (`mcp.types.Tool`), through the SDK's own server
    object: connected for the listing, then closed (the app's run connects it again itself).
    Raises what connecting or listing raised."""
    import asyncio

    from masfuzz.adapters.syncrun import run_coroutine_sync

    async def listing() -> list[Any]:
        await server.connect()
        try:
            return list(await server.list_tools())
        finally:
            await server.cleanup()

    return run_coroutine_sync(asyncio.wait_for(listing(), timeout_s))


@contextlib.asynccontextmanager
async def mcp_connected(agents: list[Any]) -> AsyncIterator[None]:
    """The agents' MCP servers connected for one run, as the app's own `async with server:`
    around its run does (masfuzz runs the agent without the app's main): a server not
    connected yet is connected here and closed after; one the app connected is left as it is,
    and one that does not start is left unconnected.
    Without this every run of such an agent fails on "Server not initialized", masfuzz's
    omission, not the app's. A server that does not start fails the run when it reaches its
    agent, as the app's own would, with why (`_not_started`) rather than that line."""
    opened: list[Any] = []
    failed: list[Any] = []
    try:
        for agent in agents:
            for server in list(getattr(agent, "mcp_servers", None) or ()):
                if getattr(server, "session", None) is None and all(server is not o for o in opened + failed):
                    with _stderr_kept(server) as said:
                        try:
                            await server.connect()
                        except Exception as exc:  # left unconnected: it fails the run only if
                            failed.append(server)  # the run reaches its agent
                            server.list_tools = _not_started(server, exc, said())
                            continue
                    opened.append(server)
        yield
    finally:
        for server in failed:
            with contextlib.suppress(AttributeError):
                del server.list_tools
        for server in reversed(opened):
            await server.cleanup()


@contextlib.contextmanager
def _stderr_kept(server: Any) -> Iterator[Callable[[], str]]:
    """While a stdio server starts: its stderr written to a file as well as to ours, so a start
    that fails can say what the server said (`said()`, its last lines). A server reached by URL
    has no stderr here."""
    import sys
    import tempfile

    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = getattr(server, "params", None)
    if not isinstance(params, StdioServerParameters):
        yield lambda: ""
        return
    with tempfile.TemporaryFile("w+", errors="replace") as log:
        given = server.create_streams
        server.create_streams = lambda: stdio_client(params, errlog=log)

        def said() -> str:
            log.flush()
            log.seek(0)
            text = log.read()
            sys.stderr.write(text)  # what the user would have seen of it
            return " | ".join(text.strip().splitlines()[-3:])[-300:]

        try:
            yield said
        finally:
            server.create_streams = given


def _not_started(server: Any, exc: Exception, said: str) -> Callable[..., Any]:
    """The server's `list_tools` once it did not start: the run that reaches its agent fails
    with the start's error and the server's last words, not the SDK's "Server not initialized"."""
    from agents.exceptions import UserError

    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:  # anyio's task group around it
        exc = exc.exceptions[0]  # type: ignore[assignment]
    why = f"MCP server {getattr(server, 'name', '?')!r} did not start: {type(exc).__name__}: {exc}" + \
        (f"; its stderr: {said}" if said else "")

    async def list_tools(*_: Any, **__: Any) -> Any:
        raise UserError(why)

    return list_tools


def mcp_input_schema(tool: Any) -> dict[str, Any]:
    """An MCP tool's input schema, by its MCP SDK 2.x name or its 1.x one."""
    return dict(getattr(tool, "input_schema", None) or getattr(tool, "inputSchema", None) or {})


def tool_name(tool: Any) -> str:
    name = getattr(tool, "name", None)
    if isinstance(name, str) and name:
        return name
    return type(tool).__name__


def handoff_tool_name(h: Any) -> str:
    if is_agent(h):
        from masfuzz.adapters.openai_agents.extract import slug

        return f"transfer_to_{slug(h.name)}"
    return str(getattr(h, "tool_name", "") or "")


def handoff_target(h: Any, known: list[Any]) -> Any | None:
    """The agent a handoff leads to: the `Agent` itself, or the agent behind a `Handoff`
    (its weak reference, else the closure of its invoke function, else a known agent with the
    handoff's `agent_name`)."""
    if is_agent(h):
        return h
    ref = getattr(h, "_agent_ref", None)
    if isinstance(ref, weakref.ReferenceType):
        target = ref()
        if target is not None:
            return target
    for attr in ("agent", "_agent"):
        target = getattr(h, attr, None)
        if target is not None and is_agent(target):
            return target
    found = _agent_in_closure(getattr(h, "on_invoke_handoff", None), depth=3)
    if found is not None:
        return found
    name = getattr(h, "agent_name", None)
    return next((a for a in known if getattr(a, "name", None) == name), None)


def _closure_values(fn: Any, depth: int) -> Any:
    """Values captured by `fn`'s closure, and by the closures of functions it captured, down
    to `depth` levels: where SDK wrappers keep the agent or the user's function."""
    if fn is None or depth <= 0:
        return
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        yield value
        if callable(value):
            yield from _closure_values(value, depth - 1)


def _agent_in_closure(fn: Any, depth: int) -> Any | None:
    return next((v for v in _closure_values(fn, depth) if is_agent(v)), None)


def agent_of_tool(tool: Any) -> Any | None:
    """The agent an `Agent.as_tool` tool runs, or None for any other tool."""
    if not is_function_tool(tool):
        return None
    inner = getattr(tool, "_agent_instance", None)
    if inner is not None and is_agent(inner):
        return inner
    if getattr(tool, "_is_agent_tool", False) or getattr(tool, "_is_agent_tool", None) is None:
        return _agent_in_closure(getattr(tool, "on_invoke_tool", None), depth=3)
    return None


def tool_function(tool: Any) -> Any | None:
    """The user's Python function behind a function tool, when it can be found."""
    try:
        fn = tool.__wrapped__
        if callable(fn):
            return fn
    except AttributeError:
        pass
    return _user_function_in_closure(getattr(tool, "on_invoke_tool", None), depth=4)


def _user_function_in_closure(fn: Any, depth: int) -> Any | None:
    for value in _closure_values(fn, depth):
        module = getattr(value, "__module__", "") or ""
        if inspect.isfunction(value) and not (module == "agents" or module.startswith("agents.")):
            return value
    return None


def condition_text(obj: Any) -> str:
    """How an `is_enabled` setting reads in a spec: '' when always enabled."""
    cond = getattr(obj, "is_enabled", True)
    if cond is True:
        return ""
    if cond is False:
        return "disabled"
    if callable(cond):
        name = getattr(cond, "__qualname__", None) or getattr(cond, "__name__", None)
        return f"is_enabled={name or type(cond).__name__}"
    return f"is_enabled={cond!r}"


def guardrail_name(g: Any) -> str:
    get = getattr(g, "get_name", None)
    if callable(get):
        try:
            return str(get())
        except Exception:
            pass
    fn = getattr(g, "guardrail_function", None)
    return str(getattr(g, "name", None) or getattr(fn, "__name__", None) or type(g).__name__)


def model_settings_dict(agent: Any) -> dict[str, Any]:
    """The settings the user chose: those that differ from what a bare `Agent` gets."""
    settings = getattr(agent, "model_settings", None)
    mine = _settings_json(settings)
    if not mine:
        return {}
    field = getattr(type(agent), "__dataclass_fields__", {}).get("model_settings")
    factory = getattr(field, "default_factory", None)
    try:
        default = _settings_json(factory()) if callable(factory) else {}
    except Exception:
        default = {}
    return {k: v for k, v in mine.items() if default.get(k) != v}


def _settings_json(settings: Any) -> dict[str, Any]:
    to_json = getattr(settings, "to_json_dict", None)
    if not callable(to_json):
        return {}
    try:
        data = to_json()
    except Exception:
        return {}
    return {k: v for k, v in data.items() if v is not None and v != {} and v != []}


def default_max_turns() -> int:
    try:
        from agents.run_config import DEFAULT_MAX_TURNS

        return int(DEFAULT_MAX_TURNS)
    except (ImportError, TypeError, ValueError):
        return 10
