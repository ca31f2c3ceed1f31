"""Shapes the newer scripted models gave runs of systems written for other models: the zoo run
under a ReAct reasoner, a casual texter, a procedural enterprise clerk, a checklist writer and a
voice line (policy_f .. policy_j) showed the oracles readings they had not expected. Each test
holds a small realistic trace of such a shape beside its twin that must still be read as before.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import instructed_dependencies, instructed_order, participation
from masfuzz.oracles.semantic import claimed_outcome, handover_facts
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import (HANDOVER_INPUTS, AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult,
                           Trace)


def _params(**described: str) -> dict:
    return {"type": "object", "required": list(described),
            "properties": {p: {"type": "string", "description": d} for p, d in described.items()}}


# -- a number asked for by its sign or a short form ----------------------------------------------

BAKERY = WorkflowSpec(
    system=SystemInfo(id="bakery", entry_agent="front", pattern="handoff"),
    agents=(AgentSpec(id="front", instructions="Hand remakes over to ovens."),
            AgentSpec(id="ovens", instructions="Book remakes with book_remake.")),
    tools=(ToolSpec(id="book_remake", description="Put a cake remake on tomorrow's bake list.",
                    parameters=_params(order="The cake order to remake")),),
    permissions=Permissions(allow=(("ovens", "book_remake"),)),
    delegations=({"from": "front", "to": "ovens"},))


def _remake(ask: str, received: str = "Hand over: the customer's cake needs a remake.") -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="the cake for order CK-5521 came squashed, can u redo it for sat?"),
        AgentTurn(agent="front"), DelegationEvent(**{"from": "front"}, to="ovens"), AgentTurn(agent="ovens"),
        Message(agent="ovens", content=ask), TerminationEvent(reason="completed", final_output=ask)),
        meta={HANDOVER_INPUTS: [{"since": 3, "agent": "ovens", "text": received}]})


@pytest.mark.parametrize("ask", ["kk, need ur order # real quick?", "whats the order num pls?",
                                 "can u send ur order nr?", "oops, order#?"])
def test_a_number_asked_for_by_its_sign_or_short_form_is_a_lost_identifier(ask):
    [f] = handover_facts(_remake(ask), BAKERY)
    assert (f.root_cause, f.agent, f.step) == ("Information Loss at Hand-over", "front", 2)
    assert "CK-5521" in f.description


@pytest.mark.parametrize("ask", ["need ur phone # pls?", "u want it by sat? 🎂"])
def test_a_number_no_reference_stands_for_or_no_number_asks_nothing_lost(ask):
    assert handover_facts(_remake(ask), BAKERY) == []


RECEIVED = "Customer: the cake for order CK-5521 came squashed, can u redo it for sat?"


@pytest.mark.parametrize("ovens", ["Book remakes with book_remake.",
                                   "If the order is missing, ask the customer for it. Book remakes with book_remake."])
def test_a_receiver_whose_model_was_given_the_fact_and_asks_anyway_is_the_model_s_lapse(ovens):
    """The hand-over carried the order (the adapter recorded it in what the model received): the
    model overlooked it, and its instructions ask only when it is missing. Shown, not counted."""
    spec = BAKERY.model_copy(update={"agents": (BAKERY.agents[0], AgentSpec(id="ovens", instructions=ovens))})
    [f] = handover_facts(_remake("kk, need ur order # real quick?", received=RECEIVED), spec)
    assert (f.agent, f.step, f.attribution) == ("ovens", 4, "harness")
    assert "overlooked" in f.because and "CK-5521" in f.because


def test_a_receiver_whose_instructions_tell_it_to_ask_again_asks_by_the_app_s_words():
    spec = BAKERY.model_copy(update={"agents": (BAKERY.agents[0], AgentSpec(
        id="ovens", instructions="Always ask the customer for the order number first. Book remakes with book_remake."))})
    [f] = handover_facts(_remake("kk, need ur order # real quick?", received=RECEIVED), spec)
    assert (f.agent, f.attribution, f.because) == ("ovens", "sut", "")


# -- a closing question under a stop rule keyed to who spoke -------------------------------------

ROTA = WorkflowSpec(
    system=SystemInfo(id="rota", entry_agent="planner", pattern="fixed_order"),
    agents=(AgentSpec(id="planner", instructions="Draft next week's shift rota."),
            AgentSpec(id="union_rep", instructions="Check the draft against the rest-hours agreement."),
            AgentSpec(id="publisher", instructions="Publish the agreed rota to the staff board.")))


def _rota_run(*speakers: str, said: str = "which week do u mean, the 12th or the 19th?") -> Trace:
    events: list = [Message(role="user", content="Plan the kitchen rota for the week of 12 May please.")]
    for who in speakers:
        events += [AgentTurn(agent=who), Message(agent=who, content=said)]
    return Trace(scenario_id="s", events=(*events, TerminationEvent(
        reason="completed", detail=f"Text message received from '{speakers[-1]}'", final_output=said)))


def test_a_question_that_a_stop_rule_on_its_speaker_ends_a_round_robin_on_is_premature_termination():
    """The rule fires on the planner's every message: the team stops on its question, and again
    on its next message when the user answers, so the union rep and the publisher never speak."""
    found = participation(_rota_run("planner"), ROTA)
    assert {f.elements for f in found} == {("planner", "union_rep"), ("planner", "publisher")}
    assert {(f.root_cause, f.agent, f.step) for f in found} == {("Premature Termination", "planner", 2)}


@pytest.mark.parametrize("trace", [
    _rota_run("planner", "union_rep", "publisher"),  # the last member asks: every member spoke
    _rota_run("planner").model_copy(update={"events": (*_rota_run("planner").events[:-1], TerminationEvent(
        reason="completed", final_output="which week?"))}),  # ran out of work, naming nobody
])
def test_a_closing_question_without_a_stop_rule_on_its_speaker_still_waits_for_the_user(trace):
    assert participation(trace, ROTA) == []


# -- a failed answer relayed word for word -------------------------------------------------------

BOILERS = WorkflowSpec(
    system=SystemInfo(id="boilers", entry_agent="desk"), agents=(AgentSpec(id="desk"),),
    tools=(ToolSpec(id="book_service", description="Book a boiler service visit."),),
    permissions=Permissions(allow=(("desk", "book_service"),)))
# a pydantic model's str(), as a tool returning one is passed back to the model
SLOT = ("status_code=409 boiler='BX-2207' day='2026-04-02' visit_ref=None "
        "detail='engineer already booked: call-out to Elm Road, 08:00-12:00'")


def _service(reply: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="can someone service boiler BX-2207 on 2 april?"), AgentTurn(agent="desk"),
        ToolCall(agent="desk", tool="book_service", call_id="b", arguments={"boiler": "BX-2207", "day": "2026-04-02"}),
        ToolResult(agent="desk", tool="book_service", call_id="b", payload=SLOT),
        Message(agent="desk", content=reply), TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("reply", [f"no dice 😕 book service came back: {SLOT}",
                                   f"nope 😕 the diary said {SLOT}"])
def test_a_failed_answer_relayed_word_for_word_claims_nothing(reply):
    """Its "already booked" is the tool's word for the engineer's day, relayed: no claim."""
    assert claimed_outcome(_service(reply), BOILERS) == []


def test_a_claim_in_the_agent_s_own_words_after_the_same_answer_still_contradicts_it():
    [f] = claimed_outcome(_service("all booked for 2 april, engineer already booked for u 👍"), BOILERS)
    assert (f.agent, f.step) == ("desk", 4)


# -- a closing formula is how to close, not leave to end anywhere ---------------------------------

COUNCIL = WorkflowSpec(
    system=SystemInfo(id="council", entry_agent="front", pattern="handoff"),
    agents=(AgentSpec(id="front", instructions=(
        "You are the front desk of Lowmoor Council's waste service.\n"
        "1. Transfer to `bulky` when the message is about a sofa, fridge or mattress collection.\n"
        "2. Transfer to `bins` when the message is about a missed bin.\n"
        '3. Close with "Thanks for contacting Lowmoor Council."')),
        AgentSpec(id="bulky", instructions="Book bulky waste collections with `book_collection`."),
        AgentSpec(id="bins", instructions="Log missed bins with `log_missed_bin`.")),
    tools=(ToolSpec(id="book_collection", description="Book a bulky waste collection."),
           ToolSpec(id="log_missed_bin", description="Log a missed bin collection.")),
    permissions=Permissions(allow=(("bulky", "book_collection"), ("bins", "log_missed_bin"))),
    delegations=({"from": "front", "to": "bulky"}, {"from": "front", "to": "bins"},
                 {"from": "bulky", "to": "front"}, {"from": "bins", "to": "front"}))


def _collection(reply: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Can you collect an old fridge from 4 Mill Lane next week? Put me through to bulky."),
        AgentTurn(agent="front"), Message(agent="front", content=reply),
        TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("reply, whose", [
    ("hmm can't sort that one here sry", "harness"),  # its own words: the closing line did not end it
    # the app's own closing words, the procedure's last step, said without the routing step its
    # rules give before them: the model skipped a step, whatever words it closed in
    ("Thanks for contacting Lowmoor Council.", "harness"),
])
def test_an_end_in_the_model_s_own_words_before_the_routing_its_rules_give_is_the_model_s(reply, whose):
    [f] = participation(_collection(reply), COUNCIL)
    assert (f.root_cause, f.elements, f.attribution) == ("Premature Termination", ("front", "bulky"), whose)


# -- a product named with its making done, its maker by a role ----------------------------------

def _signs(pricer: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="signs", entry_agent="intake", pattern="fixed_order"),
        agents=(AgentSpec(id="intake", instructions="Log the order with `log_order`."),
                AgentSpec(id="billing_b", instructions="Signs are invoiced at the rate the pricing desk agreed.\n"
                                                       "- Raise the invoice with `raise_invoice`."),
                AgentSpec(id="pr_4", instructions=pricer)),
        tools=(ToolSpec(id="log_order"), ToolSpec(id="raise_invoice"), ToolSpec(id="quote_job")),
        permissions=Permissions(allow=(("intake", "log_order"), ("billing_b", "raise_invoice"),
                                       ("pr_4", "quote_job"))))


def test_a_product_whose_maker_s_own_lines_make_it_orders_the_team():
    """Neither the maker's name nor its tool's says it: its own line does ("Agree the rate ...")."""
    spec = _signs("Pricing desk.\n- Agree the rate with the shop using `quote_job`.")
    assert [(b, a) for b, a, _ in instructed_dependencies(spec)] == [("pr_4", "billing_b")]
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Quote and invoice a shop sign for order SG-118 please."),
        AgentTurn(agent="intake"), AgentTurn(agent="billing_b"), Message(agent="billing_b", content="which rate?"),
        AgentTurn(agent="pr_4"), TerminationEvent(reason="completed")))
    [f] = instructed_order(trace, spec)
    assert (f.elements, f.agent, f.step) == (("pr_4", "billing_b"), "billing_b", 2)


@pytest.mark.parametrize("pricer", [
    "Pricing desk.\n- Look the job up with `quote_job`.",  # no line of its makes the rate
    "Pricing desk.\n- Never agree the rate yourself; use `quote_job` for a figure.",  # negated
])
def test_a_product_no_other_agent_s_lines_make_orders_nothing(pricer):
    assert instructed_dependencies(_signs(pricer)) == []
