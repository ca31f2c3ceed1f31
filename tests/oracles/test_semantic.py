"""The semantic oracles over hand-built traces (`masfuzz.oracles.semantic`): each kind's buggy
runs in several phrasings beside correct twins, negations and questions included, on which the
oracle must stay silent."""

from __future__ import annotations

import re

import pytest

from masfuzz.oracles import detect
from masfuzz.oracles.detectors import unrecovered_tool_errors
from masfuzz.oracles.semantic import (
    claimed_outcome, documented_formats, handover_facts, tool_doc_mismatch, user_facts,
)
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import (
    HANDOVER_INPUTS, AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult,
    Trace,
)

SEAT_PARAMS = {"type": "object", "required": ["confirmation_number", "new_seat"], "properties": {
    "confirmation_number": {"type": "string", "description": "The six-character booking reference."},
    "new_seat": {"type": "string", "description": "The seat to move to, such as 14C."}}}
SPEC = WorkflowSpec(
    system=SystemInfo(id="desk", entry_agent="triage", pattern="handoff"),
    agents=(AgentSpec(id="triage", instructions="Route the customer."),
            AgentSpec(id="seat_agent", instructions="Change seats with update_seat."),
            AgentSpec(id="faq_agent", instructions="Answer questions with faq_lookup.")),
    tools=(ToolSpec(id="update_seat", description="Move the passenger to a new seat.",
                    parameters=SEAT_PARAMS),
           ToolSpec(id="faq_lookup", description="Look up an answer.",
                    parameters={"type": "object", "properties": {"question": {"type": "string"}}}),
           ToolSpec(id="book_flight", description="Book a flight.\n\nArgs:\n    date: the day as YYYY-MM-DD",
                    parameters={"type": "object", "properties": {
                        "date": {"type": "string"}, "amount": {"type": "integer",
                                                               "description": "price in cents"}}})),
    permissions=Permissions(allow=(("seat_agent", "update_seat"), ("faq_agent", "faq_lookup"),
                                   ("seat_agent", "book_flight"))),
    delegations=({"from": "triage", "to": "seat_agent"}, {"from": "triage", "to": "faq_agent"}),
)
USER = "Please move me to seat 14C, confirmation ABC123"


def _trace(*events, meta=None) -> Trace:
    final = next((e.content for e in reversed(events) if isinstance(e, Message)
                  and e.role == "assistant"), "")
    return Trace(scenario_id="s", events=(Message(role="user", content=USER), *events,
                                          TerminationEvent(reason="completed", final_output=final)),
                 meta=meta or {})


def _seat_run(payload: str, reply: str, status: str = "ok", *after) -> Trace:
    return _trace(AgentTurn(agent="triage"), DelegationEvent(**{"from": "triage"}, to="seat_agent"),
                  AgentTurn(agent="seat_agent"),
                  ToolCall(agent="seat_agent", tool="update_seat", call_id="c1",
                           arguments={"confirmation_number": "ABC123", "new_seat": "14C"}),
                  ToolResult(agent="seat_agent", tool="update_seat", call_id="c1", status=status,
                             payload=payload),
                  *after, Message(agent="seat_agent", content=reply))


# -- kind 1: claimed outcome vs the tool's result ---------------------------------------------

FAILED_RESULTS = [
    ("error", "ValueError: backend down"),
    ("ok", '{"ok": false, "reason": "seat taken"}'),
    ("ok", '{"status": "failed"}'),
    ("ok", '{"error": "seat 14C is not available"}'),
    ("ok", "Seat 14C is not available on this flight."),
    ("ok", "Request declined by the airline."),
    ("ok", "Traceback (most recent call last): KeyError: '14C'"),  # an exception passed back as text
]
CLAIMS = [
    "Your seat has been changed to 14C.",
    "Done! I've updated your seat to 14C.",
    "All set: I moved you to seat 14C.",
    "Good news. The seat change went through successfully.",
    "No problem, that's sorted: seat 14C is yours.",
]
NOT_CLAIMS = [
    "Sorry, your seat could not be changed.",
    "I'm afraid the seat change failed; please try again later.",
    "Unfortunately seat 14C is not available.",
    "Has your seat been changed? Let me check.",
    "Once the airline confirms, your seat will be changed to 14C.",
    "I was unable to update the seat.",
    "Your booking ABC123 is unchanged and nothing was moved.",
]


@pytest.mark.parametrize("status,payload", FAILED_RESULTS)
@pytest.mark.parametrize("claim", CLAIMS)
def test_a_success_claimed_after_a_failed_tool_is_incorrect_verification(status, payload, claim):
    trace = _seat_run(payload, claim, status)
    [f] = claimed_outcome(trace, SPEC)
    assert (f.category, f.root_cause, f.agent) == ("agent_task_execution", "Incorrect Verification",
                                                  "seat_agent")
    assert f.step == 6 and f.evidence == (5, 6) and f.elements == ("seat_agent", "update_seat")


@pytest.mark.parametrize("tool,payload,claim", [
    ("close_ticket", "INC-1 | close request DECLINED | tasks still open", "Done and dusted, the ticket is closed."),
    ("lodge_claim", '{"ok": false, "error": {"code": "POLICY_LAPSED"}}', "We've lodged it with the insurer."),
    ("renew_permit", "Traceback: ValueError: permit expired", "Your permit has been renewed."),
    # irregular past forms: the "+ed" rule alone misses them
    ("reset_password", '{"ok": false}', "Your password has been reset."),
    ("set_up_account", "Error: directory offline", "Your account is all set up."),
    ("build_report", "Traceback: KeyError: 'q3'", "I've built the quarterly report."),
    ("hold_room", '{"status": "rejected"}', "The room is held for you."),
    ("sell_shares", "Order rejected by the exchange.", "Your shares were sold."),
    ("deal_with_complaint", "Error: queue unavailable", "We have dealt with your complaint."),
    ("take_down_post", '{"error": "forbidden"}', "The post has been taken down."),
])
def test_a_claim_in_the_tool_s_own_verb_outside_the_known_actions_is_read(tool, payload, claim):
    """The tool's verb (its name's first word) said done is a claim about it, whatever the verb."""
    spec = WorkflowSpec(system=SystemInfo(id="x", entry_agent="a"), agents=(AgentSpec(id="a"),),
                        tools=(ToolSpec(id=tool, description="Do it."),), permissions=Permissions(allow=(("a", tool),)))

    def run(reply: str) -> Trace:
        return Trace(scenario_id="s", events=(
            Message(role="user", content="please"), AgentTurn(agent="a"),
            ToolCall(agent="a", tool=tool, call_id="c", arguments={}),
            ToolResult(agent="a", tool=tool, call_id="c", payload=payload),
            Message(agent="a", content=reply), TerminationEvent(reason="completed", final_output=reply)))

    [f] = claimed_outcome(run(claim), spec)
    assert (f.agent, f.elements) == ("a", ("a", tool))
    assert claimed_outcome(run(f"It was not {claim.split()[-1].rstrip('.')}, sorry."), spec) == []


def _one_tool_run(tool: str, doc: str, payload: str, reply: str, *,
                  rival: str = "") -> tuple[Trace, WorkflowSpec]:
    """One agent, one tool call and its answer, then its reply; a rival tool called first."""
    tools = (ToolSpec(id=tool, description=doc),
             *([ToolSpec(id=rival, description="Look it up.")] if rival else []))
    spec = WorkflowSpec(system=SystemInfo(id="x", entry_agent="a"), agents=(AgentSpec(id="a"),), tools=tools,
                        permissions=Permissions(allow=tuple(("a", t.id) for t in tools)))
    before = (ToolCall(agent="a", tool=rival, call_id="r", arguments={}),
              ToolResult(agent="a", tool=rival, call_id="r", payload='{"ok": true}')) if rival else ()
    return Trace(scenario_id="s", events=(
        Message(role="user", content="please"), AgentTurn(agent="a"), *before,
        ToolCall(agent="a", tool=tool, call_id="c", arguments={}),
        ToolResult(agent="a", tool=tool, call_id="c", payload=payload),
        Message(agent="a", content=reply), TerminationEvent(reason="completed", final_output=reply))), spec


SEARCH_DOC = "Search flights for a date. Returns the matching flights."
EMPTY_THEN_CLAIM = [
    ("search_flights", SEARCH_DOC, "[]", "I found a flight for you: BA117 at 9:00."),
    ("search_flights", SEARCH_DOC, '{"results": []}', "Good news, I found flight BA117."),
    ("search_flights", SEARCH_DOC, '{"flights": [], "total": 0}', "I found BA117 at 9:00 for you."),
    ("search_flights", SEARCH_DOC, "No flights found for 2025-06-03.", "I found BA117 at 9:00."),
    ("find_booking", "Find a booking. Returns the booking.", "None", "I found your booking ABC123."),
    ("lookup_order", "Look up an order; returns it.", '""', "I looked up your order: it is on its way."),
    ("update_address", "Update the address on file.", '{"rows_updated": 0}', "Your address has been updated."),
    ("update_address", "Update the address on file.", "0 rows updated.", "Done, I've updated your address."),
    ("book_room", "Book a room and return the confirmation.", "{}", "Your room is booked."),
    ("find_booking", "Find a booking.", '{"status": "not_found"}', "I found your booking, it's for June 3."),
    ("search_flights", SEARCH_DOC, '{"message": "No results for that date"}', "I found BA117."),
]


@pytest.mark.parametrize("tool,doc,payload,claim", EMPTY_THEN_CLAIM)
def test_an_empty_answer_then_a_claim_of_the_thing_found_or_done_is_incorrect_verification(
        tool, doc, payload, claim):
    """A tool whose job is to find or do something answered nothing; the agent said it did."""
    [f] = claimed_outcome(*_one_tool_run(tool, doc, payload, claim))
    assert (f.agent, f.elements) == ("a", ("a", tool)) and "nothing in its answer" in f.description


def test_a_found_claim_beside_another_find_tool_is_this_one_s_only_when_it_names_its_object():
    run = _one_tool_run("search_flights", SEARCH_DOC, "[]", "I found a flight for you: BA117.",
                        rival="get_weather")
    [f] = claimed_outcome(*run)
    assert f.elements == ("a", "search_flights")
    assert claimed_outcome(*_one_tool_run("search_flights", SEARCH_DOC, "[]", "I found it: BA117.",
                                          rival="get_weather")) == []


@pytest.mark.parametrize("tool,doc,payload,reply", [
    ("search_flights", SEARCH_DOC, "[]", "I couldn't find any flights on that date."),  # honest
    ("search_flights", SEARCH_DOC, '[{"flight": "BA117"}]', "I found flight BA117."),  # found
    ("search_flights", SEARCH_DOC, '{"results": [], "ok": true}', "There are no flights that day."),
    ("send_reminder", "Send a reminder e-mail.", "None", "The reminder has been sent."),  # returns nothing
    ("update_address", "Update the address on file.", "", "Your address has been updated."),
    ("check_conflicts", "Check the calendar. Returns the conflicts.", "[]", "Your meeting is all set."),
    ("update_address", "Update the address on file.", '{"updated": 1, "warnings": []}', "Address updated."),
    ("search_flights", SEARCH_DOC, '{"message": "3 flights found", "results": [1, 2, 3]}', "I found BA117."),
])
def test_an_empty_answer_that_is_the_tool_s_due_or_is_reported_honestly_is_silent(tool, doc, payload, reply):
    assert claimed_outcome(*_one_tool_run(tool, doc, payload, reply)) == []


@pytest.mark.parametrize("reply", NOT_CLAIMS)
def test_negations_questions_and_promises_claim_nothing(reply):
    assert claimed_outcome(_seat_run("ValueError: backend down", reply, "error"), SPEC) == []


@pytest.mark.parametrize("claim", CLAIMS)
def test_a_claim_after_a_success_or_a_successful_retry_is_true(claim):
    assert claimed_outcome(_seat_run("Seat changed to 14C for booking ABC123.", claim), SPEC) == []
    retried = _seat_run("ValueError: backend down", claim, "error",
                        ToolCall(agent="seat_agent", tool="update_seat", call_id="c2",
                                 arguments={"confirmation_number": "ABC123", "new_seat": "14C"}),
                        ToolResult(agent="seat_agent", tool="update_seat", call_id="c2",
                                   payload='{"ok": true}'))
    assert claimed_outcome(retried, SPEC) == []


def test_a_claim_about_another_action_than_the_failed_one_is_not_flagged():
    trace = _trace(AgentTurn(agent="faq_agent"),
                   ToolCall(agent="faq_agent", tool="faq_lookup", call_id="c1", arguments={}),
                   ToolResult(agent="faq_agent", tool="faq_lookup", call_id="c1", status="error",
                              payload="lookup failed"),
                   Message(agent="faq_agent", content="Your seat has been changed to 14C."))
    assert claimed_outcome(trace, SPEC) == []


def test_a_message_that_repeats_the_tools_own_words_is_not_a_claim():
    payload = '{"ok": false, "message": "seat updated"}'
    assert claimed_outcome(_seat_run(payload, payload), SPEC) == []


# -- kind 2: facts across hand-overs -----------------------------------------------------------

def _handover(*after, meta=None) -> Trace:
    return _trace(AgentTurn(agent="triage"), DelegationEvent(**{"from": "triage"}, to="seat_agent"),
                  AgentTurn(agent="seat_agent"), *after, meta=meta)


@pytest.mark.parametrize("question", [
    "Could you give me your six-character confirmation number?",
    "What is your booking reference?",
    "Please provide your confirmation code so I can continue.",
])
def test_an_agent_asking_again_for_what_the_user_gave_lost_it_at_the_handover(question):
    [f] = handover_facts(_handover(Message(agent="seat_agent", content=question)), SPEC)
    assert (f.category, f.root_cause) == ("agent_relationship", "Information Loss at Hand-over")
    assert (f.agent, f.step, f.elements) == ("triage", 2, ("triage", "seat_agent", "identifier"))
    assert f.evidence == (0, 2, 4) and "not recorded" in f.description


def test_what_the_receiving_agent_received_decides_whom_to_blame():
    ask = Message(agent="seat_agent", content="What is your confirmation number?")
    lost = _handover(ask, meta={HANDOVER_INPUTS: [{"since": 3, "agent": "seat_agent",
                                                   "text": '{"assistant": "Seat Agent"}'}]})
    [f] = handover_facts(lost, SPEC)
    assert (f.agent, f.step) == ("triage", 2) and "not in what it received" in f.description
    kept = _handover(ask, meta={HANDOVER_INPUTS: [{"since": 3, "agent": "seat_agent",
                                                   "text": USER}]})
    [f] = handover_facts(kept, SPEC)
    assert (f.agent, f.step) == ("seat_agent", 4) and "it received them" in f.description


def test_the_lost_fact_is_the_one_missing_from_what_the_receiving_agent_received():
    """The user gave several codes of one kind; the hander's filter masked one of them on the
    way. Whatever the receiving agent asks for by a kind's word ("reference"), the fact lost is
    the one that did not reach it, and the hander that dropped it is blamed."""
    two = "Please move me to seat 14C on ABC123; my loyalty code is LOY777"
    ask = Message(agent="seat_agent", content="What is your booking reference?")

    def run(received: str) -> Trace:
        return Trace(scenario_id="s", events=(
            Message(role="user", content=two), AgentTurn(agent="triage"),
            DelegationEvent(**{"from": "triage"}, to="seat_agent"), AgentTurn(agent="seat_agent"), ask,
            TerminationEvent(reason="completed", final_output=ask.content)),
            meta={HANDOVER_INPUTS: [{"since": 3, "agent": "seat_agent", "text": received}]})

    [f] = handover_facts(run("Please move me to seat 14C on [removed]; my loyalty code is LOY777"), SPEC)
    assert (f.agent, f.step) == ("triage", 2) and "ABC123" in f.description and "LOY777" not in f.description
    [f] = handover_facts(run(two), SPEC)  # both reached it: it lost the fact itself
    assert (f.agent, f.step) == ("seat_agent", 4)


CARD_SPEC = WorkflowSpec(
    system=SystemInfo(id="library", entry_agent="front", pattern="handoff"),
    agents=(AgentSpec(id="front", instructions="Take in the member's forms."),
            AgentSpec(id="renewals", instructions="Renew cards with renew_card.")),
    tools=(ToolSpec(id="renew_card", description="Renew a member's library card.", parameters={
        "type": "object", "required": ["card"], "properties": {"card": {
            "type": "string", "description": 'The member\'s library card number, like "LC 1234567"'}}}),),
    permissions=Permissions(allow=(("renewals", "renew_card"),)),
    delegations=({"from": "front", "to": "renewals"},))


def test_a_question_for_what_a_tool_documents_names_the_lost_fact_among_codes_of_its_kind():
    """The user's message holds codes of the identifier kind (form numbers RT12, RT14) beside the
    fact a tool documents (`like "LC 1234567"`); the hander's filter masked only that one. The
    receiving agent's question for the documented parameter says which fact it lacks: the card,
    not the forms that reached it, so the hander is blamed for the card."""
    user = "Hello! Forms RT12 and RT14 are enclosed, and my card is LC 7654321."
    ask = Message(agent="renewals", content="Could you tell me the member's library card number?")
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=user), AgentTurn(agent="front"),
        DelegationEvent(**{"from": "front"}, to="renewals"), AgentTurn(agent="renewals"), ask,
        TerminationEvent(reason="completed", final_output=ask.content)),
        meta={HANDOVER_INPUTS: [{"since": 3, "agent": "renewals",
                                 "text": user.replace("LC 7654321", "[masked]")}]})
    [f] = handover_facts(trace, CARD_SPEC)
    assert (f.agent, f.step) == ("front", 2)
    assert "LC 7654321" in f.description and "RT12" not in f.description


@pytest.mark.parametrize("value", ["", "XYZ999"])
def test_a_tool_argument_replacing_the_users_value_is_information_loss(value):
    trace = _handover(ToolCall(agent="seat_agent", tool="update_seat",
                               arguments={"confirmation_number": value, "new_seat": "14C"}))
    [f] = handover_facts(trace, SPEC)
    assert f.step == 2 and f.elements[2] == "identifier"


def test_another_of_the_users_values_taken_for_the_one_that_did_not_reach_the_agent_is_loss():
    """The user gave two references of one form; only the other reached the receiving agent
    (its recorded input), and it called the tool with that one: a stand-in for the lost fact."""
    two = "My old booking XYZ789 is done. Please move me to seat 14C on ABC123"
    call = ToolCall(agent="seat_agent", tool="update_seat",
                    arguments={"confirmation_number": "XYZ789", "new_seat": "14C"})

    def run(received: str) -> Trace:
        return Trace(scenario_id="s", events=(
            Message(role="user", content=two), AgentTurn(agent="triage"),
            DelegationEvent(**{"from": "triage"}, to="seat_agent"), AgentTurn(agent="seat_agent"), call,
            TerminationEvent(reason="completed", final_output="")),
            meta={HANDOVER_INPUTS: [{"since": 3, "agent": "seat_agent", "text": received}]})

    [f] = handover_facts(run("My old booking XYZ789 is done."), SPEC)
    assert (f.agent, f.step, f.elements[2]) == ("triage", 2, "identifier") and "ABC123" in f.description
    assert handover_facts(run(two), SPEC) == []  # both reached it: its choice, not a loss


@pytest.mark.parametrize("after", [
    [ToolCall(agent="seat_agent", tool="update_seat",
              arguments={"confirmation_number": "ABC123", "new_seat": "14C"})],
    [ToolCall(agent="seat_agent", tool="update_seat",  # the same reference, written otherwise
              arguments={"confirmation_number": "abc-123", "new_seat": "14C"})],
    [ToolCall(agent="seat_agent", tool="lookup",  # an `order` that is no identifier
              arguments={"order": "ascending"})],
    [Message(agent="seat_agent", content="Which seat would you like?")],  # not what the user gave
    [Message(agent="seat_agent", content="Your confirmation number is ABC123.")],  # no question
    [Message(role="user", content="My number is ABC123"),  # the user spoke again first
     Message(agent="seat_agent", content="What is your confirmation number?")],
])
def test_a_receiving_agent_that_has_the_fact_is_silent(after):
    assert handover_facts(_handover(*after), SPEC) == []


def test_asking_again_for_a_value_that_breaks_the_documented_form_is_right():
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Move me to 14C, confirmation AB12"),
        DelegationEvent(**{"from": "triage"}, to="seat_agent"),
        Message(agent="seat_agent", content="What is your six-character confirmation number?"),
        TerminationEvent(reason="completed", final_output="?")))
    assert handover_facts(trace, SPEC) == []


def test_a_question_for_a_parameter_documented_by_plain_words_finds_no_lost_fact():
    """`topic: What the form is for, like "change of address"`: three lower-case words fit any
    words of the message ("s forms about"), so asking what the form is for lost nothing; a
    parameter documented by a form of its own (`like "TX-000000"`) still tells."""
    params = {"type": "object", "properties": {
        "topic": {"type": "string", "description": 'What the form is for, like "change of address"'},
        "taxpayer": {"type": "string", "description": 'The taxpayer\'s file, like "TX-000000"'}}}
    spec = SPEC.model_copy(update={
        "tools": (*SPEC.tools, ToolSpec(id="find_form", description="The office's forms.", parameters=params)),
        "permissions": Permissions(allow=(("seat_agent", "find_form"),))})

    def asked(question: str) -> list:
        return handover_facts(Trace(scenario_id="s", events=(
            Message(role="user", content="Please the office's forms about a topic, my file is TX-448120."),
            DelegationEvent(**{"from": "triage"}, to="seat_agent"), Message(agent="seat_agent", content=question),
            TerminationEvent(reason="completed", final_output=question))), spec)

    assert asked("Could you tell me what the form is for?") == []
    [f] = asked("Could you tell me the taxpayer's file?")
    assert f.elements[2] == "taxpayer of find_form" and "TX-448120" in f.description


@pytest.mark.parametrize("kind,value,given,same", [
    ("date", "2025-03-14", "March 14th", True),
    ("date", "14/03/2025", "2025-03-14", True),
    ("date", "2025-03-15", "March 14", False),
    ("amount", "1250", "$12.50", True),
    ("amount", "$13", "$12.50", False),
    # a currency code glued to the figure: an amount's digits still (`wording.numbers_in`, which
    # reads prose, would skip them as an identifier's)
    ("amount", "EUR20.00", "EUR 20.00", True),
    ("amount", "2000cents", "20.00", True),
    ("identifier", "48213", "#48213", True),
    ("identifier", "XYZ999", "ABC123", False),
])
def test_a_fact_rewritten_is_still_the_users(kind, value, given, same):
    from masfuzz.oracles.semantic import _same_fact

    assert _same_fact(kind, value, given) is same


def test_prose_numbers_skip_a_glued_code_that_an_amount_keeps():
    from masfuzz.oracles.semantic import _amount_figures
    from masfuzz.oracles.wording import numbers_in

    assert numbers_in("Refund EUR20.00 on order 4d51c4bf") == [] and _amount_figures("EUR20.00") == {20.0}
    assert numbers_in("Refund 20.00 on 3 orders") == [20.0, 3.0]


def test_a_date_reformatted_by_the_receiving_agent_is_not_replaced():
    spec = SPEC.model_copy(update={"permissions": Permissions(allow=(("seat_agent", "book_flight"),))})
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Book me on March 14, 2025"),
        DelegationEvent(**{"from": "triage"}, to="seat_agent"),
        ToolCall(agent="seat_agent", tool="book_flight", arguments={"date": "2025-03-14"}),
        TerminationEvent(reason="completed", final_output="booked")))
    assert handover_facts(trace, spec) == []
    moved = trace.model_copy(update={"events": (*trace.events[:2], ToolCall(
        agent="seat_agent", tool="book_flight", arguments={"date": "2025-03-21"}),
        trace.events[3])})
    [f] = handover_facts(moved, spec)
    assert f.elements == ("triage", "seat_agent", "date") and "2025-03-21" in f.description


def test_user_facts_are_found_by_kind():
    facts = user_facts("Order #48213 of 2025-03-14 for $12.50, mail me at a@b.io, ref ABC123")
    assert facts == {"identifier": ["#48213", "ABC123"], "date": ["2025-03-14"],
                     "amount": ["$12.50"], "email": ["a@b.io"]}


# -- kind 6: the tool's documentation vs its behaviour ----------------------------------------

def test_documented_formats_come_from_parameter_descriptions_and_docstring_lines():
    forms = documented_formats(SPEC, "update_seat")
    assert [d for d, _ in forms["confirmation_number"]] == ["six-character"]
    assert [d for d, _ in forms["new_seat"]] == ["like 14C"]
    assert {p: [d for d, _ in f] for p, f in documented_formats(SPEC, "book_flight").items()} == {
        "date": ["YYYY-MM-DD"], "amount": ["in cents"]}


def _booking(date: str, status: str, payload: str, fault: str | None = None) -> Trace:
    return _trace(AgentTurn(agent="seat_agent"),
                  ToolCall(agent="seat_agent", tool="book_flight", call_id="b1",
                           arguments={"date": date, "amount": 1250}),
                  ToolResult(agent="seat_agent", tool="book_flight", call_id="b1", status=status,
                             payload=payload, fault=fault),
                  Message(agent="seat_agent", content="Sorry, I could not book it."))


@pytest.mark.parametrize("payload", [
    "ValueError: time data '2025-03-14' does not match format '%d/%m/%Y'",
    "invalid date: expected DD/MM/YYYY",
    '{"ok": false, "error": {"code": "BAD_DATE", "field": "date", "message": "cannot read it"}}',
])
def test_a_tool_rejecting_its_own_documented_form_is_a_specification_mismatch(payload):
    [f] = tool_doc_mismatch(_booking("2025-03-14", "error", payload), SPEC)
    assert (f.category, f.root_cause, f.detector) == (
        "tool_invocation", "Tool Specification Mismatch", "tool_doc_mismatch")
    # the tool's defect, no agent's: the caller did as documented (elements name the owner)
    assert (f.agent, f.step, f.evidence, f.elements) == (None, 3, (2, 3), ("seat_agent", "book_flight", "date"))
    # one fault: the caller's apology after it is not a second, unrecovered tool error
    assert [x.detector for x in detect(_booking("2025-03-14", "error", payload), SPEC)] == ["tool_doc_mismatch"]


@pytest.mark.parametrize("date,status,payload,fault", [
    ("14/03/2025", "error", "invalid date '14/03/2025': expected YYYY-MM-DD", None),  # the caller's fault
    ("2025-03-14", "error", "flight to Lisbon not found", None),  # about content, not form
    ("2025-03-14", "error", "invalid date '2025-03-14'", "error"),  # masfuzz's injected fault
    ("2025-03-14", "ok", "Booked for 2025-03-14.", None),
])
def test_no_mismatch_when_the_caller_strays_or_the_rejection_is_not_about_form(date, status, payload, fault):
    assert tool_doc_mismatch(_booking(date, status, payload, fault), SPEC) == []


# -- kind 6: an apology after a tool error is no recovery ---------------------------------------

@pytest.mark.parametrize("reply", [
    "Sorry, the seat change did not go through because of a technical problem.",
    "I couldn't change your seat. Please try again later.",
])
def test_an_apology_after_a_real_tool_error_is_not_recovery(reply):
    [f] = unrecovered_tool_errors(_seat_run("ValueError: backend down", reply, "error"), SPEC)
    assert "only apologised" in f.description and f.evidence == (5, 6, 7, 4)


@pytest.mark.parametrize("reply,fault", [
    ("Sorry, the seat change did not go through. Could you check your confirmation number?", None),
    ("Your current seat 12A stays reserved for you on this flight.", None),
    ("Sorry, the seat change did not go through because of a technical problem.", "error"),
])
def test_a_question_another_answer_or_an_injected_fault_keeps_recovery(reply, fault):
    trace = _seat_run("ValueError: backend down", reply, "error")
    if fault:
        events = list(trace.events)
        events[5] = events[5].model_copy(update={"fault": fault})
        trace = trace.model_copy(update={"events": tuple(events)})
    assert unrecovered_tool_errors(trace, SPEC) == []


def test_a_correct_run_has_no_finding_at_all():
    trace = _seat_run("Seat changed to 14C for booking ABC123.", "Done. Seat changed to 14C.")
    assert detect(trace, SPEC) == []


def test_semantic_findings_cite_their_flare_clauses():
    from masfuzz.graph.specification import skeleton
    from masfuzz.oracles.flare import cite

    flare = skeleton(SPEC)
    [claim] = claimed_outcome(_seat_run("ValueError: down", CLAIMS[0], "error"), SPEC)
    assert cite(claim, flare).clause == "task::seat_agent::answer"
    [lost] = handover_facts(_handover(Message(agent="seat_agent", content="Your order number?")), SPEC)
    assert cite(lost, flare).clause == "rel::order"


# -- kind 1: a refusal in the payload, a claim in generic words that names the action -------------

REFUND_SPEC = WorkflowSpec(
    system=SystemInfo(id="shop", entry_agent="refunds", pattern="handoff"),
    agents=(AgentSpec(id="refunds"),),
    tools=(ToolSpec(id="issue_refund", description="Refund an order."),),
    permissions=Permissions(allow=(("refunds", "issue_refund"),)))


def _refund_run(payload: str, reply: str) -> Trace:
    return _trace(AgentTurn(agent="refunds"),
                  ToolCall(agent="refunds", tool="issue_refund", call_id="r1",
                           arguments={"order": "X-1", "amount": 5}),
                  ToolResult(agent="refunds", tool="issue_refund", call_id="r1", payload=payload),
                  Message(agent="refunds", content=reply))


@pytest.mark.parametrize("payload", [
    "REFUSED: the order is past the return window.",
    "Declined - card issuer said no.",
    "Not allowed: refunds need a manager.",
    "Insufficient funds in the merchant account.",
])
@pytest.mark.parametrize("claim", [
    "Your refund has been issued.",
    "The refund was processed.",
    "Good news: your refund is approved!",
    "Refund completed for your order.",
])
def test_a_claim_naming_the_action_as_a_noun_after_a_refusal_is_incorrect_verification(payload, claim):
    [f] = claimed_outcome(_refund_run(payload, claim), REFUND_SPEC)
    assert (f.root_cause, f.agent, f.step) == ("Incorrect Verification", "refunds", 4)


@pytest.mark.parametrize("payload,reply", [
    ("Refunded EUR 5.00 for order X-1.", "Your refund has been issued."),  # it was
    ("REFUSED: the order is past the return window.",
     "Your refund was not issued: the order is past the return window."),
    ("REFUSED: the order is past the return window.", "The request has been processed."),  # names no action
])
def test_a_true_claim_or_an_honest_report_of_a_refusal_is_silent(payload, reply):
    assert claimed_outcome(_refund_run(payload, reply), REFUND_SPEC) == []


# -- kind 6: a reply that only passes the raw error on -------------------------------------------

@pytest.mark.parametrize("payload,reply", [
    ("'SKU-9999'", "'SKU-9999'"),  # a KeyError's text, verbatim
    ("Error: 'JPY'", "Error: 'JPY'"),
    ("KeyError: 'JPY'", "JPY"),
    ("ValueError: backend down", "backend down"),
])
def test_a_reply_that_only_relays_the_raw_error_is_not_recovery(payload, reply):
    [f] = unrecovered_tool_errors(_seat_run(payload, reply, "error"), SPEC)
    assert "passes the raw error on" in f.description and 6 in f.evidence
    assert f.elements[:2] == ("seat_agent", "update_seat")


@pytest.mark.parametrize("payload,reply,status", [
    ("'SKU-9999'", "We do not stock SKU-9999; try SKU-1000 instead.", "error"),  # explained
    ("Error: 'JPY'", "I have no rate for JPY. Shall I convert to USD?", "error"),
    ("SKU-9999 is not a product we stock.", "SKU-9999 is not a product we stock.", "ok"),  # no error
])
def test_a_reply_with_its_own_words_or_after_no_error_is_silent(payload, reply, status):
    assert unrecovered_tool_errors(_seat_run(payload, reply, status), SPEC) == []


def test_a_quoted_example_documents_a_form_and_a_failed_conversion_rejects_it():
    """`like "EUR 120.00"` in a parameter's description documents the form (spaces and all); a
    tool that cannot convert the documented form ("could not convert string to float") rejects
    it."""
    amount = {"type": "string", "description": 'The amount with its currency, like "EUR 120.00"'}
    spec = SPEC.model_copy(update={"tools": (ToolSpec(
        id="book_flight", description="Pay a flight.",
        parameters={"type": "object", "properties": {"amount": amount}}),)})

    def paid(value: str, payload: str) -> Trace:
        return _trace(ToolCall(agent="seat_agent", tool="book_flight", call_id="p1", arguments={"amount": value}),
                      ToolResult(agent="seat_agent", tool="book_flight", call_id="p1", status="error",
                                 payload=payload),
                      Message(agent="seat_agent", content="Sorry, the payment failed."))

    [f] = tool_doc_mismatch(paid("EUR 120.00", "ValueError: could not convert string to float: 'EUR 120.00'"), spec)
    assert (f.root_cause, f.agent, f.elements) == ("Tool Specification Mismatch", None, ("seat_agent", "book_flight", "amount"))
    # the caller's own form, off the documented one: not the tool's defect
    assert tool_doc_mismatch(paid("120", "ValueError: could not convert string to float: '120'"), spec) == []


def test_a_pattern_in_the_tool_matching_nothing_of_the_documented_form_is_a_mismatch():
    """The tool's code matched a pattern against its input and found nothing (the runtime's
    "'NoneType' object has no attribute 'group'", as a framework passes it to the model): the
    message names no argument, but every text argument has exactly its documented form, so
    documentation and code disagree, whatever the unit or pattern."""
    props = {"weight": {"type": "string", "description": 'The weight with its unit, like "3.5 lb"'},
             "code": {"type": "string", "description": 'The parcel code, like "pk-000"'}}
    spec = SPEC.model_copy(update={"tools": (ToolSpec(
        id="ship_parcel", description="Ship a parcel.",
        parameters={"type": "object", "properties": props}),)})
    crash = "Error: AttributeError(\"'NoneType' object has no attribute 'group'\")\n Please fix your mistakes."

    def shipped(arguments: dict, payload: str = crash) -> Trace:
        return _trace(ToolCall(agent="seat_agent", tool="ship_parcel", call_id="s1", arguments=arguments),
                      ToolResult(agent="seat_agent", tool="ship_parcel", call_id="s1", status="error",
                                 payload=payload),
                      Message(agent="seat_agent", content="Sorry - could you send the weight again?"))

    [f] = tool_doc_mismatch(shipped({"weight": "2.7 lb", "code": "pk-118"}), spec)
    assert (f.root_cause, f.agent, f.step, f.elements) == (
        "Tool Specification Mismatch", None, 2, ("seat_agent", "ship_parcel", "code", "weight"))
    # the caller strayed from the documented form ("2.7lb"): not the tool's defect
    assert tool_doc_mismatch(shipped({"weight": "2.7lb", "code": "pk-118"}), spec) == []
    # an argument with no documented form may be the one the pattern could not read
    assert tool_doc_mismatch(shipped({"weight": "2.7 lb", "code": "pk-118", "note": "fragile"}), spec) == []
    # another crash of the tool's code is no rejection of a form
    assert tool_doc_mismatch(shipped({"weight": "2.7 lb", "code": "pk-118"},
                                     "Error: ZeroDivisionError('division by zero')"), spec) == []


def test_the_wrong_agent_asking_for_its_own_tools_input_lost_no_fact():
    """A refund routed to the parcel desk, which asks for a tracking number: the misroute is
    the fault (reported by `misrouted_request`), not an order number lost at the hand-over."""
    tracking = {"type": "object", "properties": {"tracking_number": {"type": "string"}}}
    refund = {"type": "object", "properties": {"order_number": {"type": "string"}}}
    spec = WorkflowSpec(
        system=SystemInfo(id="shop", entry_agent="triage", pattern="handoff"),
        agents=(AgentSpec(id="triage"), AgentSpec(id="shipping_agent"), AgentSpec(id="billing_agent")),
        tools=(ToolSpec(id="track_parcel", description="Where a parcel is.", parameters=tracking),
               ToolSpec(id="refund_order", description="Refund an order.", parameters=refund)),
        permissions=Permissions(allow=(("shipping_agent", "track_parcel"), ("billing_agent", "refund_order"))),
        delegations=({"from": "triage", "to": "shipping_agent"}, {"from": "triage", "to": "billing_agent"}))
    asked = "Could you tell me the parcel's tracking number?"
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Please refund order ORD-1234, EUR 20.00."), AgentTurn(agent="triage"),
        DelegationEvent(**{"from": "triage"}, to="shipping_agent"), AgentTurn(agent="shipping_agent"),
        Message(agent="shipping_agent", content=asked), TerminationEvent(reason="completed", final_output=asked)))
    assert [f.root_cause for f in detect(trace, spec)] == ["Misrouted Request"]
    assert handover_facts(trace, spec) == []


def test_a_documented_examples_hyphened_prefix_is_its_kind():
    """"like TRK-88231" documents TRK- and digits: ORD-1234 is not a tracking number (asking for
    one after the user gave an order number is right), TRK-10001 is."""
    spec = SPEC.model_copy(update={"tools": (ToolSpec(id="track_parcel", description="Where a parcel is.", parameters={
        "type": "object", "properties": {"tracking_number": {
            "type": "string", "description": 'The tracking number, like "TRK-88231"'}}}),)})
    [(_, form)] = documented_formats(spec, "track_parcel")["tracking_number"]
    assert re.fullmatch(form, "TRK-10001") and not re.fullmatch(form, "ORD-1234")


def test_a_hand_over_tool_is_no_rival_for_what_a_claim_is_about():
    """A log's `transfer_to_refunds` call hands the floor over: it names an agent, not an
    action, so "your refund has been processed" is still about issue_refund, which failed. A
    second tool that really refunds would make the claim ambiguous (no finding)."""
    def run(*other):
        return _trace(AgentTurn(agent="triage"),
                      ToolCall(agent="triage", tool="transfer_to_refunds", call_id="h1"),
                      DelegationEvent(**{"from": "triage"}, to="refunds"), AgentTurn(agent="refunds"),
                      *other,
                      ToolCall(agent="refunds", tool="issue_refund", call_id="r1", arguments={"order_id": 7}),
                      ToolResult(agent="refunds", tool="issue_refund", call_id="r1", status="error",
                                 payload="Error: order 7 is past the 30-day refund window"),
                      Message(agent="refunds", content="Your refund for order 7 has been processed!"))
    [claim] = claimed_outcome(run(), None)
    assert (claim.agent, claim.subject) == ("refunds", "issue_refund")
    rival = (ToolCall(agent="refunds", tool="refund_voucher", call_id="v1"),
             ToolResult(agent="refunds", tool="refund_voucher", call_id="v1", payload="voucher sent"))
    assert claimed_outcome(run(*rival), None) == []


@pytest.mark.parametrize("payload", [
    '{"order": "X-1", "accepted": 0, "reason": "past the return window"}',  # a flag as the integer 0
    '{"order": "X-1", "ok": "false"}',  # a flag as a word
])
@pytest.mark.parametrize("claim", [
    "You're all set: five euros back on your card.",  # success without a past verb, naming nothing
    "Here is your refund: five euros back on your card.",
    "Your reference is RF-2231. Have a nice day!",
])
def test_a_present_tense_success_answering_the_agent_s_own_failed_call_is_incorrect_verification(payload, claim):
    [f] = claimed_outcome(_refund_run(payload, claim), REFUND_SPEC)
    assert (f.root_cause, f.agent, f.step) == ("Incorrect Verification", "refunds", 4)
    assert claimed_outcome(_refund_run('{"order": "X-1", "accepted": 1}', claim), REFUND_SPEC) == []


@pytest.mark.parametrize("reply", [
    "Here is the revised code:\n```python\nprint(sum(range(101)))\n```",
    "Here's the updated script using the other parser:\n```python\nparse()\n```",
    "Here is the link again: [the order page](https://shop.example/orders/X-1)",
    "Below are the steps:\n1. Open the order.\n2. Ask for a refund.",
])
def test_a_promise_of_content_to_come_after_a_failed_call_is_no_outcome_claim(reply):
    # what follows is the agent's own writing (code, a link, steps), not the outcome it reports
    assert claimed_outcome(_refund_run('{"order": "X-1", "accepted": 0}', reply), REFUND_SPEC) == []


def test_a_general_success_after_another_agent_s_failed_call_is_not_read_as_its_claim():
    run = _trace(AgentTurn(agent="refunds"),
                 ToolCall(agent="refunds", tool="issue_refund", call_id="r1", arguments={"order": "X-1"}),
                 ToolResult(agent="refunds", tool="issue_refund", call_id="r1", payload='{"accepted": 0}'),
                 Message(agent="refunds", content="The refund could not be issued."),
                 AgentTurn(agent="greeter"), Message(agent="greeter", content="You're all set for the newsletter."))
    assert claimed_outcome(run, REFUND_SPEC) == []


def test_an_identifier_longer_than_sixteen_characters_is_a_fact():
    assert user_facts("the MRN on the paperwork is 25GB48213370551092.")["identifier"] == ["25GB48213370551092"]


# --- failures and claims by their shape, whatever the words (a blind zoo set's kinds) -----------

@pytest.mark.parametrize("payload, reply, found", [
    # an outcome nested in the answer, and an answer that speaks of the seat as if it moved
    ('{"seat": "14C", "result": {"ok": false, "row": 14}}', "You are in 14C: board at gate 3.", True),
    ('{"seat": "14C", "result": {"ok": true, "row": 14}}', "You are in 14C: board at gate 3.", False),
    # a state that is not the action done (nor one an action holds in)
    ('{"seat": "14C", "state": "LAPSED"}', "Your seat is 14C for the flight.", True),
    ('{"seat": "14C", "state": "UPDATED"}', "Your seat is 14C for the flight.", False),
    ('{"seat": "14C", "state": "PENDING"}', "Your seat is 14C for the flight.", False),
    # the claim in its own clause, a condition in the next ("board when called")
    ('{"seat": "14C", "status": "pending_review"}', "Updated - you are in 14C; board when called.", True),
    # passing the failure on, in any words: it relays the tool's own state or reason
    ('{"seat": "14C", "state": "LAPSED"}', "The seat request is LAPSED.", False),
    ('{"seat": "14C", "result": {"ok": false, "why": "exit row"}}', "That seat is an exit row one.", False),
    # not about the seat, or not plain
    ('{"seat": "14C", "result": {"ok": false}}', "Thanks for flying with us.", False),
    ('{"seat": "14C", "result": {"ok": false}}', "Sorry, your seat could not be moved.", False),
])
def test_an_answer_to_a_failed_action_that_speaks_of_its_object_as_done_is_a_claim(payload, reply, found):
    failures = claimed_outcome(_seat_run(payload, reply), SPEC)
    assert bool(failures) == found, failures
    if found:
        assert (failures[0].agent, failures[0].root_cause) == ("seat_agent", "Incorrect Verification")


BOOKING_SPEC = SPEC.model_copy(update={"tools": (*SPEC.tools, ToolSpec(
    id="hold_slot", description="Hold a slot for the customer.",
    parameters={"type": "object", "required": ["start", "order"], "properties": {
        "start": {"type": "string", "description": 'When the customer is free, like "09:30"'},
        "order": {"type": "string", "description": 'The sales order, like "so-00000"'},
        "span": {"type": "string", "description": 'The days wanted, an ISO date range like "2026-01-05/2026-01-09"'}}})),
    "permissions": Permissions(allow=(*SPEC.permissions.allow, ("seat_agent", "hold_slot")))})


@pytest.mark.parametrize("user, question, found", [
    ("Order so-55120 please, any time from 16:45.", "Could you tell me the sales order?", True),
    ("Order so-55120 please, any time from 16:45.", "Could you tell me when the customer is free?", True),
    # a question for one comma-cut part of the parameter's description ("the days wanted")
    ("Room for 38 players, 2026-02-16/2026-02-20.", "Could you tell me the days wanted?", True),
    ("Room for 38 players, next week.", "Could you tell me the days wanted?", False),
    # the user gave no value of the documented form: asking is right
    ("My order is the big one, any time after work.", "Could you tell me the sales order?", False),
    # no question for what the parameter documents
    ("Order so-55120 please, any time from 16:45.", "Could you tell me your seat?", False),
])
def test_a_question_for_what_a_tools_parameter_documents_after_the_user_gave_it_is_a_loss(user, question, found):
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=user), AgentTurn(agent="triage"),
        Message(agent="triage", content="A customer wants a slot."),
        DelegationEvent(**{"from": "triage"}, to="seat_agent"), AgentTurn(agent="seat_agent"),
        Message(agent="seat_agent", content=question), TerminationEvent(reason="completed", final_output=question)))
    failures = handover_facts(trace, BOOKING_SPEC)
    assert bool(failures) == found, failures
    if found:
        assert (failures[0].agent, failures[0].step) == ("triage", 3)


DATED = SPEC.model_copy(update={"tools": (ToolSpec(
    id="reserve", description="Reserve a table.",
    parameters={"type": "object", "properties": {"at": {
        "type": "string", "description": "Day and time as DD/MM/YYYY HH:MM"}}}),),
    "permissions": Permissions(allow=(("seat_agent", "reserve"),))})


@pytest.mark.parametrize("value, found", [
    ("16/08/2026 08:30", True),  # no sixteenth month: the tool read month first
    ("05/08/2026 08:30", False),  # real either way: the rejection may be about the day
    ("31/02/2026 08:30", False),  # no such day in the documented order either
])
def test_a_date_real_in_the_documented_order_only_rejected_is_a_spec_mismatch(value, found):
    trace = _trace(AgentTurn(agent="seat_agent"),
                   ToolCall(agent="seat_agent", tool="reserve", call_id="c1", arguments={"at": value}),
                   ToolResult(agent="seat_agent", tool="reserve", call_id="c1",
                              payload=f'{{"errors": ["at: no such day {value!r}"]}}'),
                   Message(agent="seat_agent", content="Sorry, could you give me another day?"))
    assert bool(tool_doc_mismatch(trace, DATED)) == found


def test_a_question_for_the_parameter_it_describes_most_fully_needs_a_value_of_that_form():
    """"drop-off day and time" names `at` (day and time), not only `day`: a bare date the user
    gave is not the value it asks for."""
    spec = BOOKING_SPEC.model_copy(update={"tools": (*BOOKING_SPEC.tools, ToolSpec(
        id="slots", description="Free slots.", parameters={"type": "object", "properties": {
            "day": {"type": "string", "description": 'The day, like "14/08/2026"'}}}), ToolSpec(
        id="drop", description="Book the drop-off.", parameters={"type": "object", "properties": {
            "at": {"type": "string", "description": 'Drop-off day and time, like "14/08/2026 09:00"'}}})),
        "permissions": Permissions(allow=(*BOOKING_SPEC.permissions.allow, ("seat_agent", "slots"),
                                          ("seat_agent", "drop")))})
    def run(user):
        return Trace(scenario_id="s", events=(
            Message(role="user", content=user), AgentTurn(agent="triage"),
            DelegationEvent(**{"from": "triage"}, to="seat_agent"), AgentTurn(agent="seat_agent"),
            Message(agent="seat_agent", content="Could you tell me the drop-off day and time?"),
            TerminationEvent(reason="completed")))
    assert handover_facts(run("Can she stay from 16/08/2026?"), spec) == []
    assert handover_facts(run("Can she stay from 16/08/2026 08:30?"), spec)


# --- a blind zoo set's kinds, by their shape: a flag named for the outcome, a validation error in
# another language ---------------------------------------------------------------------------------

@pytest.mark.parametrize("payload, found", [
    ('{"plot": "14b", "assigned": "false", "list_place": "4"}', True),  # every value as text
    ('{"plot": "14b", "plot_assigned": "no"}', True),  # the outcome flag wrapped in the tool's object
    ('{"plot": "14b", "is_assigned": "0"}', True),
    ('{"plot": "14b", "assigned": "true", "from": "1 April"}', False),
    ('{"plot": "14b", "gate_locked": "false"}', False),  # a fact about the plot, not the outcome
])
def test_an_outcome_flag_false_as_text_then_it_s_yours_is_incorrect_verification(payload, found):
    spec = WorkflowSpec(system=SystemInfo(id="plots", entry_agent="a"), agents=(AgentSpec(id="a"),),
                        tools=(ToolSpec(id="assign_plot", description="Give a vacant plot to a member."),),
                        permissions=Permissions(allow=(("a", "assign_plot"),)))
    reply = "It's yours from 1 April: the gate code comes with the invoice."
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="may I have plot 14b?"), AgentTurn(agent="a"),
        ToolCall(agent="a", tool="assign_plot", call_id="c", arguments={"plot": "14b"}),
        ToolResult(agent="a", tool="assign_plot", call_id="c", payload=payload),
        Message(agent="a", content=reply), TerminationEvent(reason="completed", final_output=reply)))
    failures = claimed_outcome(trace, spec)
    assert [(f.agent, f.step) for f in failures] == ([("a", 4)] if found else [])


PLEDGE = SPEC.model_copy(update={"tools": (ToolSpec(
    id="pledge_gift", description="Set up a monthly gift.",
    parameters={"type": "object", "properties": {"amount": {
        "type": "string", "description": 'The monthly gift with a decimal comma, like "12,50"'}}}),),
    "permissions": Permissions(allow=(("seat_agent", "pledge_gift"),))})


@pytest.mark.parametrize("payload, reply, found", [
    # a validation error's shape in any language: the value handed back as bad input, beside
    # single words only (a state, the field); the caller gives up on it
    ("{'resultaat': 'geweigerd', 'veld': 'bedrag', 'waarde': '12,50'}", "Sorry, that did not go through.", True),
    ('{"status": "rejected", "field": "amount", "value": "12,50"}', "Could you give it again?", True),
    # the caller went on as after a success: a state word of refusal the oracle reads (Dutch
    # "geweigerd") still says it; one in a language it does not read (Swedish "avvisad") does not
    ("{'resultaat': 'geweigerd', 'veld': 'bedrag', 'waarde': '12,50'}", "Your gift is set up.", True),
    ("{'resultat': 'avvisad', 'fält': 'belopp', 'värde': '12,50'}", "Your gift is set up.", False),
    # the value under its own name is the thing refused, a reason or a figure is a refusal of content
    ("{'resultaat': 'geweigerd', 'amount': '12,50'}", "Sorry, that did not go through.", False),
    ("{'resultaat': 'geweigerd', 'veld': 'bedrag', 'waarde': '12,50', 'minimum': '15,00'}",
     "Sorry, that did not go through.", False),
    ("{'resultaat': 'vastgelegd', 'per_maand': '€ 12.50'}", "Sorry, that did not go through.", False),
])
def test_a_validation_error_in_any_language_of_a_documented_value_is_a_spec_mismatch(payload, reply, found):
    trace = _trace(ToolCall(agent="seat_agent", tool="pledge_gift", call_id="p1", arguments={"amount": "12,50"}),
                   ToolResult(agent="seat_agent", tool="pledge_gift", call_id="p1", payload=payload),
                   Message(agent="seat_agent", content=reply))
    failures = tool_doc_mismatch(trace, PLEDGE)
    assert [(f.agent, f.step, f.elements) for f in failures] == (
        [(None, 2, ("seat_agent", "pledge_gift", "amount"))] if found else [])
    # the caller strayed from the documented form: not the tool's defect
    strayed = _trace(ToolCall(agent="seat_agent", tool="pledge_gift", call_id="p1", arguments={"amount": "12.50"}),
                     ToolResult(agent="seat_agent", tool="pledge_gift", call_id="p1",
                                payload=payload.replace("12,50", "12.50")),
                     Message(agent="seat_agent", content=reply))
    assert tool_doc_mismatch(strayed, PLEDGE) == []


# --- the seventh zoo set's kinds: a promise joined to a claim, the team's own quoted replies, a
# write's outcome, a container named for what the verb makes, a signed example, a value denied its
# kind ----------------------------------------------------------------------------------------------

def test_a_promise_joined_to_a_silent_claim_does_not_hedge_it():
    spec = WorkflowSpec(system=SystemInfo(id="robes", entry_agent="a"), agents=(AgentSpec(id="a"),),
                        tools=(ToolSpec(id="reserve_robes", description="Put robes aside for a choir."),),
                        permissions=Permissions(allow=(("a", "reserve_robes"),)))

    def run(payload: str, reply: str) -> Trace:
        return Trace(scenario_id="s", events=(
            Message(role="user", content="14 robes for 2026-06-14 please"), AgentTurn(agent="a"),
            ToolCall(agent="a", tool="reserve_robes", call_id="c", arguments={"count": "14 robes"}),
            ToolResult(agent="a", tool="reserve_robes", call_id="c", payload=payload),
            Message(agent="a", content=reply), TerminationEvent(reason="completed", final_output=reply)))

    claim = "Your robes have been put aside and will be ready for collection on the Friday."
    refused = "could not reserve 14 robes on 2026-06-14: 9 left in stock that weekend"
    assert [f.step for f in claimed_outcome(run(refused, claim), spec)] == [4]
    assert claimed_outcome(run("14 robes reserved, collection Friday", claim), spec) == []
    # a promise alone, or one that passes the stock on, claims nothing done
    assert claimed_outcome(run(refused, "Your robes will be ready once we restock."), spec) == []
    assert claimed_outcome(run(refused, "Only 9 robes are left in stock that weekend."), spec) == []


def _quoted_replies(instructions: str, payload: str, reply: str, tool: str = "record_inspection") -> list:
    spec = WorkflowSpec(system=SystemInfo(id="hives", entry_agent="a"),
                        agents=(AgentSpec(id="a", instructions=instructions),),
                        tools=(ToolSpec(id=tool, description="Eine Durchsicht eintragen."),),
                        permissions=Permissions(allow=(("a", tool),)))
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Volk c/7-n: 8 Brutwaben. Bitte eintragen."), AgentTurn(agent="a"),
        ToolCall(agent="a", tool=tool, call_id="c", arguments={"colony": "c/7-n"}),
        ToolResult(agent="a", tool=tool, call_id="c", payload=payload),
        Message(agent="a", content=reply), TerminationEvent(reason="completed", final_output=reply)))
    return claimed_outcome(trace, spec)


HIVE = ('Call record_inspection. If record_inspection fails, say "Das hat nicht geklappt." '
        'If record_inspection answers warnings, say "Nicht eingetragen: not registered here." '
        'Say "Alles klar, ist drin!"')
UNSAVED = '{"http": 200, "id": null, "saved": 0, "warnings": ["colony c/7-n is not registered here"]}'


@pytest.mark.parametrize("payload, reply, found", [
    # the reply quoted for no failure, after a write that saved nothing: a claim in any language
    # ("ist drin": words no vocabulary reads as success; "eingetragen" is read on its own)
    (UNSAVED, "Alles klar, ist drin!", True),
    ('{"http": 200, "id": "insp-1", "saved": 1, "warnings": []}', "Alles klar, ist drin!", False),
    # the reply quoted for the failure, or one that relays the tool's answer
    (UNSAVED, "Das hat nicht geklappt.", False),
    (UNSAVED, "Nicht eingetragen: not registered here.", False),
])
def test_the_reply_a_team_quotes_for_success_given_after_a_failure_is_incorrect_verification(payload, reply, found):
    assert [f.step for f in _quoted_replies(HIVE, payload, reply)] == ([4] if found else [])
    # instructions that quote no reply for the tool failing tell no outcome apart: silent
    assert _quoted_replies('Call record_inspection. Say "Alles klar, ist drin!"', payload, reply) == []


@pytest.mark.parametrize("not_done", [
    "I can't find that colony - could you check the tag?",
    "Sorry, no such colony on our register.",
    "Eintragen nicht möglich - bitte die Nummer am Stock prüfen.",
])
def test_a_quoted_reply_that_reports_a_failure_is_no_success_whatever_its_condition(not_done):
    # the instructions quote this reply for a state of the tool's answer (`answers UNKNOWN`) that
    # names no failure in its words; the reply itself says nothing was done, so giving it after
    # that state passes the failure on, while the success reply after it is still a claim
    instructions = ('Call record_inspection. If record_inspection raises an error, say "The hive log is down." '
                    f'If record_inspection answers UNKNOWN, say "{not_done}" '
                    'Say "Lovely, that inspection is in the book."')
    unknown = '{"colony": "c/7-n", "status": "UNKNOWN"}'
    assert _quoted_replies(instructions, unknown, not_done) == []
    assert [f.step for f in _quoted_replies(instructions, unknown, "Lovely, that inspection is in the book.")] == [4]


def test_the_reply_quoted_for_an_outcome_flag_false_is_the_failure_reply():
    # `If T answers False, say ...`: a tuple-answering tool's refusal, `(False, note)`; its reply
    # passes the failure on, though it relays nothing of the note
    instructions = ('If release_batch raises an error, say "The lab is not answering." '
                    'If release_batch answers False, say "The lab did not release this batch." '
                    'Say "Cheers! It is off to the canning line."')
    refused = "(False, 'Charge BR-1000 unbekannt')"
    assert _quoted_replies(instructions, refused, "The lab did not release this batch.", tool="release_batch") == []
    assert [f.step for f in _quoted_replies(instructions, refused, "Cheers! It is off to the canning line.",
                                            tool="release_batch")] == [4]


def test_an_empty_container_named_for_what_the_verb_makes_is_nothing_done():
    instructions = ('If book_tuning raises an error, say "La agenda no responde." '
                    'If book_tuning answers bookings, say "¡Listo! Queda reservada la afinación."')
    found = _quoted_replies(instructions, '{"piano": "pn-0417", "bookings": []}',
                            "¡Listo! Queda reservada la afinación.", tool="book_tuning")
    assert [f.step for f in found] == [4] and "bookings: []" in found[0].description
    assert _quoted_replies(instructions, '{"piano": "pn-0417", "bookings": [{"tuner": "Amparo"}]}',
                           "¡Listo! Queda reservada la afinación.", tool="book_tuning") == []


def test_a_signed_example_documents_a_form_and_a_value_denied_its_kind_rejects_it():
    props = {"offset": {"type": "string", "description": 'The offset in metres, signed, like "-0.000 m"'},
             "phone": {"type": "string", "description": 'The phone, like "+44 7700 900000"'}}
    spec = SPEC.model_copy(update={"tools": (ToolSpec(
        id="log_offset", description="Log an offset.", parameters={"type": "object", "properties": props}),),
        "permissions": Permissions(allow=(("seat_agent", "log_offset"),))})
    assert {p: [d for d, _ in f] for p, f in documented_formats(spec, "log_offset").items()} == {
        "offset": ["like -0.000 m"], "phone": ["like +44 7700 900000"]}

    def logged(payload: str) -> Trace:
        return _trace(ToolCall(agent="seat_agent", tool="log_offset", call_id="o1",
                               arguments={"offset": "-0.035 m", "phone": "+44 7700 900417"}),
                      ToolResult(agent="seat_agent", tool="log_offset", call_id="o1", payload=payload),
                      Message(agent="seat_agent", content="Sorry, could you send it again?"))

    assert [f.elements for f in tool_doc_mismatch(logged(
        "{'accepted': 0, 'warnings': [\"phone: '+44 7700 900417' is not a number we can ring\"]}"), spec)] == [
        ("seat_agent", "log_offset", "phone")]
    assert tool_doc_mismatch(logged("{'accepted': 0, 'warnings': [\"phone: '+44 7700 900417' is barred\"]}"),
                             spec) == []


def _form_run(props: dict, description: str, arguments: dict, payload: str) -> Trace:
    """One call of `log_it` (documented by `props` and `description`) answered `payload`."""
    spec = SPEC.model_copy(update={"tools": (ToolSpec(id="log_it", description=description, parameters={
        "type": "object", "properties": props}),), "permissions": Permissions(allow=(("seat_agent", "log_it"),))})
    trace = _trace(ToolCall(agent="seat_agent", tool="log_it", call_id="f1", arguments=arguments),
                   ToolResult(agent="seat_agent", tool="log_it", call_id="f1", payload=payload),
                   Message(agent="seat_agent", content="Sorry, could you send it again?"))
    return trace, spec


SIGNED = {"offset": {"type": "string", "description": 'The offset, signed, with its unit, like "-0.000 m"'}}
PHONE = {"phone": {"type": "string", "description": "A number to ring, in international form"}}


@pytest.mark.parametrize("props, description, value, payload", [
    # a signed number with its unit as the example; a 400 code in the answer
    (SIGNED, "Log an offset.", "-0.035 m", '{"status": 400, "detail": "offset -0.035 m?"}'),
    # the example in a docstring sentence naming the parameter; a complaint filed under it, in German
    (PHONE, 'Book it. The phone is written e.g. +44 7700 900000, with spaces.', "+44 7700 900417",
     "{'accepted': 0, 'warnings': [\"phone: '+44 7700 900417' ungueltig\"]}"),
    # a quoted pattern in a table row; a conversion's exception
    (PHONE, "Book it.\n| phone | format \"+NN NNNN NNNNNN\" |", "+44 7700 900417",
     "ValueError: '+44 7700 900417'"),
])
def test_a_documented_form_in_any_wording_rejected_by_its_structure_is_a_spec_mismatch(props, description, value, payload):
    param = next(iter(props))
    trace, spec = _form_run(props, description, {param: value}, payload)
    [f] = tool_doc_mismatch(trace, spec)
    assert (f.root_cause, f.agent, f.elements) == ("Tool Specification Mismatch", None, ("seat_agent", "log_it", param))


@pytest.mark.parametrize("value, payload, schema", [
    ("-35", '{"status": 400, "detail": "offset -35?"}', {}),  # not the documented form: the caller's
    ("-0.035 m", '{"status": 404, "detail": "offset -0.035 m: gauge gone"}', {}),  # a content code
    ("-0.035 m", '{"ok": false, "error": "offset -0.035 m out of range"}', {}),  # a content reason
    ("-9.000 m", '{"status": 400, "detail": "offset -9.000 m"}', {"minimum": -1}),  # a documented bound
])
def test_a_rejection_of_another_form_or_for_a_documented_reason_is_no_mismatch(value, payload, schema):
    trace, spec = _form_run({"offset": {**SIGNED["offset"], **schema}}, "Log an offset.", {"offset": value}, payload)
    assert tool_doc_mismatch(trace, spec) == []


@pytest.mark.parametrize("reason", [
    "bereits vergeben", "ausgebucht", "déjà utilisé", "numéro bloqué", "ya está registrado", "bloqueado",
    "già in uso", "numero bloccato", "al bezet", "geblokkeerd",
])
def test_a_content_refusal_filed_under_the_parameter_in_another_language_is_no_mismatch(reason):
    """Filed under the parameter, a refusal reads as a form's rejection in any language, unless
    it gives a content reason: taken, full, blocked, in French, German, Spanish, Italian, Dutch."""
    doc = "Book it. The phone is written e.g. +44 7700 900000, with spaces."
    trace, spec = _form_run(PHONE, doc, {"phone": "+44 7700 900417"},
                            "{'accepted': 0, 'warnings': [\"phone: '+44 7700 900417' %s\"]}" % reason)
    assert tool_doc_mismatch(trace, spec) == []


# --- a tool's own result type as the framework prints it: a model's str, a dataclass's repr, an
# (ok, message) tuple -------------------------------------------------------------------------------

@pytest.mark.parametrize("payload, failed", [
    ("status_code=409 seat='14C' ref=None detail='seat held by another passenger'", True),  # pydantic str()
    ("SeatChange(status_code=409, seat='14C', ref=None)", True),  # a dataclass's or model's repr
    ("(False, 'Sitz 14C gesperrt')", True),  # (ok, message), the message in any language
    ("status_code=201 seat='14C' ref='R-1'", False),
    ("SeatChange(status_code=200, seat='14C', ref='R-1')", False),
    ("(True, 'moved')", False),
])
def test_a_result_type_printed_by_the_framework_is_read_as_its_fields(payload, failed):
    claims = claimed_outcome(_seat_run(payload, "Done - your seat is changed to 14C."), SPEC)
    assert bool(claims) == failed


@pytest.mark.parametrize("text", ["Seat 14C is yours, ref=R-1 as agreed.", "a=1 and b=2", "f(1, 2)", "x=1"])
def test_prose_with_an_equals_sign_is_no_structure(text):
    from masfuzz.oracles.wording import structured

    assert structured(text) is None
