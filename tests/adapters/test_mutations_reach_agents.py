"""What a FLARE mutation changes (§3.3.3) reaches the agents of every framework adapter.

A configuration mutation gives one agent a new temperature, or switches it to another model
family: every request of that agent must carry it and no other agent's may, whatever the
framework, and the trace must record what each agent ran with. A sequence mutation reorders the
participants: a speaker-selecting model is shown them in that order and still chooses.
The scripted models (tests/adapters/mutation_policy.py) report what reached them.
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import pytest

from masfuzz.exec import InProcessExecutor
from masfuzz.llm.types import ChatMessage, ChatRequest
from masfuzz.scenario import Scenario

from tests.adapters.helpers import system
from tests.adapters.mutation_policy import LOG
from tests.conftest import ROOT

HOT = 1.3
POLICIES = "scripted/tests/adapters/mutation_policy.py"
VIDEO_TASK = "Make a 30-second short video about the water cycle."


def spy(behaviour: str, family: str) -> str:
    return f"{POLICIES}:spy('{behaviour}', '{family}')"


@dataclass
class Case:
    framework: str  # the module the case needs
    target: str
    behaviour: str  # the example policy the spies play
    input: str
    hot: str  # the agent whose temperature is mutated
    switched: str  # the agent switched to the other model family
    blackbox: str | None = None  # the app's command: run black-box, `target` only names its agents
    options: dict[str, Any] = field(default_factory=dict)

    def run(self, scenario: Scenario) -> Any:
        if self.blackbox is None:
            return asyncio.run(InProcessExecutor().run(self.target, scenario))
        from masfuzz.adapters.base import execute
        from masfuzz.adapters.blackbox import BlackboxAdapter, BlackboxApp

        _, _, spec = system(self.target)  # the agents' prompts, so the endpoint can name them
        app = BlackboxApp(self.blackbox, cwd=str(ROOT / "examples"),
                          agents={a.id: a.instructions for a in spec.agents})
        adapter = BlackboxAdapter()
        return asyncio.run(execute(adapter, app, adapter.extract(app), scenario))


VIDEO_TEAM = "examples/video_team/team.py:selector_team"
CASES = {
    "agentchat": Case("autogen_agentchat", VIDEO_TEAM, "video", VIDEO_TASK,
                      hot="voice_actor", switched="graphic_designer"),
    "ag2": Case("autogen.agentchat", f"{ROOT}/examples/ag2_groupchat/app.py:build_manager", "ag2",
                "Write a short note about the Eiffel Tower", hot="writer", switched="critic"),
    "langgraph": Case("langgraph", "examples/research_graph/graph.py:graph", "research",
                      "How does the water cycle work?", hot="researcher", switched="writer"),
    "agents_sdk": Case("agents", "examples/customer_service/app.py:triage_agent", "desk",
                       "How many bags may I bring? And change my seat to 12C, confirmation ABC123",
                       hot="seat_booking_agent", switched="faq_agent"),
    "blackbox": Case("autogen_agentchat", VIDEO_TEAM, "video", VIDEO_TASK, hot="voice_actor",
                     switched="graphic_designer", blackbox="python -m video_team.app {input}",
                     options={"timeout": 120}),
}


@pytest.fixture(autouse=True)
def _environment(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("VIDEO_TEAM_OUT", str(tmp_path))  # the video team's tools write here
    monkeypatch.setenv("OAI_CONFIG_LIST", json.dumps([{"model": "gpt-4o", "api_key": "sk-unused"}]))
    monkeypatch.setenv(LOG, str(tmp_path / "spy.jsonl"))


def requests_by_agent(tmp_path) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in (tmp_path / "spy.jsonl").read_text().splitlines():
        seen = json.loads(line)
        out[seen["agent"]].append(seen)
    return dict(out)


@pytest.mark.parametrize("name", list(CASES))
def test_a_mutation_reaches_its_agent_and_no_other(name, tmp_path):
    case = CASES[name]
    pytest.importorskip(case.framework)
    scenario = Scenario(input=case.input, sut_model=spy(case.behaviour, "a"),
                        temperatures={case.hot: HOT}, agent_models={case.switched: spy(case.behaviour, "b")},
                        **case.options)
    trace = case.run(scenario)
    seen = requests_by_agent(tmp_path)
    assert {case.hot, case.switched} < set(seen), seen.keys()  # and some agent left alone
    for agent, requests in seen.items():
        assert {r["temperature"] for r in requests} == {HOT if agent == case.hot else None}, agent
        assert {r["family"] for r in requests} == {"b" if agent == case.switched else "a"}, agent
    assert trace.meta["agent_settings"] == {
        agent: {"model": spy(case.behaviour, "b" if agent == case.switched else "a"),
                "temperature": HOT if agent == case.hot else None, "calls": len(requests)}
        for agent, requests in seen.items()
    }


PIPELINE = ["script_writer", "voice_actor", "graphic_designer", "director"]
REORDERED = ["script_writer", "graphic_designer", "voice_actor", "director"]
SELECTOR_TEAMS = {"agentchat": VIDEO_TEAM,
                  "ag2": "tests/adapters/ag2_pipeline.py:build_manager"}


@pytest.mark.parametrize("order", [(), tuple(REORDERED)], ids=["default", "reordered"])
@pytest.mark.parametrize("name", list(SELECTOR_TEAMS))
def test_a_selector_picks_from_the_speaking_order_it_is_shown(name, order):
    pytest.importorskip(CASES[name].framework)
    scenario = Scenario(input=VIDEO_TASK, sut_model=f"{POLICIES}:in_order", speaking_order=order,
                        max_turns=len(PIPELINE) if name == "agentchat" else None)
    trace = asyncio.run(InProcessExecutor().run(SELECTOR_TEAMS[name], scenario))
    expected = list(order) or PIPELINE
    assert trace.speaker_order[:4] == expected
    # AG2's user proxy is a participant too: the unnamed rest keeps its place after the named
    assert [n for n in trace.meta["speaking_order"] if n != "user"] == expected


def test_a_sync_model_call_inside_a_running_loop_keeps_the_runs_sampling():
    # A LangChain model's sync invoke from an async node runs on a helper thread (syncrun).
    from masfuzz.adapters.syncrun import run_coroutine_sync
    from masfuzz.llm.sampling import sampling, sut_request

    async def call() -> ChatRequest:
        return sut_request("m", ChatRequest(messages=(ChatMessage(role="user", content="hi"),), agent="a"))

    async def node() -> tuple[ChatRequest, dict[str, Any]]:
        with sampling(Scenario(input="x", temperatures={"a": HOT})) as ran:
            return run_coroutine_sync(call()), ran.as_meta()

    request, ran = asyncio.run(node())
    assert request.temperature == HOT and ran == {"a": {"model": "m", "temperature": HOT, "calls": 1}}
