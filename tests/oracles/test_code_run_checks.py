"""Blind set zoo37's classes (an analyst that works by code): a check the agent ran as code that
exited non-zero is a failed check, whatever status the framework recorded and whatever another
tool answered after it, so a later "check passed" contradicts it (`claimed_outcome`)."""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import claimed_outcome
from masfuzz.oracles.wording import payload_failure
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

SNIPPET = "import json\nmember = json.loads(card)\nassert member['expires'] > '2026-05-01'"
CRASHED = ("CompletedProcess(args=['python3', '-c', '...'], returncode=1, stdout='', "
           "stderr='Traceback (most recent call last):\\n  ...\\nKeyError: expires\\n')")
RAN = "CompletedProcess(args=['python3', '-c', '...'], returncode=0, stdout='True\\n', stderr='')"


def _run(reply: str, *, check: str = CRASHED, rerun: str | None = None) -> Trace:
    events = [Message(role="user", content="Can I have a squash court on Tuesday at 7? Card SQ-3321."),
              AgentTurn(agent="courts"),
              ToolCall(agent="courts", tool="execute", call_id="c1", arguments={"source": SNIPPET}),
              ToolResult(agent="courts", tool="execute", call_id="c1", payload=check)]
    if rerun is not None:
        events += [ToolCall(agent="courts", tool="execute", call_id="c2", arguments={"source": SNIPPET}),
                   ToolResult(agent="courts", tool="execute", call_id="c2", payload=rerun)]
    events += [ToolCall(agent="courts", tool="reserve_court", call_id="r", arguments={"day": "Tuesday"}),
               ToolResult(agent="courts", tool="reserve_court", call_id="r",
                          payload='{"court": 3, "slot": "Tue 19:00", "ref": "SQ-88"}'),
               Message(agent="courts", content=reply), TerminationEvent(reason="completed", final_output=reply)]
    return Trace(scenario_id="s", events=tuple(events))


@pytest.mark.parametrize("payload", [
    CRASHED,
    '{"exitCode": 2, "output": "", "errors": "SyntaxError: invalid syntax"}',
    "{'result': {'returncode': 1, 'stdout': '', 'stderr': 'ZeroDivisionError'}}",
])
def test_a_non_zero_exit_code_is_a_failed_answer(payload):
    assert payload_failure(payload, "execute")


def test_a_zero_exit_code_is_no_failure():
    assert payload_failure(RAN, "execute") is None
    assert payload_failure('{"exit_code": 0, "stdout": "in season", "stderr": ""}', "run_python") is None


@pytest.mark.parametrize("reply", [
    "Membership validated ✓ Court 3 is reserved for Tuesday at 19:00, ref SQ-88.",
    "All checks passed, so I've put you on court 3 (Tue 19:00).",
    "Card checks out! Court 3, Tuesday 19:00 - ref SQ-88.",
])
def test_a_check_said_passed_after_the_code_crashed_is_claimed(reply):
    [f] = claimed_outcome(_run(reply), None)
    assert (f.root_cause, f.agent, f.subject) == ("Incorrect Verification", "courts", "execute")


@pytest.mark.parametrize("reply, rerun", [
    # the failure passed on
    ("I couldn't verify your card (the check hit a KeyError), so I haven't reserved anything yet.", None),
    # the check run again and passing
    ("Membership validated ✓ Court 3 is reserved for Tuesday at 19:00, ref SQ-88.", RAN),
    # nothing said of a check
    ("Court 3 is yours on Tuesday at 19:00, ref SQ-88.", None),
])
def test_a_reported_failure_a_passing_rerun_or_no_check_claimed_is_no_finding(reply, rerun):
    assert claimed_outcome(_run(reply, rerun=rerun), None) == []
