"""An offer of a next step closes a reply as "more" only when the work is said done; when one part
is said done and another not ("The frame is booked. The respray colour could not be matched.
Want me to try the other supplier?"), the offer is the undone part's next step and the reply
waits for the user's answer (`wording.closing_offers`, `wording.says_undone`). Read alike by
every verdict that asks whether a reply waits: asking back, and the early end of a team."""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import participation
from masfuzz.oracles.wording import asks_back, says_undone
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

WORKSHOP = WorkflowSpec(
    system=SystemInfo(id="bike_workshop", entry_agent="frame_desk", pattern="fixed_order"),
    agents=(AgentSpec(id="frame_desk", instructions="Book the frame repair with book_frame_repair."),
            AgentSpec(id="paint_p", instructions="Match and book the respray colour with match_paint.")),
    tools=(ToolSpec(id="book_frame_repair", description="Book a frame repair slot in the workshop."),
           ToolSpec(id="match_paint", description="Match a respray paint colour to a frame.")),
    permissions=Permissions(allow=(("frame_desk", "book_frame_repair"), ("paint_p", "match_paint"))))
ASKED = "My steel frame has a crack by the bottom bracket: please repair it and do a respray paint in racing green."


def _workshop(last: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=ASKED), AgentTurn(agent="frame_desk"),
        ToolCall(agent="frame_desk", tool="book_frame_repair", arguments={"day": "Tue"}, call_id="f"),
        ToolResult(agent="frame_desk", tool="book_frame_repair", call_id="f", payload='{"ref": "FR-12", "day": "Tue"}'),
        Message(agent="frame_desk", content=last),
        TerminationEvent(reason="text_mention", detail="Text 'FR-12' mentioned", final_output=last)))


PARTIAL = [
    "Frame repair FR-12 is booked for Tuesday. The racing green could not be matched. Want me to try the other supplier?",
    "Frame repair FR-12 is booked for Tuesday. No racing green is in stock this week. Should I try British racing green?",
    "Frame repair FR-12 is booked for Tuesday.\n\u274c Respray colour\nShall I ask the paint shop for a sample?",
]


@pytest.mark.parametrize("last", PARTIAL)
def test_an_offer_after_a_part_done_and_a_part_not_waits_for_the_user(last):
    assert asks_back(last)
    assert participation(_workshop(last), WORKSHOP) == []


@pytest.mark.parametrize("last", [
    "Frame repair FR-12 is booked for Tuesday. Want me to add a safety check too?",
    "Frame repair FR-12 is booked for Tuesday. Sorry for the wait! Shall I text you a reminder?",
    "Frame repair FR-12 is booked for Tuesday. No problem at all. Would you like me to email the receipt?",
])
def test_an_offer_after_the_work_said_done_still_closes_the_reply(last):
    assert not asks_back(last)
    [f] = participation(_workshop(last), WORKSHOP)
    assert (f.root_cause, f.elements) == ("Premature Termination", ("frame_desk", "paint_p"))


@pytest.mark.parametrize("sentence, undone", [
    ("The racing green could not be matched.", True),
    ("No racing green is in stock this week.", True),
    ("\u274c Respray colour", True),
    ("Sorry for the wait!", False),
    ("No problem at all.", False),
    ("Frame repair FR-12 is booked for Tuesday.", False),
    ("Could it not be Tuesday?", False),  # a question asks, it says nothing undone
])
def test_a_sentence_says_a_part_undone_by_failure_negation_or_mark(sentence, undone):
    assert says_undone(sentence) is undone
