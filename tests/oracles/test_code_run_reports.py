"""An executor's report of code an agent wrote is that code's result, whatever role it reaches the
author in: AG2's code-running proxy sends "exitcode: 1 (execution failed)" as a message in the
user's role (the app's words), AgentChat's `CodeExecutorAgent` (Magentic-One's ComputerTerminal)
as its own message ("The script ran, then exited with an error (POSIX exit code: 1)"). A check
said passed after such a report contradicts the run (`claimed_outcome`), as it does after a code
tool's failed answer; a report of the failure, a passing rerun, or the run's own exit 0 is none.
The traces are hand-built in the shapes the adapters record (a bike-hire desk's fit check); the
last test runs a real AG2 pair with `--run-code` under the zoo's policy_z.
"""

from __future__ import annotations

import json

import pytest

from masfuzz.oracles.semantic import claimed_outcome
from masfuzz.trace import CODE_TOOL, AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace, tool_results

pytestmark = pytest.mark.usefixtures("in_repo")  # the targets are named relative to it

ASK = "Can I hire the 56 cm road bike on Saturday? My inseam: 81,5 cm."
CODE = "Let me work this out in Python:\n```python\ninseam = '81,5'\nfits = inseam * 0.67 <= 56\nprint(fits)\n```"
AG2_FAILED = ("exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\n  ...\n"
              "TypeError: can't multiply sequence by non-int of type 'float'")
AG2_PASSED = "exitcode: 0 (execution succeeded)\nCode output: fits = True"
AC_FAILED = ("The script ran, then exited with an error (POSIX exit code: 1)\nIts output was:\n"
             "TypeError: can't multiply sequence by non-int of type 'float'")
CLAIM = "Done, the fit check passed: the 56 cm hire bike is yours for Saturday."
HONEST = "I could not check the fit from the inseam given; please send it in whole cm."


def _ag2(*reports: str, reply: str = CLAIM) -> Trace:
    """A two-agent AG2 chat: the proxy's reports are the app's words in the user's role."""
    events: list = [Message(role="user", content=ASK)]
    for report in reports:
        events += [AgentTurn(agent="fit_checker"), Message(agent="fit_checker", content=CODE),
                   Message(role="user", content=report, source="app")]
    events += [AgentTurn(agent="fit_checker"), Message(agent="fit_checker", content=reply),
               TerminationEvent(reason="max_turns")]
    return Trace(scenario_id="s", framework="ag2", events=tuple(events))


def _agentchat(report: str, reply: str = CLAIM) -> Trace:
    """An AgentChat team: the executor agent's report is its own message."""
    return Trace(scenario_id="s", framework="autogen", events=(
        Message(role="user", content=ASK), AgentTurn(agent="coder"), Message(agent="coder", content=CODE),
        AgentTurn(agent="terminal"), Message(agent="terminal", content=report),
        AgentTurn(agent="coder"), Message(agent="coder", content=reply),
        TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("trace, agent, step", [
    (_ag2(AG2_FAILED), "fit_checker", 5),
    (_agentchat(AC_FAILED), "coder", 6),
])
def test_a_check_said_passed_after_the_executor_reported_a_failed_run_is_claimed(trace, agent, step):
    [f] = claimed_outcome(trace, None)
    assert (f.root_cause, f.agent, f.step, f.subject) == ("Incorrect Verification", agent, step, CODE_TOOL)
    assert "exitcode: 1" in f.description or "exit code: 1" in f.description


@pytest.mark.parametrize("trace", [
    _ag2(AG2_FAILED, reply=HONEST),  # the failure reported
    _ag2(AG2_PASSED),  # the run passed
    _ag2(AG2_FAILED, AG2_PASSED),  # a passing rerun before the claim
    _agentchat(AC_FAILED, reply=HONEST),
])
def test_a_failed_run_reported_or_rerun_and_a_passing_run_claim_nothing(trace):
    assert claimed_outcome(trace, None) == []


def test_the_report_is_read_once_the_author_s_and_never_the_user_s_own_paste():
    trace = _ag2(AG2_FAILED, AG2_PASSED)
    runs = [(i, r.agent, r.status) for i, r in tool_results(trace)]
    assert runs == [(3, "fit_checker", "error"), (6, "fit_checker", "ok")]
    # an imported log records the run as a result already, the report beside it: one result
    imported = Trace(scenario_id="s", events=(
        Message(role="user", content=ASK), Message(agent="fit_checker", content=CODE),
        ToolCall(agent="fit_checker", tool=CODE_TOOL, call_id="code-1"),
        ToolResult(agent="fit_checker", tool=CODE_TOOL, call_id="code-1", status="error", payload=AG2_FAILED),
        Message(role="user", content=AG2_FAILED, source="app")))
    assert [i for i, _ in tool_results(imported)] == [3]
    # the user pasting a run's output, or a report with no code written before it, ran nothing
    pasted = Trace(scenario_id="s", events=(Message(agent="fit_checker", content=CODE),
                                            Message(role="user", content=AG2_FAILED)))
    unasked = Trace(scenario_id="s", events=(Message(role="user", content=ASK),
                                             Message(role="user", content=AG2_FAILED, source="app")))
    assert tool_results(pasted) == [] and tool_results(unasked) == []


POLICY_Z = "scripted/examples/zoo/policy_z.py:policy"
APPS = "tests/oracles/code_run_apps.py"


@pytest.mark.parametrize("twin, found", [("ag2_seeded", [("claimed_outcome", "fit_checker")]), ("ag2_fixed", [])])
def test_an_ag2_executor_s_failed_run_then_a_check_said_passed_end_to_end(cli, twin, found):
    pytest.importorskip("autogen")
    code, out, err = cli("exec", f"{APPS}:{twin}", "--input", "Can I hire the 56 cm road bike on Saturday? "
                         "My inseam: 81,5 cm.", "--sut-model", POLICY_Z, "--run-code", "--format", "json",
                         "--failures")
    assert code == 0, err
    data = json.loads(out)
    reports = [e["content"] for e in data["trace"]["events"] if e["type"] == "message" and e.get("source") == "app"]
    assert any(r.startswith("exitcode: 1") for r in reports)  # the run failed, in the app's words
    assert [(f["detector"], f["agent"]) for f in data["failures"]] == found
