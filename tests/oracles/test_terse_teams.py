"""Oracle misses of terse teams, by class, each beside its correct twin (hand-built specs and
traces, in domains of their own): agents that answer in a few words ("Sorted.", "Permit no?"),
tools called with only the arguments they require, and the dependencies, routes and states the
team's own code states where the agents' words do not:

- a dependency stated in an agent's description with a bare noun ("launches boats for sailors
  harbour_m has cleared"), or only in the documentation of its tool's argument ("The permit
  harbour_m granted"): the agent speaking first is an order violation;
- a terse ask for an argument of one's own tool ("Permit no?") before the member that makes it
  spoke, the value then acted on coming from that member's tool: the run shows the dependency;
- a request for a tool's work named by the work's own verb ("clean the gutters" for
  schedule_cleaning), routed to a sibling that "succeeds" with an unrelated tool: a misroute;
- a routing line scoped to kinds of requests ("Send to paint_p for a respray, decal or
  touch-up.") whose kind the task asks for, the run ending before that member acted with nothing
  said: one failure, the premature end, its empty final output no second fault;
- a status look-up whose state is a settled one (DISPATCHED, READY_FOR_COLLECTION): the claim is
  judged against what the state means, not against the look-up's own verb.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles import detect
from masfuzz.oracles.instructed import (
    MISROUTED, SPEAKING_ORDER, instructed_dependencies, instructed_order, misrouted_request, participation,
)
from masfuzz.oracles.semantic import claimed_outcome
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

# -- a dependency in a description's bare noun or a tool argument's documentation ---------------


def _marina(launch_desc: str = "Launch desk.", permit_doc: str = "The harbour permit number, e.g. \"HP-0000\"",
            launcher: str = "Launch desk. Launch the boat with launch_boat.") -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="marina", entry_agent="quay_desk", pattern="fixed_order"),
        agents=(AgentSpec(id="quay_desk", instructions="Quay desk. Look the sailor up with find_sailor."),
                AgentSpec(id="launch_l", instructions=launcher, description=launch_desc),
                AgentSpec(id="harbour_m", instructions="Harbour master. Clear the sailor with clear_sailor.",
                          description="Harbour master: clears sailors for the season.")),
        tools=(ToolSpec(id="find_sailor", description="Look a sailor up.",
                        parameters={"type": "object", "properties": {"sailor": {"type": "string"}}}),
               ToolSpec(id="clear_sailor", description="Clear a sailor for the season; grants a harbour permit.",
                        parameters={"type": "object", "properties": {"sailor": {"type": "string"}}}),
               ToolSpec(id="launch_boat", description="Put a boat in the water from the slipway.",
                        parameters={"type": "object", "required": ["slot", "permit_no"], "properties": {
                            "slot": {"type": "string", "description": "The launch slot, e.g. \"09:30\""},
                            "permit_no": {"type": "string", "description": permit_doc}}})),
        permissions=Permissions(allow=(("quay_desk", "find_sailor"), ("launch_l", "launch_boat"),
                                       ("harbour_m", "clear_sailor"))))


def _launch(order: tuple[str, ...], ask: str = "Permit no?", told: str = "") -> Trace:
    """The marina's round: each member in `order` takes a turn; launch_l, speaking before
    harbour_m, only asks; it launches once the permit exists."""
    events: list = [Message(role="user", content=f"Slot 09:30 for my dinghy please, sailor SL-204.{told}")]
    permit = "HP-7781"
    cleared = False
    for a in order:
        events.append(AgentTurn(agent=a))
        if a == "quay_desk":
            events += [ToolCall(agent=a, tool="find_sailor", call_id="f", arguments={"sailor": "SL-204"}),
                       ToolResult(agent=a, tool="find_sailor", call_id="f", payload="SL-204: member since 2019"),
                       Message(agent=a, content="Found.")]
        elif a == "harbour_m":
            cleared = True
            events += [ToolCall(agent=a, tool="clear_sailor", call_id="c", arguments={"sailor": "SL-204"}),
                       ToolResult(agent=a, tool="clear_sailor", call_id="c",
                                  payload=f"Clearance(sailor='SL-204', permit='{permit}')"),
                       Message(agent=a, content=f"Cleared: {permit}.")]
        elif a == "launch_l" and not cleared and not told:
            events.append(Message(agent=a, content=ask))
        else:
            events += [ToolCall(agent=a, tool="launch_boat", call_id="l", arguments={"slot": "09:30", "permit_no": permit}),
                       ToolResult(agent=a, tool="launch_boat", call_id="l", payload="LAUNCHED slot 09:30"),
                       Message(agent=a, content="Launched.")]
    events.append(TerminationEvent(reason="completed", final_output="Launched."))
    return Trace(scenario_id="s", events=tuple(events))


EARLY = ("quay_desk", "launch_l", "harbour_m", "quay_desk", "launch_l")
RIGHT = ("quay_desk", "harbour_m", "launch_l")


@pytest.mark.parametrize("spec", [
    _marina(launch_desc="Launch desk: launches boats for sailors harbour_m has cleared."),
    _marina(permit_doc="The permit harbour_m granted, e.g. \"HP-0000\""),
], ids=["description", "argument-doc"])
def test_a_dependency_in_a_description_or_an_argument_s_documentation_orders_the_run(spec):
    assert [(b, a) for b, a, _ in instructed_dependencies(spec)] == [("harbour_m", "launch_l")]
    [f] = instructed_order(_launch(EARLY, ask="Anything to launch?"), spec)
    assert (f.root_cause, f.agent, f.elements) == (SPEAKING_ORDER, "launch_l", ("harbour_m", "launch_l"))
    assert instructed_order(_launch(RIGHT), spec) == []


def test_no_dependency_is_read_from_a_bare_noun_or_argument_naming_no_agent():
    assert instructed_dependencies(_marina(launch_desc="Launch desk: launches boats for sailors the club has cleared.",
                                           permit_doc="The permit number on the sailor's card")) == []


@pytest.mark.parametrize("ask", ["Permit no?", "Permit number? Then I can launch."])
def test_a_terse_ask_for_what_a_later_member_makes_is_an_order_violation(ask):
    spec = _marina()  # nothing in the words: the run shows the dependency
    assert instructed_dependencies(spec) == []
    trace = _launch(EARLY, ask=ask)
    [f] = instructed_order(trace, spec)
    asked = next(i for i, e in enumerate(trace.events) if isinstance(e, Message) and e.content == ask)
    assert (f.root_cause, f.agent, f.step, f.elements) == (SPEAKING_ORDER, "launch_l", 5, ("harbour_m", "launch_l"))
    assert asked in f.evidence


@pytest.mark.parametrize("trace", [
    _launch(RIGHT),  # the maker spoke first
    _launch(EARLY, ask="Which slot?"),  # it asked for something else
    _launch(("quay_desk", "launch_l", "harbour_m"), told=" My permit is HP-7781."),  # the user gave it
])
def test_a_terse_ask_is_silent_when_the_maker_spoke_first_or_the_value_came_from_elsewhere(trace):
    assert instructed_order(trace, _marina()) == []


# -- a tool's work asked for by its own verb, routed to a sibling that "succeeds" ----------------

GUTTERS = WorkflowSpec(
    system=SystemInfo(id="roofers", entry_agent="front", pattern="handoff"),
    agents=(AgentSpec(id="front", instructions="Enquiries. Hand each customer to the right desk."),
            AgentSpec(id="clean_q", instructions="Cleaning desk. Schedule with schedule_cleaning."),
            AgentSpec(id="roof_r", instructions="Roofing desk. Quote with quote_reroof.")),
    tools=(ToolSpec(id="schedule_cleaning", description="Put a gutter and fascia visit in the diary.",
                    parameters={"type": "object", "required": ["postcode", "day"],
                                "properties": {"postcode": {"type": "string"}, "day": {"type": "string"}}}),
           ToolSpec(id="quote_reroof", description="Price a new roof covering per square metre.",
                    parameters={"type": "object", "required": ["postcode"],
                                "properties": {"postcode": {"type": "string"}}})),
    permissions=Permissions(allow=(("clean_q", "schedule_cleaning"), ("roof_r", "quote_reroof"))),
    delegations=(Delegation.model_validate({"from": "front", "to": "clean_q", "trigger": "handoff"}),
                 Delegation.model_validate({"from": "front", "to": "roof_r", "trigger": "handoff"})))
CLEAN = "Our downpipe overflows every time it rains. Could somebody clean the gutters out on 2026-05-02? BD9 4QT."


def _gutters(to: str) -> Trace:
    tool, args = ("schedule_cleaning", {"postcode": "BD9 4QT", "day": "2026-05-02"}) if to == "clean_q" \
        else ("quote_reroof", {"postcode": "BD9 4QT"})
    return Trace(scenario_id="s", events=(
        Message(role="user", content=CLEAN), AgentTurn(agent="front"), Message(agent="front", content="Over to the desk."),
        DelegationEvent.model_validate({"from": "front", "to": to, "trigger": "handoff"}), AgentTurn(agent=to),
        ToolCall(agent=to, tool=tool, call_id="t", arguments=args),
        ToolResult(agent=to, tool=tool, call_id="t", payload='{"ok": true, "ref": "RF-118"}'),
        Message(agent=to, content="Sorted."), TerminationEvent(reason="completed", final_output="Sorted.")))


def test_a_request_for_a_tool_s_work_by_its_verb_routed_to_a_sibling_that_did_something_else_is_misrouted():
    [f] = misrouted_request(_gutters("roof_r"), GUTTERS)
    assert (f.root_cause, f.agent, f.elements) == (MISROUTED, "front", ("front", "roof_r", "schedule_cleaning"))
    assert misrouted_request(_gutters("clean_q"), GUTTERS) == []


# -- a routing line scoped to kinds of request; the run ends on a tool's answer ----------------

CYCLES = WorkflowSpec(
    system=SystemInfo(id="cycles", entry_agent="bench", pattern="handoff"),
    agents=(AgentSpec(id="bench", instructions="Workshop line, Spokes & Co.\nService the bike with book_service for "
                                               "a service or a repair.\nSend to paint_p for a respray, decal or "
                                               "touch-up.\nReply \"Open till six.\""),
            AgentSpec(id="paint_p", instructions="Paint shop. Book the job with book_paint.")),
    tools=(ToolSpec(id="book_service", description="Put a bike in for a service."),
           ToolSpec(id="book_paint", description="Book a paint job.")),
    permissions=Permissions(allow=(("bench", "book_service"), ("paint_p", "book_paint"))),
    delegations=(Delegation.model_validate({"from": "bench", "to": "paint_p", "trigger": "handoff"}),))


def _bike(task: str, painted: bool) -> Trace:
    events: list = [Message(role="user", content=task), AgentTurn(agent="bench"),
                    ToolCall(agent="bench", tool="book_service", call_id="s", arguments={"bike": "Dawes"}),
                    ToolResult(agent="bench", tool="book_service", call_id="s", payload='{"job": "SV-41"}')]
    if painted:
        events += [DelegationEvent.model_validate({"from": "bench", "to": "paint_p", "trigger": "handoff"}),
                   AgentTurn(agent="paint_p"),
                   ToolCall(agent="paint_p", tool="book_paint", call_id="p", arguments={"text": "MAYA"}),
                   ToolResult(agent="paint_p", tool="book_paint", call_id="p", payload='{"job": "PT-9"}'),
                   Message(agent="paint_p", content="Booked: PT-9.")]
    events.append(TerminationEvent(reason="completed", final_output="Booked: PT-9." if painted else ""))
    return Trace(scenario_id="s", events=tuple(events))


BIKE = "My Dawes needs its annual check, and could you add a little name decal on the top tube saying MAYA?"


def test_a_run_ending_before_the_member_a_scoped_routing_line_sends_the_task_to_is_one_premature_end():
    trace = _bike(BIKE, painted=False)
    [f] = detect(trace, CYCLES)
    assert (f.category, f.root_cause, f.agent) == ("system_termination", "Premature Termination", "bench")
    assert f.elements == ("bench", "paint_p") and "decal" in f.description
    assert detect(_bike(BIKE, painted=True), CYCLES) == []


def test_a_scoped_routing_line_whose_kind_the_task_does_not_ask_for_needs_no_member():
    trace = _bike("My Dawes needs its annual check please.", painted=False)
    assert participation(trace, CYCLES) == []
    # nothing said at the end, and no member missing: the empty answer is the failure itself
    assert [f.root_cause for f in detect(trace, CYCLES)] == ["Response Omission"]


# -- a status look-up's settled state ------------------------------------------------------------

PARCELS = WorkflowSpec(
    system=SystemInfo(id="parcels", entry_agent="track_t"),
    agents=(AgentSpec(id="track_t", instructions="Parcels desk. Check with parcel_status until it moves."),),
    tools=(ToolSpec(id="parcel_status", description="The state of a parcel in the depot."),),
    permissions=Permissions(allow=(("track_t", "parcel_status"),)))


def _parcel(state: str, reply: str = "All good: PX-311.") -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Has my parcel PX-311 gone out yet?"), AgentTurn(agent="track_t"),
        ToolCall(agent="track_t", tool="parcel_status", call_id="p", arguments={"parcel": "PX-311"}),
        ToolResult(agent="track_t", tool="parcel_status", call_id="p",
                   payload=f'{{"parcel": {{"state": "{state}", "ref": "PX-311", "van": 7}}}}'),
        Message(agent="track_t", content=reply), TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("state", ["DISPATCHED", "Ready-For-Collection", "CLEARED"])
def test_a_success_claim_after_a_status_look_up_s_settled_state_is_true(state):
    assert claimed_outcome(_parcel(state), PARCELS) == []


@pytest.mark.parametrize("state", ["AWAITING_SCAN", "HELD_AT_CUSTOMS"])
def test_a_success_claim_after_a_status_look_up_s_unsettled_state_is_still_false(state):
    [f] = claimed_outcome(_parcel(state), PARCELS)
    assert (f.root_cause, f.agent) == ("Incorrect Verification", "track_t")
