import asyncio
import sqlite3
import time

import pytest

from llmkit import StatusServer, user
from masfuzz.llm import ResponseCache, get_client
from masfuzz.redact import encodings, redact, redact_data

TRICKY = 'tok"en\\with-ü-<&>\'-0123456789'


def test_keys_headers_env_secrets_and_url_credentials_are_redacted(monkeypatch):
    monkeypatch.setenv("MY_SERVICE_TOKEN", "tok-0123456789")
    text = (
        "Authorization: Bearer abc.def-123 key sk-proj-abcdef123456 "
        "env tok-0123456789 url http://bob:pw@host/v1 given supersecretvalue"
    )
    out = redact(text, "supersecretvalue")
    for secret in ("abc.def-123", "sk-proj-abcdef123456", "tok-0123456789", "bob:pw", "supersecretvalue"):
        assert secret not in out
    assert "http://host/v1" in out


def test_a_secret_is_masked_in_every_encoding_it_can_take(monkeypatch):
    import html
    import json
    from urllib.parse import quote, quote_plus

    monkeypatch.setenv("MY_SERVICE_TOKEN", TRICKY)
    written = {
        "raw": TRICKY,
        "json": json.dumps({"error": TRICKY}),
        "json, ASCII only": json.dumps({"error": TRICKY}, ensure_ascii=False),
        "json in json": json.dumps({"payload": json.dumps({"error": TRICKY})}),
        "html": html.escape(f"<td>{TRICKY}</td>"),
        "html, quotes kept": html.escape(TRICKY, quote=False),
        "url": f"https://host/v1?q={quote(TRICKY, safe='')}",
        "form": f"q={quote_plus(TRICKY)}",
    }
    for how, text in written.items():
        out = redact(f"before {text} after")
        assert "***" in out, how
        for form in encodings(TRICKY):
            assert form not in out, (how, form)



def test_a_value_is_redacted_string_by_string_wherever_a_secret_or_token_sits(monkeypatch):
    monkeypatch.setenv("MY_SERVICE_TOKEN", "tok-0123456789")
    clean = {"content": "fine", "tool_calls": [{"name": "update_seat", "arguments": '{"seat": "3A"}'}]}
    assert redact_data(clean) is clean  # nothing to mask: the value itself, not a copy
    leaky = {"content": "ok", "calls": [("x", {"tok-0123456789": "Bearer\tabc.def"})],
             "n": 3, "url": "http://bob:pw@host/v1"}
    assert redact_data(leaky) == {"content": "ok", "calls": [("x", {"***": "Bearer\t***"})],
                                  "n": 3, "url": "http://host/v1"}
    # a match the newline-joined search could make across two strings is only looked at again
    assert redact_data(["sk-", "abcdefgh"]) == ["sk-", "abcdefgh"]


@pytest.mark.parametrize("shape", ["letters", "url-like", "schemes", "bearer", "authorization", "query"])
def test_redaction_takes_linear_time_on_a_10_mb_reply(shape):
    unit = {"letters": "a", "url-like": "http://" + "a" * 1000, "schemes": "a://b",
            "bearer": "bearer ", "authorization": "authorization ", "query": "?token="}[shape]
    text = unit * (10_000_000 // len(unit))
    start = time.perf_counter()
    redact(text)
    # quadratic patterns took 1.4 s for 8,000 letters and would take days here; the bound only
    # separates linear from quadratic on a loaded machine (bench: about a second)
    assert time.perf_counter() - start < 30


def test_url_credentials_and_tokens_are_still_found_whole():
    out = redact("see https://alice:s3cr3t@example.test/x and ?api_key=abc123&b=1 and Bearer " + "t" * 9000)
    assert "alice" not in out and "s3cr3t" not in out and "abc123" not in out and "ttt" not in out
    assert "https://example.test/x" in out and "&b=1" in out


def test_a_reply_echoing_a_secret_is_masked_before_the_cache_keeps_it(tmp_path, monkeypatch):
    monkeypatch.setenv("SHOP_API_TOKEN", TRICKY)

    def echo(body):
        return 200, {"id": "c", "object": "chat.completion", "created": 0, "model": "m",
                     "choices": [{"index": 0, "finish_reason": "stop", "message": {
                         "role": "assistant", "content": f"your token is {TRICKY}"}}]}

    cache = tmp_path / "model-cache.sqlite"
    with StatusServer(answer=echo) as srv:
        client = get_client(f"openai-compatible/m@{srv.url}", cache=ResponseCache(cache))
        first = asyncio.run(client.complete(user("what is my token?")))
        again = asyncio.run(client.complete(user("what is my token?")))
    assert len(srv.requests) == 1 and again.cached
    assert first.text == again.text == "your token is ***"
    client.cache.close()
    rows = sqlite3.connect(cache).execute("SELECT reply FROM replies").fetchall()
    stored = repr(rows) + "".join(r[0] for r in rows)
    assert len(rows) == 1 and "your token is ***" in rows[0][0]
    for form in encodings(TRICKY):
        assert form not in stored, form
