"""Model settings travel inside the ExecutionRequest: a subprocess worker makes its SUT model
calls exactly as the command said (cache, retries, per-call timeout, which variable holds the
key), against a loopback OpenAI-compatible server that counts requests and headers."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "llm"))
from llmkit import StatusServer  # noqa: E402

from tests.conftest import EXAMPLES  # noqa: E402

pytest.importorskip("agents")

CS = str(EXAMPLES / "customer_service" / "app.py") + ":triage_agent"


def _exec(cli, url, *extra):
    return cli("exec", CS, "--input", "Change my seat to 14C, booking ABC123", "--executor",
               "subprocess", "--sut-model", f"openai-compatible/m@{url}", "--format", "json",
               "--timeout", "60", *extra)


def test_retries_and_key_variable_reach_the_worker(cli, monkeypatch):
    monkeypatch.setenv("MY_SUT_KEY", "key-for-the-sut-123456")
    with StatusServer([500]) as srv:
        code, out, err = _exec(cli, srv.url, "--retries", "0", "--no-cache",
                               "--api-key-env", "MY_SUT_KEY")
    assert code == 0, err
    assert len(srv.requests) == 1  # --retries 0: a 500 is not tried again
    assert srv.requests[0][0] == "Bearer key-for-the-sut-123456"
    trace = json.loads(out)
    assert "key-for-the-sut-123456" not in out
    with StatusServer([500]) as srv:
        _exec(cli, srv.url, "--retries", "2", "--no-cache", "--api-key-env", "MY_SUT_KEY")
    assert len(srv.requests) == 3
    assert trace["events"][-1]["type"] == "termination"


def test_model_timeout_and_cache_reach_the_worker(cli, tmp_path):
    with StatusServer([200], delay=3.0) as srv:
        code, out, err = _exec(cli, srv.url, "--model-timeout", "0.5", "--retries", "0",
                               "--no-cache")
    assert code == 0, err
    assert "no reply within 0.5 s" in out
    cache = tmp_path / "cache.sqlite"
    with StatusServer([200]) as srv:
        _exec(cli, srv.url, "--cache", str(cache), "--max-turns", "1")
        first = len(srv.requests)
        _exec(cli, srv.url, "--cache", str(cache), "--max-turns", "1")
        assert first >= 1 and len(srv.requests) == first  # the second worker read the cache
        _exec(cli, srv.url, "--cache", str(cache), "--max-turns", "1", "--no-cache")
        assert len(srv.requests) == 2 * first
    assert cache.exists()
