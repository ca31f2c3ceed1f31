"""Three oracle classes a blind set (zoo40) showed, over hand-built specs and traces worded apart
from that set's systems, each beside its correct twin:

- a graph node's message names the member it passes the request to, and the graph's chosen edge
  gives it to another (the condition still looks for an old name): a misroute of the wiring, seen
  even when the request fits both members' tools;
- a fact the user gave, of the form an optional parameter of the receiving agent's tool
  documents, silently left out of its call after a hand-over (the tool took its default): an
  information loss no question shows;
- an agent that asks for its tool's required argument by a pronoun ("the following is needed:
  arrival date. Could you share it?", or in the passive voice: "Can it be supplied?"), its reply
  closed by a list of next steps, waits for input: no tool omission."""

from __future__ import annotations

import pytest

from masfuzz.graph.specification import skeleton
from masfuzz.oracles.flare import tool_omission
from masfuzz.oracles.instructed import misrouted_request
from masfuzz.oracles.semantic import handover_facts
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import HANDOVER_INPUTS, AgentTurn, DelegationEvent, Message, ToolCall, ToolResult, Trace
from tests.oracles.test_other_phrasings import _end


# -- a node that names one member, an edge that gives the request to another ------------------------

def _edges(node: str, *members: str) -> tuple:
    return tuple({"from": node, "to": m, "trigger": "graph_edge", "condition": f"route_{m}"} for m in members)


LIBRARY = WorkflowSpec(
    system=SystemInfo(id="library", entry_agent="front_f", pattern="graph"),
    agents=(AgentSpec(id="front_f", instructions="Send fines questions to fines_x and renewals to loans_l."),
            AgentSpec(id="fines_x", description="Waives and settles overdue fines."),
            AgentSpec(id="loans_l", description="Renews loans.")),
    tools=(ToolSpec(id="waive_fine", description="Waive the overdue fine on a loan."),
           ToolSpec(id="renew_loan", description="Renew a loan for three more weeks.")),
    permissions=Permissions(allow=(("fines_x", "waive_fine"), ("loans_l", "renew_loan"))),
    delegations=_edges("front_f", "fines_x", "loans_l"))
# the request's object, the loan, is both tools' object: its fit alone does not choose
FINE = "My loan LN-2291 came back two days late because I was in hospital. Can the fine on the loan go?"


def _library(front_said: str, reached: str, request: str = FINE) -> Trace:
    tool = "renew_loan" if reached == "loans_l" else "waive_fine"
    return _end(Message(role="user", content=request), AgentTurn(agent="front_f"),
                Message(agent="front_f", content=front_said),
                DelegationEvent(**{"from": "front_f"}, to=reached, trigger="graph_edge"), AgentTurn(agent=reached),
                ToolCall(agent=reached, tool=tool, call_id="c", arguments={"loan": "LN-2291"}),
                ToolResult(agent=reached, tool=tool, call_id="c", payload='{"ok": true}'),
                Message(agent=reached, content="All sorted for LN-2291."))


@pytest.mark.parametrize("request_", [
    FINE,
    # a request only the named member's tool fits: the node chose right, so still the wiring's
    "Please waive the overdue fine on my loan LN-2291.",
])
@pytest.mark.parametrize("said", [
    "Handing this over to fines_x, who deals with late returns.",
    "No problem: this has been passed to fines_x.",  # a courtesy's "no" negates nothing
])
def test_an_edge_that_gives_the_request_to_another_member_than_the_node_named_is_a_misroute(request_, said):
    [f] = misrouted_request(_library(said, "loans_l", request_), LIBRARY)
    assert (f.root_cause, f.agent, f.step) == ("Misrouted Request", None, 3)
    assert f.elements == ("router route_loans_l", "loans_l", "waive_fine")
    assert "fines_x" in f.description


@pytest.mark.parametrize("said,reached", [
    ("Handing this over to fines_x, who deals with late returns.", "fines_x"),  # the edge it named
    ("Over to the desks: fines_x or loans_l will pick this up.", "loans_l"),  # names both: no choice said
    ("Thanks, passing this on.", "loans_l"),  # names none
    # the one member it names, it names as the one not chosen
    ("This one is not for fines_x: the loan itself needs renewing.", "loans_l"),
    ("No need for fines_x here, passing it on.", "loans_l"),
])
def test_a_route_to_the_named_member_or_words_naming_none_or_several_is_no_such_misroute(said, reached):
    assert misrouted_request(_library(said, reached), LIBRARY) == []


# -- a fact of an optional parameter's documented form left out after a hand-over --------------------

def _optional(required: dict[str, str], optional: dict[str, str]) -> dict:
    described = {**required, **optional}
    return {"type": "object", "required": list(required),
            "properties": {p: {"type": "string", "description": d} for p, d in described.items()}}


GYM = WorkflowSpec(
    system=SystemInfo(id="gym", entry_agent="reception", pattern="graph"),
    agents=(AgentSpec(id="reception", instructions="Note the member's request."),
            AgentSpec(id="classes", instructions="Book the class with book_class.")),
    tools=(ToolSpec(id="book_class", description="Book a place on a fitness class.", parameters=_optional(
        {"session": 'The class session, like "SPIN-0930"'},
        {"member_card": 'The member\'s card number if they have one, like "MC-0000" (members pay nothing)'})),),
    permissions=Permissions(allow=(("classes", "book_class"),)),
    delegations=({"from": "reception", "to": "classes", "trigger": "graph_edge"},))
SAID = "Could I get a spot on SPIN-0930 tomorrow? My card is MC-4471."


def _gym(arguments: dict, said: str = SAID, received: str | None = None) -> Trace:
    trace = _end(Message(role="user", content=said), AgentTurn(agent="reception"),
                 Message(agent="reception", content="Noted: a spin class booking."),
                 DelegationEvent(**{"from": "reception"}, to="classes", trigger="graph_edge"),
                 AgentTurn(agent="classes"), ToolCall(agent="classes", tool="book_class", call_id="b",
                                                      arguments=arguments),
                 ToolResult(agent="classes", tool="book_class", call_id="b", payload='{"price": "8.00"}'),
                 Message(agent="classes", content="You're booked on SPIN-0930, 8.00 at the desk."))
    if received is not None:
        trace.meta[HANDOVER_INPUTS] = [{"agent": "classes", "since": 4, "text": received}]
    return trace


def test_a_user_value_of_an_optional_parameter_s_form_left_out_of_the_call_is_information_loss():
    [f] = handover_facts(_gym({"session": "SPIN-0930"}, received="session: SPIN-0930"), GYM)
    assert (f.root_cause, f.agent, f.step) == ("Information Loss at Hand-over", "reception", 3)
    assert f.elements[2] == "member_card of book_class" and "MC-4471" in f.description


@pytest.mark.parametrize("arguments,said,received", [
    ({"session": "SPIN-0930", "member_card": "MC-4471"}, SAID, None),  # it went along
    ({"session": "SPIN-0930"}, "Could I get a spot on SPIN-0930 tomorrow?", None),  # no card given
    # the card reached the receiving agent's model: leaving it out was that model's choice
    ({"session": "SPIN-0930"}, SAID, "session: SPIN-0930\nmember_card: MC-4471"),
    # what the receiving agent was given is not recorded (a log of a chat all members read): no
    # question shows a loss, and the card may have been left out by the model's own choice
    ({"session": "SPIN-0930"}, SAID, None),
])
def test_an_optional_value_passed_never_given_or_received_is_no_loss_at_the_hand_over(arguments, said, received):
    assert handover_facts(_gym(arguments, said, received), GYM) == []


# -- an ask by a pronoun, a list of next steps after it --------------------------------------------

KENNEL = WorkflowSpec(
    system=SystemInfo(id="kennel", entry_agent="desk", pattern="handoff"),
    agents=(AgentSpec(id="desk", instructions="Pass boarding requests to boarding."),
            AgentSpec(id="boarding", instructions="Book the stay with book_stay.")),
    tools=(ToolSpec(id="book_stay", description="Book a dog's stay.",
                    parameters=_optional({"arrival_date": 'The first night, like "2026-05-01"'}, {})),),
    permissions=Permissions(allow=(("boarding", "book_stay"),)),
    delegations=({"from": "desk", "to": "boarding", "trigger": "handoff"},))
STEPS = "\n\nWhat happens next:\n- The stay is booked as soon as this arrives.\n- Replies go to the same thread."


def _kennel(reply: str) -> Trace:
    return _end(Message(role="user", content="Can Biscuit stay with you for a week?"), AgentTurn(agent="desk"),
                DelegationEvent(**{"from": "desk"}, to="boarding", trigger="handoff"), AgentTurn(agent="boarding"),
                Message(agent="boarding", content=reply))


@pytest.mark.parametrize("ask", ["Could you share it?", "Can it please be supplied?"])  # active, passive
def test_an_ask_by_a_pronoun_before_a_list_of_next_steps_waits_for_input(ask):
    asked = _kennel(f"Before the stay can be booked, the following is needed: arrival date. {ask}" + STEPS)
    assert tool_omission(asked, skeleton(KENNEL), KENNEL) == []


def test_a_reply_that_asks_for_nothing_its_tool_needs_still_omits_it():
    told = _kennel("Biscuit's stay request has been noted. Could you share a photo of him?" + STEPS)
    [f] = tool_omission(told, skeleton(KENNEL), KENNEL)
    assert f.elements == ("boarding", "book_stay")
