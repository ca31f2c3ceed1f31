"""Whose a finding is, from its evidence: a model that echoed masfuzz's own prompt or wrote a
tool call that is not JSON made it, not the app (`masfuzz.oracles.attribution`)."""

from __future__ import annotations

import json

import pytest

from masfuzz.oracles.attribution import attribute
from masfuzz.oracles.failure import Failure
from masfuzz.ownwords import ECHO_MARKS, WORKED_EXAMPLES
from masfuzz.trace import AgentTurn, Message, TerminationEvent, Trace
from tests.conftest import ROOT

APP = "examples/customer_service/app.py:triage_agent"
GARBLED = "scripted/tests/oracles/garbled_seat_policy.py:policy"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def _run(cli, text, *extra):
    code, out, err = cli("exec", APP, "--input", text, "--sut-model", GARBLED, "--format", "json",
                         "--failures", *extra)
    return code, json.loads(out)["failures"] if out else [], err


def test_a_tool_call_the_model_did_not_write_as_json_is_the_harness_finding(cli):
    code, failures, err = _run(cli, "Please change my seat to 14C, confirmation ABC123 (garbled)",
                               "--fail-on", "any")
    assert code == 0, err  # no finding of the app's to fail the gate
    [mismatch] = [f for f in failures if f["detector"] == "tool_argument_mismatch"]
    assert mismatch["attribution"] == "harness" and mismatch["because"].startswith("malformed model output")
    assert mismatch["severity"] == "info"


def test_the_same_mistake_in_valid_json_stays_a_finding_that_fails_the_gate(cli):
    code, failures, _ = _run(cli, "Please change my seat to 14C, confirmation ABC123 (wrong)",
                             "--fail-on", "any")
    assert code == 1
    [mismatch] = [f for f in failures if f["detector"] == "tool_argument_mismatch"]
    assert mismatch["attribution"] == "sut" and (mismatch["severity"], mismatch["confidence"]) == ("medium", "observed")


def _trace(final: str) -> Trace:
    return Trace(scenario_id="s", system_id="x", framework="test", events=[
        Message(agent=None, role="user", content="What is the baggage allowance?"),
        AgentTurn(agent="faq_agent"),
        Message(agent="faq_agent", content=final),
        TerminationEvent(reason="completed", final_output=final),
    ])


def _judged(evidence) -> Failure:
    return Failure(category="agent_task_execution", root_cause="Prompt and Instruction Deviation",
                   detector="failure_agent", description="the answer is about something else",
                   evidence=evidence)


def test_an_answer_that_echoes_masfuzzs_worked_example_is_the_harness_finding():
    [echo] = attribute(_trace("It is 21 C and sunny in Lisbon."), [_judged((2, 3))])
    assert echo.attribution == "harness" and "21 C and sunny" in echo.because
    assert (echo.severity, echo.confidence) == ("info", "judged")
    [own] = attribute(_trace("You may bring one bag of 23 kg."), [_judged((2, 3))])
    assert own.attribution == "sut" and own.because == "" and own.severity == "medium"
    [elsewhere] = attribute(_trace("It is 21 C and sunny in Lisbon."), [_judged((1,))])
    assert elsewhere.attribution == "sut"  # judged on its own evidence only


def test_the_echo_marks_are_in_the_prompt_masfuzz_shows_a_model():
    from masfuzz.llm.toolprompt import tool_prompt
    from masfuzz.llm.types import ChatMessage, ChatRequest

    shown = tool_prompt(ChatRequest(messages=(ChatMessage(role="user", content="hi"),)), (), reply="reply")
    assert [m for m in ECHO_MARKS if m not in shown] == []
    assert "Lisbon" in WORKED_EXAMPLES


def _calling(mode: str) -> Trace:
    from masfuzz.trace import RestrictedAttempt, ToolCall, ToolResult

    events = [Message(agent=None, role="user", content="How much baggage can I bring?"), AgentTurn(agent="triage_agent")]
    for n in range(3):
        args = {"question": "baggage"}
        events += [ToolCall(agent="triage_agent", tool="faq_lookup_tool", arguments=args, call_id=f"c{n}"),
                   RestrictedAttempt(agent="triage_agent", tool="faq_lookup_tool", arguments=args,
                                     call_id=f"c{n}", mode=mode),
                   ToolResult(agent="triage_agent", tool="faq_lookup_tool", call_id=f"c{n}", status="blocked",
                              payload="refused")]
    return Trace(scenario_id="s", system_id="x", framework="test",
                 events=[*events, TerminationEvent(reason="completed", final_output="done")])


def test_a_loop_on_a_probe_stub_is_the_probes_lure_and_on_a_real_tool_the_apps():
    from masfuzz.oracles import detect

    [loop] = [f for f in detect(_calling("probe")) if f.detector == "loop"]
    assert loop.attribution == "harness" and "as a probe" in loop.because
    [loop] = [f for f in detect(_calling("faithful")) if f.detector == "loop"]
    assert loop.attribution == "sut"
