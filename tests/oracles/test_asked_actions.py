"""What a request asks for is said after its asking frame ("can you", "please", "I'd like"): the
actions it tells of before one are its story ("I booked a room ... Can you refund me?" asks for a
refund, not a booking), so a tool named by its action alone is matched to the ask."""

from __future__ import annotations

from masfuzz.oracles.wording import asked_actions, asks_for

STORY_THEN_ASK = "I booked a cabin for the 12th but the ferry was cancelled. Can you refund me the deposit?"


def test_the_ask_after_the_story_decides_which_action_tool_is_asked_for():
    assert asked_actions(STORY_THEN_ASK) == ["refund"]
    assert asks_for(STORY_THEN_ASK, "issue_refund", None)
    assert not asks_for(STORY_THEN_ASK, "make_booking", None)


def test_a_request_with_no_asking_frame_asks_for_its_first_action():
    plain = "Book me a cabin for the 12th; refund the old deposit later."
    assert asked_actions(plain) == []
    assert asks_for(plain, "make_booking", None) and not asks_for(plain, "issue_refund", None)
