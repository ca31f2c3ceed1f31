"""A speaker-selected team whose first speaker is a router of the app's (an AG2 group pattern's
triage, holding hand-offs that lead through a sign-in desk to the member with the fitting tool):
giving it the request is no misroute of the selector's (`instructed._hands_on_to`). Found on
build-with-ag2's e-commerce service under an instruction follower; a first speaker with no way
on to the holder stays a misroute. So is a first turn given to the member that finds facts when
the fitting tool's inputs are not in the request (`instructed._gathers_first`, AutoGen's
selector-group-chat team: the web search agent before the data analyst)."""

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


def _prices() -> WorkflowSpec:
    """A selector team: a researcher who looks prices up, an analyst who computes a change."""
    number = {"type": "number", "description": "a price in dollars"}
    return WorkflowSpec(
        system=SystemInfo(id="prices", entry_agent="researcher", pattern="selector"),
        agents=(AgentSpec(id="researcher", description="An agent for looking up market data."),
                AgentSpec(id="analyst", description="An agent for performing calculations.")),
        tools=(ToolSpec(id="lookup_prices", description="Look up a product's price in a year."),
               ToolSpec(id="percent_change", description="Compute the percent change between two prices.",
                        parameters={"type": "object", "properties": {"start": number, "end": number},
                                    "required": ["start", "end"]})),
        permissions=Permissions(allow=(("researcher", "lookup_prices"), ("analyst", "percent_change"))))


@pytest.mark.parametrize("request_text,found", [
    # the two prices are to be found first: the researcher's turn comes first
    ("What was the percent change of the desk lamp's price from last spring to this spring?", False),
    # both prices given: the analyst could act at once, and the researcher answered without it
    ("What is the percent change from a price of 40 dollars to a price of 50 dollars?", True),
])
def test_a_selector_giving_the_first_turn_to_the_member_that_finds_the_inputs_is_no_misroute(request_text, found):
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=request_text),
        AgentTurn(agent="researcher"), Message(agent="researcher", content="I can only look things up."),
        TerminationEvent(reason="message_limit", final_output="I can only look things up.")))
    assert bool(misrouted_request(trace, _prices())) == found
