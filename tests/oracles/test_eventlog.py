"""FLARE's semantic event log, built from real traces of the shipped examples."""

import asyncio

import pytest

from masfuzz.exec import make_executor
from masfuzz.oracles.eventlog import event_log
from masfuzz.scenario import Scenario

from tests.conftest import EXAMPLES


def _trace(target, policy, text):
    ex = make_executor("inprocess", timeout=60)
    return asyncio.run(ex.run(target, Scenario(input=text, sut_model=f"scripted/{policy}:policy")))


def test_tool_log_and_excerpts_point_at_their_events():
    pytest.importorskip("agents")
    trace = _trace(str(EXAMPLES / "customer_service" / "app.py") + ":triage_agent",
                   EXAMPLES / "customer_service" / "policy.py",
                   "How much luggage can I bring? Also change my seat to 3A, booking XYZ789")
    log = event_log(trace)
    assert [t.agent for t in log.speaking_order] == trace.speaker_order
    assert all(trace.events[t.event].agent == t.agent for t in log.speaking_order)
    tools = {(t.caller, t.tool): t for t in log.tools}
    seat = tools[("seat_booking_agent", "update_seat")]
    assert seat.status == "ok" and seat.arguments["new_seat"] == "3A"
    assert trace.events[seat.result_event].payload == seat.output
    for e in log.excerpts:
        assert e.first.text in trace.events[e.first.event].content
    assert not log.dead_loop
    assert log.quoted(seat.output[:20]) and not log.quoted("a sentence nobody said")
    assert "speaking order: triage_agent ->" in log.render()


def test_the_video_teams_bound_is_a_dead_loop():
    pytest.importorskip("autogen_agentchat")
    trace = _trace(str(EXAMPLES / "video_team" / "team.py") + ":selector_team",
                   EXAMPLES / "video_team" / "policy.py",
                   "Make a 30-second video about the water cycle.")
    log = event_log(trace)
    assert trace.termination.reason == "message_limit"
    assert log.dead_loop and "message_limit" in log.dead_loop_reason
    director = next(e for e in log.excerpts if e.agent == "director")
    assert director.last is not None and director.last.event > director.first.event
