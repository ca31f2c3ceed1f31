"""Which bound stopped a run, end to end through `masfuzz exec` on real PydanticAI and AgentChat
systems (tests/oracles/bound_apps.py), and what the oracles make of it.

- A framework's own limit that --max-turns does not reach (PydanticAI's request_limit of 50 for
  an agent a tool runs, raised through that tool) is named as the app's, not the user's setting:
  the app's loop and the run's end at that limit are the app's findings, and the limit's error
  coming out of the tool is no third one (no Tool Execution Error).
- An app's own message limit (AgentChat's MaxMessageTermination) is the app's bound even when
  --max-turns is set: the run's end is the app's to judge, not "the turn bound you set".
"""

from __future__ import annotations

import json

import pytest

from masfuzz.oracles.detectors import missing_termination, unrecovered_tool_errors
from masfuzz.trace import (
    APP_BOUND, AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace,
)

APPS = "tests/oracles/bound_apps.py"
POLICY = "scripted/examples/zoo/policy.py:policy"
FERRY = ("Hello, could you hold a place for my van on sailing FR-2210 on Saturday morning? "
         "We're going over for my aunt's birthday.")


def _exec(cli, target: str, text: str, *args: str) -> dict:
    code, out, err = cli("exec", f"{APPS}:{target}", "--input", text, "--sut-model", POLICY, "--executor",
                         "inprocess", "--no-cache", "--format", "json", "--failures", *args)
    assert code in (0, 1), err
    return json.loads(out)


@pytest.mark.usefixtures("in_repo")
def test_a_nested_run_s_framework_limit_is_the_app_s_and_its_loop_the_one_finding(cli):
    pytest.importorskip("pydantic_ai")
    data = _exec(cli, "desk_agent", FERRY, "--max-turns", "6")
    meta = data["trace"]["meta"]
    assert data["trace"]["events"][-1]["reason"] == "max_turns" and "user_bound" not in meta
    assert "request_limit of 50" in meta[APP_BOUND] and "ask_reservations" in meta[APP_BOUND]
    [loop] = data["failures"]  # the limit only ended the loop: one fault, the loop's
    assert loop["root_cause"] == "Repetitive Execution of Completed Tasks"
    assert (loop["agent"], loop["subject"]) == ("reservations_agent", "hold_status")
    # the app's loop ran into PydanticAI's own limit: the app's finding, naming that limit
    assert loop["attribution"] == "sut" and "ask_reservations started" in loop["description"]


@pytest.mark.usefixtures("in_repo")
def test_an_app_s_own_message_limit_is_not_the_turn_bound_the_user_set(cli):
    pytest.importorskip("autogen_agentchat")
    data = _exec(cli, "ac_tasting_panel", "Please taste the 2019 Pic Saint-Loup.", "--max-turns", "20")
    assert data["trace"]["events"][-1]["reason"] == "message_limit"
    assert "user_bound" not in data["trace"]["meta"]
    [bound] = [f for f in data["failures"] if f["category"] == "system_termination"]
    assert bound["attribution"] == "sut" and "--max-turns" not in bound["because"]


def _stopped(*, looping: bool, meta: dict) -> Trace:
    """A delegated run checking a status again and again (or once) until a limit raised through
    the delegating tool stopped it."""
    said = "The next request would exceed the request_limit of 50"
    checks = 6 if looping else 1
    events = [Message(role="user", content="Renew my parking permit PP-4410."), AgentTurn(agent="desk"),
              ToolCall(agent="desk", tool="ask_permits", arguments={"request": "renew PP-4410"}, call_id="d"),
              AgentTurn(agent="permits")]
    for n in range(checks):
        events += [ToolCall(agent="permits", tool="permit_status", arguments={"permit": "PP-4410"}, call_id=f"c{n}"),
                   ToolResult(agent="permits", tool="permit_status", call_id=f"c{n}", payload='{"state": "PENDING"}')]
    events += [ToolResult(agent="desk", tool="ask_permits", call_id="d", status="error",
                          payload=f"UsageLimitExceeded: {said}"),
               TerminationEvent(reason="max_turns", detail=said)]
    return Trace(scenario_id="s", system_id="permits", framework="pydantic-ai", events=tuple(events), meta=meta)


def test_the_bound_raised_through_a_tool_is_no_tool_error_and_is_named_as_the_app_s():
    app = {APP_BOUND: "PydanticAI's usage limit of the run ask_permits started"}
    assert unrecovered_tool_errors(_stopped(looping=True, meta=app), None) == []
    # the app's bound stopped a run that did not conclude: the app's finding, naming the bound
    [f] = missing_termination(_stopped(looping=False, meta=app), None)
    assert f.attribution == "sut" and "ask_permits started" in f.description
    # the user's own bound stays the settings' finding, loop or not
    [f] = missing_termination(_stopped(looping=True, meta={"user_bound": 6}), None)
    assert f.attribution == "settings"
