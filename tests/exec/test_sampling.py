"""Per-agent temperatures and the execution nonce reach each agent's model calls, in-process and
in a worker, and a new nonce is a new sample rather than a cached answer."""

import json

import pytest

from tests.conftest import EXAMPLES, ROOT

pytest.importorskip("agents")

CS = str(EXAMPLES / "customer_service" / "app.py") + ":triage_agent"
POLICY = "scripted/" + str(ROOT / "tests" / "exec" / "sampling_policy.py") + ":policy"


@pytest.mark.parametrize("executor", ["inprocess", "pool"])
def test_temperature_reaches_only_its_agent_and_the_nonce_is_the_seed(cli, executor):
    code, out, err = cli("exec", CS, "--input", "change my seat please", "--sut-model", POLICY,
                         "--agent-temperature", "seat_booking_agent=1.5", "--nonce", "7",
                         "--executor", executor, "--format", "json")
    assert code == 0, err
    trace = json.loads(out)
    assert trace["events"][-1]["final_output"] == "seat_booking_agent sampled at temperature=1.5 seed=7"
    ran = trace["meta"]["agent_settings"]  # recorded where the calls were made, worker or not
    assert ran["seat_booking_agent"]["temperature"] == 1.5 and ran["triage_agent"]["temperature"] is None


def test_a_new_nonce_is_a_new_sample_not_a_cache_hit(cli, tmp_path):
    cache = str(tmp_path / "cache.sqlite")
    outs = []
    for nonce in ("1", "1", "2"):
        code, out, err = cli("exec", CS, "--input", "hello", "--sut-model", POLICY, "--nonce", nonce,
                             "--cache", cache, "--executor", "inprocess", "--format", "json")
        assert code == 0, err
        outs.append(json.loads(out)["events"][-1]["final_output"])
    assert outs == ["triage_agent sampled at temperature=None seed=1"] * 2 + \
        ["triage_agent sampled at temperature=None seed=2"]


def test_bad_temperatures_are_one_line(cli):
    for value, words in (("ghost=0.5", "no agent 'ghost'"), ("triage_agent=3", "T in 0..2"),
                         ("triage_agent=hot", "T in 0..2")):
        code, _, err = cli("exec", CS, "--input", "hi", "--sut-model", POLICY,
                           "--agent-temperature", value)
        assert code == 2 and words in err and err.count("\n") == 1, err
