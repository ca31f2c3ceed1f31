"""Three oracle classes a procedural writer's systems showed, over hand-built specs and traces,
each beside its correct twin: a tool refusing a call on its merits (cover lapsed, not eligible)
is no rejection of the argument's form, even when a documented date in the call is one that
only the documented order reads; an agent asking for a fact by its tool's description in a
statement ("I require the following: the meter serial, e.g. ...") and a bare "could you provide
it?"; and a tool's refusal naming a step another agent's tool takes ("no valuation on file")
showing that agent spoke too late."""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import instructed_order
from masfuzz.oracles.semantic import handover_facts, tool_doc_mismatch
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, ToolCall, ToolResult, Trace
from tests.oracles.test_other_phrasings import _end, _params


# -- a refusal on the merits is no rejection of the form ------------------------------------------

KENNEL = WorkflowSpec(
    system=SystemInfo(id="kennel", entry_agent="desk", pattern="handoff"),
    agents=(AgentSpec(id="desk", instructions="Board dogs with `board_dog`."),),
    tools=(ToolSpec(id="board_dog", description="Board a member's dog.",
                    parameters=_params(member='The membership number, like "KC-0000"',
                                       arrival="The arrival day as DD/MM/YYYY")),),
    permissions=Permissions(allow=(("desk", "board_dog"),)))


def _board(payload: str, arrival: str = "23/07/2026") -> Trace:
    return _end(Message(role="user", content=f"Can Biscuit stay from {arrival}? Member KC-4410."),
                AgentTurn(agent="desk"),
                ToolCall(agent="desk", tool="board_dog", call_id="b", arguments={"member": "KC-4410", "arrival": arrival}),
                ToolResult(agent="desk", tool="board_dog", call_id="b", status="ok", payload=payload),
                Message(agent="desk", content="I'm sorry, that didn't go through."))


@pytest.mark.parametrize("payload", [
    # a date only the documented day-first order reads, but the refusal names the member, not it
    "Refusal(member='KC-4410', state='refused', why='membership lapsed on 01/06/2026, renewal unpaid')",
    # a refusal filed under the parameter, for what the member may have, not how it is written
    '{"status": "refused", "field": "member", "reason": "KC-4410 is not eligible: vaccinations overdue"}',
])
def test_a_refusal_on_the_merits_is_no_specification_mismatch(payload):
    assert tool_doc_mismatch(_board(payload), KENNEL) == []


def test_a_documented_date_the_tool_reads_the_other_way_round_is_still_a_mismatch():
    [f] = tool_doc_mismatch(_board("{\"state\": \"refused\", \"arrival\": \"no 23rd month in '23/07/2026'\"}"), KENNEL)
    assert f.elements == ("desk", "board_dog", "arrival")


# -- a fact asked for by its documentation in a statement, or before a bare "provide it?" ----------

METERS = WorkflowSpec(
    system=SystemInfo(id="gas", entry_agent="reads", pattern="graph"),
    agents=(AgentSpec(id="reads", instructions="Read the account with `account_status`."),
            AgentSpec(id="swaps", instructions="Book the meter exchange with `book_exchange`.")),
    tools=(ToolSpec(id="account_status", description="The account's balance and meter.",
                    parameters=_params(account='The gas account, e.g. "GA-000000"')),
           ToolSpec(id="book_exchange", description="Book an engineer to change a meter.",
                    parameters=_params(meter_no='The serial number stamped on the meter, e.g. "MS-00000"'))),
    permissions=Permissions(allow=(("reads", "account_status"), ("swaps", "book_exchange"))),
    delegations=({"from": "reads", "to": "swaps"},))

TOLD = "Account GA-204417 - the meter (MS-88213 on the plate) has stopped turning. Can you change it?"


def _meters(reply: str, told: str = TOLD) -> Trace:
    return _end(Message(role="user", content=told), AgentTurn(agent="reads"),
                ToolCall(agent="reads", tool="account_status", call_id="a", arguments={"account": "GA-204417"}),
                ToolResult(agent="reads", tool="account_status", call_id="a", status="ok",
                           payload="{'account': 'GA-204417', 'balance': '£0.00'}"),
                DelegationEvent(**{"from": "reads"}, to="swaps"), AgentTurn(agent="swaps"),
                Message(agent="swaps", content=reply))


@pytest.mark.parametrize("reply", [
    'Status: on hold - to proceed we shall require the serial number stamped on the meter, e.g. "MS-00000".',
    'Status: on hold. The serial number stamped on the meter, like "MS-00000". Would you kindly supply it?',
    "Before an engineer can be booked, I'll need the serial number stamped on the meter.",
])
def test_asking_for_what_a_tool_documents_in_a_statement_or_before_provide_it_is_information_loss(reply):
    [f] = handover_facts(_meters(reply), METERS)
    assert (f.root_cause, f.agent, f.step) == ("Information Loss at Hand-over", "reads", 4)
    assert "MS-88213" in f.description


@pytest.mark.parametrize("reply,told", [
    # the user gave no serial of the documented form: asking for it is right
    ("To proceed we shall require the serial number stamped on the meter.",
     "Account GA-204417 - the meter has stopped turning. Can you change it?"),
    # the agent states what it needs, no request of the user's
    ("I do not need the serial number stamped on the meter; the engineer reads it on site.", TOLD),
    ("The serial number stamped on the meter is on file. Shall I book the engineer for Monday?", TOLD),
])
def test_a_statement_that_asks_nothing_or_a_fact_never_given_is_no_loss(reply, told):
    assert handover_facts(_meters(reply, told), METERS) == []


# -- a tool's refusal naming the step another agent's tool takes -----------------------------------

HOMES = WorkflowSpec(
    system=SystemInfo(id="homes", entry_agent="intake", pattern="fixed_order"),
    agents=(AgentSpec(id="intake", instructions="Log the instruction with `log_instruction`."),
            AgentSpec(id="lister_v", instructions="You advertise homes; the asking price is never yours to set. "
                                                  "List the home with `list_property`."),
            AgentSpec(id="surveyor_b", instructions="You are the chartered surveyor. Use `value_property`.")),
    tools=(ToolSpec(id="log_instruction", description="Log a seller's instruction.",
                    parameters=_params(address="The address")),
           ToolSpec(id="list_property", description="Put a home on the market.",
                    parameters=_params(address="The address")),
           ToolSpec(id="value_property", description="Value a home for sale.",
                    parameters=_params(address="The address"))),
    permissions=Permissions(allow=(("intake", "log_instruction"), ("lister_v", "list_property"),
                                   ("surveyor_b", "value_property"))))


def _homes(order: tuple[str, ...], listed: str) -> Trace:
    answers = {"log_instruction": "logged", "value_property": '{"value": "£325,000"}', "list_property": listed}
    events = [Message(role="user", content="Please sell 14 Elm Row for me.")]
    for agent in order:
        tool = next(t for a, t in HOMES.permissions.allow if a == agent)
        events += [AgentTurn(agent=agent),
                   ToolCall(agent=agent, tool=tool, call_id=agent, arguments={"address": "14 Elm Row"}),
                   ToolResult(agent=agent, tool=tool, call_id=agent, status="ok", payload=answers[tool]),
                   Message(agent=agent, content=f"Outcome: {answers[tool]}")]
    return _end(*events)


@pytest.mark.parametrize("refusal", [
    "{'ok': False, 'reason': 'no valuation on file for 14 Elm Row'}",
    "409 Conflict: 14 Elm Row has not yet been valued",
    '{"status": {"code": 412, "text": "a valuation is required before a home is listed"}}',
])
def test_a_refusal_naming_the_step_a_later_agent_takes_is_a_speaking_order_violation(refusal):
    [f] = instructed_order(_homes(("intake", "lister_v", "surveyor_b"), refusal), HOMES)
    assert (f.root_cause, f.agent, f.elements) == ("Violation of Relationships-based Speaking Order", "lister_v",
                                                   ("surveyor_b", "lister_v"))
    assert f.step == 5


@pytest.mark.parametrize("order,refusal", [
    # the right order: the listing goes through
    (("intake", "surveyor_b", "lister_v"), '{"ok": true, "listing": "RM-2231"}'),
    # the valuer spoke first and the listing still fails: not the order
    (("intake", "surveyor_b", "lister_v"), "{'ok': False, 'reason': 'no valuation on file for 14 Elm Row'}"),
    # a refusal for another reason than a step the later agent takes
    (("intake", "lister_v", "surveyor_b"), "{'ok': False, 'reason': 'the listing portal is down'}"),
])
def test_a_refusal_after_the_step_or_naming_none_is_no_order_violation(order, refusal):
    assert instructed_order(_homes(order, refusal), HOMES) == []
