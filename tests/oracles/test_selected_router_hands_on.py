"""A speaker-selected team whose first speaker is a router of the app's (an AG2 group pattern's
triage, holding hand-offs that lead through a sign-in desk to the member with the fitting tool):
giving it the request is no misroute of the selector's (`instructed._hands_on_to`). Found on
build-with-ag2's e-commerce service under an instruction follower; a first speaker with no way
on to the holder stays a misroute."""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import misrouted_request
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, Trace


def _library(hands: bool) -> WorkflowSpec:
    """A library help desk: front desk -> card check -> loans desk (renews loans)."""
    edges = ({"from": "front_desk", "to": "card_check"}, {"from": "card_check", "to": "loans_desk"}) if hands else ()
    return WorkflowSpec(
        system=SystemInfo(id="library", entry_agent="front_desk", pattern="selector"),
        agents=(AgentSpec(id="front_desk", description="Greets readers and sends them on."),
                AgentSpec(id="card_check", description="Checks a reader's library card."),
                AgentSpec(id="loans_desk", description="Renews and extends book loans.")),
        tools=(ToolSpec(id="check_card", description="Check a library card number."),
               ToolSpec(id="renew_loan", description="Renew a book loan for a reader.")),
        delegations=edges,
        permissions=Permissions(allow=(("card_check", "check_card"), ("loans_desk", "renew_loan"))))


def _greeted() -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Please renew my book loan, card 55-210."),
        AgentTurn(agent="front_desk"), Message(agent="front_desk", content="Welcome to the library."),
        TerminationEvent(reason="message_limit", final_output="Welcome to the library.")))


@pytest.mark.parametrize("hands,found", [(True, False), (False, True)])
def test_a_first_speaker_whose_hand_offs_lead_to_the_holder_is_no_misroute(hands, found):
    assert bool(misrouted_request(_greeted(), _library(hands))) == found
