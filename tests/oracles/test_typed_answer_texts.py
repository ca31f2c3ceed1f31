"""What a typed or structured answer says in words is read in one place (`wording.reply_texts`),
by every oracle that reads what an agent told: the omission oracle's wait for input
(`flare._waiting`) and the ask-back reading (`asks_back`, used by the bound and stop detectors)
agree on a typed answer whose question sits in a list field, and on a reply written as
`key: value` lines whose question is not its last line."""

from __future__ import annotations

import pytest

from masfuzz.graph.specification import skeleton
from masfuzz.oracles.flare import tool_omission
from masfuzz.oracles.wording import asks_back, reply_texts
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, Trace

TUNING = WorkflowSpec(
    system=SystemInfo(id="tuning", entry_agent="tuner_desk"),
    agents=(AgentSpec(id="tuner_desk", instructions="Book a piano tuning with book_tuning."),),
    tools=(ToolSpec(id="book_tuning", description="Book a piano tuner's visit.",
                    parameters={"type": "object", "properties": {"day": {"type": "string"},
                                                                 "postcode": {"type": "string"}},
                                "required": ["day", "postcode"]}),),
    permissions=Permissions(allow=(("tuner_desk", "book_tuning"),)))


def _answered(said: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Our upright piano needs tuning before the recital."),
        AgentTurn(agent="tuner_desk"), Message(agent="tuner_desk", content=said),
        TerminationEvent(reason="completed", final_output=said)))


ASKING = [
    # a typed answer whose questions are a list: each is text the user reads
    '{"booked": false, "summary": "Nothing is booked yet.", "questions": ["Which day suits you?", '
    '"What is the postcode of the house?"]}',
    # a printed model with the question nested in a list of objects
    '{"booked": false, "follow_up": [{"text": "Which day should the tuner come?"}], "note": "Happy to help."}',
    # a reply written as `key: value` lines, its question first
    "question: Which day should the tuner come?\nbooked: no",
]
SILENT = [
    '{"booked": false, "summary": "Nothing is booked yet.", "tags": ["upright", "recital"]}',
    "status: pending\nnote: a tuner will be found",
]


@pytest.mark.parametrize("said", ASKING)
def test_a_typed_answer_that_asks_in_any_text_field_waits_for_the_user(said):
    assert asks_back(said)
    assert tool_omission(_answered(said), skeleton(TUNING), TUNING) == []


@pytest.mark.parametrize("said", SILENT)
def test_a_typed_answer_that_asks_nothing_still_owes_the_call(said):
    assert not asks_back(said)
    assert {f.elements for f in tool_omission(_answered(said), skeleton(TUNING), TUNING)} \
        == {("tuner_desk", "book_tuning")}


@pytest.mark.parametrize("said", ASKING + SILENT + ["Which day suits you?", "Booked for Friday."])
def test_asking_back_is_read_from_the_same_texts_the_other_oracles_read(said):
    texts = reply_texts(said)
    assert asks_back(said) == any(asks_back(t) for t in texts)
    if texts == [said]:  # prose says itself
        assert not said.lstrip().startswith("{")


def test_the_texts_keep_the_order_written_and_leave_keys_and_flags_out():
    assert reply_texts('{"ok": false, "a": "First.", "b": ["Second?", {"c": "Third."}], "n": 3}') \
        == ["First.", "Second?", "Third."]
    assert reply_texts('{"ok": true, "n": 3}') == []
