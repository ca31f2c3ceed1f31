"""MCP servers as fuzzing targets: `masfuzz tools mcp:COMMAND` (stdio) or `masfuzz tools URL`
(streamable HTTP; a URL whose path ends in /sse: the SSE transport).

An MCP tool's code runs in the server's process, not in masfuzz's: there is no Python function
to read or taint, so its calls are fuzzed from the input schema the server lists. What must run
in the sandbox is the server itself. So the client session is opened inside the sandbox's
worker, never in masfuzz's own process (a session made there lives on masfuzz's event loop and
its pipes are closed by the worker's descriptor sweep: every call "timed out"): the worker
starts the server (a stdio server is its child, under the same namespaces and limits), keeps one
session to it open across calls (starting a server takes seconds) and runs each call on it
(`FuzzTool.connection`; the sandbox then serves the calls in the worker itself). A call that
kills the server gets a fresh one for the next call.

What a call's outcome is:
- a result with `isError` is the tool's returned error (the server's own error handling),
  shown apart and never a finding, like a Python tool that returns "Error: ...";
- except when it is an exception the tool raised, which the SDK's server turned into an error
  result (`escaped_exception`): "Error executing tool NAME" alone (the 2.x SDK's text of a
  crash) or with the exception's text after it (1.x: any exception; 2.x: a `ToolError`). It
  is the tool's error like a Python tool's raise, named by the type and frames of the
  traceback the server logged to its standard error during the call where it logged one, and
  judged as a raise is: a refusal the documentation gives of input it does not say is valid
  is a documented rejection (`rejections.documented_refusal`), any other a finding;
- a JSON-RPC error answer "invalid params" is the server refusing the arguments: a returned
  error too; any other JSON-RPC error (an internal error: an exception escaped the server's
  handler) is a finding of the server;
- a server that dies, closes the connection or breaks the protocol during the call is a finding
  of the server (`ServerFailure`), with what it printed to its standard error; one that hangs
  past the call's time limit is killed with its worker: a timeout of the tool.

Works with the MCP Python SDK 1.x (`inputSchema`, `isError`, `McpError`) and 2.x
(`input_schema`, `is_error`, `MCPError`).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import shutil
import stat
from collections.abc import Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from masfuzz.errors import TargetError
from masfuzz.toolfuzz.tools import FuzzTool, RemoteFailure, ReturnedError

PREFIX = "mcp:"
INVALID_PARAMS = -32602  # JSON-RPC: the server refused the arguments (its validation)
_LISTING = "tools/list"  # the pseudo-tool whose calls read the server's listing
_CHUNK = 3000  # characters of the listing one call returns (an outcome keeps 4000)
# A URL's server that takes no session: masfuzz cannot start it again, so it is the settings'
# (an earlier call may have stopped it, and that call is the finding: `grouping.attribution`)
UNREACHABLE = "the server is unreachable"


@dataclass(frozen=True)
class McpServer:
    """Where an MCP server is: a command started over stdio, or a URL."""
    command: tuple[str, ...] = ()
    url: str = ""

    @property
    def transport(self) -> str:
        if self.command:
            return "stdio"
        return "sse" if urlsplit(self.url).path.rstrip("/").endswith("/sse") else "http"

    @property
    def label(self) -> str:
        return PREFIX + shlex.join(self.command) if self.command else self.url

    def address(self) -> tuple[str, int] | None:
        """The host and port a URL's server listens on (None for a stdio server)."""
        if not self.url:
            return None
        parts = urlsplit(self.url)
        return parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80)

    def folders(self) -> list[str]:
        """What the sandbox must show for the server to start (`masfuzz.proc.program_folders`)."""
        from masfuzz.proc import program_folders

        return program_folders(self.command)


def parse_target(target: str) -> McpServer | None:
    """The MCP server TARGET names (`mcp:COMMAND ARGS...` or an http(s) URL), None for any other
    target. A command's program and the files it names are made absolute here: the server
    starts in the call's folder inside the sandbox, where neither PATH nor a relative path
    means what it meant where masfuzz was started."""
    if target.startswith(("http://", "https://")):
        if not urlsplit(target).hostname:
            raise TargetError(f"{target}: not a URL of an MCP server (no host)")
        return McpServer(url=target)
    if not target.startswith(PREFIX):
        return None
    try:
        words = shlex.split(target[len(PREFIX):])
    except ValueError as exc:
        raise TargetError(f"{target}: cannot split the command ({exc})") from None
    if not words:
        raise TargetError(f"{target}: no command after {PREFIX!r} (mcp:COMMAND ARGS...)")
    program = shutil.which(words[0])
    if program is None:
        raise TargetError(f"{target}: no program {words[0]!r} found (give its path, or install it)")
    args = [os.path.abspath(w) if not w.startswith("-") and os.path.exists(w) else w for w in words[1:]]
    return McpServer(command=(os.path.abspath(program), *args))


def server_from_params(params: dict[str, Any]) -> McpServer:
    """The server an adapter describes ({"command", "args"} or {"url"}: an agent's MCP server)."""
    if params.get("url"):
        found = parse_target(str(params["url"]))
    elif params.get("command"):
        found = parse_target(PREFIX + shlex.join([str(params["command"]), *map(str, params.get("args") or ())]))
    else:
        found = None
    if found is None:
        raise TargetError(f"MCP server {params.get('mcp_server')!r}: neither a command nor a URL")
    return found


# --- inside the sandbox's worker ---------------------------------------------------------


@asynccontextmanager
async def _session(server: McpServer) -> Any:
    """An initialised `ClientSession` to the server, over its transport."""
    from mcp import ClientSession

    async with _transport(server, _errlog()) as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            yield session


@asynccontextmanager
async def _transport(server: McpServer, errlog: Any) -> Any:
    if server.transport == "stdio":
        from mcp.client.stdio import StdioServerParameters, stdio_client

        params = StdioServerParameters(command=server.command[0], args=list(server.command[1:]),
                                       env=_server_environment(), cwd=os.getcwd())
        async with stdio_client(params, errlog=errlog) as streams:
            yield streams
    elif server.transport == "sse":
        from mcp.client.sse import sse_client

        async with sse_client(server.url) as streams:
            yield streams
    else:
        import mcp.client.streamable_http as http

        # 2.x names it streamable_http_client; 1.x streamablehttp_client (yielding a third item)
        client = getattr(http, "streamable_http_client", None) or http.streamablehttp_client
        async with client(server.url) as streams:
            yield streams


def _errlog() -> Any:
    """Where a stdio server's standard error goes: this process's (in the sandbox's worker, a
    file the call's outcome reads), or nowhere when that is no file (a caller capturing it)."""
    import sys

    try:
        sys.stderr.fileno()
        return sys.stderr
    except (AttributeError, OSError, ValueError):
        return open(os.devnull, "w")  # noqa: SIM115 - the process's, for as long as it runs


def _server_environment() -> dict[str, str]:
    """The sandbox's own cleaned environment (the SDK would otherwise give the server HOME,
    USER and SHELL of its own choosing, and nothing of `--pass-env`)."""
    return dict(os.environ)


class Connection:
    """One session to a server, held open in the sandbox's worker across calls: an event loop
    of its own, a task that holds the session and runs the requests put to it. A request that
    fails because the session ended (the server died) ends the task; the next request starts
    a fresh server."""

    def __init__(self, server: McpServer) -> None:
        self.server = server
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task[None] | None = None
        self.queue: asyncio.Queue[Any] | None = None

    def open(self) -> None:
        """Start the server and its session now, before any call is timed; a server that does
        not start is said by the first call (`request`)."""
        try:
            self.request(lambda session: asyncio.sleep(0))
        except Exception:
            pass

    def request(self, work: Callable[[Any], Any]) -> Any:
        """`await work(session)` on the held session."""
        if self.loop is None:
            self.loop = asyncio.new_event_loop()
        if self.task is None or self.task.done():
            ready: asyncio.Future[None] = self.loop.create_future()
            self.queue = asyncio.Queue()
            self.task = self.loop.create_task(self._hold(ready))
            self.loop.run_until_complete(asyncio.wait([ready, self.task], return_when=asyncio.FIRST_COMPLETED))
            if not ready.done() or ready.exception() is not None:
                raise _failure(ready.exception() if ready.done() else _ended(self.task),
                               UNREACHABLE if self.server.url else "the server did not start a session")
        assert self.queue is not None
        answer: asyncio.Future[Any] = self.loop.create_future()
        self.queue.put_nowait((work, answer))
        self.loop.run_until_complete(asyncio.wait([answer, self.task], return_when=asyncio.FIRST_COMPLETED))
        if not answer.done():  # the session ended under the request
            raise _failure(_ended(self.task), "the server broke off the call")
        if answer.exception() is not None and _session_lost(answer.exception()):
            self._end()  # the next request starts a fresh server, not this one's remains
        return answer.result()

    async def _hold(self, ready: asyncio.Future[None]) -> None:
        assert self.queue is not None
        try:
            async with _session(self.server) as session:
                ready.set_result(None)
                while True:
                    work, answer = await self.queue.get()
                    try:
                        answer.set_result(await work(session))
                    except Exception as exc:
                        answer.set_exception(exc)
                        if _session_lost(exc):
                            return
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc if isinstance(exc, Exception) else RuntimeError(repr(exc)))
            else:
                raise

    def _end(self) -> None:
        """Let the session's task end (it closes the transport and stops the server), cut short
        after a few seconds."""
        if self.loop is None or self.task is None or self.task.done():
            return
        self.loop.run_until_complete(asyncio.wait([self.task], timeout=5))
        if not self.task.done():
            self.task.cancel()
        try:
            self.loop.run_until_complete(self.task)
        except BaseException:
            pass  # a server that fails to end is killed with the worker

    def close(self) -> None:
        if self.loop is None:
            return
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self._end()
        self.loop.close()
        self.loop = self.task = None


def _ended(task: asyncio.Task[None] | None) -> BaseException | None:
    if task is None or not task.done() or task.cancelled():
        return None
    return task.exception()


def _session_lost(exc: BaseException) -> bool:
    """Whether a request's failure means the session is gone (not a JSON-RPC error answer)."""
    return _rpc_code(exc) is None or _rpc_code(exc) in (-32000, -1)  # SDKs' "connection closed"


def _rpc_code(exc: BaseException) -> int | None:
    error = getattr(exc, "error", None)
    code = getattr(error, "code", None)
    return code if isinstance(code, int) else None


def _failure(exc: BaseException | None, what: str) -> RemoteFailure:
    detail = _describe(exc) if exc is not None else "the session ended"
    return RemoteFailure(f"{what}: {detail}")


def _describe(exc: BaseException) -> str:
    """The innermost cause of an exception group (anyio wraps the transport's failure)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


# --- the tools ---------------------------------------------------------------------------


def result_value(result: Any) -> Any:
    """What a tool returned: its text (text blocks joined; other blocks named), or its
    structured content as JSON text when it has no text; `ReturnedError` when the server marked
    it an error (`isError`)."""
    parts: list[str] = []
    for block in getattr(result, "content", None) or []:
        text = getattr(block, "text", None)
        if isinstance(text, str):
            parts.append(text)
        else:
            kind = getattr(block, "type", type(block).__name__)
            parts.append(f"[{kind} {getattr(block, 'mimeType', getattr(block, 'mime_type', '')) or ''}]".replace(" ]", "]"))
    structured = getattr(result, "structured_content", getattr(result, "structuredContent", None))
    text = "\n".join(parts)
    if not text and structured is not None:
        text = json.dumps(structured, default=str)
    if getattr(result, "is_error", getattr(result, "isError", False)):
        return ReturnedError(text if text.strip() else "Error (the server gave no message)")
    return text


# What the MCP Python SDK's server answers for an exception its tool raised (`Tool.run`)
_ESCAPED = "Error executing tool "
# A traceback as Python prints it, or as rich's logging handler draws it in a box, its paths
# wrapped over the box's lines (the SDK's servers log a crash so where rich is installed)
_TB_START = re.compile(r"Traceback \(most recent call last")
_TB_FRAME = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')
_TB_BOXED_FRAME = re.compile(r"((?:/[^\s:]+)+\.py):(\d+)\s*in\s*([\w<>]+)")
_TB_RAISED = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Iteration|Warning|Failure))(?::\s?(.*))?$")


def escaped_exception(name: str, text: str, log: str) -> RemoteFailure | None:
    """The exception tool `name` raised, when an error result's `text` is the SDK's server
    saying one escaped it; `log` is what the server wrote to its standard error during the
    call. None for any other error result (the tool's own error handling: a `ToolError` the
    2.x server logged as one, "Tool 'NAME' failed") and for the SDK refusing the arguments
    against the input schema (a validation error: "invalid params")."""
    head = _ESCAPED + name
    if not text.startswith(head) or text[len(head):][:2] not in ("", ": "):
        return None
    detail = text[len(head) + 2:].strip()
    if re.match(r"\d+ validation errors? for ", detail):
        return None
    raised = _traceback(log)
    if raised is not None:
        error_type, message, frames = raised
        return RemoteFailure(message or detail or text, error_type, frames)
    if detail and re.search(rf"Tool {re.escape(repr(name))} failed", log):
        return None  # 2.x logged it as a ToolError the tool raised on purpose: its error handling
    # no traceback: 2.x's crash names no exception; with a text, 1.x's raise or 2.x's ToolError
    return RemoteFailure(detail or text, "ToolError" if detail else "UnexpectedToolError")


def _traceback(log: str) -> tuple[str, str, list[tuple[str, int, str]]] | None:
    """(type, message, frames) of the first exception a traceback in `log` shows: the one the
    tool raised (the SDK's wrapper is chained after it)."""
    start = _TB_START.search(log)
    if start is None:
        return None
    frames: list[tuple[str, int, str]] = []
    box: list[str] = []  # a boxed frame's lines, joined when a blank box line ends it

    def boxed() -> None:
        m = _TB_BOXED_FRAME.search("".join(box))
        if m is not None:
            frames.append((m.group(1), int(m.group(2)), m.group(3)))
        box.clear()

    for line in log[start.end():].splitlines()[1:]:
        if "│" in line:
            inner = line.split("│", 1)[1].rsplit("│", 1)[0].strip()
            box.append(inner) if inner else boxed()
            continue
        boxed()
        plain = _TB_FRAME.search(line)
        if plain is not None:
            frames.append((plain.group(1), int(plain.group(2)), plain.group(3)))
            continue
        raised = _TB_RAISED.match(line.strip())
        if raised is not None:
            return raised.group(1).rsplit(".", 1)[-1], (raised.group(2) or "").strip(), frames
    return None


def _stderr_size() -> int | None:
    """How much this process's standard error (a stdio server's too) holds, when it is a file."""
    try:
        info = os.fstat(2)
    except OSError:
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _stderr_since(mark: int | None) -> str:
    if mark is None:
        return ""
    try:
        size = os.fstat(2).st_size
        return os.pread(2, min(size - mark, 64_000), max(mark, size - 64_000)).decode("utf-8", "replace")
    except OSError:
        return ""


def call(connection: Connection, name: str, arguments: dict[str, Any]) -> Any:
    """One tools/call on the held session, as `result_value` gives it; an exception the tool
    raised (`escaped_exception`) is raised here, as a Python tool's would be."""
    mark = _stderr_size()
    try:
        result = connection.request(lambda session: session.call_tool(name, arguments))
    except RemoteFailure:
        raise
    except Exception as exc:
        code = _rpc_code(exc)
        if code == INVALID_PARAMS:
            return ReturnedError(f"Error: invalid params: {getattr(exc.error, 'message', exc)}")  # type: ignore[attr-defined]
        if code is not None and code not in (-32000, -1):
            raise RemoteFailure(f"JSON-RPC error {code}: {getattr(exc.error, 'message', exc)}") from None  # type: ignore[attr-defined]
        raise _failure(exc, "the server broke off the call") from None
    value = result_value(result)
    if isinstance(value, ReturnedError):
        raised = escaped_exception(name, str(value), _stderr_since(mark))
        if raised is not None:
            raise raised
    return value


def tool_for(server: McpServer, entry: dict[str, Any],
             run: Callable[[Connection, dict[str, Any]], Any] | None = None) -> FuzzTool:
    """The FuzzTool of one listed tool: its calls go through the session the sandbox's worker
    holds (`FuzzTool.connection`); `run(connection, arguments)` replaces the tools/call."""
    holder: list[Connection] = []

    @contextmanager
    def connection() -> Iterator[None]:
        holder[:] = [Connection(server)]
        holder[0].open()
        try:
            yield
        finally:
            holder[0].close()
            holder.clear()

    def invoke(arguments: dict[str, Any]) -> Any:
        if not holder:
            raise RemoteFailure("no session to the server (the call ran outside the sandbox's worker)")
        if run is not None:
            return run(holder[0], arguments)
        return call(holder[0], entry["name"], arguments)

    return FuzzTool(entry["name"], entry.get("description") or "", entry["schema"], invoke, None,
                    "mcp", [f"MCP tool of {server.label}: fuzzed from its input schema, inside the "
                            "sandbox with its server"],
                    connection=connection, readable=server.folders(), reaches=server.address())


def listed(server: McpServer, limits: Any, *, isolate: bool = True, state: Any = None) -> list[dict[str, Any]]:
    """The tools the server lists (name, description, input schema), read inside the sandbox,
    where the server runs; a server that does not start or list is the target's error."""
    from masfuzz.toolfuzz.sandbox import Sandbox

    lister = tool_for(server, {"name": _LISTING, "schema": {"type": "object"}}, _listing_chunk)
    text, offset = "", 0
    with Sandbox(lister, limits, isolate=isolate, state=state) as box:
        while True:
            outcome = box.call({"offset": offset})
            if outcome.status != "ok":
                raise TargetError(f"{server.label}: listing its tools failed ({outcome.error_type}: "
                                  f"{_first_line(outcome.message)}){_stderr_hint(outcome.output)}")
            total, _, part = outcome.result.partition(":")
            text += part
            offset += len(part)
            if offset >= int(total) or not part:
                break
    return json.loads(text)


def _listing_chunk(connection: Connection, arguments: dict[str, Any]) -> str:
    """A listing call's answer: "TOTAL:" and the listing's JSON text from `offset` on, in
    chunks an outcome can carry (each call asks the held session again: the same server)."""
    whole = json.dumps(connection.request(_all_tools))
    offset = int(arguments.get("offset", 0))
    return f"{len(whole)}:{whole[offset:offset + _CHUNK]}"


async def _all_tools(session: Any) -> list[dict[str, Any]]:
    tools: list[Any] = []
    page = await session.list_tools()
    for _ in range(100):  # a paginator that never ends cannot hang the listing
        tools.extend(page.tools)
        cursor = getattr(page, "next_cursor", getattr(page, "nextCursor", None))
        if not cursor:
            break
        page = await _next_page(session, cursor)
    return [{"name": t.name, "description": t.description or "",
             "schema": dict(getattr(t, "input_schema", None) or getattr(t, "inputSchema", None) or {"type": "object"})}
            for t in tools]


async def _next_page(session: Any, cursor: str) -> Any:
    try:
        from mcp.types import PaginatedRequestParams

        return await session.list_tools(params=PaginatedRequestParams(cursor=cursor))
    except (ImportError, TypeError):  # 1.x: list_tools(cursor=...)
        return await session.list_tools(cursor=cursor)


def _first_line(text: str) -> str:
    return (text or "").strip().split("\n")[0][:300]


def _stderr_hint(output: str) -> str:
    tail = [line for line in (output or "").strip().splitlines() if line.strip()]
    return f"; it printed: {tail[-1].strip()[:300]}" if tail else ""


def mcp_tools(server: McpServer, limits: Any, *, isolate: bool = True, state: Any = None) -> tuple[list[FuzzTool], list[str]]:
    """(tools, notes) of a server: every tool it lists."""
    if server.transport == "stdio" and not isolate:
        raise TargetError(f"{server.label}: a stdio MCP server is a program, and the sandbox starts "
                          "programs only with its namespaces (not under --unsafe-no-sandbox)")
    entries = listed(server, limits, isolate=isolate, state=state)
    if not entries:
        raise TargetError(f"{server.label}: the server lists no tool")
    return [tool_for(server, e) for e in entries], []


def call_once(server: McpServer, name: str, arguments: dict[str, Any]) -> Any:
    """One call of one tool with a fresh session, here, outside the sandbox (a reproducer)."""
    connection = Connection(server)
    try:
        return call(connection, name, arguments)
    finally:
        connection.close()
