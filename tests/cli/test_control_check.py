"""`masfuzz inspect --check`: the control check names, agent by agent, whether masfuzz's model
answered it, and fails only on evidence (a model call that escaped masfuzz); no provider is
reached meanwhile."""

import json
import pytest

from masfuzz.control import probe
from masfuzz.placeholders import placeholders
from masfuzz.llm.types import ChatMessage, ChatRequest, ToolDef
from tests.conftest import ROOT


@pytest.fixture
def provider(monkeypatch, provider_endpoint):
    monkeypatch.chdir(ROOT)
    return provider_endpoint


def _check(cli, target):
    code, out, err = cli("inspect", "--check", target, "--format", "json")
    return code, json.loads(out) if out else None, err


def test_every_agent_of_a_langgraph_supervisor_is_answered_by_masfuzz(cli, provider):
    code, report, err = _check(cli, "tests/adapters/langgraph_prebuilt.py:supervisor_app")
    assert code == 0, err
    agents = {a["agent"]: a for a in report["agents"]}
    assert set(agents) == {"supervisor", "research_expert", "math_expert"}
    assert all(a["probe_calls"] >= 1 and not a["not_injected"] for a in agents.values())
    assert agents["research_expert"]["tools"] == ["web_search"]
    assert all("call_model: static_model" in " ".join(a["model_places"]) for a in agents.values())
    assert report["ok"] and provider == []


def test_a_client_built_inside_a_tool_fails_the_check_and_is_named(cli, provider):
    code, report, err = _check(cli, "tests/exec/fixtures/uninjected_app.py:writer")
    assert code == 1, err
    [writer] = report["agents"]
    assert writer["not_injected"] and writer["status"].startswith("MODEL NOT INJECTED")
    assert report["not_injected_calls"] == 1 and not report["ok"]
    assert provider == []  # refused at the loopback, never sent to the provider


def test_a_stubbed_tool_does_not_run_in_the_check(cli, provider):
    code, out, err = cli("inspect", "--check", "tests/exec/fixtures/uninjected_app.py:writer",
                         "--stub", "summarize=a canned summary")
    assert code == 0, err
    assert "masfuzz's model answered" in out and "ok: no model call escaped masfuzz" in out


def test_a_selector_team_has_every_participant_picked_in_turn(cli, provider):
    code, report, err = _check(cli, "examples/video_team/team.py:selector_team")
    assert code == 0, err
    assert {a["agent"]: a["probe_calls"] >= 1 for a in report["agents"]} == {
        "script_writer": True, "voice_actor": True, "graphic_designer": True, "director": True}


def test_the_probe_calls_each_tool_once_with_placeholder_arguments_then_hands_off():
    search = ToolDef(name="search", description="", parameters={
        "type": "object", "required": ["query", "limit", "mode"],
        "properties": {"query": {"type": "string"}, "limit": {"type": "integer"},
                       "mode": {"enum": ["fast", "deep"]}}})
    handoff = ToolDef(name="transfer_to_writer", description="", parameters={"type": "object", "properties": {}})
    call = probe(ChatRequest(messages=(ChatMessage(role="user", content="hi"),), tools=(handoff, search)))
    assert (call.name, call.arguments) == ("search", {"query": "masfuzz check", "limit": 1, "mode": "fast"})
    done = ChatMessage(role="assistant", content=None, tool_calls=(call,))
    second = probe(ChatRequest(messages=(ChatMessage(role="user", content="hi"), done), tools=(handoff, search)))
    assert second.name == "transfer_to_writer"
    assert placeholders({"type": "object", "properties": {"x": {"type": ["null", "number"]}}}) == {"x": 1}


def test_an_agent_with_a_typed_answer_gets_json_its_schema_accepts():
    """The Agents SDK's research_bot: a planner with `output_type=WebSearchPlan` crashed the
    probe run (ModelBehaviorError: Invalid JSON), so the agents after it went unchecked."""
    plan = {"type": "object", "required": ["searches", "reason"],
            "properties": {"searches": {"type": "array"}, "reason": {"type": "string"}}}
    user = (ChatMessage(role="user", content="hi"),)
    assert json.loads(probe(ChatRequest(messages=user, response_schema=plan)).text) == {
        "searches": [], "reason": "masfuzz check"}
    assert probe(ChatRequest(messages=user)).text == "masfuzz control check: reply received."


def test_a_typed_answer_of_a_dataclass_is_filled_inside_the_sdks_wrapper():
    """The Agents SDK's llm_as_a_judge: the evaluator's `output_type` is a dataclass, which the
    SDK wraps as `{"response": {...}}`; the probe answered `{"response": {}}`, the SDK raised
    ModelBehaviorError and the run crashed before the judge's loop could go on."""
    from dataclasses import dataclass
    from typing import Literal

    from agents import AgentOutputSchema

    @dataclass
    class Feedback:
        feedback: str
        score: Literal["pass", "needs_improvement", "fail"]
        notes: list[str]

    schema = AgentOutputSchema(Feedback)
    assert list(schema.json_schema()["properties"]) == ["response"]  # wrapped, as the SDK sends it
    answer = probe(ChatRequest(messages=(ChatMessage(role="user", content="hi"),),
                               response_schema=schema.json_schema())).text
    assert schema.validate_json(answer) == Feedback("masfuzz check", "pass", [])
    nested = {"type": "object", "required": ["items"], "properties": {"items": {
        "type": "array", "minItems": 2, "items": {"type": "object", "required": ["n"],
                                                  "properties": {"n": {"type": "integer"}}}}}}
    assert placeholders(nested) == {"items": [{"n": 1}, {"n": 1}]}


def test_placeholders_follow_references_and_optionals():
    """PydanticAI's medical delegation example: `specialty` is an enum reached through `$defs`;
    "masfuzz check" failed its validation."""
    schema = {"type": "object", "required": ["specialty", "note", "days"],
              "$defs": {"Specialty": {"enum": ["general", "cardiology"], "type": "string"}},
              "properties": {"specialty": {"$ref": "#/$defs/Specialty"},
                             "note": {"anyOf": [{"$ref": "#/$defs/Specialty"}, {"type": "null"}]},
                             "days": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}}
    assert placeholders(schema) == {"specialty": "general", "note": "general", "days": 1}


def test_a_checks_boolean_lets_the_input_through():
    """The airline demo's relevance and jailbreak guardrail agents answer `is_relevant` and
    `is_safe`: false for both tripped every guardrail, so the check reached no agent behind
    them. A flag named for something good is true, for something bad false; its description
    decides when its name does not; anything else is false."""
    flags = {"is_relevant": True, "is_safe": True, "isOnTopic": True, "is_jailbreak": False,
             "is_homework": False, "is_unsafe": False, "is_not_relevant": False, "confirm": False,
             "verdict": True, "flagged_content": False}
    schema = {"type": "object", "properties": {name: {"type": "boolean"} for name in flags}}
    schema["properties"]["verdict"]["description"] = "True when the request is appropriate"
    assert placeholders(schema) == flags


def test_a_probe_run_passes_an_apps_guardrails_of_either_sense(cli, provider):
    """An agent behind a guardrail that trips on `not is_relevant` and one that trips on
    `is_jailbreak`: the probe reaches the agent and the expert it asks."""
    code, out, err = cli("exec", "tests/adapters/oa_nested.py:guarded_tutor", "--input", "What is 2+2?",
                         "--sut-model", "scripted/masfuzz.control:probe", "--format", "json")
    assert code == 0, err
    trace = json.loads(out)
    assert trace["events"][-1]["reason"] == "completed", trace["events"][-1]
    [result] = [e for e in trace["events"] if e["type"] == "tool_result"]
    assert (result["tool"], result["status"]) == ("ask_expert", "ok")  # the expert answered
    assert {e["agent"] for e in trace["events"] if e["type"] == "agent_turn"} == {
        "guarded_tutor", "topic_checker", "safety_checker", "expert"}


def test_an_app_that_runs_itself_at_import_loads_on_a_placeholder_answer(cli, provider):
    code, report, err = _check(cli, "tests/exec/fixtures/runs_at_import.py:app")
    assert code == 0, err
    assert any("while its code loaded" in note for note in report["unseen"])
    [agent] = report["agents"]
    assert agent["probe_calls"] >= 1 and report["not_injected_calls"] == 0
    assert provider == []


def test_a_campaign_starts_with_the_check_and_keeps_its_report(cli, provider, tmp_path):
    from tests.generate.test_cover import TESTER

    args = ["cover", "tests/exec/fixtures/uninjected_app.py:writer", "--model", TESTER,
            "--sut-model", "scripted/tests/exec/fixtures/uninjected_app.py:policy", "--no-cache",
            "--budget-executions", "1", "--store", str(tmp_path / "runs.db"),
            "--suite", str(tmp_path / "suite.yaml"), "--format", "json"]
    code, out, err = cli(*args)
    assert code == 0, err
    assert "control check: masfuzz's model answered 1 of 1 agent(s); MODEL NOT INJECTED for writer" in err
    from masfuzz.store.db import RunStore

    store = RunStore(str(tmp_path / "runs.db"))
    assert store.run_info(json.loads(out)["run"]["id"])["summary"]["control"]["not_injected_calls"] == 1
    store.close()
    code, out, err = cli(*args, "--no-check", "--fresh")
    assert code == 0 and "control check" not in err and provider == []


def test_a_tool_that_crashes_on_the_probe_does_not_hide_the_agents_after_it(cli, provider):
    code, report, err = _check(cli, "tests/adapters/langgraph_prebuilt.py:fragile_swarm_app")
    assert code == 0, err
    assert report["probe_ending"].startswith("crash (KeyError") and "; then " in report["probe_ending"]
    assert {a["agent"]: a["probe_calls"] >= 1 for a in report["agents"]} == {"flights": True, "hotels": True}


def test_a_probe_that_crashes_before_an_agent_asks_its_model_fails_the_check(cli, provider):
    """"ok" would claim what was never seen: a probe run that crashed before an agent with a
    model was reached leaves that agent unchecked, and the check says so and fails."""
    code, report, err = _check(cli, "tests/exec/fixtures/broken_instructions_app.py:assistant")
    assert code == 1, err
    assert report["probe_ending"].startswith("crash (") and not report["ok"]
    assert report["unchecked"] == ["assistant"] and report["not_injected_calls"] == 0
    code, out, err = cli("inspect", "--check", "tests/exec/fixtures/broken_instructions_app.py:assistant")
    assert code == 1 and "FAILED: NOT CHECKED: the probe run ended in crash" in out
    assert "ok: no model call escaped" not in out


def test_the_check_runs_the_probe_with_the_apps_run_context(cli, provider):
    """The airline demo's instructions and tools read the context its server passes: the probe
    run crashed without it (NOT CHECKED), though `--context` was given."""
    target = "tests/adapters/oa_context.py:greeter"
    code, out, _ = cli("inspect", "--check", target)
    assert code == 1 and "NOT CHECKED" in out  # no context: the instructions crash on None
    code, out, err = cli("inspect", "--check", target, "--context", "tests/adapters/oa_context.py:session")
    assert code == 0, out + err
    assert "greeter" in out and "not reached" not in out
