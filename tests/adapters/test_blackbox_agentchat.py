"""The AgentChat video team, unmodified, run black-box agrees with the native AutoGen adapter."""

from __future__ import annotations

import asyncio
import json

import pytest

from masfuzz.adapters.blackbox import BlackboxApp, run_blackbox, spec_from_traces
from masfuzz.cli import main
from masfuzz.report import Analysis
from masfuzz.scenario import Scenario
from masfuzz.trace import DelegationEvent, ToolCall

from tests.adapters.helpers import run_scenario, system
from tests.conftest import ROOT

pytest.importorskip("autogen_ext.models.openai")

TEAM = "examples/video_team/team.py:selector_team"
POLICY = "scripted/examples/video_team/policy.py:policy"
TASK = "Make a 30-second short video about the water cycle."


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("VIDEO_TEAM_OUT", str(tmp_path))  # the app's tools write here, both ways


def calls(trace):
    return [(c.agent, c.tool, c.arguments) for c in trace.of_type(ToolCall)]


def selector_edges(trace):
    return [(d.from_, d.to) for d in trace.of_type(DelegationEvent) if d.trigger == "selector"]


def test_native_and_blackbox_traces_agree_on_speakers_tools_and_termination():
    live = run_scenario(TEAM, input=TASK, sut_model=POLICY)
    _, _, spec = system(TEAM)
    known = {a.id: a.instructions for a in spec.agents}
    app = BlackboxApp("python -m video_team.app {input}", cwd=str(ROOT / "examples"), agents=known)
    box = asyncio.run(run_blackbox(app, Scenario(input=TASK, sut_model=POLICY, timeout=120)))

    assert box.meta["exit_status"] == 0 and box.system_id == "video_team.app"
    assert live.speaker_order[:5] == ["script_writer", "voice_actor", "graphic_designer",
                                      "director", "script_writer"]
    assert box.speaker_order == live.speaker_order
    assert calls(box) == calls(live) and len(calls(live)) >= 5
    assert selector_edges(box) == selector_edges(live)
    assert ("director", "script_writer") in selector_edges(box)  # FLARE's director bug, seen black-box
    assert box.termination.reason == live.termination.reason == "message_limit"
    assert box.meta["speaker_selections"] > len(selector_edges(box))  # rejected repeats retried

    # Coverage of the black-box run against the app's own declared workflow.
    analysis = Analysis.of_traces(spec, [box])
    got = {r.criterion: (r.covered, r.total) for r in analysis.criteria()}
    assert got["C1"] == (4, 4) and got["C2"] == (4, 4) and got["C4"] == (4, 12)
    # Against the workflow observed from the requests alone: offered tools are allowed edges.
    observed = spec_from_traces([box])
    assert [a.id for a in observed.agents] == [a.id for a in spec.agents]
    assert set(observed.permissions.allow) == set(spec.permissions.allow)
    assert observed.tool("render_video").parameters == spec.tool("render_video").parameters


def test_exec_blackbox_coverage_json(capsys):
    code = main(["exec", "--blackbox", "python -m video_team.app {input}", "--cwd", "examples",
                 "--input", TASK, "--sut-model", POLICY, "--spec", TEAM, "--coverage",
                 "--format", "json", "--timeout", "120"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["trace"]["events"][-1]["reason"] == "message_limit"
    criteria = out["coverage"]["coverage"]["criteria"]
    assert (criteria["C2"]["covered"], criteria["C2"]["total"]) == (4, 4)
    witnessed = [o for o in out["coverage"]["obligations"]["C4"]["items"] if o.get("witnessed_by")]
    assert len(witnessed) == 4
