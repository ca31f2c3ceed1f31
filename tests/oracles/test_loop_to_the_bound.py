"""A run stopped at its bound while an agent was still repeating the same call (a LangGraph
recursion limit ending a ReAct agent that polls "until it says READY", an AgentChat team's
max_turns ending a desk that asks the same stock feed again) is one fault: the loop. The bound's
Max Round Limit Exceeded is its symptom, not a second finding; a loop that stopped before the
team went on to other work leaves the bound its own finding."""

from __future__ import annotations

from masfuzz.oracles import detect
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

ASK = "Could you get the 4B pencils for the life-drawing class on Thursday? We need twelve."
FEED = '{"item": "4B pencil", "state": "BACKORDER", "restock": "week 22"}'


def _polls(times: int, then: tuple = ()) -> Trace:
    events: list = [Message(role="user", content=ASK), AgentTurn(agent="supplies")]
    for k in range(times):
        events += [ToolCall(agent="supplies", tool="stock_level", call_id=f"c{k}", arguments={"sku": "PN-4B"}),
                   ToolResult(agent="supplies", tool="stock_level", call_id=f"c{k}", payload=FEED)]
    events += [*then, TerminationEvent(reason="max_turns", detail="recursion_limit=25 reached")]
    return Trace(scenario_id="s", events=tuple(events))


def test_a_poll_cut_off_by_the_bound_is_one_fault_the_loop():
    found = detect(_polls(9))
    assert [(f.root_cause, f.agent) for f in found] == [("Repetitive Execution of Completed Tasks", "supplies")]
    assert found[0].description.endswith("still going round when max_turns (recursion_limit=25 reached) stopped the run")


def test_a_loop_that_ended_before_other_work_leaves_the_bound_its_own_finding():
    later = (AgentTurn(agent="rota"),
             ToolCall(agent="rota", tool="find_cover", call_id="r1", arguments={"day": "Thursday"}),
             ToolResult(agent="rota", tool="find_cover", call_id="r1", payload='{"cover": "Iris"}'),
             Message(agent="rota", content="Iris can cover Thursday's class; I'll ask about easels next."),
             AgentTurn(agent="rota"),
             ToolCall(agent="rota", tool="find_easels", call_id="r2", arguments={"room": "studio 2"}))
    assert sorted(f.root_cause for f in detect(_polls(4, later))) == ["Max Round Limit Exceeded",
                                                         "Repetitive Execution of Completed Tasks"]
