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
