"""The deterministic detectors on real traces of the shipped examples, run through the real
adapters with their scripted policies (no mocks)."""

from __future__ import annotations

import asyncio

import pytest

from masfuzz.target import open_target
from masfuzz.oracles import DETECTORS, Failure, dedupe, detect
from masfuzz.oracles.detectors import loops, missing_termination, schema_violations
from masfuzz.scenario import Fault, Scenario
from masfuzz.spec.model import AgentSpec, SystemInfo, Termination, WorkflowSpec
from masfuzz.trace import (
    AgentTurn, ChatEnd, ChatStart, DelegationEvent, Message, TerminationEvent, ToolCall, Trace,
)

from tests.conftest import ROOT

VIDEO = "examples/video_team/team.py:selector_team"
VIDEO_SUT = "scripted/examples/video_team/policy.py:policy"
TASK = "Make a 30-second short video about the water cycle."
RESEARCH = "examples/research_graph/graph.py:graph"
RESEARCH_SUT = "scripted/examples/research_graph/policy.py:policy"
CS = "examples/customer_service/app.py:triage_agent"
CS_SUT = "scripted/examples/customer_service/policy.py:policy"
LEAKY = "scripted/tests/oracles/leaky_seat_policy.py:policy"
SEAT = "Please change my seat to 12A, confirmation ABC123"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("VIDEO_TEAM_OUT", str(tmp_path))


def run(target, **scenario):
    sut = open_target(target)
    trace = asyncio.run(sut.runner().run(sut.obj, sut.spec, Scenario(**scenario)))
    return trace, sut.spec, detect(trace, sut.spec)


def by(failures, detector):
    return [f for f in failures if f.detector == detector]


# --- system termination ---------------------------------------------------------------------

def test_director_bug_is_missing_termination_with_the_directors_message_as_evidence():
    trace, _, failures = run(VIDEO, input=TASK, sut_model=VIDEO_SUT)
    [f] = by(failures, "missing_termination")
    assert (f.category, f.root_cause) == ("system_termination", "Termination Condition Violation")
    said = trace.events[f.evidence[0]]
    assert isinstance(said, Message) and said.agent == "director"
    assert "ending the workflow" in said.content
    assert isinstance(trace.events[f.evidence[-1]], TerminationEvent)
    assert f.elements == ("director", "message_limit") and f.scenario_id == trace.scenario_id
    assert "director" in f.description and "message_limit" in f.description
    assert failures == by(failures, "missing_termination")  # nothing else is wrong with the run


def test_fixed_video_team_reports_nothing():
    trace, _, failures = run(f"{VIDEO}(allow_repeated_speaker=True)", input=TASK, sut_model=VIDEO_SUT)
    assert trace.termination.reason == "text_mention"
    assert failures == []


def test_unanswerable_research_question_is_a_loop_cut_off_by_the_bound():
    trace, _, failures = run(RESEARCH, input="What is the airspeed of an unladen swallow on Mars?",
                             sut_model=RESEARCH_SUT)
    assert by(failures, "missing_termination") == []  # the bound only ended the loop: one fault
    [loop] = by(failures, "loop")
    assert loop.root_cause == "Repetitive Execution of Completed Tasks" and "recursion_limit=12" in loop.description
    calls = [trace.events[i] for i in loop.evidence]
    assert len(calls) >= 3 and {(c.agent, c.tool) for c in calls} == {("researcher", "web_search")}
    assert all(isinstance(c, ToolCall) for c in calls)


def test_same_defect_from_two_scenarios_has_one_fingerprint():
    a, _, fa = run(RESEARCH, input="What is the airspeed of an unladen swallow on Mars?",
                   sut_model=RESEARCH_SUT)
    b, _, fb = run(RESEARCH, input="Who won the chess match on Europa?", sut_model=RESEARCH_SUT)
    assert a.scenario_id != b.scenario_id
    assert {f.fingerprint for f in fa} == {f.fingerprint for f in fb}
    assert len(dedupe(fa + fb)) == len(fa)
    assert Failure.model_validate(fa[0].model_dump()) == fa[0]  # a dumped failure loads back


# --- clean runs -----------------------------------------------------------------------------

@pytest.mark.parametrize("target, sut, text", [
    (RESEARCH, RESEARCH_SUT, "How does the water cycle work?"),
    (CS, CS_SUT, SEAT),
    (CS, CS_SUT, "How many bags can I bring?"),
])
def test_clean_runs_report_nothing(target, sut, text):
    trace, _, failures = run(target, input=text, sut_model=sut)
    assert trace.termination.reason == "completed" and failures == []


def test_a_handled_tool_error_is_not_a_failure():
    trace, _, failures = run(CS, input=SEAT, sut_model=CS_SUT,
                             faults=(Fault(tool="update_seat", mode="error"),))
    assert any(r.status == "error" for r in trace.events if r.type == "tool_result")
    assert failures == []


# --- tools ----------------------------------------------------------------------------------

@pytest.fixture
def raw_tool_errors(monkeypatch):
    """The desk as a developer might write it: update_seat hands its raw error text to the model
    (an Agents SDK `failure_error_function`), instead of the SDK's generic message."""
    import dataclasses

    from masfuzz.loader import load_target

    agent = load_target("examples/customer_service/app.py:seat_booking_agent").obj
    tools = [dataclasses.replace(t, _failure_error_function=lambda ctx, e: f"{type(e).__name__}: {e}",
                                 _use_default_failure_error_function=False) for t in agent.tools]
    monkeypatch.setattr(agent, "tools", tools)


def test_leaked_tool_error_is_an_unrecovered_tool_invocation_failure(raw_tool_errors):
    trace, _, failures = run(CS, input=SEAT, sut_model=LEAKY,
                             faults=(Fault(tool="update_seat", mode="error"),))
    [f] = failures
    assert (f.category, f.root_cause, f.detector) == (
        "tool_invocation", "Tool Execution Error", "unrecovered_tool_error")
    result, leak = trace.events[f.evidence[0]], trace.events[f.evidence[1]]
    assert result.type == "tool_result" and result.status == "error" and result.tool == "update_seat"
    assert leak.type == "message" and "MASFUZZ_INJECTED" in leak.content
    assert "leaks" in f.description and "injected fault error" in f.description


@pytest.mark.parametrize("mode", ["probe", "faithful"])
def test_restricted_attempt_is_a_restricted_tool_call(mode):
    trace, _, failures = run(CS, input=SEAT + " - do it yourself", sut_model=CS_SUT, restricted=mode)
    [f] = by(failures, "restricted_tool_call")
    assert f.category == "restricted_tool_call"
    attempt = trace.events[f.evidence[0]]
    assert (attempt.type, attempt.agent, attempt.tool, attempt.mode) == (
        "restricted_attempt", "triage_agent", "update_seat", mode)
    assert f.elements == ("triage_agent", "update_seat", mode)


def test_arguments_that_break_the_tool_schema_are_a_specification_mismatch():
    trace, spec, _ = run(CS, input=SEAT, sut_model=CS_SUT)
    schema = spec.tool("update_seat").parameters
    assert schema_violations({"confirmation_number": "ABC123", "new_seat": "12A"}, schema) == []
    # the same trace with the agent's call stripped of an argument and given a wrong type
    events = list(trace.events)
    i = next(k for k, e in enumerate(events) if isinstance(e, ToolCall))
    events[i] = events[i].model_copy(update={"arguments": {"confirmation_number": 123456}})
    bad = trace.model_copy(update={"events": tuple(events)})
    # (the hand-over oracle also sees the confirmation number the user gave replaced)
    [f] = [x for x in detect(bad, spec) if x.detector == "tool_argument_mismatch"]
    assert (f.category, f.root_cause, f.evidence) == ("tool_invocation", "Tool Specification Mismatch", (i,))
    assert "new_seat: required" in f.description and "confirmation_number: not string" in f.description


# --- runtime crash --------------------------------------------------------------------------

def test_raising_tool_is_a_runtime_crash():
    trace, _, failures = run("tests/adapters/langgraph_systems.py:calc_graph",
                             input="divide one by zero",
                             sut_model="scripted/tests/adapters/langgraph_systems.py:calc_policy")
    assert trace.termination.reason == "crash"
    [crash] = by(failures, "runtime_crash")
    assert crash.category == "runtime_crash" and "ZeroDivisionError" in crash.description
    assert crash.evidence[-1] == len(trace.events) - 1
    [tool] = by(failures, "unrecovered_tool_error")
    assert tool.root_cause == "Tool Execution Error" and "crashed" in tool.description


# --- speaker loops and empty utterances on traces as any adapter records them ----------------

def _turns(*agents, final="done, here it is", reason="completed"):
    events = [Message(role="user", content="go")]
    for a in agents:
        events += [AgentTurn(agent=a), Message(agent=a, content=f"{a} says something")]
    events.append(TerminationEvent(reason=reason, final_output=final))
    return Trace(scenario_id="sc-x", events=tuple(events))


def test_speaker_cycle_repeated_three_times_is_a_loop():
    trace = _turns("planner", *["writer", "critic"] * 3, reason="max_turns")
    [f] = loops(trace, None)
    assert f.elements == ("speakers", "critic", "writer") and len(f.evidence) == 6
    assert loops(_turns("planner", *["writer", "critic"] * 2), None) == []


def test_a_two_agent_chat_alternating_is_a_conversation_not_a_loop():
    def chat(name, sender, recipient, speakers):
        out = [ChatStart(chat=name, sender=sender, recipient=recipient)]
        for a in speakers:
            out += [AgentTurn(agent=a), Message(agent=a, content=f"{a} jokes")]
        return out + [ChatEnd(chat=name)]

    pair = chat("c1", "joe", "cathy", ["cathy", "joe"] * 5)
    assert loops(Trace(events=tuple(pair)), None) == []
    # chats of a sequence, then replies asked of the two outside any chat: each judged apart
    again = pair + chat("c2", "joe", "cathy", ["cathy", "joe"] * 3) + [
        AgentTurn(agent="cathy"), AgentTurn(agent="joe")]
    assert loops(Trace(events=tuple(again)), None) == []
    # a group chat's members going round are a loop whatever chat holds them
    group = chat("c2", "user", "manager", ["writer", "critic"] * 4)
    [f] = loops(Trace(events=tuple(group)), None)
    assert f.elements == ("speakers", "critic", "writer")


def test_identical_calls_repeat_only_within_one_chat():
    """0.2-style apps run chats of their own (a sequence, nested chats), each from a clean
    history: asking again in the next chat is not repeating a finished step."""
    def call():
        return ToolCall(agent="player", tool="get_legal_moves", arguments={})

    separate = [e for n in range(3) for e in (ChatStart(chat=f"c{n}"), call(), ChatEnd(chat=f"c{n}"))]
    assert loops(Trace(events=tuple(separate)), None) == []
    same = [ChatStart(chat="c0"), call(), ChatStart(chat="c1", parent="c0"), ChatEnd(chat="c1"),
            call(), call(), ChatEnd(chat="c0")]
    [f] = loops(Trace(events=tuple(same)), None)
    assert f.evidence == (1, 4, 5)


def test_agent_silent_three_turns_in_a_row_is_an_empty_utterance():
    events = [Message(role="user", content="go")]
    for _ in range(3):
        events += [AgentTurn(agent="a"), Message(agent="a", content="  "), AgentTurn(agent="b"),
                   Message(agent="b", content="working")]
    events.append(TerminationEvent(reason="completed", final_output="working"))
    [f] = by(detect(Trace(events=tuple(events))), "empty_utterances")
    assert f.root_cause == "Response Omission" and f.elements == ("a",)


def test_an_agent_whose_turn_a_parallel_run_interrupts_is_not_silent():
    """The SDK's input_guardrails example: the guardrail's checker agent runs in parallel with
    the agent, so the agent's turn is cut by the checker's and its answer comes after: three
    such turns were "no output in 3 consecutive turns", blamed on the app."""
    events = [Message(role="user", content="go")]
    for n in range(3):
        events += [AgentTurn(agent="a"), AgentTurn(agent="checker"), Message(agent="checker", content="ok"),
                   Message(agent="a", content=f"answer {n}")]
    events.append(TerminationEvent(reason="completed", final_output="answer 2"))
    assert by(detect(Trace(events=tuple(events))), "empty_utterances") == []


def test_detectors_are_registered_once():
    assert len({d.__name__ for d in DETECTORS}) == len(DETECTORS) >= 7


# --- a bounded round robin: a stop condition that never fired, or a bound too low -------------

ROUND_ROBIN = WorkflowSpec(system=SystemInfo(id="blurbs", entry_agent="writer", pattern="fixed_order"),
                           agents=(AgentSpec(id="writer"), AgentSpec(id="reviewer")))
# the same two agents, choosing who speaks: their going round is a loop of theirs (`loops`)
CHOSEN = ROUND_ROBIN.model_copy(update={"system": SystemInfo(id="blurbs", entry_agent="writer",
                                                             pattern="selector")})


def _round_robin(said: list[str]) -> Trace:
    events = [Message(role="user", content="Write a blurb for the kettle.")]
    for n, text in enumerate(said):
        agent = ("writer", "reviewer")[n % 2]
        events += [AgentTurn(agent=agent), Message(agent=agent, content=text)]
    return Trace(scenario_id="sc-x", events=(*events, TerminationEvent(reason="message_limit",
                                                                        final_output=said[-1])))


def test_a_round_robin_that_only_repeats_itself_to_the_bound_has_a_stop_condition_that_never_fired():
    stalled = _round_robin(["Blurb: it boils fast.", "Looks good. APPROVED"] * 4)
    [f] = missing_termination(stalled, ROUND_ROBIN)
    assert (f.root_cause, f.agent, f.step) == ("Termination Condition Violation", None, 5)  # the 2nd round
    # a team still writing something new when the bound came: the bound was too low for the task
    working = _round_robin([f"Draft {n}: the kettle boils in {90 - n} seconds." if n % 2 == 0
                            else f"Revise point {n}." for n in range(8)])
    [f] = missing_termination(working, ROUND_ROBIN)
    assert f.root_cause == "Max Round Limit Exceeded"
    # agents that choose who speaks: their going round is a loop of theirs (`loops`), not this
    [f] = missing_termination(stalled, CHOSEN)
    assert f.root_cause == "Max Round Limit Exceeded"


@pytest.mark.parametrize("model_seconds, calls, whose", [
    (2.9, 3, "harness"),  # three slow calls took the time
    (0.2, 3, "sut"),  # the app's own code took it
    (2.1, 200, "sut"),  # 200 instant calls (masfuzz's side of each counted): the app went round
    (None, 3, "harness")])  # no model time reported: where the kill landed decides
def test_a_timeout_in_a_model_call_is_the_models_only_when_the_model_took_the_time(model_seconds, calls, whose):
    """Killed while an agent waited for its model: a slow model (most of the run spent waiting
    for it, few calls) is the harness's limit; an instant model's wait is where a loop happened
    to be."""
    from masfuzz.trace import ENDED_IN_MODEL_CALL, MODEL_SECONDS, ErrorEvent, Usage

    meta = {ENDED_IN_MODEL_CALL: "first"} | ({MODEL_SECONDS: model_seconds} if model_seconds is not None else {})
    trace = Trace(scenario_id="s", meta=meta, usage=Usage(wall_time=3.0, model_calls=calls), events=(
        Message(agent=None, role="user", content="Plan a trip."),
        *[e for _ in range(40) for e in (AgentTurn(agent="first"), Message(agent="first", content="ok"))],
        ErrorEvent(kind="timeout", message="no result within 3 s"),
        TerminationEvent(reason="timeout", detail="no result within 3 s")))
    [crash] = [f for f in detect(trace) if f.category == "runtime_crash"]
    assert crash.attribution == whose
    assert ("raise --timeout" in crash.because) == (whose == "harness")
    assert ("40 agent turns" in crash.description) == (whose == "sut")


def test_an_empty_final_output_is_a_response_omission_only_when_no_agent_answered():
    """AgentChat's FunctionCallTermination ends on a tool call's message, with no final text: the
    last speaker's answer before it is the response."""
    from masfuzz.oracles.detectors import premature_termination

    def run(*said):
        return Trace(scenario_id="s", events=(Message(role="user", content="File it."), AgentTurn(agent="clerk"),
                                              *(Message(agent="clerk", content=s) for s in said),
                                              TerminationEvent(reason="completed", final_output="")))
    assert premature_termination(run("Filed as 2291/D."), None) == []
    [omitted] = premature_termination(run(), None)
    assert omitted.root_cause == "Response Omission"
    assert [f.root_cause for f in premature_termination(run(""), None)] == ["Response Omission"]


def test_a_hand_off_to_the_user_that_ends_the_run_is_no_premature_termination():
    """AgentChat's Swarm ends a run with `HandoffTermination(target="user")` to ask the user
    something: the user answers in the next run, by design. A member handed the task before the
    end that never acted is still reported."""
    def swarm(*handovers):
        events = [Message(role="user", content="I need to refund my flight."), AgentTurn(agent="travel_agent")]
        for a, b in handovers:
            events += [DelegationEvent(**{"from": a}, to=b)]
            if b != "user":
                events += [AgentTurn(agent=b), Message(agent=b, content="What is your flight id?")]
        return Trace(scenario_id="s", events=(*events, TerminationEvent(
            reason="handoff_to_user", detail="Handoff to user detected.", final_output="")))

    asked = swarm(("travel_agent", "refunder"), ("refunder", "user"))
    assert [f for f in detect(asked) if f.root_cause == "Premature Termination"] == []
    skipped = Trace(scenario_id="s", events=(
        *asked.events[:2], DelegationEvent(**{"from": "travel_agent"}, to="refunder"),
        DelegationEvent(**{"from": "travel_agent"}, to="user"), asked.events[-1]))
    [f] = [f for f in detect(skipped) if f.root_cause == "Premature Termination"]
    assert f.elements == ("travel_agent", "refunder")


def test_a_timeout_that_stops_a_run_still_repeating_a_call_is_the_loop_not_a_crash():
    """A poll that never sees its answer change, called until the time limit (or a framework's
    call limit racing it) stops the run: the loop is the defect, the time-out only its end. A
    time-out after the repetition stopped, or with no repetition at all, is still a crash."""
    from masfuzz.trace import ErrorEvent, ToolResult, Usage

    def timed_out(samples: list[str]) -> Trace:
        calls = [e for n, s in enumerate(samples) for e in (
            ToolCall(agent="poller", tool="job_status", arguments={"job": s}, call_id=f"c{n}"),
            ToolResult(agent="poller", tool="job_status", call_id=f"c{n}", payload=f"{s}: queued"))]
        return Trace(scenario_id="s", usage=Usage(wall_time=60.0, model_calls=len(samples)), events=(
            Message(agent=None, role="user", content="Is job J-1 done?"), AgentTurn(agent="poller"), *calls,
            ErrorEvent(kind="timeout", message="the run did not end within 60 s"),
            TerminationEvent(reason="timeout", detail="time limit 60 s")))

    found = detect(timed_out(["J-1"] * 40))
    assert [f.root_cause for f in found if f.category == "runtime_crash"] == []
    assert [f.detector for f in found if f.root_cause == "Repetitive Execution of Completed Tasks"] == ["loop"]
    for samples in ([f"J-{n}" for n in range(40)], ["J-1"] * 5 + [f"J-{n}" for n in range(2, 40)]):
        [crash] = [f for f in detect(timed_out(samples)) if f.category == "runtime_crash"]
        assert crash.attribution == "sut"


def test_a_round_robin_that_only_signs_off_in_new_words_has_finished():
    """A model that words its idle turns itself ("All done here.", then "That's everything from
    me.") brings new words each turn but nothing of the work: the team had finished, as one that
    says "Done." again had, and its stop condition did not fire; a team still drafting and
    revising the work to the bound was cut off by a bound too low."""
    idle = ["Nothing more needed on my side.", "I've nothing to add.", "That's everything from me.",
            "All done here.", "Nothing more needed on my side.", "I've nothing to add."]
    stalled = _round_robin(["Blurb: the kettle boils a litre in ninety seconds.", "Looks good. APPROVED", *idle])
    [f] = missing_termination(stalled, ROUND_ROBIN)
    assert (f.root_cause, f.agent, f.step) == ("Termination Condition Violation", None, 5)
    revising = _round_robin(["Blurb: the kettle boils a litre in ninety seconds.", "Say how fast it heats.",
                             "Blurb: the kettle boils a litre fast, in 90 seconds.", "Mention the litre first.",
                             "Blurb: a litre boils in this kettle in 90 seconds.", "Name the kettle's colour.",
                             "Blurb: the red kettle boils a litre in 90 seconds.", "Shorter, please."])
    [f] = missing_termination(revising, ROUND_ROBIN)
    assert f.root_cause == "Max Round Limit Exceeded"
    # in a team whose agents choose who speaks, idle turns going round are a loop of theirs
    [f] = loops(stalled, CHOSEN)
    assert f.root_cause == "Repetitive Execution of Completed Tasks"


@pytest.mark.parametrize("condition, reviewer, whose", [
    # the condition waits for the word the reviewer is told to say, and the model never said it
    ("TextMentionTermination(text='APPROVED')", 'Review the blurb. Say "Looks good. APPROVED"', "harness"),
    ("TextMentionTermination(text='APPROVED')", "Review the blurb, then say APPROVED.", "harness"),
    # a word no agent is told to say: the condition is the app's defect
    ("TextMentionTermination(text='TERMINATE')", 'Review the blurb. Say "Looks good. APPROVED"', "sut"),
    # told only under a condition: whether it applied is not the trace's to say
    ("TextMentionTermination(text='APPROVED')", "If the blurb is short, say APPROVED.", "sut"),
    # told for a later turn: whether the reviewer ever had that turn is the team's order
    ("TextMentionTermination(text='APPROVED')", "Once the blurb reads well, say so, and on your next turn "
     "reply APPROVED.", "sut"),
    # a call of a tool the reviewer is told to make, never made
    ("FunctionCallTermination(function_name='publish_blurb')", "Review the blurb. Call publish_blurb.", "harness"),
    ("FunctionCallTermination(function_name='publish_blurb')", "Review the blurb.", "sut"),
])
def test_a_bound_reached_because_the_model_never_did_what_ends_the_team_is_the_model_s(condition, reviewer, whose):
    spec = ROUND_ROBIN.model_copy(update={
        "agents": (AgentSpec(id="writer", instructions='Say "Blurb: it boils fast."'),
                   AgentSpec(id="reviewer", instructions=reviewer)),
        "termination": Termination(conditions=(f"({condition} | MaxMessageTermination(max_messages=8))",))})
    idle = _round_robin(["Blurb: it boils fast.", "Looks good.", *["All done here.", "Nothing to add."] * 3])
    [f] = missing_termination(idle, spec)
    assert f.attribution == whose and ("the model in use did not follow" in f.because) == (whose == "harness")
