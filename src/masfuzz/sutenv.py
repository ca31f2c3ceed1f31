"""The process environment the system under test's own code sees: no key needed, no provider
reachable.

While masfuzz loads or runs the user's code (`sut_environment`):
- the key variables the user left unset hold `DUMMY_KEY`, so an app that builds its model client
  as it loads (`OpenAIChatCompletionClient(model=...)` at module level) loads all the same;
- the provider base-URL variables point at `Refusal`, a loopback listener that answers every
  request with an error naming the cause and counts it. A model client masfuzz did not replace
  (one built inside a tool at call time, say) therefore never reaches a paid provider: its call
  is refused at once, and the run is told "model not injected" instead of the app crashing on a
  network error. masfuzz's own clients read the user's environment as it was before
  (`original`), never these values.
"""

from __future__ import annotations

import contextlib
import json
import mmap
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DUMMY_KEY = "sk-masfuzz-loopback"
KEY_VARIABLES = ("OPENAI_API_KEY", "GOOGLE_API_KEY")  # PydanticAI makes a Gemini model as it loads
# Where the OpenAI SDK (OPENAI_BASE_URL), its 0.x releases and LiteLLM (OPENAI_API_BASE) look
# for the provider when the code does not say.
URL_VARIABLES = ("OPENAI_BASE_URL", "OPENAI_API_BASE")
NOT_INJECTED = ("masfuzz: model not injected: a model client of the app that masfuzz did not "
                "replace called its provider directly; masfuzz refused the call")

# The user's environment before masfuzz lent anything (and before the app's code ran: an app's
# load_dotenv() must not change which key or endpoint masfuzz's own model calls use).
_ORIGINAL = {name: os.environ.get(name) for name in (*KEY_VARIABLES, *URL_VARIABLES)}


def original(name: str) -> str | None:
    return _ORIGINAL.get(name, os.environ.get(name))


class Refusal:
    """The loopback stand-in for every model provider while the user's code runs: answers
    each request with HTTP 400 (an error no SDK retries) carrying `NOT_INJECTED`, and counts."""

    _lock = threading.Lock()
    _server: ThreadingHTTPServer | None = None
    # the count, in memory shared with the processes forked from this one: a pool worker runs
    # each run in a child (`masfuzz.exec.worker._apart`) while this process's thread answers
    _hits = mmap.mmap(-1, 8)

    @classmethod
    def url(cls) -> str:
        with cls._lock:
            if cls._server is None:
                cls._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
                cls._server.daemon_threads = True
                threading.Thread(target=cls._server.serve_forever, name="masfuzz-refusal",
                                 daemon=True).start()
            return f"http://127.0.0.1:{cls._server.server_address[1]}/v1"

    @classmethod
    def hit(cls) -> None:
        with cls._lock:
            cls._hits[:] = (cls.hits() + 1).to_bytes(8, "little")

    @classmethod
    def hits(cls) -> int:
        return int.from_bytes(cls._hits[:], "little")

    # While the app's code loads (`loading`), a chat completion is answered with a placeholder
    # instead: a module that runs its app at import time (a quickstart's `app.invoke(...)` at
    # the end of the file) then loads, and masfuzz gets the objects it builds.
    _loading = 0
    _load_calls = 0

    @classmethod
    @contextlib.contextmanager
    def loading(cls) -> Iterator[list[int]]:
        """While the app's code loads; yields a one-item list: the chat completions answered
        with a placeholder in the meantime (filled in when the scope ends)."""
        with cls._lock:
            cls._loading += 1
            before = cls._load_calls
        answered = [0]
        try:
            yield answered
        finally:
            with cls._lock:
                cls._loading -= 1
                answered[0] = cls._load_calls - before

    @classmethod
    def answers_placeholder(cls, path: str) -> bool:
        with cls._lock:
            if cls._loading and path.rstrip("/").endswith("/chat/completions"):
                cls._load_calls += 1
                return True
            return False


LOAD_PLACEHOLDER = "masfuzz: a placeholder answer while the app's code loads"


def _placeholder(request: dict[str, Any]) -> tuple[str, bytes]:
    """A minimal chat completion (or its stream) in OpenAI's wire format."""
    model = str(request.get("model") or "masfuzz-placeholder")
    message = {"role": "assistant", "content": LOAD_PLACEHOLDER}
    usage = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
    if request.get("stream"):
        chunk = {"id": "masfuzz-load", "object": "chat.completion.chunk", "created": 0, "model": model,
                 "choices": [{"index": 0, "delta": message, "finish_reason": "stop"}]}
        return "text/event-stream", f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n".encode()
    body = {"id": "masfuzz-load", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}], "usage": usage}
    return "application/json", json.dumps(body).encode()


class _Handler(BaseHTTPRequestHandler):
    def _refuse(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.command == "POST" and Refusal.answers_placeholder(self.path):
            try:
                request = json.loads(raw or b"{}")
            except ValueError:
                request = {}
            kind, body = _placeholder(request if isinstance(request, dict) else {})
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        Refusal.hit()
        body = json.dumps({"error": {"message": NOT_INJECTED, "type": "masfuzz_not_injected",
                                     "code": "masfuzz_not_injected"}}).encode()
        self.send_response(400)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_GET = do_PUT = _refuse

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        pass  # never on masfuzz's output


_depth = 0  # sut_environment scopes open (runs on one event loop overlap): set by the first
_saved: dict[str, str | None] = {}  # what the first one found, put back by the last one
_scopes = threading.Lock()


@contextlib.contextmanager
def sut_environment() -> Iterator[None]:
    """While the user's code loads or runs: dummy keys for the ones left unset, provider URLs
    at `Refusal`; the environment as it was once the last such scope ends."""
    global _depth
    with _scopes:
        if _depth == 0:
            values = {name: DUMMY_KEY for name in KEY_VARIABLES if not os.environ.get(name)}
            values.update({name: Refusal.url() for name in URL_VARIABLES})
            _saved.clear()
            _saved.update({name: os.environ.get(name) for name in values})
            os.environ.update(values)
        _depth += 1
    try:
        yield
    finally:
        with _scopes:
            _depth -= 1
            if _depth == 0:
                for name, old in _saved.items():
                    if old is None:
                        os.environ.pop(name, None)
                    else:
                        os.environ[name] = old
