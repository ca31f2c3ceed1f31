"""The in-process executor runs each command (each `asyncio.run` of a Python caller) on an event
loop of its own, while the system is opened once per process: what the first run's loop came to
own in the app's objects meets the next run's loop. What masfuzz can reach is made fresh for
each run (AgentChat's inner teams: `masfuzz.adapters.autogen.fresh`); a crash on what it cannot
reach (a team the app keeps in a registry of its own) is set aside as masfuzz's, never the app's
finding (`masfuzz.exec.history`)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from masfuzz.exec import InProcessExecutor, history
from masfuzz.oracles import detect
from masfuzz.scenario import Scenario
from masfuzz.target import Target
from masfuzz.trace import HARNESS_CAUSE, ErrorEvent, ToolResult, Trace, ended_trace

from tests.conftest import ROOT

WRAPPERS = "tests/adapters/autogen_wrappers.py"  # AgentChat's nested teams
HELD = Path(__file__).parent / "fixtures" / "held_team_app.py"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def _two_commands(target: str, policy: str) -> list[Trace]:
    """Two runs of one scenario, as two commands of one process run them: each its own loop."""
    ex = InProcessExecutor(timeout=60)
    scenario = Scenario(input="Why is the sky blue?", sut_model=f"scripted/{policy}")
    return [asyncio.run(ex.run(target, scenario)) for _ in range(2)]


A = "tests/adapters"
# Each adapter's nested shapes: the agents that run inside another agent's turn or tool
NESTED = {
    "agentchat society of mind": (f"{WRAPPERS}:society", f"{WRAPPERS}:policy", "drafter"),
    "agentchat TeamTool and AgentTool": (f"{WRAPPERS}:tools_of_teams", f"{WRAPPERS}:policy", "drafter"),
    "agents sdk as_tool": (f"{A}/oa_systems.py:manager", f"{A}/oa_systems.py:manager_policy", "researcher"),
    "agents sdk Runner.run in a tool": (f"{A}/oa_nested.py:tutor", f"{A}/oa_nested.py:policy", "expert"),
    "pydantic-ai delegation": (f"{A}/pai_systems.py:lead", f"{A}/pai_policy.py:policy", "writer"),
    "adk AgentTool": (f"{A}/adk_systems.py:lead", f"{A}/adk_systems.py:policy", "scout"),
    "ag2 nested chats": (f"{A}/ag2_systems.py:blog", f"{A}/ag2_policy.py:policy", "seo_reviewer"),
    "langgraph subgraphs": (f"{A}/langgraph_prebuilt.py:supervisor_app", f"{A}/langgraph_prebuilt.py:policy",
                            "math_expert"),
}
TASKS = {"adk AgentTool": "look around", "langgraph subgraphs": "what is the sum of 2 and 40",
         "agents sdk as_tool": "tides", "pydantic-ai delegation": "write and review"}


@pytest.mark.parametrize("shape", NESTED)
def test_a_second_command_runs_the_nested_agents_as_the_first(shape, provider_endpoint):
    """Whatever each adapter's nested agents own on a run's loop is made fresh for each run: the
    second command's trace is the first's, no crash of masfuzz's making."""
    target, policy, inner = NESTED[shape]
    ex = InProcessExecutor(timeout=60)
    scenario = Scenario(input=TASKS.get(shape, "Why is the sky blue?"), sut_model=f"scripted/{policy}")
    first, second = (asyncio.run(ex.run(target, scenario)) for _ in range(2))
    strip = lambda t: [e.model_dump(exclude={"t"}) for e in t.events]  # noqa: E731
    # AgentChat's tools stream the inner team's messages back only as the tool's result
    spoke = first.speaker_order + [r.payload.split(":")[0] for r in first.of_type(ToolResult)]
    assert first.termination.reason != "crash" and inner in spoke, first.events[-3:]
    assert strip(second) == strip(first)
    assert HARNESS_CAUSE not in second.meta and provider_endpoint == []


def test_a_team_an_agent_class_of_the_apps_holds_in_a_closure_is_renewed():
    """The relay's helper team, held in the closure its class was built in, gets a runtime and
    queue of its own for each run: the second command runs as the first, no crash."""
    first, second = _two_commands(f"{HELD}:team", f"{HELD}:policy")
    strip = lambda t: [e.model_dump(exclude={"t"}) for e in t.events]  # noqa: E731
    assert first.termination.reason == "text_mention", first.termination
    assert strip(second) == strip(first) and HARNESS_CAUSE not in second.meta


def test_a_crash_on_a_team_the_app_holds_out_of_reach_is_set_aside_as_masfuzzs():
    """The relay's helper team, looked up in a registry of the app's, keeps the first run's
    loop: the second run crashes on it. That is masfuzz's way of running the app (a fresh
    process, or a worker's one loop, never shows it), so the crash is the harness's, with the
    reason."""
    target = f"{HELD}:registry_team"
    first, second = _two_commands(target, f"{HELD}:policy")
    assert first.termination.reason == "text_mention", first.termination
    assert second.termination.reason == "crash" and "different event loop" in second.termination.detail
    assert "bound to its event loop" in second.meta[HARNESS_CAUSE]
    [crash] = [f for f in detect(second, Target.of(target).open().spec) if f.category == "runtime_crash"]
    assert crash.attribution == "harness" and crash.because == second.meta[HARNESS_CAUSE]


def _crashed(message: str) -> Trace:
    return ended_trace(Scenario(input="x"), "crash", message, 0.1, system_id="s", framework="f")


def test_only_a_loop_bound_crash_after_a_change_of_loop_is_set_aside(monkeypatch):
    """On one loop (a worker's), or with another cause, the crash stays the app's."""
    for state in ("_runs", "_first_loop"):
        monkeypatch.setattr(history, state, {})
    monkeypatch.setattr(history, "_loops_changed", set())
    bound = "RuntimeError: <Queue at 0x1> is bound to a different event loop"
    one, two = asyncio.new_event_loop(), asyncio.new_event_loop()
    try:
        same = [history.note(_crashed(bound), "app", history.begin("app", one)) for _ in range(2)]
        assert not any(HARNESS_CAUSE in t.meta for t in same)
        other = history.note(_crashed("ValueError: no such order"), "app", history.begin("app", two))
        assert HARNESS_CAUSE not in other.meta and other.of_type(ErrorEvent)
        later = history.note(_crashed(bound), "app", history.begin("app", one))
        assert HARNESS_CAUSE in later.meta  # the system has met two loops: back on the first too
        assert HARNESS_CAUSE not in history.note(_crashed(bound), "worker", history.begin("worker")).meta
    finally:
        one.close()
        two.close()


def test_a_tool_call_that_fails_on_an_object_bound_at_import_to_another_loop_is_set_aside():
    """The tool awaits an event the module made at import; the first command's loop binds it,
    and the next command's call (other arguments: no earlier answer to compare) fails on it.
    The run does not crash (AgentChat gives the clerk the error), so the call is named in the
    trace, and what rests on it is the harness's, with the reason; the first run's is clean."""
    from masfuzz.trace import LOOP_BOUND_CALLS

    target = f"{Path(__file__).parent / 'fixtures' / 'import_loop_app.py'}:team"
    ex = InProcessExecutor(timeout=60)
    policy = f"scripted/{Path(__file__).parent / 'fixtures' / 'import_loop_app.py'}:policy"
    first, second = (asyncio.run(ex.run(target, Scenario(input=f"What is the rate of {c}?", sut_model=policy)))
                     for c in ("EUR", "GBP"))
    assert [r.status for r in first.of_type(ToolResult)] == ["ok"] and LOOP_BOUND_CALLS not in first.meta
    [failed] = second.of_type(ToolResult)
    assert failed.status == "error" and list(second.meta[LOOP_BOUND_CALLS]) == [failed.call_id]
    spec = Target.of(target).open().spec
    found = [f for f in detect(second, spec) if second.events.index(failed) in f.evidence]
    assert found and all(f.attribution == "harness" and "bound to its event loop" in f.because for f in found), found
