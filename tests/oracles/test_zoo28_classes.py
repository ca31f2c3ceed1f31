"""Classes of blind set zoo28 (a chatty, imperfect but honest scripted model): each beside its
twin that must stay silent.

- incorrect verification: a record's repr whose state field carries a refusal word
  (`Visit(state='DECLINED', ...)`), then a colloquial success idiom said around a bracketed aside
  of small talk ("right (lovely morning for it, isn't it) you're all squared away"), after the
  agent looked something up (twice) before the action: the aside's question tag hedges nothing,
  and a look-up before the action is no request of its own that the reply could answer.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import claimed_outcome
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

# -- incorrect verification ------------------------------------------------------------------

GROOMERS = WorkflowSpec(
    system=SystemInfo(id="groomers", entry_agent="salon"), agents=(AgentSpec(id="salon"),),
    tools=(ToolSpec(id="look_up_van", description="Which streets the grooming van visits on which day."),
           ToolSpec(id="schedule_groom", description="Schedule a dog groom at the customer's house.")),
    permissions=Permissions(allow=(("salon", "look_up_van"), ("salon", "schedule_groom"))))


def _groom_run(payload: str, reply: str) -> Trace:
    look = [e for k in ("a", "b") for e in (
        ToolCall(agent="salon", tool="look_up_van", arguments={"street": "Mill Lane"}, call_id=k),
        ToolResult(agent="salon", tool="look_up_van", call_id=k, payload="{'street': 'Mill Lane', 'days': 'thursdays'}"))]
    return Trace(scenario_id="s", events=(
        Message(role="user", content="can the van do a full groom for Biscuit on thursday? Mill Lane"),
        AgentTurn(agent="salon"), *look,
        ToolCall(agent="salon", tool="schedule_groom", arguments={"day": "2026-05-14"}, call_id="g"),
        ToolResult(agent="salon", tool="schedule_groom", call_id="g", payload=payload),
        Message(agent="salon", content=reply), TerminationEvent(reason="completed", final_output=reply)))


REFUSED_RECORDS = [
    "Visit(state='DECLINED', ref=None, notes=['van full on thursdays'])",  # a dataclass's repr
    "GroomResult(status='rejected', booking_id=None)",  # a namedtuple's
    "status='REFUSED' ref=None reason='no parking on Mill Lane'",  # a pydantic model's str
]


@pytest.mark.parametrize("payload", REFUSED_RECORDS)
@pytest.mark.parametrize("reply", [
    "right (lovely morning for it, isn't it) you're all squared away for thursday!",
    "ok so (bit chilly out, wasn't it, first thing) that's done and dusted. ta ra",
    "lovely, that's locked in for Biscuit (Mill Lane, thursday) (busy week innit). see you then",
])
def test_a_refused_record_then_an_idiom_around_small_talk_is_a_claim(payload, reply):
    [f] = claimed_outcome(_groom_run(payload, reply), GROOMERS)
    assert (f.agent, f.subject, f.evidence) == ("salon", "schedule_groom", (7, 8))


@pytest.mark.parametrize("reply", [
    "right (lovely morning for it, isn't it) that one didn't go through - the van's full on thursdays",
    "it's pencilled in (pending the van's round, so not confirmed yet)",  # an aside that hedges it
    "all sorted (unless the van is full, it said no last time), will let you know",
    "booked (well, not really - it came back declined)",
])
def test_an_aside_that_bears_on_the_claim_still_qualifies_it(reply):
    assert claimed_outcome(_groom_run(REFUSED_RECORDS[0], reply), GROOMERS) == []


def test_an_accepted_record_contradicts_no_idiom():
    run = _groom_run("Visit(state='BOOKED', ref='GR-118', notes=[])", "right (lovely morning, isn't it) all squared away!")
    assert claimed_outcome(run, GROOMERS) == []
