"""The system under test's code runs with no provider reachable (`masfuzz.sutenv`): a model
client masfuzz could not replace is refused at once and reported as "model not injected", the
harness's finding, never an app crash; the provider's own endpoint sees no connection."""

import json
import os

import pytest

from tests.conftest import ROOT

pytest.importorskip("agents")

APP = "tests/exec/fixtures/uninjected_app.py"


@pytest.mark.parametrize("executor", ["pool", "inprocess"])
def test_a_client_masfuzz_cannot_replace_is_refused_and_reported_not_injected(cli, monkeypatch, executor,
                                                                              provider_endpoint):
    monkeypatch.chdir(ROOT)
    endpoint = os.environ["OPENAI_BASE_URL"]
    code, out, err = cli("exec", f"{APP}:writer", "--input", "Summarize the report",
                         "--sut-model", f"scripted/{APP}:policy", "--executor", executor,
                         "--format", "json", "--failures", "--fail-on", "any")
    assert code == 0, err  # the harness's finding never fails the gate
    data = json.loads(out)
    assert provider_endpoint == []  # nothing reached the provider's endpoint
    assert data["trace"]["meta"]["not_injected_calls"] == 1
    [result] = [e for e in data["trace"]["events"] if e["type"] == "tool_result"]
    assert result["status"] == "error" and "masfuzz: model not injected" in result["payload"]
    [finding] = [f for f in data["failures"] if f["detector"] == "model_not_injected"]
    assert finding["attribution"] == "harness" and "model not injected" in finding["because"]
    assert os.environ["OPENAI_BASE_URL"] == endpoint
    assert "OPENAI_API_KEY" not in os.environ  # the environment is the user's again
