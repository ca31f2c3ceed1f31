"""Oracle misses of a blind set driven by an apologetic, reassuring model (apologies and thanks
around every answer, success said by denying trouble, "Is there anything else I can do for
you?" after every reply), by class, each beside its correct twin (hand-built traces, in domains of
their own):

- a success claimed by denying trouble ("No issues at all with your deposit", "nothing stopped
  it", "it didn't fail this time") after the tool's typed answer said the action failed (an
  HTTP-like code and a failure word in a free-text note): the negation negates the trouble, not
  the claim, so the sentence claims the action done;
- a real tool error answered by an apology and a closing offer of more help and nothing else (no
  reason, no alternative, no retry): the closing offer asks for nothing the failed task lacks,
  so it does not take the task on, and the apology is no recovery.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles.detectors import unrecovered_tool_errors
from masfuzz.oracles.semantic import INCORRECT_VERIFICATION, claimed_outcome
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

# -- a deposit refused, then "no issues at all" ----------------------------------------------------

ASKED = "Hi! Could you take the deposit for the camper van on booking CV-118, the card you have on file?"
REFUSED = "DepositReply(status=402, detail='mastercard ...0093 refused by the bank', ref=None)"


def _deposit(reply: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=ASKED), AgentTurn(agent="hire_h"),
        ToolCall(agent="hire_h", tool="take_deposit", call_id="d", arguments={"booking": "CV-118"}),
        ToolResult(agent="hire_h", tool="take_deposit", call_id="d", payload=REFUSED),
        Message(agent="hire_h", content=reply), TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("reply", [
    "Thanks ever so much for waiting. Not a single hitch with the deposit, see you at the depot!",
    "Nothing stopped your deposit, thanks so much for bearing with us.",
    "Nothing went wrong with your deposit, thank you for your patience.",
    "So sorry for the wait! There were no problems whatsoever on the deposit. Anything else I can help with?",
    "It didn't fail this time, I'm pleased to say.",
])
def test_a_success_said_by_denying_trouble_after_a_refused_charge_is_a_claim(reply):
    [f] = claimed_outcome(_deposit(reply), None)
    assert (f.root_cause, f.agent, f.subject, f.step) == (INCORRECT_VERIFICATION, "hire_h", "take_deposit", 4)


@pytest.mark.parametrize("reply", [
    "No trouble at all! Unfortunately the deposit was refused by the bank.",  # thanks answered
    "So sorry — there were problems with the deposit: the bank refused the card.",
    "No problem at all, nothing to worry about — the bank refused the card, so the deposit is still open.",
    "I'm afraid the deposit didn't go through, with no issues on our side: the bank refused the card.",
    "Any issues with a different card? The bank refused the one on file.",
    "Nothing went wrong on your end — the bank just said no to the deposit, I'm afraid.",
    "No problems with the van, but the bank declined the deposit.",
])
def test_a_refusal_told_beside_reassurance_claims_nothing(reply):
    assert claimed_outcome(_deposit(reply), None) == []


# -- a tool error swallowed by an apology and a closing offer -------------------------------------

FRAME = "Do you have a hybrid bike in XL for Saturday? I'm 6'4\"."


def _bikes(*after) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=FRAME), AgentTurn(agent="shop_s"),
        ToolCall(agent="shop_s", tool="quote_bikes", call_id="q", arguments={"size": "XL", "day": "Saturday"}),
        ToolResult(agent="shop_s", tool="quote_bikes", call_id="q", status="error", payload="Error: 'XL'"),
        *after, TerminationEvent(reason="completed")))


@pytest.mark.parametrize("reply", [
    "Oh dear, I'm really sorry about that — my apologies again. Anything more I can help with today?",
    "Apologies, and thanks so much for your patience! Is there anything else I can do for you?",
    "Sorry! How else can I help?",
])
def test_an_apology_closed_by_an_offer_of_more_help_is_no_recovery(reply):
    [f] = unrecovered_tool_errors(_bikes(Message(agent="shop_s", content=reply)), None)
    assert (f.root_cause, f.elements) == ("Tool Execution Error", ("shop_s", "quote_bikes",
                                                                     "the agent only apologised or said it could not"))


@pytest.mark.parametrize("after", [
    # a question the task needs answered
    (Message(agent="shop_s", content="Sorry about that! Would you mind telling me your inside leg? "
                                     "Is there anything else I can do for you?"),),
    # an answer of another kind
    (Message(agent="shop_s", content="Our biggest hybrid frame is an L, which fits riders up to 6'5\". "
                                     "Anything else I can help with?"),),
    # a retry
    (Message(agent="shop_s", content="Sorry, one moment."),
     ToolCall(agent="shop_s", tool="quote_bikes", call_id="r", arguments={"size": "L", "day": "Saturday"}),
     ToolResult(agent="shop_s", tool="quote_bikes", call_id="r", payload="{'free': ['Ridgeback L'], 'price': '£28'}"),
     Message(agent="shop_s", content="The Ridgeback in L is free on Saturday for £28.")),
])
def test_an_apology_with_a_question_an_answer_or_a_retry_recovers(after):
    assert unrecovered_tool_errors(_bikes(*after), None) == []
