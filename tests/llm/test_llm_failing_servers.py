"""A tester model whose server answers what masfuzz did not ask for (a body that is not JSON, no
choices, 10 MB of bytes, a 500 or a 429 before the real answer, an answer that comes too late)
never ends a campaign: each call is retried per attempt, and a call that still fails is recorded
against its objective with what the server answered."""

import asyncio
import json
import sqlite3
import threading
import time
from collections import Counter

import pytest

from llmkit import StatusServer, user
from masfuzz.errors import ModelCallFailed, ModelError
from masfuzz.llm import get_client
from tests.conftest import ROOT

CS = "examples/customer_service/app.py:triage_agent"
CS_SUT = "scripted/examples/customer_service/policy.py:policy"
TASK = "Please change my seat to 14C, confirmation ABC123"
BIG = 10_000_000


def model(url):
    return f"openai-compatible/m@{url}"


def text_reply(text):
    return {"id": "c", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8}}


def a_request(body):
    """What a user might write, from what the realizer asked for (the tester's words)."""
    asked = body["messages"][-1]["content"].lower()
    if "seat" in asked:
        return "I would like to move to seat 14C, my confirmation number is ABC123."
    return "How many bags may I bring on board, and is there wifi on the plane?"


class Alternating:
    """Each request answers `status` (with `headers`) the first time it comes, and the second
    time a real answer: each call fails once (calls run at once, so counted per request)."""

    def __init__(self, status, headers=None):
        self.status, self.headers, self.seen = status, headers or {}, {}
        self.lock = threading.Lock()

    def __call__(self, body):
        key = json.dumps(body, sort_keys=True)
        with self.lock:
            self.seen[key] = self.seen.get(key, 0) + 1
            first = self.seen[key] % 2 == 1
        if first:
            return self.status, {"error": {"message": f"try again ({self.status})"}}, self.headers
        return 200, text_reply(a_request(body))


BROKEN = {
    "not-json": (lambda body: (200, b"{not json"), "the reply is not JSON: {not json"),
    "no-choices": (lambda body: (200, {"id": "x", "object": "chat.completion", "created": 0,
                                      "model": "m", "choices": []}),
                   "the reply has no choices"),
    "10-MB": (lambda body: (200, b"x" * BIG), "the reply is not JSON: xxx"),
}


# --- the client ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_reply_is_retried_then_a_failed_call_saying_what_came(case):
    answer, said = BROKEN[case]
    with StatusServer(answer=answer) as srv:
        client = get_client(model(srv.url), base_delay=0.01, max_retries=2)
        with pytest.raises(ModelCallFailed) as info:
            asyncio.run(client.complete(user("x")))
    assert len(srv.requests) == 3  # retried like a 5xx
    msg = str(info.value)
    assert msg.startswith(f"{model(srv.url)}: {said}") and msg.endswith("(3 attempts)")
    assert len(msg) < 600  # an excerpt, not the body


def test_the_timeout_bounds_each_attempt_and_a_timed_out_attempt_is_retried():
    slow = threading.Event()

    def answer(body):
        if not slow.is_set():  # the first attempt: an answer long after the timeout
            slow.set()
            time.sleep(20)
        return 200, text_reply("late but here")

    with StatusServer(answer=answer) as srv:
        client = get_client(model(srv.url), base_delay=0.01, max_retries=2, timeout=4)
        reply = asyncio.run(client.complete(user("x")))
    assert reply.text == "late but here" and len(srv.requests) == 2


def test_a_500_is_retried_within_the_timeout_and_reported_as_what_the_server_said():
    with StatusServer(answer=lambda body: (500, {"error": {"message": "the backend fell over"}})) as srv:
        client = get_client(model(srv.url), base_delay=0.01, max_retries=3, timeout=5)
        with pytest.raises(ModelCallFailed) as info:
            asyncio.run(client.complete(user("x")))
    assert len(srv.requests) == 4  # not one attempt cut short by a timeout over the whole loop
    assert str(info.value) == (f"{model(srv.url)}: HTTP 500 from {srv.url}: the backend fell over "
                               "(4 attempts)")


def test_a_429_waits_as_long_as_retry_after_says_then_succeeds():
    with StatusServer(answer=Alternating(429, {"Retry-After": "1"})) as srv:
        client = get_client(model(srv.url), base_delay=0.01, max_retries=2, timeout=10)
        reply = asyncio.run(client.complete(user("move me to seat 14C")))
    assert reply.text.startswith("I would like to move to seat 14C")
    assert len(srv.requests) == 2
    assert srv.times[1] - srv.times[0] >= 1.0  # the server's wait, not the 0.01 s backoff


def test_a_retry_after_longer_than_the_longest_wait_is_cut_to_it():
    from masfuzz.llm.retry import MAX_DELAY, RetryPolicy, parse_retry_after

    assert parse_retry_after({"retry-after": "2"}) == 2.0
    assert parse_retry_after({"retry-after-ms": "250"}) == 0.25
    assert parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0  # past
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert RetryPolicy(base_delay=0.5).delay(0, 3600.0) == MAX_DELAY
    assert RetryPolicy(base_delay=0.5).delay(2, None) == 2.0


def test_a_wrong_key_still_ends_the_campaign_as_bad_settings():
    with StatusServer([401]) as srv:
        client = get_client(model(srv.url), base_delay=0.01)
        with pytest.raises(ModelError) as info:
            asyncio.run(client.complete(user("x")))
    assert not isinstance(info.value, ModelCallFailed) and len(srv.requests) == 1


# --- the commands -------------------------------------------------------------------------

CASES = {**{name: (answer, said) for name, (answer, said) in BROKEN.items()},
         "500-then-200": (Alternating(500), None),
         "429-then-200": (Alternating(429, {"Retry-After": "1"}), None)}


def _campaign(cli, tmp_path, command, url, *extra):
    store = str(tmp_path / "runs.db")
    code, out, err = cli(command, CS, "--model", model(url), "--sut-model", CS_SUT, "--no-cache",
                         "--store", store, "--suite", str(tmp_path / "suite.yaml"),
                         "--retries", "1", "--attempts", "1", "--format", "json", *extra)
    status = sqlite3.connect(store).execute("SELECT status FROM runs").fetchall()
    return code, out, err, status


def _tester_attempts(report):
    generation = report["generation"]
    for item in generation["unrealized"]:
        yield from item["attempts"]
    yield from (generation.get("realized") or [])


@pytest.mark.parametrize("case", sorted(CASES))
def test_cover_completes_and_records_each_failed_tester_call(cli, tmp_path, monkeypatch, case):
    pytest.importorskip("agents")
    monkeypatch.chdir(ROOT)
    answer, said = CASES[case]
    with StatusServer(answer=answer) as srv:
        code, out, err, status = _campaign(cli, tmp_path, "cover", srv.url, "--faults", "none")
    assert code in (0, 1), err  # 1: coverage under a bar; never 2, never a traceback
    assert "Traceback" not in err and status == [("completed",)]
    report = json.loads(out)
    verdicts = [a["verdict"] for item in report["generation"]["unrealized"] for a in item["attempts"]]
    failed = [v for v in verdicts if v.startswith("tester model failed")]
    if said is None:  # retried and answered: no call failed, and each answered call took two
        assert not failed
        assert len(srv.requests) == 2 * report["generation"]["tester_model_calls"]
    else:
        assert failed and len(failed) == len(verdicts)
        assert all(said in v and v.endswith("(2 attempts)") and len(v) < 600 for v in failed), failed[0]


class EachItsOwn:
    """Each request (retried, the same body) answers one of `answers` always: the first request
    seen the first, the next the second, and round; so that one run meets every one of them."""

    def __init__(self, *answers):
        self.answers, self.order = answers, {}
        self.lock = threading.Lock()

    def __call__(self, body):
        key = json.dumps(body, sort_keys=True)
        with self.lock:
            which = self.order.setdefault(key, len(self.order) % len(self.answers))
        return self.answers[which](body)


class InTurn:
    """Each request answers `steps` in turn, one a time it comes (the last one from then on)."""

    def __init__(self, *steps):
        self.steps, self.seen = steps, {}
        self.lock = threading.Lock()

    def __call__(self, body):
        key = json.dumps(body, sort_keys=True)
        with self.lock:
            n = self.seen[key] = self.seen.get(key, 0) + 1
        return self.steps[min(n, len(self.steps)) - 1](body)


# `run` meets all five answers in two campaigns: every broken reply, each request its own; then
# a 500, a 429 with Retry-After and the answer, each request in turn (three attempts a call)
RUN_CASES = {
    "broken": (EachItsOwn(*(answer for answer, _said in BROKEN.values())),
               tuple(said for _answer, said in BROKEN.values()), "1"),
    "500-429-200": (InTurn(lambda body: (500, {"error": {"message": "the backend fell over"}}),
                           lambda body: (429, {"error": {"message": "slow down"}}, {"Retry-After": "1"}),
                           lambda body: (200, text_reply(a_request(body)))), (), "2"),
}


@pytest.mark.parametrize("case", sorted(RUN_CASES))
def test_run_completes_with_a_failing_tester_in_every_phase(cli, tmp_path, monkeypatch, case):
    pytest.importorskip("agents")
    monkeypatch.chdir(ROOT)
    answer, saids, retries = RUN_CASES[case]
    with StatusServer(answer=answer) as srv:
        code, out, err, status = _campaign(cli, tmp_path, "run", srv.url, "--input", TASK,
                                           "--budget-executions", "8", "--phases", "structural,flare",
                                           "--retries", retries)
    assert code in (0, 1), err
    assert "Traceback" not in err and status == [("completed",)]
    report = json.loads(out)
    tester = report["fuzz"]["tester"]  # the FLARE agents: calls, failures and the last one's reason
    assert tester["specification"]["calls"] >= 1
    if not saids:  # each call answered at its third attempt, after the 429's wait
        assert all(role["failed"] == 0 for role in tester.values()), tester
        sent = Counter(json.dumps(body, sort_keys=True) for _key, body in srv.requests)
        assert report["generation"]["realized"] and min(sent.values()) >= 3, sent.values()
        return
    assert tester["specification"]["failed"] == tester["specification"]["calls"]
    failures = [role["last_failure"] for role in tester.values() if role["failed"]]
    failures += [a["verdict"] for item in report["generation"]["unrealized"] for a in item["attempts"]]
    # each failed call recorded with what the server answered, and the run met every answer
    assert all(any(said in f for said in saids) and len(f) < 600 for f in failures), failures
    assert all(any(said in f for f in failures) for said in saids), failures


def test_cover_with_the_dspy_realizer_records_a_failed_tester_call_too(cli, tmp_path, monkeypatch):
    pytest.importorskip("agents")
    pytest.importorskip("dspy")
    monkeypatch.chdir(ROOT)
    answer, said = CASES["no-choices"]
    with StatusServer(answer=answer) as srv:
        code, out, err, status = _campaign(cli, tmp_path, "cover", srv.url, "--faults", "none",
                                           "--realizer", "dspy", "--retries", "0")
    assert code in (0, 1), err
    assert "Traceback" not in err and status == [("completed",)]
    verdicts = [a["verdict"] for item in json.loads(out)["generation"]["unrealized"] for a in item["attempts"]]
    assert verdicts and all(v.startswith("tester model failed") and said in v for v in verdicts), verdicts[:2]
