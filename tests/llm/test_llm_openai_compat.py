"""The openai-compatible provider against real HTTP endpoints: a stdlib server with scripted
status codes (retries, concurrency, errors) and llama-cpp-python's own OpenAI server."""

import asyncio
import contextlib
import io
import socket
import sqlite3
import subprocess
import sys
import time

import pytest

from llmkit import StatusServer, user
from masfuzz.cli import main
from masfuzz.errors import ModelError
from masfuzz.llm import get_client, set_max_connections
from masfuzz.llm.client import DEFAULT_MAX_CONNECTIONS


def model(url):
    return f"openai-compatible/m@{url}"


def test_retries_rate_limits_and_5xx_then_parses_the_tool_call():
    with StatusServer([429, 503, 200]) as srv:
        client = get_client(model(srv.url), base_delay=0.01)
        reply = asyncio.run(client.complete(user("ABC123 to 14C")))
    assert len(srv.requests) == 3
    (tc,) = reply.tool_calls
    assert (tc.name, tc.arguments) == ("update_seat", {"confirmation_number": "ABC123", "new_seat": "14C"})
    assert (reply.usage.tokens_in, reply.usage.tokens_out) == (11, 7)
    body = srv.requests[-1][1]
    assert body["tools"][0]["function"]["name"] == "update_seat"


def test_gives_up_after_the_retry_budget_with_one_line_error():
    with StatusServer([500]) as srv:
        client = get_client(model(srv.url), base_delay=0.01, max_retries=2)
        with pytest.raises(ModelError) as info:
            asyncio.run(client.complete(user("x")))
    assert len(srv.requests) == 3
    assert str(info.value).startswith(model(srv.url) + ": HTTP 500")


def test_wrong_key_is_not_retried_and_never_echoed():
    secret = "sk-this-is-a-wrong-key-123456"
    with StatusServer([401]) as srv:
        client = get_client(model(srv.url), api_key=secret, base_delay=0.01)
        with pytest.raises(ModelError) as info:
            asyncio.run(client.complete(user("x")))
    assert len(srv.requests) == 1
    assert srv.requests[0][0] == f"Bearer {secret}"  # the key did reach the server...
    msg = str(info.value)
    assert secret not in msg and "sk-this" not in msg  # ...but never the error
    assert msg.startswith(model(srv.url)) and "rejected (HTTP 401)" in msg


def test_unreachable_provider_is_one_line_error_naming_the_model_string():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    code, err = run_cli(["models", "check", model(f"http://127.0.0.1:{port}/v1"), "--no-cache", "--retries", "0"])
    assert code == 2
    assert err.count("\n") == 1
    assert f"masfuzz: error: {model(f'http://127.0.0.1:{port}/v1')}: cannot reach" in err


def test_max_connections_bounds_concurrent_requests():
    with StatusServer([200], delay=0.2) as srv:
        client = get_client(model(srv.url))

        async def many():
            await asyncio.gather(*(client.complete(user(f"request {i}")) for i in range(6)))

        set_max_connections(2)
        try:
            asyncio.run(many())
        finally:
            set_max_connections(DEFAULT_MAX_CONNECTIONS)
    assert len(srv.requests) == 6
    assert srv.peak == 2


def _llama_cpp_formats(body):
    """As llama-cpp-python's server answers: a json_schema response format is a validation
    error (HTTP 500), a json_object one with its schema is answered with JSON text."""
    import json

    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return 500, {"error": {"message": "1 validation error: {'loc': ('body', 'response_format', "
                               "'type'), 'msg': \"Input should be 'text' or 'json_object'\", "
                               "'input': 'json_schema'}"}}
    return 200, {"id": "c", "object": "chat.completion", "created": 0, "model": "m",
                 "choices": [{"index": 0, "finish_reason": "stop", "message": {
                     "role": "assistant", "content": json.dumps({"schema_seen": "schema" in fmt})}}],
                 "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8}}


def test_a_server_that_refuses_json_schema_gets_json_object_with_the_schema():
    from masfuzz.llm.types import ChatMessage, ChatRequest

    ask = ChatRequest(messages=(ChatMessage(role="user", content="JSON please"),),
                      response_schema={"type": "object", "properties": {"schema_seen": {"type": "boolean"}}})
    with StatusServer(answer=_llama_cpp_formats) as srv:
        client = get_client(model(srv.url), base_delay=0.01)
        first = asyncio.run(client.complete(ask))
        second = asyncio.run(client.complete(ask))
    assert first.text == second.text == '{"schema_seen": true}'
    # refused once (not retried as a server error), then json_object from the start
    formats = [body["response_format"]["type"] for _, body in srv.requests]
    assert formats == ["json_schema", "json_object", "json_object"]


def run_cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, (out.getvalue() if code == 0 else err.getvalue())


# --- llama-cpp-python's own OpenAI server -------------------------------------------------


@pytest.fixture(scope="module")
def llama_server():
    pytest.importorskip("llama_cpp.server.app", reason="needs llama-cpp-python[server] (the local extra)")
    from masfuzz.llm.local_weights import weights_path

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    key = "server-test-key-0123456789"
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(weights_path("smollm2-135m")),
         "--chat_format", "chatml-function-calling", "--host", "127.0.0.1", "--port", str(port),
         "--n_ctx", "2048", "--api_key", key],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert proc.poll() is None, "llama_cpp.server exited"
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.3)
        yield f"http://127.0.0.1:{port}/v1", key
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.mark.local_model
def test_models_check_against_llama_cpp_openai_server(llama_server, tmp_path, monkeypatch):
    url, key = llama_server
    monkeypatch.setenv("MY_SERVER_KEY", key)
    cache = tmp_path / "cache.sqlite"
    code, out = run_cli(["models", "check", model(url), "--api-key-env", "MY_SERVER_KEY", "--cache", str(cache)])
    assert code == 0, out
    assert "reply:    tool call update_seat(confirmation_number=" in out
    assert "usage:" in out and "latency:" in out
    stored = sqlite3.connect(cache).execute("SELECT key, reply, provider, model, base_url FROM replies").fetchall()
    assert len(stored) == 1 and key not in repr(stored)  # the key never reaches a cache row


@pytest.mark.local_model
def test_wrong_key_against_llama_cpp_server(llama_server, monkeypatch):
    url, key = llama_server
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", "wrong-key-abcdef")
    code, err = run_cli(["models", "check", model(url), "--no-cache"])
    assert code == 2
    assert err.strip() == (
        f"masfuzz: error: {model(url)}: the API key was rejected (HTTP 401); "
        "check OPENAI_COMPATIBLE_API_KEY or --api-key-env"
    )
    assert "wrong-key" not in err and key not in err


def test_openai_without_a_key_says_which_variable_to_set(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ModelError, match=r"^openai/gpt-4.1-mini: no API key; set OPENAI_API_KEY$"):
        get_client("openai/gpt-4.1-mini")


def test_an_assistant_turn_with_tool_calls_is_sent_with_text_content():
    from masfuzz.llm.openai_format import request_params
    from masfuzz.llm.types import ChatMessage, ChatRequest, ToolCallRequest

    call = ToolCallRequest(id="c1", name="update_seat", arguments={"new_seat": "14C"})
    params = request_params(ChatRequest(messages=(
        ChatMessage(role="user", content="14C please"), ChatMessage(role="assistant", tool_calls=(call,)),
        ChatMessage(role="tool", tool_call_id="c1", name="update_seat", content="done"))))
    assistant = params["messages"][1]
    assert assistant["content"] == "" and assistant["tool_calls"][0]["function"]["name"] == "update_seat"
