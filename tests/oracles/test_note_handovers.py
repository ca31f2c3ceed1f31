"""Work passed on in written notes (a hand-over note writer's classes):

- a date the hand-over wrote in another calendar form ("the 14th of March 2026" for 2026-03-14)
  reached the agent it was handed to, and a date the user gave before the one the agent used
  was superseded, not lost (`handover_facts`); a note that carries no day still is a loss;
- a team that stopped on its look-up's call, its last message a note whose wanting line names
  the colleague still to act ("Outstanding: groomer_g to ..."), ended before that colleague's
  turn: the note waits for the colleague, not for the user (`participation`);
- a finished agent's sign-off in words no closing list knows, said again verbatim to the round
  bound right after it reported its tool's answer, is a stop condition that did not hear the
  team finish (Termination Condition Violation), not a bound too low (`missing_termination`)."""

from __future__ import annotations

import json

import pytest

from masfuzz.oracles import detect
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

APPS = "tests/oracles/note_handover_apps.py"
POLICY = f"scripted/{APPS}:policy"


def _exec(cli, twin: str, request: str) -> list[dict]:
    code, out, err = cli("exec", f"{APPS}:{twin}", "--input", request, "--sut-model", POLICY,
                         "--executor", "inprocess", "--format", "json", "--failures")
    assert code in (0, 1), err
    return json.loads(out)["failures"]


TUNE = "Hello, could the tuner see to our upright, card PN-2207? We'd like 2026-03-14 if possible."
MOVE = "Our tuning, card PN-2207, is booked for 2026-03-07 but we're away then. Could it be 2026-03-14 instead?"


@pytest.mark.parametrize("request_", [TUNE, MOVE])
def test_a_day_written_out_in_the_note_reached_the_tuner(cli, request_):
    pytest.importorskip("agents")
    found = _exec(cli, "spelled", request_)
    assert not [f for f in found if f["root_cause"] == "Information Loss at Hand-over"], found


def test_a_note_without_the_day_still_loses_it(cli):
    pytest.importorskip("agents")
    [lost] = [f for f in _exec(cli, "dropped", TUNE) if f["root_cause"] == "Information Loss at Hand-over"]
    assert lost["agent"] == "desk_p" and "2026-03-14" in lost["description"]


GROOM = "Hi, Biscuit's tag is DG-3301. Could he have a full groom on 2026-05-02?"


def test_a_stop_on_the_look_up_with_a_note_for_the_groomer_is_premature(cli):
    pytest.importorskip("autogen_agentchat")
    [cut] = [f for f in _exec(cli, "cut", GROOM) if f["root_cause"] == "Premature Termination"]
    assert cut["elements"] == ["front_f", "groomer_g"]


def test_a_stop_on_the_booking_finds_nothing(cli):
    pytest.importorskip("autogen_agentchat")
    assert _exec(cli, "whole", GROOM) == []


# -- a sign-off said again after the agent reported its tool's answer ----------------------------

def _mill() -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="chat_manager", entry_agent="miller_m", framework="ag2", pattern="orchestrated"),
        agents=(AgentSpec(id="miller_m", instructions="Order the flour with order_flour."),),
        tools=(ToolSpec(id="order_flour", description="Order sacks of flour for delivery."),),
        permissions=Permissions(allow=(("miller_m", "order_flour"),)))


def _repeating(report: str, again: str, status: str = "ok") -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Six sacks of rye flour to the bakery on 2026-02-03, please."),
        AgentTurn(agent="miller_m"),
        ToolCall(agent="miller_m", tool="order_flour", arguments={"sacks": 6, "day": "2026-02-03"}, call_id="1"),
        ToolResult(agent="miller_m", tool="order_flour", call_id="1", status=status,
                   payload="{'order': 'FL-7730', 'day': '2026-02-03'}"),
        Message(agent="miller_m", role="assistant", content=report),
        *(Message(agent="miller_m", role="assistant", content=again) for _ in range(3)),
        TerminationEvent(reason="message_limit", detail="Maximum rounds (8) reached")))


def test_a_sign_off_said_again_after_the_report_is_an_unheard_finish():
    trace = _repeating("Sacks are on the van: FL-7730 for 2026-02-03.", "Over to you now; I have nothing to add.")
    [end] = [f for f in detect(trace, _mill()) if f.category == "system_termination"]
    assert end.root_cause == "Termination Condition Violation"


@pytest.mark.parametrize("report", [
    "Working on it.",  # the answer was never reported: the work is not shown done
    "Sacks are on the van: FL-7730 for 2026-02-03.",
])
def test_without_a_reported_answer_the_bound_is_what_ended_it(report):
    status = "ok" if report == "Working on it." else "error"
    trace = _repeating(report, "Over to you now; I have nothing to add.", status)
    [end] = [f for f in detect(trace, _mill()) if f.category == "system_termination"]
    assert end.root_cause == "Max Round Limit Exceeded"
