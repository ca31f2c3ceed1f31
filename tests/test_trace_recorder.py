"""`TraceRecorder`: events in order with their times, sealed into a `Trace` by `finish`."""

from masfuzz.trace import AgentTurn, Message, TerminationEvent, TraceRecorder


def test_events_are_stamped_unless_they_carry_their_time():
    rec = TraceRecorder()
    given = Message(agent=None, role="user", content="hi", t=0.25)
    assert rec.add(given) is given  # carries its time: kept as is, no copy
    stamped = rec.add(Message(agent="a", content="yes"))
    assert stamped.t > 0 and stamped.content == "yes" and "t" in stamped.model_fields_set
    rec.turn("a")
    rec.turn("a")  # already speaking: no second turn
    trace = rec.finish("completed", final_output="yes")
    assert [type(e) for e in trace.events] == [Message, Message, AgentTurn, TerminationEvent]
    assert trace.events[2].t > 0 and trace.events[3].t > 0


def test_a_finished_trace_keeps_its_meta_when_the_recorder_changes_later():
    rec = TraceRecorder(scenario_id="sc-1", system_id="sys", framework="f")
    rec.meta["restricted"] = "off"
    trace = rec.finish()
    rec.meta["restricted"] = "probe"
    rec.meta["late"] = True
    assert trace.meta == {"restricted": "off"}
    assert (trace.scenario_id, trace.system_id, trace.framework) == ("sc-1", "sys", "f")
    assert trace.termination is not None and trace.termination.reason == "completed"


def test_each_hand_over_keeps_what_its_agent_was_given_whenever_the_framework_records_it():
    """A hand-over recorded before the call it leads to (a router with no model sends the work
    back to `b`) is a new entry; one recorded after it (a framework that records the hand-over
    when the agent's turn is done) marks no later call of that stint."""
    from masfuzz.llm.types import ChatMessage
    from masfuzz.trace import HANDOVER_INPUTS, DelegationEvent

    def asked(rec, agent, text):
        rec.received(agent, [ChatMessage(role="user", content=text)])

    rec = TraceRecorder()
    asked(rec, "a", "task")
    rec.add(DelegationEvent(**{"from": "a"}, to="b"))
    asked(rec, "b", "task, a's note")
    rec.add(DelegationEvent(**{"from": "b"}, to="router"))  # plain code: no model call
    rec.add(DelegationEvent(**{"from": "router"}, to="b"))
    asked(rec, "b", "task, a's note, the router's check")
    asked(rec, "b", "task, a's note, the router's check, a tool's result")  # the same stint
    assert [(x["agent"], x["text"]) for x in rec.meta[HANDOVER_INPUTS]] == [
        ("a", "task"), ("b", "task, a's note"), ("b", "task, a's note, the router's check")]

    late = TraceRecorder()
    asked(late, "a", "task")
    asked(late, "b", "task, a's note")
    late.add(DelegationEvent(**{"from": "a"}, to="b"))  # recorded once b's turn is done
    asked(late, "b", "task, a's note, a tool's result")
    assert [x["agent"] for x in late.meta[HANDOVER_INPUTS]] == ["a", "b"]
