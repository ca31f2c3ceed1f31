"""`ModelServer`: an OpenAI-compatible endpoint on loopback that answers with the SUT model and
records every call.

Nearly every agent app reaches its model through an OpenAI-style HTTP API whose base URL can be
set from the environment. Pointing that URL here puts masfuzz behind the one seam all apps
share: the app runs unmodified, masfuzz chooses the model (scripted policy, embedded local
model, or a real endpoint it forwards to) and sees every request — which agent asked, with which
tools, and what came back.

Which agent is asking is read from the request: an `X-Masfuzz-Agent` header if the app sets
one, else its system prompt matched against known agents (name -> system prompt, e.g. from a
native extraction), else a name the prompt declares ("You are Director", "Your name is ..."),
else a slug of the prompt's first line ("You are a careful travel planner." ->
`careful_travel_planner`); a different prompt whose first line gives a slug already taken gets
the slug and a short hash of the whole prompt. Speaker-selection calls of group-chat managers are
recognised and recorded as such, not as agent turns; they carry the agent name `selector`, as in
the native AutoGen adapter, so one scripted policy serves both.

The app always gets a well-formed completion: when the model fails (a scripted policy raises, the
embedded model overflows its context, a forwarded endpoint errs) the error is recorded and the app
is answered with an empty assistant message, so a weak SUT model shows up in the trace as a
`model_error`, never as a crash of the app that masfuzz caused.

Both of OpenAI's APIs are served: chat completions (`wire`) and the Responses API (`responses`),
each translated into the same `ChatRequest`, so the recording does not depend on which one an
app's client speaks.

Deliberately a small asyncio HTTP/1.1 server (keep-alive, chunked streaming) so the core needs
no web framework.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from masfuzz.errors import MasfuzzError
from masfuzz.redact import redact
from masfuzz.llm.types import ChatReply, ChatRequest, ModelClient
from masfuzz.serve import responses, wire

LOOPBACK = ("127.0.0.1", "::1", "localhost")
MAX_BODY = 32 * 1024 * 1024
# Prompts with which group-chat managers ask a model to pick the next speaker (AG2
# GroupChatManager, AgentChat SelectorGroupChat defaults): bookkeeping, not an agent speaking.
_SELECTOR = re.compile(r"role play game|select the next role|next role to play|"
                       r"read the above conversation\. then select", re.IGNORECASE)
# AG2's default `summary_method="reflection_with_llm"` prompt: a chat's summary, also bookkeeping.
_SUMMARY = re.compile(r"Summarize the takeaway from the conversation")
SELECTOR_AGENT = "selector"
SUMMARY_AGENT = "summarizer"
NO_PROMPT_AGENT = "assistant"  # an agent that sends no system prompt
_DECLARED = (
    re.compile(r"\byour name is\s+([A-Za-z][\w\-]*(?: [A-Z][\w\-]*)*)", re.IGNORECASE),
    re.compile(r"^\s*You are ([A-Z][\w\-]*(?:[ _][A-Z][\w\-]*)*)\b"),
    re.compile(r"你的名字(?:是|叫)([^\s，,。.、！!]+)"),
)


@dataclass
class CallRecord:
    """One model call as the endpoint saw it."""

    index: int
    t: float  # seconds since the recording started
    agent: str
    kind: str  # "agent" | "selector" | "summary"
    request: dict[str, Any]  # the ChatRequest, as JSON
    reply: dict[str, Any] | None = None  # the ChatReply, as JSON; None when the model failed
    error: str | None = None
    stream: bool = False
    legacy: bool = False
    system: str = ""  # the system prompt that named the agent (shortened)

    def chat_request(self) -> ChatRequest:
        return ChatRequest.model_validate(self.request)

    def chat_reply(self) -> ChatReply | None:
        return ChatReply.model_validate(self.reply) if self.reply is not None else None


@dataclass
class AgentNamer:
    # agent name -> system prompt, or (name, prompt) pairs when one name has several prompts
    known: dict[str, str] | list[tuple[str, str]] = field(default_factory=dict)
    # summary prompts an app gave its chats (AG2 `summary_args={"summary_prompt": ...}`),
    # bookkeeping like AG2's default one
    summaries: list[str] = field(default_factory=list)
    _slugs: dict[str, str] = field(default_factory=dict, init=False, repr=False)  # slug -> prompt

    def name(self, request: ChatRequest, header: str | None) -> tuple[str, str, str]:
        """(agent, kind, system prompt) for one request."""
        system = "\n".join(m.content or "" for m in request.messages if m.role == "system")
        if header:
            return header, "agent", system
        # A selector's instructions sometimes arrive as the last user turn (AgentChat).
        last = request.messages[-1].content or "" if request.messages else ""
        if _SELECTOR.search(system) or (not request.tools and _SELECTOR.search(last)):
            return SELECTOR_AGENT, "selector", system
        if _SUMMARY.search(system) or any(p and p in system for p in self.summaries):
            return SUMMARY_AGENT, "summary", system
        if not system.strip():
            return NO_PROMPT_AGENT, "agent", system
        best = None
        pairs = self.known.items() if isinstance(self.known, dict) else self.known
        for agent, prompt in pairs:
            p = prompt.strip()
            if p and (p == system.strip() or p in system) and (best is None or len(p) > len(best[1])):
                best = (agent, p)
        if best:
            return best[0], "agent", system
        for pattern in _DECLARED:
            m = pattern.search(system)
            if m:
                return m.group(1).strip(), "agent", system
        return self._from_first_line(system), "agent", system

    def _from_first_line(self, system: str) -> str:
        """A slug of the prompt's first line, one per distinct prompt."""
        prompt = system.strip()
        digest = hashlib.sha256(prompt.encode()).hexdigest()[:6]
        slug = first_line_slug(prompt) or "agent_" + digest
        owner = self._slugs.setdefault(slug, prompt)
        if owner != prompt or slug in (SELECTOR_AGENT, SUMMARY_AGENT, NO_PROMPT_AGENT):
            slug = f"{slug}_{digest}"
        return slug


# Openings that say nothing about which agent this is ("You are a ...", "Act as the ...") and
# words a slug should not end on.
_OPENING = re.compile(r"^(?:you are|you're|act as|acting as|as)\s+(?:(?:a|an|the)\s+)?",
                      re.IGNORECASE)
_TRAILING = {"a", "an", "the", "of", "for", "to", "and", "or", "in", "on", "at", "with", "who",
             "that", "which", "by", "from", "your", "my"}
_SLUG_WORDS, _SLUG_CHARS = 4, 40


def first_line_slug(prompt: str) -> str:
    """`careful_travel_planner` for "You are a careful travel planner. Plan ...": the first few
    words of the first sentence of the prompt's first line with words, lower case, joined by `_`
    ("" when the prompt has no words)."""
    for line in prompt.splitlines():
        sentence = re.split(r"[.!?。！？]", line.strip(), maxsplit=1)[0]
        words = re.findall(r"[^\W_]+", _OPENING.sub("", sentence.strip()).lower())[:_SLUG_WORDS]
        while words and words[-1] in _TRAILING:
            words.pop()
        if words:
            return "_".join(words)[:_SLUG_CHARS].rstrip("_")
    return ""


class Recording:
    """The calls of one run, in order; optionally appended to a JSON-lines file as they come."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.calls: list[CallRecord] = []
        self.path = Path(path) if path else None
        self.t0 = time.perf_counter()

    def reset(self) -> None:
        self.calls.clear()
        self.t0 = time.perf_counter()

    def add(self, rec: CallRecord) -> None:
        self.calls.append(rec)
        if self.path is not None:
            with self.path.open("a", encoding="utf-8") as f:
                f.write(redact(json.dumps(asdict(rec))) + "\n")

    @staticmethod
    def load(path: str | Path) -> list[CallRecord]:
        out = []
        for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                try:
                    out.append(CallRecord(**json.loads(line)))
                except (json.JSONDecodeError, TypeError) as exc:
                    raise MasfuzzError(f"{path}:{n}: not a masfuzz call record: {exc}") from None
        return out


class ModelServer:
    def __init__(self, client: ModelClient, *, host: str = "127.0.0.1", port: int = 0,
                 agents: dict[str, str] | list[tuple[str, str]] | None = None, record: str | Path | None = None,
                 model_name: str = "masfuzz-sut") -> None:
        if host not in LOOPBACK:
            raise MasfuzzError(f"--host {host!r}: the endpoint binds to loopback only")
        self.client, self.host, self.port = client, host, port
        self.namer = AgentNamer(agents if isinstance(agents, list) else dict(agents or {}))
        self.recording = Recording(record)
        self.model_name = model_name
        # called with (agent, kind, request) before each call is answered: an adapter that runs
        # an app against this endpoint records what each agent's model received
        self.on_request: Callable[[str, str, ChatRequest], None] | None = None
        self._server: asyncio.AbstractServer | None = None
        self._lock = asyncio.Lock()  # one model call at a time: the run's order is the log's
        self.conversations = responses.Conversations()  # for `previous_response_id`

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    async def start(self) -> "ModelServer":
        try:
            self._server = await asyncio.start_server(self._connection, self.host, self.port)
        except OSError as exc:
            raise MasfuzzError(f"--port {self.port}: cannot listen on {self.host}: {exc.strerror}") from None
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    async def __aenter__(self) -> "ModelServer":
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    # ------------------------------------------------------------------ HTTP

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = (lines[0].split(" ", 2) + ["", ""])[:3]
                headers = {k.strip().lower(): v.strip() for k, _, v in
                           (ln.partition(":") for ln in lines[1:] if ln)}
                body = await _read_body(reader, headers)
                keep = headers.get("connection", "").lower() != "close"
                await self._route(method, path.split("?")[0], headers, body, writer)
                if not keep:
                    break
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError,
                asyncio.CancelledError):
            pass  # the client went away, or the server is closing
        finally:
            writer.close()

    async def _route(self, method: str, path: str, headers: dict[str, str], body: bytes,
                     writer: asyncio.StreamWriter) -> None:
        path = path.rstrip("/")
        if method == "GET" and path in ("/v1/models", "/models"):
            models = [{"id": self.model_name, "object": "model", "created": 0, "owned_by": "masfuzz"}]
            return await _send_json(writer, 200, {"object": "list", "data": models})
        if method == "GET" and path in ("", "/health", "/v1"):
            return await _send_json(writer, 200, {"status": "ok", "model": self.client.model_string})
        if method == "POST" and path.endswith("/chat/completions"):
            return await self._chat(headers, body, writer)
        if method == "POST" and path.endswith("/responses"):
            return await self._responses(headers, body, writer)
        await _send_json(writer, 404, _error(f"no route {method} {path}", "not_found"))

    async def _call(self, request: ChatRequest, headers: dict[str, str], *, stream: bool,
                    legacy: bool = False) -> tuple[CallRecord, ChatReply]:
        """Name the agent asking, answer with the SUT model and record the call: one at a time,
        so the recording's order is the run's."""
        agent, kind, system = self.namer.name(request, headers.get("x-masfuzz-agent"))
        request = request.model_copy(update={"agent": agent})
        if self.on_request is not None:
            self.on_request(agent, kind, request)
        async with self._lock:
            rec = CallRecord(index=len(self.recording.calls),
                             t=round(time.perf_counter() - self.recording.t0, 6), agent=agent,
                             kind=kind, request=request.model_dump(mode="json"), stream=stream,
                             legacy=legacy, system=system[:500])
            try:
                reply = await self.client.complete(request)
                rec.reply = reply.model_dump(mode="json")
            except Exception as exc:  # the model failed: the log says why, the app goes on
                rec.error = redact(f"{type(exc).__name__}: {exc}")
                reply = ChatReply(text="", finish_reason="stop")
            self.recording.add(rec)
        return rec, reply

    async def _responses(self, headers: dict[str, str], raw: bytes, writer: asyncio.StreamWriter) -> None:
        try:
            body = json.loads(raw or b"{}")
            request = responses.parse_request(body, agent=None,
                                              history=self.conversations.before(body))
        except (json.JSONDecodeError, MasfuzzError) as exc:
            return await _send_json(writer, 400, _error(str(exc), "invalid_request_error"))
        stream = bool(body.get("stream"))
        rec, reply = await self._call(request, headers, stream=stream)
        self.conversations.keep(responses.response_id(rec.index), request, reply)
        if not stream:
            return await _send_json(writer, 200, responses.response(
                reply, body, model=self.model_name, call_no=rec.index))
        events = responses.stream_events(reply, body, model=self.model_name, call_no=rec.index)
        await _send_events(writer, (f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events))

    async def _chat(self, headers: dict[str, str], raw: bytes, writer: asyncio.StreamWriter) -> None:
        try:
            body = json.loads(raw or b"{}")
            request = wire.parse_request(body, agent=None)
        except (json.JSONDecodeError, MasfuzzError) as exc:
            return await _send_json(writer, 400, _error(str(exc), "invalid_request_error"))
        stream = bool(body.get("stream"))
        use_legacy = wire.legacy(body)
        rec, reply = await self._call(request, headers, stream=stream, legacy=use_legacy)
        if not stream:
            return await _send_json(writer, 200, wire.completion(
                reply, model=self.model_name, call_no=rec.index, use_legacy=use_legacy))
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        chunks = wire.stream_chunks(reply, model=self.model_name, call_no=rec.index,
                                    use_legacy=use_legacy, include_usage=include_usage)
        await _send_events(writer, [*(f"data: {json.dumps(c)}\n\n" for c in chunks), "data: [DONE]\n\n"])


async def _send_events(writer: asyncio.StreamWriter, events: Any) -> None:
    """Server-sent events, each one chunk of a chunked HTTP body."""
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                 b"Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n")
    for e in events:
        _write_chunk(writer, e.encode())
    writer.write(b"0\r\n\r\n")
    await writer.drain()


def _error(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "code": None}}


def _write_chunk(writer: asyncio.StreamWriter, data: bytes) -> None:
    writer.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")


async def _send_json(writer: asyncio.StreamWriter, status: int, payload: Any) -> None:
    data = json.dumps(payload).encode()
    reason = {200: "OK", 400: "Bad Request", 404: "Not Found", 500: "Internal Server Error"}[status]
    writer.write(f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
    await writer.drain()


async def _read_body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if headers.get("transfer-encoding", "").lower() == "chunked":
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0].strip() or b"0", 16)
            if size == 0:
                await reader.readuntil(b"\r\n")
                return b"".join(parts)
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
    length = int(headers.get("content-length", "0") or 0)
    if length > MAX_BODY:
        raise ConnectionError("request body too large")
    return await reader.readexactly(length) if length else b""
