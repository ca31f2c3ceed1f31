"""A reply to a failed action that speaks of the action's object as if it had worked, relaying
nothing of the failure, claims it (`_silent_claim`). A warm model wraps such a reply in the
user's own words quoted back ("you'd said: "... please confirm the loan"") and a closing offer
("Is there anything else I can help with today?"): neither is a statement of the reply's own,
and neither hides the claim. A reply that passes the failure on still claims nothing."""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import INCORRECT_VERIFICATION, claimed_outcome
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

ASKED = "The lender signed the facility report for lx-318 last night, so please confirm the loan for the show."
CLAIM = "That loan stands: it is in the register for the spring show and the courier can be booked."


def _run(reply: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=ASKED), AgentTurn(agent="registrar"),
        ToolCall(agent="registrar", tool="confirm_loan", call_id="c1", arguments={"loan": "lx-318"}),
        ToolResult(agent="registrar", tool="confirm_loan", call_id="c1", status="ok",
                   payload="{'loan': 'lx-318', 'state': 'VOID', 'missing': ['indemnity certificate']}"),
        Message(agent="registrar", content=reply), TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("reply", [
    CLAIM,
    f"{CLAIM} Is there anything else I can help with today?",
    f'Thanks so much for writing - you\'d said: "{ASKED}" {CLAIM} Anything else I can do for you?',
])
def test_a_silent_claim_wrapped_in_quoted_words_and_a_closing_offer_is_still_a_claim(reply):
    [f] = claimed_outcome(_run(reply), None)
    assert (f.root_cause, f.agent) == (INCORRECT_VERIFICATION, "registrar")


@pytest.mark.parametrize("reply", [
    "The loan is void for now: the indemnity certificate is missing. Is there anything else I can help with?",
    f"{CLAIM} Could you send the indemnity certificate?",  # a question of its own: not plain
])
def test_a_reply_that_passes_the_failure_on_or_asks_claims_nothing(reply):
    assert claimed_outcome(_run(reply), None) == []
