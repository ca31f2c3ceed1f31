"""FLARE's oracles on real traces of the shipped examples: the spec-aware deterministic detectors,
the clauses they cite, and the failure and judge agents (scripted testers) behind their guard."""

from __future__ import annotations

import re
import asyncio

import pytest

from masfuzz.graph.specification import skeleton
from masfuzz.llm.scripted import ScriptedClient
from masfuzz.oracles import detect
from masfuzz.fuzz.failure_agents import Finding, Guard, identify_failures
from masfuzz.oracles.eventlog import event_log
from masfuzz.oracles.failure import Failure, dedupe
from masfuzz.oracles.flare import cite, detect_cited, detect_flare, speaking_order, tool_omission
from masfuzz.scenario import Scenario
from masfuzz.target import open_target
from masfuzz.trace import AgentTurn, DelegationEvent, Message

from tests.conftest import EXAMPLES, ROOT
from tests.oracles import oracle_testers as testers

TEAM = str(EXAMPLES / "video_team" / "team.py")
BUGGY, FIXED, ROUND_ROBIN = (f"{TEAM}:selector_team", f"{TEAM}:selector_team(allow_repeated_speaker=True)",
                             f"{TEAM}:round_robin_team")
VIDEO_SUT = f"{EXAMPLES / 'video_team' / 'policy.py'}:policy"
FLARE_SUT = ROOT / "tests" / "oracles" / "flare_sut_policies.py"
TASK = "Make a 30-second short video about the water cycle."
CS = str(EXAMPLES / "customer_service" / "app.py") + ":triage_agent"
CS_SUT = f"{EXAMPLES / 'customer_service' / 'policy.py'}:policy"
CS_INPUTS = ("How much luggage can I bring? Also change my seat to 3A, booking XYZ789",
             "Please change my seat to 12A, confirmation ABC123",
             "I would like to change my seat, please.",
             "Is there wifi on board?")
# The paper's Fig. 6: the voice actor and the graphic designer need the script, the director both.
FIG6 = (("script_writer", "voice_actor"), ("script_writer", "graphic_designer"),
        ("voice_actor", "director"), ("graphic_designer", "director"))


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Run a target with a scripted policy (once per module): (trace, workflow)."""
    cache: dict = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("VIDEO_TEAM_OUT", str(tmp_path_factory.mktemp("video")))

        def run(target, policy, text=TASK):
            pytest.importorskip("agents" if target == CS else "autogen_agentchat")
            if (target, policy, text) not in cache:
                sut = open_target(target)
                trace = asyncio.run(sut.runner().run(sut.obj, sut.spec,
                                                     Scenario(input=text, sut_model=f"scripted/{policy}")))
                cache[target, policy, text] = trace, sut.spec
            return cache[target, policy, text]
        yield run


def flare_spec(workflow, dependencies=()):
    spec = skeleton(workflow)
    if not dependencies:
        return spec
    return spec.model_copy(update={"relationships": spec.relationships.model_copy(
        update={"dependencies": dependencies})})


def analyse(trace, spec, policy, **kw):
    report = asyncio.run(identify_failures(trace, spec, ScriptedClient(policy, "scripted/tester"), **kw))
    for f in report.failures:  # whatever the testers said, evidence points into the trace
        assert f.evidence and all(0 <= i < len(trace.events) for i in f.evidence)
        assert f.clause in spec.clause_ids() and f.detector == "failure_agent"
    return report


# --- Failure.clause and the fingerprint --------------------------------------------------------------

def test_the_fingerprint_is_the_fault_not_the_oracle_the_clause_or_the_wording():
    f = Failure(category="system_termination", root_cause="Max Round Limit Exceeded",
                detector="missing_termination", description="x", elements=("message_limit",),
                agent="director", subject="")
    judged = f.model_copy(update={"detector": "failure_agent", "clause": "term::bound",
                                  "elements": ("director",), "description": "other words", "evidence": (3,)})
    assert judged.fingerprint == f.fingerprint
    assert f.model_copy(update={"agent": "voice_actor"}).fingerprint != f.fingerprint
    assert f.model_copy(update={"subject": "render_video"}).fingerprint != f.fingerprint
    [one] = dedupe([judged, f])  # the detector's observation is the evidence kept
    assert one.detector == "missing_termination" and one.found_by == ("missing_termination", "failure_agent")
    assert Failure.model_validate(one.model_dump(mode="json")) == one


# --- the spec-aware detectors --------------------------------------------------------------------------

def test_the_bug_free_examples_raise_nothing(run):
    trace, wf = run(FIXED, VIDEO_SUT)
    assert trace.termination.reason == "text_mention"
    assert detect_flare(trace, flare_spec(wf, FIG6), wf) == []
    assert detect_cited(trace, flare_spec(wf, FIG6), wf) == []
    for text in CS_INPUTS:
        trace, wf = run(CS, CS_SUT, text)
        assert trace.termination.reason == "completed", text
        assert detect_cited(trace, flare_spec(wf), wf) == [], text


def test_an_agent_asking_for_what_it_lacks_does_not_omit_its_tool(run):
    trace, wf = run(CS, CS_SUT, "I would like to change my seat, please.")
    seat = wf.agent("seat_booking_agent")
    named = wf.model_copy(update={"agents": tuple(
        a.model_copy(update={"instructions": a.instructions + " Call update_seat."}) if a is seat else a
        for a in wf.agents)})
    assert any(isinstance(e, Message) and e.agent == "seat_booking_agent" for e in trace.events)
    assert tool_omission(trace, flare_spec(named), named) == []


def test_the_director_acting_before_its_dependencies_violates_the_speaking_order(run):
    trace, wf = run(FIXED, f"{FLARE_SUT}:hasty")
    failures = detect_cited(trace, flare_spec(wf, FIG6), wf)
    assert {f.elements for f in failures} == {("voice_actor", "director"), ("graphic_designer", "director")}
    director_first = next(i for i, e in enumerate(trace.events)
                          if isinstance(e, AgentTurn) and e.agent == "director")
    for f in failures:
        assert (f.category, f.root_cause, f.clause) == (
            "agent_relationship", "Violation of Relationships-based Speaking Order", "rel::order")
        assert f.evidence[0] == director_first
        assert trace.events[f.evidence[1]].agent == f.elements[0]  # the dependency's late first turn
    assert speaking_order(trace, flare_spec(wf)) == []  # no dependencies specified, nothing to violate


def test_a_fixed_order_team_deviating_from_its_order(run):
    trace, wf = run(ROUND_ROBIN, VIDEO_SUT)
    spec = flare_spec(wf)
    assert spec.relationships.order == ("script_writer", "voice_actor", "graphic_designer", "director")
    assert speaking_order(trace, spec) == []
    swapped = spec.model_copy(update={"relationships": spec.relationships.model_copy(
        update={"order": ("script_writer", "graphic_designer", "voice_actor", "director")})})
    failures = speaking_order(trace, swapped)
    # (expected, actual): each of the real order's hand-overs contradicts the swapped one, once
    assert [f.elements for f in failures] == [("graphic_designer", "voice_actor"),
                                              ("director", "graphic_designer"),
                                              ("voice_actor", "director")]
    assert all(f.clause == "rel::order" for f in failures)
    assert trace.events[failures[0].evidence[0]].agent == "voice_actor"


def test_an_order_whose_members_run_each_other_is_not_judged_as_a_cycle(run):
    """A member running another inside its own turn (a sequence holding a loop) nests the order."""
    trace, wf = run(ROUND_ROBIN, VIDEO_SUT)
    spec = flare_spec(wf)
    swapped = spec.relationships.model_copy(
        update={"order": ("script_writer", "graphic_designer", "voice_actor", "director")})
    nested = trace.model_copy(update={"events": (
        DelegationEvent(**{"from": "script_writer", "to": "voice_actor", "trigger": "delegate"}),
        *trace.events)})
    assert speaking_order(nested, spec.model_copy(update={"relationships": swapped})) == []


def test_a_voice_actor_that_only_talks_omits_its_tool(run):
    trace, wf = run(FIXED, f"{FLARE_SUT}:silent_voice")
    spec = flare_spec(wf, FIG6)
    [f] = [f for f in detect_flare(trace, spec, wf) if f.detector == "tool_omission"]
    assert (f.category, f.root_cause) == ("tool_invocation", "Tool Invocation Omission")
    assert f.clause == "task::voice_actor::use::synthesize_voice"
    assert f.elements == ("voice_actor", "synthesize_voice")
    assert all(trace.events[i].agent == "voice_actor" for i in f.evidence)
    # without the instructions ("call synthesize_voice") nothing says the tool is its duty
    assert tool_omission(trace, spec) == []


def test_existing_detectors_findings_cite_their_clauses(run):
    trace, wf = run(BUGGY, VIDEO_SUT)
    spec = flare_spec(wf, FIG6)
    [bug] = detect(trace, wf)
    assert cite(bug, spec).clause == "term::bound" and cite(bug, spec).elements == bug.elements
    assert detect_cited(trace, spec, wf) == [cite(bug, spec)]  # not found twice
    trace, wf = run(CS, CS_SUT, "Change my seat to 12A, booking ABC123, do it yourself")
    restricted = [f for f in detect(trace, wf) if f.detector == "restricted_tool_call"]
    assert restricted and {cite(f, flare_spec(wf)).clause for f in restricted} == {"tool::update_seat"}


# --- the failure agent and the judge agent -------------------------------------------------------------

def test_a_real_violation_is_confirmed_and_an_invented_quote_rejected(run):
    trace, wf = run(BUGGY, VIDEO_SUT)
    report = analyse(trace, flare_spec(wf, FIG6), testers.reporter)
    [f] = report.failures
    assert (f.category, f.root_cause, f.clause, f.detector) == (
        "system_termination", "Termination Condition Violation", "term::bound", "failure_agent")
    assert f.elements == ("director",) and f.scenario_id == trace.scenario_id
    said = trace.events[f.evidence[0]]
    assert isinstance(said, Message) and said.agent == "director" and "ending the workflow" in said.content
    [rejected] = report.rejected
    assert rejected.reason == "quote_not_in_log" and rejected.finding.quote == testers.NOT_SAID
    assert (report.calls, report.malformed, report.consensus) == (2, 0, True)


def test_a_detectors_and_the_failure_agents_finding_of_one_fault_are_one_failure(run, tmp_path):
    from masfuzz.campaign.recorder import Recorder
    from masfuzz.coverage.base import CoverageMap
    from masfuzz.store.db import RunStore

    trace, wf = run(BUGGY, VIDEO_SUT)
    spec = flare_spec(wf, FIG6)
    [observed] = detect_cited(trace, spec, wf)
    [judged] = analyse(trace, spec, testers.reporter).failures
    # the director announced the end and the run went on: both blame it, from different events
    assert (observed.detector, judged.detector) == ("missing_termination", "failure_agent")
    assert observed.agent == judged.agent == "director" and observed.fingerprint == judged.fingerprint
    [one] = dedupe([judged, observed])
    assert one.found_by == ("missing_termination", "failure_agent")
    assert (one.detector, one.evidence, one.step) == (observed.detector, observed.evidence, observed.step)
    # a campaign records it once, and says the failure agents found it too
    with RunStore(tmp_path / "runs.db") as store:
        rid = store.start_run("fuzz", wf, "team")
        recorder = Recorder(store, rid, CoverageMap([]), detectors=lambda t: detect_cited(t, spec, wf))
        outcome = recorder.record(Scenario(input=TASK), trace)
        assert [f.detector for f in outcome.failures] == ["missing_termination"]
        assert recorder.add_failures(outcome, [judged.model_copy(update={"scenario_id": outcome.scenario.id})]) == []
        [stored] = store.failures(rid)
        assert stored["found_by"] == ["missing_termination", "failure_agent"]
        assert stored["detector"] == "missing_termination" and stored["fingerprint"] == one.fingerprint


def test_the_same_violation_worded_three_ways_is_one_failure(run):
    trace, wf = run(BUGGY, VIDEO_SUT)
    report = analyse(trace, flare_spec(wf, FIG6), testers.three_ways)
    [f] = report.failures
    assert f.elements == ("director", "render_video") and report.rejected == []
    assert all(0 <= i < len(trace.events) for i in f.evidence)
    kinds = {trace.events[i].type for i in f.evidence}
    assert kinds == {"message", "tool_result"}  # the director's sentences and the render's output


def test_a_bug_free_run_confirms_nothing(run):
    trace, wf = run(FIXED, VIDEO_SUT)
    report = analyse(trace, flare_spec(wf, FIG6), testers.reporter)
    assert report.failures == [] and [r.reason for r in report.rejected] == ["quote_not_in_log"]
    assert report.calls == 1 and report.consensus  # nothing left for the judge


def test_a_finding_the_judge_calls_incorrect_is_withdrawn(run):
    trace, wf = run(BUGGY, VIDEO_SUT)
    report = analyse(trace, flare_spec(wf, FIG6), testers.withdrawing)
    assert [f.root_cause for f in report.failures] == ["Termination Condition Violation"]
    [rejected] = report.rejected
    assert rejected.reason == "judged_incorrect" and rejected.finding.root_cause.startswith("Repetitive")
    assert "allowed revision" in rejected.detail and rejected.finding.clause == "task::script_writer::answer"
    assert report.consensus and report.rounds == 2 and report.calls == 4


@pytest.mark.parametrize("rounds", [1, 2])
def test_without_consensus_only_the_judges_correct_findings_are_kept(run, rounds):
    trace, wf = run(BUGGY, VIDEO_SUT)
    report = analyse(trace, flare_spec(wf, FIG6), testers.stubborn, rounds=rounds)
    assert [f.root_cause for f in report.failures] == ["Termination Condition Violation"]
    assert not report.consensus and report.calls == 2 * rounds
    assert any("no consensus" in n for n in report.notes)


def test_malformed_replies_are_counted_and_retried_once(run):
    trace, wf = run(BUGGY, VIDEO_SUT)
    spec = flare_spec(wf, FIG6)
    once = analyse(trace, spec, testers.malformed_once)
    assert once.malformed == 1 and once.calls == 3 and len(once.failures) == 1
    never = analyse(trace, spec, testers.always_malformed)
    assert never.malformed == 2 and never.calls == 2 and never.failures == []
    assert "malformed" in never.notes[0]


def test_a_failing_tester_ends_the_analysis_with_a_note(run):
    trace, wf = run(BUGGY, VIDEO_SUT)
    report = analyse(trace, flare_spec(wf, FIG6), testers.failing_judge)
    assert report.failures == [] and [r.reason for r in report.rejected] == ["not_judged"]
    assert "no reply within 30s" in report.notes[0]


def test_the_guard_checks_clauses_elements_root_causes_and_quotes(run):
    trace, wf = run(BUGGY, VIDEO_SUT)
    guard = Guard(flare_spec(wf, FIG6), trace, event_log(trace))
    ok = Finding(category="system_termination", clause="term::bound",
                 root_cause="Termination Condition Violation", elements=("director",),
                 quote="Our work is done, so I am ending the workflow.")
    assert guard.problem(ok) == ("", "")
    cases = {
        "unknown_clause": {"clause": "term::ghost"},
        "unknown_element": {"elements": ("director", "producer")},
        "unknown_root_cause": {"root_cause": "Tool Execution Error"},  # a tool cause, not termination
        "unknown_category": {"category": "runtime_crash"},  # crashes are not the agent's to report
        "quote_too_short": {"quote": "done"},
        "quote_not_in_log": {"quote": "The director closed the workflow."},
    }
    for reason, change in cases.items():
        assert guard.problem(ok.model_copy(update=change))[0] == reason


# --- a tool the instructions make conditional ----------------------------------------------------

def _loop(critic: str, refiner: str, *, called: str | None = None):
    """A writer-critic-refiner loop (ADK's loop sample's shape) in which the critic says `critic`
    and the refiner `refiner`: its workflow, FLARE specification and trace."""
    from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
    from masfuzz.trace import TerminationEvent, ToolCall, Trace

    wf = WorkflowSpec(
        system=SystemInfo(id="loop", entry_agent="critic", pattern="handoff"),
        agents=(AgentSpec(id="critic", instructions=(
                    "Review the draft. If the draft has problems, call request_revision with them. "
                    "Otherwise say it is approved.")),
                AgentSpec(id="refiner", instructions=(
                    "Analyze the critique.\nIF the critique is exactly \"No major issues found.\":\n"
                    "You MUST call the 'exit_loop' function.\nELSE (the critique has feedback):\n"
                    "Apply the suggestions.\n\nEither output the refined document OR call exit_loop.")),
                AgentSpec(id="archivist", instructions="Call store_draft, and if it fails, apologise.")),
        tools=(ToolSpec(id="request_revision", description="Send the draft back."),
               ToolSpec(id="exit_loop", description="End the loop."),
               ToolSpec(id="store_draft", description="Store the draft.")),
        permissions=Permissions(allow=(("critic", "request_revision"), ("refiner", "exit_loop"),
                                       ("archivist", "store_draft"))),
        delegations=({"from": "critic", "to": "refiner"}, {"from": "refiner", "to": "archivist"}))
    events = [Message(role="user", content="Write a short story about a lighthouse."),
              AgentTurn(agent="critic"), Message(agent="critic", content=critic),
              AgentTurn(agent="refiner")]
    events += [ToolCall(agent="refiner", tool=called, call_id="c1")] if called else []
    events += [Message(agent="refiner", content=refiner), AgentTurn(agent="archivist"),
               Message(agent="archivist", content="The story is ready."),
               TerminationEvent(reason="completed", final_output=refiner)]
    return wf, skeleton(wf), Trace(scenario_id="s", events=tuple(events))


def _omitted(wf, spec, trace):
    return {f.elements for f in tool_omission(trace, spec, wf)}


def test_a_conditional_tool_is_no_duty_while_its_condition_is_not_shown_met():
    # the critic found nothing wrong: no revision owed; the refiner had feedback: no exit owed
    wf, spec, trace = _loop("The story is clear and the draft has no problems.",
                            "The lighthouse keeper climbed the stairs at dusk.")
    assert _omitted(wf, spec, trace) == {("archivist", "store_draft")}  # plain duty, not called


def test_a_conditional_tool_is_a_duty_once_the_trace_shows_its_condition():
    wf, spec, trace = _loop("The draft has problems: the ending is rushed.", "Here is the story again.")
    assert ("critic", "request_revision") in _omitted(wf, spec, trace)
    wf, spec, trace = _loop("No major issues found.", "The story is final.")
    assert ("refiner", "exit_loop") in _omitted(wf, spec, trace)  # the IF line's quote was said
    wf, spec, trace = _loop("No major issues found.", "Done.", called="exit_loop")
    assert ("refiner", "exit_loop") not in _omitted(wf, spec, trace)


def test_a_tool_named_as_where_a_thing_comes_from_is_a_duty_only_when_the_run_is_about_it():
    """"Fares come from fare_table": a booking that asks nothing of fares owes no fare lookup."""
    from masfuzz.oracles.flare import _conditions

    said = "Fares come from fare_table and cabins from cabin_list. Call add_to_manifest."
    assert [_conditions(said, re.compile(rf"\b{t}\b")) for t in ("fare_table", "cabin_list", "add_to_manifest")] \
        == [["Fares"], ["cabins"], [""]]


def test_reporting_a_tools_result_owes_its_call_only_under_the_condition_that_asks_for_it():
    """"Call ask_fuel when the request mentions diesel. Report the result of ask_fuel.": a desk that
    routed a mooring renewal to ask_berths owes no ask_fuel (the report sentence presupposes a
    call, it asks for none); a request about diesel does owe it; with no calling sentence at all,
    the report sentence is the duty."""
    from masfuzz.oracles.flare import _conditions
    from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
    from masfuzz.trace import TerminationEvent, ToolCall, Trace

    wf = WorkflowSpec(
        system=SystemInfo(id="harbour", entry_agent="desk", pattern="orchestrated"),
        agents=(AgentSpec(id="desk", instructions=(
            "Call ask_berths when the request mentions mooring, berth or pontoon. Call ask_fuel when the "
            "request mentions diesel, petrol or pump-out. Report the result of ask_berths. Report the result "
            "of ask_fuel.")),),
        tools=(ToolSpec(id="ask_berths"), ToolSpec(id="ask_fuel")),
        permissions=Permissions(allow=(("desk", "ask_berths"), ("desk", "ask_fuel"))))

    def trace(said: str, tool: str, answer: str = "Done: m-114.") -> Trace:
        return Trace(scenario_id="s", events=(
            Message(role="user", content=said), AgentTurn(agent="desk"),
            ToolCall(agent="desk", tool=tool, call_id="c1"), Message(agent="desk", content=answer),
            TerminationEvent(reason="completed", final_output=answer)))

    assert _omitted(wf, skeleton(wf), trace("Please renew my mooring m-114.", "ask_berths")) == set()
    # what the request mentions is read in the request: the desk's own words about diesel are not it
    assert _omitted(wf, skeleton(wf), trace("Please renew my mooring m-114.", "ask_berths",
                                            "We do diesel and moorings.")) == set()
    assert _omitted(wf, skeleton(wf), trace("Two hundred litres of diesel please.", "ask_berths")) \
        == {("desk", "ask_fuel")}
    # every alternative of the listed condition counts, not only the one before its first comma
    assert _omitted(wf, skeleton(wf), trace("A pump-out for m-114 please.", "ask_berths")) == {("desk", "ask_fuel")}
    assert _omitted(wf, skeleton(wf), trace("My pontoon pass ran out.", "ask_fuel")) == {("desk", "ask_berths")}
    fuel = re.compile(r"\bask_fuel\b")
    assert _conditions("Report the result of ask_fuel.", fuel) == [""]
    # a sentence on the tool's error presupposes a call too: it hides no report duty
    assert "" in _conditions('If ask_fuel raises an error, say "Closed". Report the result of ask_fuel.', fuel)


def test_a_parenthesised_condition_and_a_one_per_message_choice_owe_no_tool():
    """A desk whose prompt makes its tools alternatives ("a single desk for each request, whichever
    line matches first") or a line conditional in parentheses ("(only if the guest mentions
    massage, sauna or facial)") owes no tool the request did not pick: the concierge that sent a
    table booking to `ask_dining` omitted no `ask_spa`, even where the request also says "sauna"."""
    from masfuzz.oracles.flare import _conditions
    from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
    from masfuzz.trace import TerminationEvent, ToolCall, Trace

    lines = ("* Call `ask_spa` (only if the guest mentions massage, sauna or facial).\n"
             "* Relay what `ask_spa` answered.\n"
             "* Call `ask_dining` (only if the guest mentions dinner, table or breakfast).\n"
             "* Relay what `ask_dining` answered.\n")
    chosen = "You are the concierge of Hotel Mirador. Pick a single desk for each request - whichever line matches first:\n"

    def omitted(instructions: str, said: str) -> set:
        wf = WorkflowSpec(
            system=SystemInfo(id="hotel", entry_agent="concierge", pattern="orchestrated"),
            agents=(AgentSpec(id="concierge", instructions=instructions),),
            tools=(ToolSpec(id="ask_spa"), ToolSpec(id="ask_dining")),
            permissions=Permissions(allow=(("concierge", "ask_spa"), ("concierge", "ask_dining"))))
        trace = Trace(scenario_id="s", events=(
            Message(role="user", content=said), AgentTurn(agent="concierge"),
            ToolCall(agent="concierge", tool="ask_dining", call_id="c1"),
            Message(agent="concierge", content="**Booked!** Table for two at 20:00."),
            TerminationEvent(reason="completed", final_output="Booked")))
        return _omitted(wf, skeleton(wf), trace)

    spa = re.compile(r"\bask_spa\b")
    # the parenthesised condition is the whole list, to its closing parenthesis
    assert _conditions(lines, spa) == ["the guest mentions massage, sauna or facial"]
    assert omitted("Route the guest's request:\n" + lines, "A table for two for dinner at 20:00, please.") == set()
    # a plain router whose condition the request meets still owes the tool
    assert omitted("Route the guest's request:\n" + lines, "A facial tomorrow morning, please.") == {("concierge", "ask_spa")}
    # one line of several: the one that matched first is the only one owed
    assert _conditions(chosen + lines, spa) == [None]
    assert omitted(chosen + lines, "Dinner at 20:00 for two, and is the sauna open late?") == set()
    # "relay what `T` answered" presupposes the call: alone it is the duty, beside a call line it is none
    assert _conditions("Relay what `ask_spa` answered.", spa) == [""]


@pytest.mark.parametrize("line", [
    "- Requests concerning massage, sauna or facials are referred by means of ask_spa.",
    "Messages about massage, sauna or facials go to `ask_spa`.",
    "Spa bookings are made by means of ask_spa (applies to requests concerning massage, sauna or facials).",
    "Use ask_spa for requests about massage, sauna or facials.",
])
def test_a_line_scoped_to_the_requests_it_concerns_owes_its_tool_only_for_those(line):
    """A line's scope said in words of its own, not after if/when ("Requests concerning X are
    referred by means of T", "(applies to requests concerning X)", "for requests about X") is its
    condition: a table booking owes no `ask_spa`, a facial does."""
    from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
    from masfuzz.trace import TerminationEvent, ToolCall, Trace

    wf = WorkflowSpec(
        system=SystemInfo(id="hotel", entry_agent="concierge", pattern="orchestrated"),
        agents=(AgentSpec(id="concierge", instructions=line + "\nThe result of ask_spa is to be restated."),),
        tools=(ToolSpec(id="ask_spa"), ToolSpec(id="ask_dining")),
        permissions=Permissions(allow=(("concierge", "ask_spa"), ("concierge", "ask_dining"))))

    def trace(said: str) -> Trace:
        return Trace(scenario_id="s", events=(
            Message(role="user", content=said), AgentTurn(agent="concierge"),
            ToolCall(agent="concierge", tool="ask_dining", call_id="c1"),
            Message(agent="concierge", content="Your table is held."), TerminationEvent(reason="completed")))

    assert _omitted(wf, skeleton(wf), trace("A table for two for dinner at 20:00, please.")) == set()
    assert _omitted(wf, skeleton(wf), trace("A facial tomorrow morning, please.")) == {("concierge", "ask_spa")}
