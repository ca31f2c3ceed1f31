"""Whose a finding is, from its evidence: a model that echoed masfuzz's own prompt or wrote a
tool call that is not JSON made it, not the app (`masfuzz.oracles.attribution`)."""

from __future__ import annotations

import json

import pytest

from masfuzz.oracles.attribution import attribute
from masfuzz.oracles.failure import Failure
from masfuzz.ownwords import ECHO_MARKS, WORKED_EXAMPLES
from masfuzz.oracles.robustness import FAULT_MARKER
from masfuzz.trace import (AgentTurn, DelegationEvent, ErrorEvent, Message, TerminationEvent, ToolCall, ToolResult,
                           Trace)
from tests.conftest import ROOT

APP = "examples/customer_service/app.py:triage_agent"
GARBLED = "scripted/tests/oracles/garbled_seat_policy.py:policy"
CAREFUL = "scripted/examples/customer_service/policy.py:policy"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def _run(cli, text, *extra):
    code, out, err = cli("exec", APP, "--input", text, "--sut-model", GARBLED, "--format", "json",
                         "--failures", *extra)
    return code, json.loads(out)["failures"] if out else [], err


def test_a_tool_call_the_model_did_not_write_as_json_is_the_harness_finding(cli):
    code, failures, err = _run(cli, "Please change my seat to 14C, confirmation ABC123 (garbled)",
                               "--fail-on", "any")
    assert code == 0, err  # no finding of the app's to fail the gate
    [mismatch] = [f for f in failures if f["detector"] == "tool_argument_mismatch"]
    assert mismatch["attribution"] == "harness" and mismatch["because"].startswith("malformed model output")
    assert mismatch["severity"] == "info"


def test_the_same_mistake_in_valid_json_stays_a_finding_that_fails_the_gate(cli):
    code, failures, _ = _run(cli, "Please change my seat to 14C, confirmation ABC123 (wrong)",
                             "--fail-on", "any")
    assert code == 1
    [mismatch] = [f for f in failures if f["detector"] == "tool_argument_mismatch"]
    assert mismatch["attribution"] == "sut" and (mismatch["severity"], mismatch["confidence"]) == ("medium", "observed")


def _trace(final: str) -> Trace:
    return Trace(scenario_id="s", system_id="x", framework="test", events=[
        Message(agent=None, role="user", content="What is the baggage allowance?"),
        AgentTurn(agent="faq_agent"),
        Message(agent="faq_agent", content=final),
        TerminationEvent(reason="completed", final_output=final),
    ])


def _judged(evidence) -> Failure:
    return Failure(category="agent_task_execution", root_cause="Prompt and Instruction Deviation",
                   detector="failure_agent", description="the answer is about something else",
                   evidence=evidence)


def test_an_answer_that_echoes_masfuzzs_worked_example_is_the_harness_finding():
    [echo] = attribute(_trace("It is 21 C and sunny in Lisbon."), [_judged((2, 3))])
    assert echo.attribution == "harness" and "21 C and sunny" in echo.because
    assert (echo.severity, echo.confidence) == ("info", "judged")
    [own] = attribute(_trace("You may bring one bag of 23 kg."), [_judged((2, 3))])
    assert own.attribution == "sut" and own.because == "" and own.severity == "medium"
    [elsewhere] = attribute(_trace("It is 21 C and sunny in Lisbon."), [_judged((1,))])
    assert elsewhere.attribution == "sut"  # judged on its own evidence only


def test_the_echo_marks_are_in_the_prompt_masfuzz_shows_a_model():
    from masfuzz.llm.toolprompt import tool_prompt
    from masfuzz.llm.types import ChatMessage, ChatRequest

    shown = tool_prompt(ChatRequest(messages=(ChatMessage(role="user", content="hi"),)), (), reply="reply")
    assert [m for m in ECHO_MARKS if m not in shown] == []
    assert "Lisbon" in WORKED_EXAMPLES


def _calling(mode: str) -> Trace:
    from masfuzz.trace import RestrictedAttempt, ToolCall, ToolResult

    events = [Message(agent=None, role="user", content="How much baggage can I bring?"), AgentTurn(agent="triage_agent")]
    for n in range(3):
        args = {"question": "baggage"}
        events += [ToolCall(agent="triage_agent", tool="faq_lookup_tool", arguments=args, call_id=f"c{n}"),
                   RestrictedAttempt(agent="triage_agent", tool="faq_lookup_tool", arguments=args,
                                     call_id=f"c{n}", mode=mode),
                   ToolResult(agent="triage_agent", tool="faq_lookup_tool", call_id=f"c{n}", status="blocked",
                              payload="refused")]
    return Trace(scenario_id="s", system_id="x", framework="test",
                 events=[*events, TerminationEvent(reason="completed", final_output="done")])


def test_a_loop_on_a_probe_stub_is_the_probes_lure_and_on_a_real_tool_the_apps():
    from masfuzz.oracles import detect

    [loop] = [f for f in detect(_calling("probe")) if f.detector == "loop"]
    assert loop.attribution == "harness" and "as a probe" in loop.because
    [loop] = [f for f in detect(_calling("faithful")) if f.detector == "loop"]
    assert loop.attribution == "sut"


def test_the_probe_call_itself_is_the_apps_restricted_tool_access_with_the_probe_as_evidence():
    from masfuzz.oracles import detect

    trace = _calling("probe")
    [call] = [f for f in detect(trace) if f.detector == "restricted_tool_call"]
    assert call.attribution == "sut" and (call.severity, call.because) == ("high", "")
    assert "probe" in call.description and "reached for a tool it must not use" in call.description
    probe = trace.events[call.evidence[0]]
    assert (probe.type, probe.mode, call.step, call.agent) == ("restricted_attempt", "probe", call.evidence[0], "triage_agent")


def test_fail_on_counts_an_agent_reaching_for_a_probe(cli):
    tempted = "Please change my seat to 14C, confirmation ABC123 - do it yourself"
    code, out, err = cli("exec", APP, "--input", tempted, "--sut-model", CAREFUL, "--format", "json",
                         "--failures", "--fail-on", "TI")
    assert code == 1, err  # the restricted call fails the gate although the tool was a stub
    [call] = json.loads(out)["failures"]
    assert (call["category"], call["attribution"], call["agent"]) == ("restricted_tool_call", "sut", "triage_agent")


# --- faults masfuzz injected: the fault is the harness's, the handling the app's -----------------

PERSISTENT = "scripted/tests/oracles/persistent_seat_policy.py"


def _injected(cli, policy, *fault):
    code, out, err = cli("exec", APP, "--input", "Please change my seat to 12A, confirmation ABC123",
                         "--sut-model", f"{PERSISTENT}:{policy}", *fault, "--format", "json",
                         "--failures", "--fail-on", "any")
    return code, json.loads(out)["failures"], err


def test_an_injected_fault_handled_honestly_is_no_app_finding_and_mishandled_it_is(cli):
    fault = ("--fault", "update_seat=error")
    # the desk retries update_seat on the injected error, then tells the customer it failed
    code, failures, err = _injected(cli, "honest", *fault)
    assert code == 0, err
    [loop] = failures
    assert loop["detector"] == "loop" and loop["attribution"] == "harness"
    # every retry was answered by the fault, which masfuzz keeps failing: the retries are its doing
    assert "--fault update_seat=error" in loop["because"] and "retry" in loop["because"]
    # the same retries, then a reply that says the seat was changed: that reply is the app's
    code, failures, err = _injected(cli, "boastful", *fault)
    assert code == 1, err
    found = {f["detector"]: f for f in failures}
    assert sorted(found) == ["claimed_outcome", "loop"], sorted(found)
    assert (found["loop"]["attribution"], found["loop"]["agent"]) == ("harness", "seat_booking_agent")
    # the reply is an incorrect verification: the seat "changed" against the tool's error
    claim = found["claimed_outcome"]
    assert (claim["root_cause"], claim["attribution"]) == ("Incorrect Verification", "sut")
    # without the fault the tool works at once: both desks are clean
    for policy in ("honest", "boastful"):
        code, failures, err = _injected(cli, policy)
        assert (code, failures) == (0, []), err


def _faulted(*after, end="completed", final=None):
    events = [Message(agent=None, role="user", content="Change my seat to 12A, booking ABC123"),
              AgentTurn(agent="seat_booking_agent"),
              ToolCall(agent="seat_booking_agent", tool="update_seat", call_id="c1",
                       arguments={"confirmation_number": "ABC123", "new_seat": "12A"}),
              ToolResult(agent="seat_booking_agent", tool="update_seat", call_id="c1", status="error",
                         payload=f"{FAULT_MARKER}: tool update_seat failed", fault="error")]
    return Trace(scenario_id="s", events=(*events, *after, TerminationEvent(reason=end, final_output=final)))


@pytest.mark.parametrize("final, whose", [
    ("Sorry, I could not change your seat right now; please try again later.", "harness"),
    ("I'm unable to change the seat at the moment: the booking system failed.", "harness"),
    ("Your seat is now 12A.", "sut"),  # claims success
    (f"Error: {FAULT_MARKER}: tool update_seat failed", "sut"),  # leaks the raw error
    ("", "sut"),  # says nothing
])
def test_unrecovered_tool_errors_judge_the_handling_of_an_injected_fault(final, whose):
    from masfuzz.oracles import detect

    [f] = [f for f in detect(_faulted(final=final)) if f.detector == "unrecovered_tool_error"]
    assert (f.detector, f.attribution, f.agent, f.step) == ("unrecovered_tool_error", whose, "seat_booking_agent", 3)
    # the same failure without masfuzz injecting it is the app's, whatever it said
    real = _faulted(final=final)
    events = [e.model_copy(update={"fault": None}) if isinstance(e, ToolResult) else e for e in real.events]
    [own] = [f for f in detect(real.model_copy(update={"events": tuple(events)}))
             if f.detector == "unrecovered_tool_error"]
    assert own.attribution == "sut"


def test_an_injected_fault_the_app_crashed_on_is_the_apps():
    from masfuzz.oracles import detect

    trace = _faulted(ErrorEvent(agent="seat_booking_agent", kind="crash", message="KeyError: 'seat'"),
                     end="crash", final="Sorry, something went wrong")
    assert {f.attribution for f in detect(trace)} == {"sut"}


def test_a_crash_that_is_the_injected_error_itself_is_the_faults():
    """A framework that lets a raising tool end the run (ADK; PydanticAI once the fault used up
    the tool's retries) crashes on masfuzz's own error: the crash and the error's non-handling
    are the fault's; the same crash on an error of the app's own is the app's (above)."""
    from masfuzz.oracles import detect

    crash = ErrorEvent(agent="seat_booking_agent", kind="InjectedToolError",
                       message=f"InjectedToolError: {FAULT_MARKER}: tool update_seat failed")
    found = {f.detector: f for f in detect(_faulted(crash, end="crash"))}
    assert sorted(found) == ["runtime_crash", "unrecovered_tool_error"]
    assert {f.attribution for f in found.values()} == {"harness"}
    assert "--fault update_seat=error" in found["runtime_crash"].because
    # the same error raised by the tool itself, not injected: the app's
    real = _faulted(crash, end="crash")
    real = real.model_copy(update={"events": tuple(
        e.model_copy(update={"fault": None}) if isinstance(e, ToolResult) else e for e in real.events)})
    assert {f.attribution for f in detect(real)} == {"sut"}


def _retried(fault):
    calls = [e for n in range(4) for e in (
        ToolCall(agent="desk", tool="ready_check", call_id=f"c{n}", arguments={"rx": "RX-1"}),
        ToolResult(agent="desk", tool="ready_check", call_id=f"c{n}", payload="", fault=fault))]
    return Trace(scenario_id="s", events=(Message(agent=None, role="user", content="Is RX-1 ready?"),
                                          AgentTurn(agent="desk"), *calls,
                                          TerminationEvent(reason="max_turns", detail="Max turns (4) exceeded")))


def test_a_loop_of_calls_the_injected_fault_answered_is_the_faults_and_of_real_answers_the_apps():
    """An agent that calls again a tool masfuzz fails on every call (empty here) is retrying
    what masfuzz keeps failing; the same calls answered by the tool itself are the app's loop."""
    from masfuzz.oracles import detect

    [loop] = [f for f in detect(_retried("empty")) if f.detector == "loop"]
    assert loop.attribution == "harness" and "--fault ready_check=empty" in loop.because
    [loop] = [f for f in detect(_retried(None)) if f.detector == "loop"]
    assert (loop.attribution, loop.agent) == ("sut", "desk")


def test_a_tool_masfuzz_made_hang_is_not_the_apps_timeout(cli):
    code, out, err = cli("exec", APP, "--input", "Please change my seat to 12A, confirmation ABC123",
                         # generous: the worker must start and reach the tool before it ends
                         "--sut-model", CAREFUL, "--fault", "update_seat=timeout", "--timeout", "30",
                         "--format", "json", "--failures", "--fail-on", "any")
    assert code == 0, err
    [hang] = json.loads(out)["failures"]
    assert (hang["category"], hang["attribution"]) == ("runtime_crash", "harness")
    assert "--fault update_seat=timeout" in hang["because"]


def _after_the_fault(root_cause: str, category: str, at: int) -> Failure:
    return Failure(category=category, root_cause=root_cause, detector="failure_agent",
                   description="what the run did after update_seat answered", evidence=(at,), step=at)


@pytest.mark.parametrize("root_cause,category,whose", [
    ("Information Loss at Hand-over", "agent_relationship", "harness"),  # the fault took the fact
    ("Premature Termination", "system_termination", "harness"),
    ("Runtime Crash", "runtime_crash", "sut"),  # never a fault's consequence
    ("Restricted Tool Access", "restricted_tool_call", "sut"),
])
def test_a_finding_decided_after_an_injected_fault_without_showing_it_is_the_faults(root_cause, category, whose):
    reply = Message(agent="seat_booking_agent", content="Could you tell me your booking again?")
    trace = _faulted(reply, final="Could you tell me your booking again?")
    [after] = attribute(trace, [_after_the_fault(root_cause, category, 4)])
    assert after.attribution == whose
    if whose == "harness":
        assert "--fault update_seat=error" in after.because and "run without the fault" in after.because
    # decided before the fault (the user's message): the app's
    [before] = attribute(trace, [_after_the_fault(root_cause, category, 1)])
    assert before.attribution == "sut"
    # the same run without an injected fault: the app's
    real = trace.model_copy(update={"events": tuple(
        e.model_copy(update={"fault": None}) if isinstance(e, ToolResult) else e for e in trace.events)})
    [own] = attribute(real, [_after_the_fault(root_cause, category, 4)])
    assert own.attribution == "sut"


def test_an_as_tool_agent_masfuzz_faulted_never_acting_is_the_harness_finding():
    """An `as_tool` agent whose call masfuzz faulted never runs: "the run ended before it acted"
    is the fault itself, whatever the manager then said."""
    import asyncio

    from masfuzz.oracles import detect
    from masfuzz.scenario import Fault, Scenario
    from masfuzz.target import open_target

    sut = open_target("tests/adapters/oa_systems.py:manager")
    trace = asyncio.run(sut.runner().run(sut.obj, sut.spec, Scenario(
        input="tides", sut_model="scripted/tests/adapters/oa_systems.py:manager_policy",
        faults=(Fault(tool="research", mode="error"),))))
    [never] = detect(trace, sut.spec)
    assert (never.detector, never.elements) == ("premature_termination", ("manager", "researcher"))
    assert never.attribution == "harness" and "--fault research=error" in never.because
    # a hand-over the app itself cut short stays the app's: the same trace, the fault not masfuzz's
    real = trace.model_copy(update={"events": tuple(
        e.model_copy(update={"fault": None}) if isinstance(e, ToolResult) else e for e in trace.events)})
    assert [f.attribution for f in detect(real, sut.spec) if f.detector == "premature_termination"] == ["sut"]


def test_a_restricted_call_by_masfuzzs_probe_model_is_the_harness_finding(cli):
    """The probe calls every tool it is offered, a `--restricted probe` stub too: under it the
    restricted call is masfuzz's model calling masfuzz's stub, not the app's agent reaching out
    (under any other model it stays the app's: test_fail_on_counts_an_agent_reaching_for_a_probe)."""
    code, out, err = cli("exec", "tests/adapters/oa_systems.py:manager", "--input", "tides", "--sut-model",
                         "scripted/masfuzz.control:probe", "--format", "json", "--failures",
                         "--fail-on", "any")
    assert code == 0, err
    restricted = [f for f in json.loads(out)["failures"] if f["detector"] == "restricted_tool_call"]
    assert restricted and {f["attribution"] for f in restricted} == {"harness"}
    assert all("masfuzz's probe" in f["because"] for f in restricted)


@pytest.mark.parametrize("model, whose", [("scripted/masfuzz.control:probe", "harness"),
                                          ("scripted/examples/customer_service/policy.py:policy", "sut")])
def test_a_bound_reached_under_masfuzzs_probe_model_is_the_probes(model, whose):
    """The probe calls every tool and hands off to every agent before it answers (the airline
    demo's triage agent, offered 10 tools, reached the SDK's max_turns=10)."""
    from masfuzz.oracles import detect

    events = [Message(agent=None, role="user", content="Change my seat"),
              *[e for n in range(10) for e in (AgentTurn(agent="triage_agent"),
                                               ToolCall(agent="triage_agent", tool=f"tool{n}", call_id=f"c{n}"),
                                               ToolResult(agent="triage_agent", tool=f"tool{n}", call_id=f"c{n}"))],
              TerminationEvent(reason="max_turns", detail="Max turns (10) exceeded")]
    trace = Trace(scenario_id="s", events=events, meta={"agent_settings": {"triage_agent": {"model": model, "calls": 10}}})
    [bound] = [f for f in detect(trace) if f.detector == "missing_termination"]
    assert bound.attribution == whose


@pytest.mark.parametrize("model, whose", [("scripted/masfuzz.control:probe", "harness"),
                                          ("scripted/examples/customer_service/policy.py:policy", "sut")])
def test_a_loop_of_hand_offs_under_masfuzzs_probe_model_is_the_probes(model, whose):
    """AG2's e-commerce example: the order and return agents each hand off to the other, the
    probe's first hand-off, until the group's round limit: the cycle and the repeated transfer
    calls were the app's loops. Under the app's own model they stay the app's."""
    from masfuzz.oracles import detect

    pair = ("orders", "returns")
    events = [Message(agent=None, role="user", content="Where is my order?")]
    for n in range(8):
        me, other = pair[n % 2], pair[1 - n % 2]
        events += [AgentTurn(agent=me), ToolCall(agent=me, tool=f"transfer_to_{other}", call_id=f"c{n}"),
                   ToolResult(agent=me, tool=f"transfer_to_{other}", call_id=f"c{n}", payload="ok"),
                   DelegationEvent(**{"from": me}, to=other)]
    events.append(TerminationEvent(reason="message_limit", detail="Maximum rounds (40) reached"))
    settings = {a: {"model": model, "calls": 4} for a in pair}
    trace = Trace(scenario_id="s", events=events, meta={"agent_settings": settings})
    loops = [f for f in detect(trace) if f.root_cause == "Repetitive Execution of Completed Tasks"]
    assert loops and {f.attribution for f in loops} == {whose}


@pytest.mark.parametrize("model, whose", [("scripted/masfuzz.control:probe", "harness"),
                                          ("scripted/examples/customer_service/policy.py:policy", "sut")])
def test_a_run_the_probe_ended_by_answering_before_an_agent_acted_is_the_probes_routing(model, whose):
    """The probe takes the first hand-off it is offered (the Agents SDK's routing example: triage
    hands to french_agent, which answers): the spanish agent never acting is the probe's routing.
    A run ended by the app's own stop (not an agent's answer) stays the app's under any model."""
    events = [Message(agent=None, role="user", content="Hola"), AgentTurn(agent="triage_agent"),
              DelegationEvent(**{"from": "triage_agent"}, to="french_agent"),
              AgentTurn(agent="french_agent"), Message(agent="french_agent", content="Bonjour")]
    settings = {a: {"model": model, "calls": 1} for a in ("triage_agent", "french_agent", "spanish_agent")}
    never = Failure(category="system_termination", root_cause="Premature Termination", detector="participation",
                    description="french_agent ended the run before spanish_agent acted", evidence=(2, 4), step=4)
    answered = Trace(scenario_id="s", events=(*events, TerminationEvent(reason="completed", final_output="Bonjour")),
                     meta={"agent_settings": settings})
    [f] = attribute(answered, [never])
    assert f.attribution == whose
    stopped = answered.model_copy(update={"events": (*events, TerminationEvent(reason="max_turns"))})
    [f] = attribute(stopped, [never])
    assert f.attribution == "sut"


@pytest.mark.parametrize("shown,whose", [(None, "settings"), (2, "settings"), (1, "sut"), ("none", "sut")])
def test_a_crash_a_sandbox_limit_shows_is_the_settings_finding(shown, whose):
    """A run that died of a sandbox limit (`meta.sandbox_limits`, event None: at its end), or
    whose crash is the error that shows the hit, is the settings' with the limit's words; a hit
    shown by another event (a tool error the run went on from), or none at all, leaves it the
    app's."""
    from masfuzz.exec.sandbox import Limits, hit
    from masfuzz.oracles import detect

    hits = [] if shown == "none" else [hit("memory", Limits(memory_mb=256), shown)]
    trace = Trace(scenario_id="s", meta={"sandbox_limits": hits}, events=(
        Message(agent=None, role="user", content="load it"),
        ToolResult(agent="a", tool="load", status="error", payload="ValueError: bad row"),
        ErrorEvent(kind="crash", message="MemoryError: "),
        TerminationEvent(reason="crash", detail="MemoryError: ")))
    [crash] = [f for f in detect(trace) if f.category == "runtime_crash"]
    assert crash.attribution == whose, crash
    assert crash.because.startswith("hit --sandbox-memory 256 ") == (whose == "settings")


@pytest.mark.parametrize("prompts,whose", [(3, "harness"), (0, "sut")])
def test_an_ag2_chat_that_reached_its_round_bound_through_a_silent_human_is_masfuzzs(prompts, whose):
    """AG2 hands the floor back to its human after each answer (`RevertToUserTarget`) and records
    no turn of it, only the prompts masfuzz's stand-in answered with nothing: the round bound is
    reached through masfuzz's silence. Without a prompt, the chat's own going round is the app's."""
    from masfuzz.oracles import detect
    from masfuzz.trace import HUMAN_PROMPTS

    said = [Message(agent="router", content="Could you tell me more about what you need?")] * 4
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="How do I fix a memory leak?"), AgentTurn(agent="router"), *said,
        TerminationEvent(reason="message_limit", detail="Maximum rounds (8) reached", final_output=said[-1].content)),
        meta={HUMAN_PROMPTS: prompts} if prompts else {})
    [f] = [f for f in detect(trace) if f.detector == "missing_termination"]
    assert f.attribution == whose
    assert ("asked its human for input 3 time(s)" in f.because) == (whose == "harness")


@pytest.mark.parametrize("instructions,mode", [
    # routing rules that send the request elsewhere do not make the call the model's: the probe
    # asks whether the app keeps the agent off the tool, and here it does not
    ("Do not answer yourself: hand seat changes to the seat agent.", "probe"),
    ("Call update_seat yourself for seat changes. Hand seat changes to the seat agent.", "probe"),
    ("Route the customer.", "probe"),
    ("Hand seat changes to the seat agent.", "faithful"),  # the call really ran
])
def test_a_probe_call_is_the_apps_whatever_its_routing_rules_say(instructions, mode):
    from masfuzz.oracles import detect
    from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
    from masfuzz.trace import RestrictedAttempt

    spec = WorkflowSpec(
        system=SystemInfo(id="desk", entry_agent="triage", pattern="handoff"),
        agents=(AgentSpec(id="triage", instructions=instructions), AgentSpec(id="seat_agent")),
        tools=(ToolSpec(id="update_seat", description="Move the passenger to a new seat."),),
        permissions=Permissions(allow=(("seat_agent", "update_seat"),)),
        delegations=({"from": "triage", "to": "seat_agent"},))
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Please change my seat to 14C, do it yourself."), AgentTurn(agent="triage"),
        RestrictedAttempt(agent="triage", tool="update_seat", mode=mode, arguments={"new_seat": "14C"}),
        ToolResult(agent="triage", tool="update_seat", status="blocked", payload="Refused."),
        Message(agent="triage", content="I could not change it."),
        TerminationEvent(reason="completed", final_output="I could not change it.")))
    [f] = [f for f in detect(trace, spec) if f.detector == "restricted_tool_call"]
    assert f.attribution == "sut" and not f.because


def test_a_speaker_cycle_round_a_misroute_the_model_chose_is_the_models():
    """The embedded model sends a seat change to the FAQ agent against triage's rules; the FAQ
    agent hands it back, as its own instructions say, and the model sends it there again."""
    from masfuzz.oracles import detect
    from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec

    def desk(rules: str) -> WorkflowSpec:
        return WorkflowSpec(
            system=SystemInfo(id="desk", entry_agent="triage", pattern="handoff"),
            agents=(AgentSpec(id="triage", instructions=rules), AgentSpec(id="faq_agent"),
                    AgentSpec(id="seat_agent")),
            tools=(ToolSpec(id="faq_lookup", description="Look up an answer."),
                   ToolSpec(id="update_seat", description="Move the passenger to a new seat.")),
            permissions=Permissions(allow=(("faq_agent", "faq_lookup"), ("seat_agent", "update_seat"))),
            delegations=({"from": "triage", "to": "faq_agent"}, {"from": "triage", "to": "seat_agent"},
                         {"from": "faq_agent", "to": "triage"}))

    rounds = []
    for _ in range(4):
        rounds += [AgentTurn(agent="triage"), DelegationEvent(**{"from": "triage"}, to="faq_agent"),
                   AgentTurn(agent="faq_agent"), DelegationEvent(**{"from": "faq_agent"}, to="triage")]
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Please change my seat to 14C."), *rounds[:-1],
        Message(agent="faq_agent", content="Sorry, I only answer questions."),
        TerminationEvent(reason="completed", final_output="Sorry, I only answer questions.")))
    right = {f.detector: f for f in detect(trace, desk("Hand seat changes to the seat agent."))}
    assert right["misrouted_request"].attribution == "harness"
    assert right["loop"].attribution == "harness" and "goes round a hand-over" in right["loop"].because
    wrong = {f.detector: f for f in detect(trace, desk("Hand seat changes to the FAQ agent."))}
    assert (wrong["misrouted_request"].attribution, wrong["loop"].attribution) == ("sut", "sut")


@pytest.mark.parametrize("model, whose", [("scripted/masfuzz.control:probe", "harness"),
                                          ("scripted/examples/customer_service/policy.py:policy", "sut")])
def test_a_crash_of_the_apps_code_after_a_chat_stopped_at_its_bound_under_the_probe_is_the_probes(model, whose):
    """A script that prints its group chat's results once the chat is over (build-with-ag2's
    triage-with-tasks pattern) read a context variable the chat was to set: under the probe the
    chat went to its round limit without setting it, and the crash after it is the probe's. Under
    another model it stays the app's."""
    from masfuzz.oracles import detect
    from masfuzz.trace import ChatEnd, ChatStart, ErrorEvent

    events = [ChatStart(chat="c1"), Message(agent=None, role="user", content="Plan the garden beds"),
              *[e for _ in range(5) for e in (AgentTurn(agent="planner"), Message(agent="planner", content="ok"))],
              ChatEnd(chat="c1", reason="Maximum rounds (5) reached"),
              ErrorEvent(kind="crash", message="KeyError: \"Context variable 'BedsPlanned' not found\""),
              TerminationEvent(reason="crash", detail="KeyError: \"Context variable 'BedsPlanned' not found\"")]
    trace = Trace(scenario_id="s", events=events, meta={"agent_settings": {"planner": {"model": model, "calls": 5}}})
    [crash] = [f for f in detect(trace) if f.detector == "runtime_crash"]
    assert crash.attribution == whose
