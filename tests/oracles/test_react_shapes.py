"""Shapes a reasoning (ReAct-style) model and agents run as tools give a run, which the oracles
missed on a blind set: a success in the passive past that names no action ("Your date has been
put through."), a 2xx envelope whose record is only waiting ("on hold", PENCILLED), a request that
carries a booking tool's arguments as the values its closed lists allow, a router's lines
("Anything about A or B is put to X through ask_x") that owe a desk only for their topics, and
particulars asked for as numbered questions after the "Thought: ... Action: T" text beside a
call. Each beside its twin: the refusal passed on, the right desk asked, the particulars given."""

from __future__ import annotations

import re

import pytest

from masfuzz.graph.specification import skeleton
from masfuzz.oracles.flare import _conditions, tool_omission
from masfuzz.oracles.instructed import misrouted_request
from masfuzz.oracles.semantic import carries_arguments, claimed_outcome
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

# -- a claim in the passive past, relayed up from an agent run as a tool ----------------------

DIARY = WorkflowSpec(
    system=SystemInfo(id="studio", entry_agent="inbox"),
    agents=(AgentSpec(id="inbox"), AgentSpec(id="keeper")),
    tools=(ToolSpec(id="ask_keeper", description="Ask the diary keeper."),
           ToolSpec(id="hold_date", description="Hold a day in the diary.")),
    permissions=Permissions(allow=(("inbox", "ask_keeper"), ("keeper", "hold_date"))),
    delegations=({"from": "inbox", "to": "keeper", "trigger": "as_tool", "condition": "tool ask_keeper"},))


def _relayed(payload: str, said: str) -> Trace:
    """inbox asks keeper through ask_keeper; keeper holds the day and replies; inbox passes the
    reply on word for word."""
    ask = "Could you hold 2026-09-12 for us? Enquiry JV-2291."
    return Trace(scenario_id="s", events=(
        Message(role="user", content=ask), AgentTurn(agent="inbox"),
        Message(agent="inbox", content="Thought: the diary decides this.\nAction: ask_keeper"),
        ToolCall(agent="inbox", tool="ask_keeper", arguments={"message": ask}, call_id="a"),
        DelegationEvent(**{"from": "inbox"}, to="keeper", trigger="as_tool"), AgentTurn(agent="keeper"),
        ToolCall(agent="keeper", tool="hold_date", arguments={"day": "2026-09-12"}, call_id="h"),
        ToolResult(agent="keeper", tool="hold_date", call_id="h", payload=payload),
        Message(agent="keeper", content=said),
        ToolResult(agent="inbox", tool="ask_keeper", call_id="a", payload=said), AgentTurn(agent="inbox"),
        Message(agent="inbox", content=said), TerminationEvent(reason="completed", final_output=said)))


PENCILLED = '{"http": 202, "hold": {"confirmed": false, "state": "PENCILLED", "why": "Lena shoots in Whitby"}}'


@pytest.mark.parametrize("said", [
    "Thought: the tool has answered, so this can be closed.\nYour wedding date has been put through.",
    "The date has been secured for you.",
    "Thought: nothing left to do.\nYour date has been seen to - see you on the 12th!",
    "Your hold for the 12th has been arranged.",
])
def test_a_passive_past_success_relayed_through_an_agent_tool_is_the_sub_agent_s_claim(said):
    """The claim is the keeper's, who said it first; the inbox only passed its words on."""
    [f] = claimed_outcome(_relayed(PENCILLED, said), DIARY)
    assert (f.agent, f.subject, f.step) == ("keeper", "hold_date", 8)


@pytest.mark.parametrize("payload", [
    '{"status": 200, "hold": {"state": "on hold", "until": "Friday"}}',
    '{"code": 202, "hold": {"status": "awaiting deposit"}}',
    '{"http": 202, "hold": {"state": "TENTATIVE"}}',
])
def test_a_2xx_envelope_whose_record_is_only_waiting_is_no_hold_done(payload):
    [f] = claimed_outcome(_relayed(payload, "Your date is booked."), DIARY)
    assert f.agent == "keeper"


@pytest.mark.parametrize("payload, said", [
    ('{"http": 201, "hold": {"confirmed": true, "state": "BOOKED", "ref": "W26-2291"}}',
     "Your wedding date has been put through."),
    ('{"http": 201, "hold": {"state": "held"}}', "The date has been secured for you."),
    (PENCILLED, "The day could not be secured yet: it is pencilled while Kofi is asked."),
    (PENCILLED, "Thought: the day is only pencilled.\nThe 12th is pencilled for 48 hours while Kofi is asked."),
    # the tool's own state word passed on, though "pencilled in" says a booking elsewhere
    (PENCILLED, "We have pencilled you in for the 12th while Kofi is asked."),
])
def test_a_hold_made_or_a_waiting_one_passed_on_claims_nothing_false(payload, said):
    assert claimed_outcome(_relayed(payload, said), DIARY) == []


def test_a_waiting_phrase_is_read_only_for_a_tool_that_holds_a_thing():
    """A form "awaiting review" has been submitted: the wait is the next desk's, not the action's."""
    forms = WorkflowSpec(
        system=SystemInfo(id="forms", entry_agent="clerk"), agents=(AgentSpec(id="clerk"),),
        tools=(ToolSpec(id="submit_form", description="Submit a form to the council."),),
        permissions=Permissions(allow=(("clerk", "submit_form"),)))
    said = "Your form has been submitted."
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Please submit my parking form."), AgentTurn(agent="clerk"),
        ToolCall(agent="clerk", tool="submit_form", arguments={}, call_id="f"),
        ToolResult(agent="clerk", tool="submit_form", call_id="f", payload='{"http": 202, "form": {"status": "awaiting review"}}'),
        Message(agent="clerk", content=said), TerminationEvent(reason="completed", final_output=said)))
    assert claimed_outcome(trace, forms) == []


# -- routing through agents run as tools -------------------------------------------------------

GYM = WorkflowSpec(
    system=SystemInfo(id="gym", entry_agent="front"),
    agents=(AgentSpec(id="front"), AgentSpec(id="care"), AgentSpec(id="desk")),
    tools=(ToolSpec(id="ask_care", description="Ask the injury desk."),
           ToolSpec(id="ask_desk", description="Ask the front desk."),
           ToolSpec(id="care_sheet", description="The gym's injury advice for a member's question.",
                    parameters={"properties": {"question": {"type": "string"}}, "required": ["question"]}),
           ToolSpec(id="book_visit", description="Book a visit in a trainer's calendar.", parameters={
               "properties": {
                   "member_ref": {"type": "string", "description": 'The member card, e.g. "GM-0000".'},
                   "trainer": {"type": "string", "enum": ["Ana", "Luis"]},
                   "day": {"type": "string", "description": 'The day, e.g. "2026-01-31".'},
                   "kind": {"type": "string", "enum": ["induction", "form review", "personal session"]}},
               "required": ["member_ref", "trainer", "day", "kind"]})),
    permissions=Permissions(allow=(("front", "ask_care"), ("front", "ask_desk"), ("care", "care_sheet"),
                                   ("desk", "book_visit"))),
    delegations=({"from": "front", "to": "care", "trigger": "as_tool"},
                 {"from": "front", "to": "desk", "trigger": "as_tool"}))


def _routed(request: str, route: str, to: str, tool: str, answer: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=request), AgentTurn(agent="front"),
        ToolCall(agent="front", tool=route, arguments={"input": request}, call_id="r"),
        DelegationEvent(**{"from": "front"}, to=to, trigger="as_tool"), AgentTurn(agent=to),
        Message(agent=to, content=f"Thought: I should run {tool} first\nAction: {tool}"),
        ToolCall(agent=to, tool=tool, arguments={}, call_id="t"),
        ToolResult(agent=to, tool=tool, call_id="t", payload=answer), Message(agent=to, content=answer),
        ToolResult(agent="front", tool=route, call_id="r", payload=answer), AgentTurn(agent="front"),
        Message(agent="front", content=answer), TerminationEvent(reason="completed", final_output=answer)))


BOOKING = ("Hi, card GM-2231 here. My knee feels better now and I'd like a form review with Luis, "
           "2026-05-02 if he has anything?")


def test_a_request_carrying_a_booking_s_values_routed_to_the_wrong_agent_tool_is_misrouted():
    """The request names no "book" nor "visit", but it carries every argument book_visit takes,
    two of them as values its closed lists allow (a trainer, a kind of visit): the injury desk
    it was put to answers from its sheet, and the one desk that books is never reached."""
    advice = "Knees: rest and ice after sessions; a form review is booked at the front desk."
    [f] = misrouted_request(_routed(BOOKING, "ask_care", "care", "care_sheet", advice), GYM)
    assert (f.agent, f.step, f.elements) == ("front", 3, ("front", "care", "book_visit"))
    # the reply beside the call is no answer: the answer is the one after the sheet
    assert f.evidence == (3, 8)
    booked = "Luis has you down on 2026-05-02 at 07:30 for a form review."
    assert misrouted_request(_routed(BOOKING, "ask_desk", "desk", "book_visit", booked), GYM) == []


@pytest.mark.parametrize("request_text", [
    "Hi, card GM-2231 here. My knee feels better now, could I come in with someone on 2026-05-02?",  # no trainer
    "Card GM-2231: is it normal for my knee to click after a session with Luis on 2026-05-02?",  # no kind
])
def test_a_request_lacking_a_closed_list_s_value_carries_no_booking(request_text):
    assert not carries_arguments(request_text, GYM, "book_visit")
    advice = "Knees: rest and ice after sessions."
    assert misrouted_request(_routed(request_text, "ask_care", "care", "care_sheet", advice), GYM) == []


def test_a_short_or_numeric_allowed_value_says_nothing_of_the_request():
    spec = WorkflowSpec(
        system=SystemInfo(id="s", entry_agent="a"), agents=(AgentSpec(id="a"),),
        tools=(ToolSpec(id="set_flag", parameters={"properties": {"on": {"type": "string", "enum": ["no", "yes"]},
                                                                  "n": {"type": "string", "enum": ["1", "2"]}},
                                                   "required": ["on", "n"]}),),
        permissions=Permissions(allow=(("a", "set_flag"),)))
    assert not carries_arguments("no, 1 or 2 of them", spec, "set_flag")


# -- a router's lines are alternatives, each owed only for its topics --------------------------

ROUTES = ("You read the messages sent to the gym.\n"
          "Anything about injuries, soreness, swelling or knees is put to care through ask_care.\n"
          "Everything concerning inductions, trainers or form reviews goes to desk through ask_desk.\n"
          'If ask_care or ask_desk raises an error, say "Sorry, the desk cannot be reached."\n'
          "Pass on whatever ask_care or ask_desk says, word for word.")


def _owed(request: str, *events) -> set[tuple[str, ...]]:
    wf = GYM.model_copy(update={"agents": (AgentSpec(id="front", instructions=ROUTES), *GYM.agents[1:])})
    trace = Trace(scenario_id="s", events=(Message(role="user", content=request), AgentTurn(agent="front"),
                                           *events, TerminationEvent(reason="completed")))
    return {f.elements for f in tool_omission(trace, skeleton(wf), wf)}


def test_a_routing_line_names_the_topics_it_is_owed_for():
    routes = [_conditions(ROUTES, re.compile(rf"\b{t}\b")) for t in ("ask_care", "ask_desk")]
    assert routes == [["Anything about injuries, soreness, swelling or knees"],
                      ["Everything concerning inductions, trainers or form reviews"]]


def test_a_router_that_asked_the_fitting_desk_owes_no_other_desk():
    asked = (ToolCall(agent="front", tool="ask_desk", arguments={}, call_id="r"),
             ToolResult(agent="front", tool="ask_desk", call_id="r", payload="Booked."),
             Message(agent="front", content="Booked."))
    assert _owed("Could I book an induction with one of the trainers?", *asked) == set()
    # a message naming no topic of either line owes neither desk
    assert _owed("What time do you open on Sundays?", Message(agent="front", content="We open at 8.")) == set()


def test_a_router_that_answered_a_topic_of_its_line_itself_still_omits_that_desk():
    said = Message(agent="front", content="Rest it and see how it goes.")
    assert _owed("My knee is swollen after squats, what should I do?", said) == {("front", "ask_care")}


# -- particulars asked for as numbered questions ------------------------------------------------

PASSES = WorkflowSpec(
    system=SystemInfo(id="passes", entry_agent="gate"),
    agents=(AgentSpec(id="gate", instructions="Look the pass up with find_pass.\n"
                                              "Check the day's opening with opening_hours."),),
    tools=(ToolSpec(id="find_pass", description="A visitor's pass."),
           ToolSpec(id="opening_hours", description="The garden's opening hours on a day.")),
    permissions=Permissions(allow=(("gate", "find_pass"), ("gate", "opening_hours"))))


def _gate(*said: str) -> set[tuple[str, ...]]:
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Pass GP-99999: are you open?"), AgentTurn(agent="gate"),
        Message(agent="gate", content="Thought: the guest wants help; the next step is find pass\nAction: find_pass"),
        ToolCall(agent="gate", tool="find_pass", arguments={"code": "GP-99999"}, call_id="p"),
        ToolResult(agent="gate", tool="find_pass", call_id="p", payload="{'found': False}"),
        *(Message(agent="gate", content=s) for s in said), TerminationEvent(reason="completed")))
    return {f.elements for f in tool_omission(trace, skeleton(PASSES), PASSES)}


@pytest.mark.parametrize("asked", [
    "Thought: some details are missing.\nBefore this can be done:\n1. What is the day of your visit?",
    "To get this moving I need:\n1. Which day are you coming?\n2. How many of you are there?\nThanks!",
    "I need a couple of things first:\n- Which day is the visit?\n- Is it the rose garden or the glasshouse?",
])
def test_an_agent_that_asked_for_the_missing_particulars_in_numbered_questions_owes_no_call(asked):
    assert _gate(asked) == set()


def test_an_agent_that_answers_without_asking_or_calling_still_omits_its_tool():
    assert _gate("We are open every day from 10:00.") == {("gate", "opening_hours")}


# -- a question asked in words where the app offers a hand-over to the user ---------------------

def _swarm(offers: dict, said: str) -> Trace:
    """A Swarm that stops when an agent hands the floor to the user; its desk asks the user for a
    count in words, turn after turn, to the message bound."""
    from masfuzz.spec.model import Termination

    spec = WorkflowSpec(
        system=SystemInfo(id="climb", entry_agent="wall_desk", framework="autogen", pattern="handoff"),
        agents=(AgentSpec(id="wall_desk", instructions="Register the visit with register_visit.\n"
                                                       "Then hand the conversation back to the user.",
                          model_settings={"handoffs": offers}),),
        tools=(ToolSpec(id="register_visit", description="Register a group visit."),),
        permissions=Permissions(allow=(("wall_desk", "register_visit"),)),
        termination=Termination(conditions=("(HandoffTermination(target='user') | MaxMessageTermination("
                                            "max_messages=6))",), max_turns=6))
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Booking for 2026-02-14, climbers: 2."), AgentTurn(agent="wall_desk"),
        *(Message(agent="wall_desk", content=said) for _ in range(5)),
        TerminationEvent(reason="message_limit", detail="Maximum number of messages 6 reached", final_output=said)))
    return spec, trace


ASKED = "Thought: a few particulars are missing before I can act.\nTo get this moving I need:\n1. How many climbers?"


def test_a_question_asked_in_words_instead_of_the_offered_hand_over_to_the_user_is_the_model_s():
    from masfuzz.oracles import detect

    spec, trace = _swarm({"transfer_to_user": "user"}, ASKED)
    [f] = [f for f in detect(trace, spec) if f.root_cause == "Max Round Limit Exceeded"]
    assert f.attribution == "harness" and "did not take the hand-over" in f.because
    # no hand-over to the user offered: the app left its agent no way to ask; nor is a desk
    # that goes round without asking anything the model's
    for offers, said in (({}, ASKED), ({"transfer_to_user": "user"}, "Registering your visit now.")):
        spec, trace = _swarm(offers, said)
        [f] = [f for f in detect(trace, spec) if f.root_cause == "Max Round Limit Exceeded"]
        assert f.attribution == "sut"
