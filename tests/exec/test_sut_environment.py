"""The system under test's code runs with no provider reachable (`masfuzz.sutenv`): a model
client masfuzz could not replace is refused at once and reported as "model not injected", the
harness's finding, never an app crash; the provider's own endpoint sees no connection."""

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.conftest import ROOT

pytest.importorskip("agents")

APP = "tests/exec/fixtures/uninjected_app.py"


class _Provider(BaseHTTPRequestHandler):
    seen = 0

    def do_POST(self):  # noqa: N802 - the base's name
        type(self).seen += 1
        self.send_response(500)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.mark.parametrize("executor", ["pool", "inprocess"])
def test_a_client_masfuzz_cannot_replace_is_refused_and_reported_not_injected(cli, monkeypatch, executor):
    provider = ThreadingHTTPServer(("127.0.0.1", 0), _Provider)
    threading.Thread(target=provider.serve_forever, daemon=True).start()
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{provider.server_address[1]}/v1")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    try:
        code, out, err = cli("exec", f"{APP}:writer", "--input", "Summarize the report",
                             "--sut-model", f"scripted/{APP}:policy", "--executor", executor,
                             "--format", "json", "--failures", "--fail-on", "any")
    finally:
        provider.shutdown()
    assert code == 0, err  # the harness's finding never fails the gate
    data = json.loads(out)
    assert _Provider.seen == 0  # nothing reached the provider's endpoint
    assert data["trace"]["meta"]["not_injected_calls"] == 1
    [result] = [e for e in data["trace"]["events"] if e["type"] == "tool_result"]
    assert result["status"] == "error" and "masfuzz: model not injected" in result["payload"]
    [finding] = [f for f in data["failures"] if f["detector"] == "model_not_injected"]
    assert finding["attribution"] == "harness" and "model not injected" in finding["because"]
    assert os.environ["OPENAI_BASE_URL"].startswith(f"http://127.0.0.1:{provider.server_address[1]}")
    assert "OPENAI_API_KEY" not in os.environ  # the environment is the user's again
