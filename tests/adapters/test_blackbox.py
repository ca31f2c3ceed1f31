"""Black-box runs of unmodified apps through the loopback endpoint."""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
from pathlib import Path

from masfuzz.adapters.blackbox import BlackboxApp, run_blackbox
from masfuzz.scenario import Scenario
from masfuzz.trace import ErrorEvent, Message, ToolCall, ToolResult, Trace

HERE = Path(__file__).parent / "fixtures_blackbox"
POLICY = f"scripted/{Path(__file__).parents[1] / 'serve' / 'fixtures' / 'policy.py'}:policy"


def test_app_with_input_and_tool_loop_is_traced():
    app = BlackboxApp(f"python {HERE / 'weather_app.py'}", answers=["Weather in Paris?", "no thanks"])
    trace = asyncio.run(run_blackbox(app, Scenario(input="Weather in Paris?", sut_model=POLICY)))
    assert trace.speaker_order == ["Forecaster"]
    (call,) = trace.of_type(ToolCall)
    assert (call.agent, call.tool, call.arguments) == ("Forecaster", "get_weather", {"city": "Paris"})
    (res,) = trace.of_type(ToolResult)
    assert res.call_id == call.call_id and res.payload == "sunny in Paris"
    assert trace.termination.reason == "completed"
    assert trace.termination.final_output == "Forecaster says: sunny in Paris"
    assert "user said: no thanks" in trace.meta["stdout_tail"]
    assert trace.usage.model_calls == 2 and trace.system_id == "weather_app"


def test_app_that_runs_out_of_answers_is_a_crash_caused_by_the_harness():
    from masfuzz.oracles import detect

    app = BlackboxApp([sys.executable, str(HERE / "weather_app.py")], answers=["Weather?"])
    trace = asyncio.run(run_blackbox(app, Scenario(input="x", sut_model=POLICY)))
    assert trace.termination.reason == "crash"
    assert "EOFError" in trace.of_type(ErrorEvent)[-1].message
    [crash] = [f for f in detect(trace) if f.category == "runtime_crash"]
    assert crash.attribution == "harness" and "answers ran out" in crash.because
    app = BlackboxApp([sys.executable, "-c", "raise RuntimeError('the app broke')"], answers=[])
    [crash] = [f for f in detect(asyncio.run(run_blackbox(app, Scenario(input="x", sut_model=POLICY))))
               if f.category == "runtime_crash"]
    assert crash.attribution == "sut" and not crash.because


def test_app_that_never_exits_is_killed_at_its_timeout_and_kept():
    app = BlackboxApp(f"python {HERE / 'stuck_app.py'}")
    # long enough for the app to import its client and ask once on a loaded machine
    trace = asyncio.run(run_blackbox(app, Scenario(input="hi", sut_model=POLICY, timeout=10)))
    assert trace.termination.reason == "timeout"
    assert trace.speaker_order == ["Looper"]  # what happened before the kill is not lost
    assert [m.content for m in trace.of_type(Message) if m.agent] == ["hello from Looper"]
    assert 10 <= trace.usage.wall_time < 40  # killed at its timeout, not left to run


ARGV_APP = shlex.quote(str(HERE / "argv_app.py"))
TASK = "Plan a weekend in Lyon"


def test_exec_blackbox_without_input_runs_the_command_as_written(cli, monkeypatch):
    monkeypatch.setenv("MASFUZZ_INPUT", "stale")  # masfuzz's own environment never reaches the app
    code, out, err = cli("exec", "--blackbox", f"python {ARGV_APP} {shlex.quote(TASK)}",
                         "--sut-model", POLICY, "--format", "json")
    assert code == 0, err
    trace = Trace.model_validate_json(out)
    user = trace.events[0]
    assert (user.type, user.role, user.content) == ("message", "user", TASK)  # the app's own task
    assert trace.speaker_order == ["careful_travel_planner", "check_the_plan"]  # from the prompts
    assert trace.termination.reason == "completed"
    assert trace.termination.final_output == "hello from check_the_plan"
    assert trace.system_id == "argv_app" and trace.usage.model_calls == 2
    tail = trace.meta["stdout_tail"]
    assert "MASFUZZ_INPUT: <unset>" in tail and "stdin: ''" in tail  # no input, no answer


def test_exec_blackbox_input_placeholder_without_input_is_bad_input(cli):
    code, out, err = cli("exec", "--blackbox", f"python {ARGV_APP} {{input}}", "--sut-model", POLICY)
    assert code == 2 and not out and err.count("\n") == 1, err
    assert err.startswith("masfuzz: error:") and "{input}" in err and "--input" in err


def test_exec_without_input_needs_a_blackbox_command(cli):
    code, out, err = cli("exec", f"{HERE / 'weather_app.py'}:x")
    assert code == 2 and err.count("\n") == 1 and "--input TEXT is required" in err, err


def test_app_on_the_responses_api_is_traced_streamed_or_not():
    """The Agents SDK's default model speaks the Responses API (`POST /v1/responses`): its tool
    loop runs through the endpoint, streamed and not, as a chat-completions app's does."""
    import pytest

    pytest.importorskip("agents")
    for extra in ("", " --stream"):
        app = BlackboxApp(f"python {HERE / 'responses_app.py'}{extra}")
        trace = asyncio.run(run_blackbox(app, Scenario(input="Weather in Paris?", sut_model=POLICY)))
        assert trace.termination.reason == "completed", trace.meta.get("stderr_tail")
        (call,) = trace.of_type(ToolCall)
        assert (call.agent, call.tool, call.arguments) == ("Forecaster", "get_weather", {"city": "Paris"})
        (res,) = trace.of_type(ToolResult)
        assert res.call_id == call.call_id and res.payload == "sunny in Paris"
        assert "ANSWER: Forecaster says: sunny in Paris" in trace.meta["stdout_tail"]
        assert trace.usage.model_calls == 2


def test_pydantic_ai_output_tool_is_the_answer_not_a_tool_of_the_app():
    """PydanticAI asks for a typed output through an output tool (`final_result`): its call is the
    agent's answer (the final output), never a tool call of the app nor an empty final output."""
    import pytest

    from masfuzz.oracles import detect

    pytest.importorskip("pydantic_ai")
    policy = f"scripted/{HERE / 'typed_policy.py'}:policy"
    app = BlackboxApp(f"python {HERE / 'pydantic_ai_app.py'}")
    trace = asyncio.run(run_blackbox(app, Scenario(input="Weather in Paris?", sut_model=policy)))
    assert [c.tool for c in trace.of_type(ToolCall)] == ["get_weather"]
    assert list(trace.meta["offered_tools"]["Forecaster"]) == ["get_weather"]
    answer = {"city": "Paris", "weather": "sunny in Paris"}
    assert json.loads(trace.termination.final_output) == answer
    assert 'ANSWER: {"city":"Paris","weather":"sunny in Paris"}' in trace.meta["stdout_tail"]
    assert [f for f in detect(trace) if f.attribution == "sut"] == []


def test_separate_runs_of_a_batch_app_are_separate_chats_and_their_calls_no_loop():
    """The app runs its agent once per traveller, each run a new conversation: the same call in
    each run is no agent repeating itself. A run is told by its history (a call that carries no
    earlier reply or tool result, while no tool call waits for one)."""
    from masfuzz.oracles import detect
    from masfuzz.trace import AgentTurn, ChatStart

    app = BlackboxApp(f"python {HERE / 'weather_app.py'} --batch")
    trace = asyncio.run(run_blackbox(app, Scenario(input=None, sut_model=POLICY)))
    assert trace.termination.reason == "completed", trace.termination
    assert [c.chat for c in trace.of_type(ChatStart)] == ["run1", "run2", "run3"]
    assert len(trace.of_type(AgentTurn)) == 3 and trace.meta["runs"] == 3
    assert [(c.tool, c.arguments) for c in trace.of_type(ToolCall)] == [("get_weather", {"city": "Paris"})] * 3
    assert [f.description for f in detect(trace) if f.detector == "loop"] == []
