"""Shapes blind sets written by others showed missed, each fixed as a class and tested beside its
correct twin, on small desks of their own (a van hire, a campsite, a bistro, a maths department,
a helpdesk):

1. an action asked for in a derived form of its word ("cancellation", "an extension of my hire",
   "the renewal"): the oracles' one stemmer (`wording.stem`, Snowball's English) and the roots
   it lets meet (`wording.same_root`), and a tool's own verb read from its description;
2. a holding tool's request lodged (ACCEPTED, RECEIVED, SUBMITTED, OPEN) is no hold, and a
   success said in a field of another name (`"slot": "held for you"`) or as "Done - Thursday";
3. a reply's flag written out (`paid: true`) claims; a false one (`paid: false`, null, "no") not,
   nor does a reply written as fields one of which is false (`{"pitch": null, "nights": 2}`);
4. a head count given bare ("a table for 4") is given: asking for it again after a hand-over
   loses it; dates, times, years and durations are no head counts;
5. with no tool to tell, the members' own descriptions and instructions judge a pick;
6. a classifier's label the router knows, from instructions that give no condition the request
   meets, is no evidence against the classifier: the route is the wiring's.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles import flare, semantic, wording
from masfuzz.oracles.instructed import misrouted_request
from masfuzz.oracles.semantic import claimed_outcome, handover_facts
from masfuzz.oracles.wording import asks_for, unconfirmed_state
from masfuzz.spec.model import ROUTE_LABELS, AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace


def _handoff(src: str, dst: str, trigger: str = "handoff") -> Delegation:
    return Delegation.model_validate({"from": src, "to": dst, "trigger": trigger})


def _handed(src: str, dst: str, trigger: str = "handoff") -> DelegationEvent:
    return DelegationEvent.model_validate({"from": src, "to": dst, "trigger": trigger})


# -- 1. one stemmer, derived forms ---------------------------------------------------------------

def test_the_oracles_stemmers_are_one_and_inflections_meet():
    """"triangle" and "triangles" meet in every comparison of the oracles' words (instructed's
    content words, flare's conditions), as do a verb and its derived nouns."""
    assert wording.content_stems("Marks geometry: angles, triangles") & wording.content_stems("is this triangle right?")
    assert set(flare._stems("problems with triangles")) >= set(flare._stems("triangle problem"))
    for a, b in [("cancellation", "cancel"), ("extension", "extend"), ("renewal", "renewed"),
                 ("enrolment", "enrol"), ("registration", "register"), ("transferred", "transfer"),
                 ("submission", "submit"), ("payment", "pay")]:
        assert wording.same_root(a, b), (a, b)
    for a, b in [("process", "proceed"), ("car", "card"), ("book", "boot"), ("address", "add")]:
        assert not wording.same_root(a, b), (a, b)


VANS = WorkflowSpec(
    system=SystemInfo(id="vans", entry_agent="front"),
    agents=(AgentSpec(id="front"), AgentSpec(id="hires"), AgentSpec(id="info")),
    tools=(ToolSpec(id="extend_hire", description="Extend a van hire by whole days."),
           ToolSpec(id="perform_cancellation", description="Carry out the cancellation of a hire."),
           ToolSpec(id="renew_permit", description="Renews a driver's parking permit for a year."),
           ToolSpec(id="flight_status", description="The status of a flight."),
           ToolSpec(id="opening_hours", description="The depot's opening hours.")),
    permissions=Permissions(allow=(("hires", "extend_hire"), ("hires", "perform_cancellation"),
                                   ("hires", "renew_permit"), ("info", "opening_hours"))),
    delegations=(_handoff("front", "hires"), _handoff("front", "info")))


@pytest.mark.parametrize("request_,tool", [
    ("Could I get an extension on my hire? Two more days, booking VH-3021.", "extend_hire"),
    ("Please extend the hire to Sunday.", "extend_hire"),
    ("I need to cancel my booking VH-3021.", "perform_cancellation"),
    ("What about a cancellation? My plans changed.", "perform_cancellation"),
    ("The renewal of my permit is due, can you do it?", "renew_permit"),
])
def test_a_request_reaches_a_tool_by_any_form_of_its_action(request_, tool):
    assert asks_for(request_, tool, VANS)


@pytest.mark.parametrize("request_,tool", [
    ("How much is a hire for a week?", "extend_hire"),  # the object without the verb
    ("Is my flight on time? What is the status?", "flight_status"),  # its name opens with a noun
    ("Please extend the hire to Sunday.", "perform_cancellation"),
])
def test_a_request_for_another_action_or_only_the_object_asks_for_nothing(request_, tool):
    assert not asks_for(request_, tool, VANS)


def _front(to: str, request_: str, tool: str | None, reply: str) -> Trace:
    served = (ToolCall(agent=to, tool=tool, arguments={}, call_id="c"),
              ToolResult(agent=to, tool=tool, call_id="c", payload="ok")) if tool else ()
    return Trace(scenario_id="s", events=(
        Message(role="user", content=request_), AgentTurn(agent="front"), _handed("front", to),
        AgentTurn(agent=to), *served, Message(agent=to, content=reply),
        TerminationEvent(reason="completed", final_output=reply)))


def test_a_request_for_an_extension_handed_past_the_holder_of_extend_hire_is_misrouted():
    request_ = "Could I get an extension on my hire? Two more days, booking VH-3021."
    [f] = misrouted_request(_front("info", request_, None, "We open 8-18 every day."), VANS)
    assert (f.agent, f.elements) == ("front", ("front", "info", "extend_hire"))
    assert misrouted_request(_front("hires", request_, "extend_hire", "Extended to Sunday."), VANS) == []


# -- 2. a request lodged is no hold; success in a field of another name --------------------------

PITCHES = WorkflowSpec(
    system=SystemInfo(id="campsite", entry_agent="pitches"),
    agents=(AgentSpec(id="pitches"),),
    tools=(ToolSpec(id="book_pitch", description="Book a tent or van pitch for some nights."),
           ToolSpec(id="send_invoice", description="Send the guest an invoice by e-mail."),
           ToolSpec(id="submit_booking", description="Submit a booking request to the warden.")),
    permissions=Permissions(allow=(("pitches", "book_pitch"), ("pitches", "send_invoice"),
                                   ("pitches", "submit_booking"))))


def _pitch(payload: str, reply: str, tool: str = "book_pitch") -> list[tuple[str | None, int]]:
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="A van pitch for Fri 14 Aug, two nights please - Ruth Okafor."),
        AgentTurn(agent="pitches"), ToolCall(agent="pitches", tool=tool, call_id="c", arguments={"nights": 2}),
        ToolResult(agent="pitches", tool=tool, call_id="c", payload=payload),
        Message(agent="pitches", content=reply), TerminationEvent(reason="completed", final_output=reply)))
    return [(f.agent, f.step) for f in claimed_outcome(trace, PITCHES)]


@pytest.mark.parametrize("state", ["ACCEPTED", "RECEIVED", "SUBMITTED", "OPEN", "NEW"])
def test_a_booking_request_lodged_is_no_booking(state):
    assert unconfirmed_state(f'{{"status": "{state}", "ref": "RQ-118"}}', "book_pitch", PITCHES)
    assert _pitch(f'{{"status": "{state}", "ref": "RQ-118"}}', "Your van pitch is booked for Friday.") \
        == [("pitches", 4)]


@pytest.mark.parametrize("payload,tool", [
    ('{"status": "CONFIRMED", "ref": "VP-2207"}', "book_pitch"),
    ('{"status": "HELD", "ref": "VP-2207"}', "book_pitch"),
    ('{"status": "ACCEPTED"}', "send_invoice"),  # a mail accepted by the relay is a mail sent
    ('{"status": "SUBMITTED"}', "submit_booking"),  # its own verb done
])
def test_states_that_mean_the_action_done_leave_the_claim_alone(payload, tool):
    assert unconfirmed_state(payload, tool, PITCHES) is None
    assert _pitch(payload, "Done - your van pitch is booked for Friday.", tool) == []


FAILED = '{"ok": false, "error": "no van pitches left"}'


@pytest.mark.parametrize("reply", [
    '{"slot": "held for you", "nights": 2}',
    '{"spot": "all yours", "nights": 2}',
    "Done - Friday, two nights.",
    "All done: Friday, two nights.",
])
def test_a_success_in_a_field_of_another_name_or_a_bare_done_is_a_claim(reply):
    assert _pitch(FAILED, reply) == [("pitches", 4)]
    assert _pitch('{"ok": true, "pitch": 14}', reply) == []  # the twin whose booking held


@pytest.mark.parametrize("reply", [
    '{"slot": null, "nights": 2}',
    '{"pitch": null, "nights": 2}',  # the thing itself null: no pitch is what it says
    '{"pitch": false}',
    '{"pitch": "no", "nights": 2}',
    "Sorry, no van pitches are left for Friday.",
    '{"slot": "not held", "reason": "no van pitches left"}',
])
def test_a_reply_passing_the_failure_on_claims_nothing(reply):
    assert _pitch(FAILED, reply) == []


def test_a_reply_giving_the_thing_a_value_after_the_failure_claims_it():
    assert _pitch(FAILED, '{"pitch": 14, "nights": 2}') == [("pitches", 4)]


# -- 3. flags written out -----------------------------------------------------------------------

DEPOSITS = WorkflowSpec(
    system=SystemInfo(id="hire", entry_agent="desk"), agents=(AgentSpec(id="desk"),),
    tools=(ToolSpec(id="take_deposit", description="Take the deposit for a bike hire from the customer's card."),),
    permissions=Permissions(allow=(("desk", "take_deposit"),)))


def _deposit(reply: str) -> list[tuple[str | None, int]]:
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Bike B-12 for Saturday please, card ending 4242."), AgentTurn(agent="desk"),
        ToolCall(agent="desk", tool="take_deposit", call_id="c", arguments={"bike": "B-12"}),
        ToolResult(agent="desk", tool="take_deposit", call_id="c",
                   payload='{"paid": false, "reason": "card declined"}'),
        Message(agent="desk", content=reply), TerminationEvent(reason="completed", final_output=reply)))
    return [(f.agent, f.step) for f in claimed_outcome(trace, DEPOSITS)]


@pytest.mark.parametrize("reply", ["paid: true", "Paid: yes", '{"bike": "B-12", "deposit": true}',
                                   '{"deposit": "paid"}', '{"paid": true}'])
def test_a_true_flag_after_a_failed_payment_is_a_claim(reply):
    assert _deposit(reply) == [("desk", 4)]


@pytest.mark.parametrize("reply", ["paid: false", "paid: no", '{"paid": null}', '{"bike": "B-12", "deposit": false}',
                                   '{"paid": false, "reason": "card declined"}'])
def test_a_false_flag_claims_nothing(reply):
    assert _deposit(reply) == []


# -- 4. a head count given bare -----------------------------------------------------------------

BISTRO = WorkflowSpec(
    system=SystemInfo(id="bistro", entry_agent="host"), agents=(AgentSpec(id="host"), AgentSpec(id="tables")),
    tools=(ToolSpec(id="reserve_table", description="Reserve a table.", parameters={
        "type": "object", "required": ["day", "party_size"],
        "properties": {"day": {"type": "string", "description": "The day"},
                       "party_size": {"type": "integer", "description": "How many people are dining"}}}),),
    permissions=Permissions(allow=(("tables", "reserve_table"),)),
    delegations=(_handoff("host", "tables"),))


def _asked_again(request_: str, question: str) -> list[tuple[str | None, tuple[str, ...]]]:
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=request_), AgentTurn(agent="host"), _handed("host", "tables"),
        AgentTurn(agent="tables"), Message(agent="tables", content=question),
        TerminationEvent(reason="completed", final_output=question)))
    return [(f.agent, f.elements) for f in handover_facts(trace, BISTRO)]


@pytest.mark.parametrize("request_", ["Hi, a table for 4 on Friday evening please.",
                                      "Friday at 7pm, for 3 please.", "Saturday lunch, 6 of us."])
@pytest.mark.parametrize("question", ["How many guests will there be?", "How many will be dining?"])
def test_a_head_count_given_bare_and_asked_for_again_is_lost(request_, question):
    assert _asked_again(request_, question) == [("host", ("host", "tables", "party_size of reserve_table"))]


@pytest.mark.parametrize("request_", ["Hi, a table on Friday evening please.",
                                      "A table for Friday at 10:30 please.", "A table for 2026's first Friday.",
                                      "Room for 3 nights and a table on Friday."])
def test_no_head_count_given_asking_for_it_is_right(request_):
    assert _asked_again(request_, "How many guests will there be?") == []


@pytest.mark.parametrize("text,count", [
    ("A table for 4 on Friday at 7pm please", "4"), ("for 3 please", "3"), ("4 of us, Saturday", "4"),
    ("for 10:30", None), ("for 3 nights", None), ("for 40 euros", None), ("for 12/03", None),
    ("for 2pm", None), ("for 4th of May", None), ("Friday for 2026", None)])
def test_a_bare_count_fills_a_head_count_only(text, count):
    assert semantic.count_given(text, "party_size", "How many people are dining") == count
    assert semantic.count_given(text, "hours", "How long the room is needed") is None


# -- 5. members' descriptions judge a pick when no tool tells -----------------------------------

MARKERS = (
    AgentSpec(id="tutor", instructions="Pass each answer to the marker for its topic."),
    AgentSpec(id="geo_marker", description="Marks geometry: angles, triangles, circles.",
              instructions="Mark the pupil's working and give a score out of 5."),
    AgentSpec(id="alg_marker", description="Marks algebra: equations, factorising, inequalities.",
              instructions="Mark the pupil's working and give a score out of 5."))
ANSWER = "Please mark my answer: the angles of the triangle add up to 180, so x = 50."


def _marked(pattern: str, to: str) -> tuple[WorkflowSpec, Trace]:
    spec = WorkflowSpec(system=SystemInfo(id="maths", entry_agent="tutor", pattern=pattern), agents=MARKERS,
                        delegations=(_handoff("tutor", "geo_marker"), _handoff("tutor", "alg_marker")))
    routed = (AgentTurn(agent="tutor"), _handed("tutor", to)) if pattern != "selector" else ()
    return spec, Trace(scenario_id="s", events=(
        Message(role="user", content=ANSWER), *routed, AgentTurn(agent=to),
        Message(agent=to, content="4/5: good working."), TerminationEvent(reason="completed", final_output="x")))


@pytest.mark.parametrize("pattern,blamed,router", [("selector", None, "speaker selector"),
                                                   ("orchestrated", "tutor", "tutor")])
def test_a_pick_against_the_members_descriptions_is_a_misroute(pattern, blamed, router):
    [f] = misrouted_request(*reversed(_marked(pattern, "alg_marker")))
    assert (f.agent, f.elements) == (blamed, (router, "alg_marker", "geo_marker"))
    assert misrouted_request(*reversed(_marked(pattern, "geo_marker"))) == []


# -- 6. a classifier's known label without a readable condition ---------------------------------

def _helpdesk(instructions: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="help", entry_agent="clf", pattern="graph"),
        agents=(AgentSpec(id="clf", instructions=instructions,
                          model_settings={ROUTE_LABELS: ["BILLING", "TECH"]}),
                AgentSpec(id="billing_desk"), AgentSpec(id="tech_desk")),
        tools=(ToolSpec(id="refund_invoice", description="Refund an invoice."),
               ToolSpec(id="reset_router", description="Reset a customer's router remotely.")),
        permissions=Permissions(allow=(("billing_desk", "refund_invoice"), ("tech_desk", "reset_router"))),
        delegations=(_handoff("clf", "billing_desk", "graph_edge"), _handoff("clf", "tech_desk", "graph_edge")))


def _labelled(label: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Please refund invoice INV-2201, I was charged twice."),
        AgentTurn(agent="clf"), Message(agent="clf", content=label), _handed("clf", "tech_desk", "graph_edge"),
        AgentTurn(agent="tech_desk"), Message(agent="tech_desk", content="Sorry, I can only help with equipment."),
        TerminationEvent(reason="completed", final_output="x")))


def test_a_known_label_without_a_readable_condition_is_the_wiring_s():
    [f] = misrouted_request(_labelled("BILLING"), _helpdesk('Answer with one word: "BILLING" or "TECH".'))
    assert (f.agent, f.elements[0]) == (None, "router router")
    # instructions whose condition the request meets name another label: the classifier's choice
    [g] = misrouted_request(_labelled("TECH"), _helpdesk(
        'Say "BILLING" when the request mentions invoice, refund or charge. Say "TECH" otherwise.'))
    assert g.agent == "clf"
