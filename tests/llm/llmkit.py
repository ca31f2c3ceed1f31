from pathlib import Path

from masfuzz.cli import models_cmd
from masfuzz.llm.types import ChatMessage, ChatRequest

HERE = Path(__file__).parent
SEAT_POLICY = f"scripted/{HERE / 'seat_policy.py'}:policy"

# The request `masfuzz models check` sends is the one the tests use too.
UPDATE_SEAT = models_cmd.UPDATE_SEAT


def user(text: str) -> ChatRequest:
    return ChatRequest(messages=(ChatMessage(role="user", content=text),), tools=(UPDATE_SEAT,))


# --- a small OpenAI-compatible HTTP endpoint with scripted status codes -------------------

import json  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer  # noqa: E402


def completion_body(name="update_seat", arguments='{"confirmation_number": "ABC123", "new_seat": "14C"}'):
    return {
        "id": "cmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {"id": "call_x", "type": "function", "function": {"name": name, "arguments": arguments}}
                    ],
                },
            }
        ],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


class StatusServer:
    """Answers POST /v1/chat/completions with the next status in `statuses` (200 = a tool
    call), or with what `answer(body)` returns as (status, payload) or (status, payload,
    headers), a payload of bytes sent as it is; records each request's Authorization header
    and body, the time it came in, and the peak number of open requests."""

    def __init__(self, statuses=(200,), delay=0.0, answer=None):
        self.answer = answer
        self.statuses = list(statuses)
        self.delay = delay
        self.requests = []
        self.times = []
        self.open = 0
        self.peak = 0
        self.lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with owner.lock:
                    owner.requests.append((self.headers.get("Authorization"), body))
                    owner.times.append(time.monotonic())
                    status = owner.statuses.pop(0) if len(owner.statuses) > 1 else owner.statuses[0]
                    owner.open += 1
                    owner.peak = max(owner.peak, owner.open)
                time.sleep(owner.delay)
                payload = completion_body() if status == 200 else {"error": {"message": f"status {status}"}}
                headers = {}
                if owner.answer is not None:
                    status, payload, *more = owner.answer(body)
                    headers = more[0] if more else {}
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                try:
                    self.wfile.write(data)
                except OSError:  # the client gave up on this attempt (its timeout)
                    pass
                with owner.lock:
                    owner.open -= 1

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
