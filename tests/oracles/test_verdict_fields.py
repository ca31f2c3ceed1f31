"""A typed answer whose verdict alone says failure, in a field of any name: a PydanticAI or Agents
SDK sub-agent's output (`PartsAnswer(verdict='DECLINED', part='rear mech')`), a dataclass or a
JSON record whose one enum-like word is a failed state (`{"decision": "rejected"}`). The field's
role is read from its value and its place (a short word or an upper-case member at the top of the
answer), never from its name: a success claimed after it contradicts it (`claimed_outcome`). A
verdict beside a done state or a true outcome flag, a failure word in a nested record (another
thing's) or in a finder's answer (the fact it found), or a value of several words is none.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import claimed_outcome
from masfuzz.oracles.wording import payload_failure
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace


@pytest.mark.parametrize("payload, tool", [
    ("PartsAnswer(verdict='DECLINED', part='rear mech', note='Shimano 105 R7000 out of stock at supplier')",
     "order_part"),
    ("verdict='DECLINED' part='rear mech' note=None", "ask_parts_desk"),  # a pydantic model's str
    ('{"decision": "rejected", "applicant": "R. Ahmed", "reference": "GR-2231"}', "submit_grant"),
    ('{"ruling": "REFUSED", "venue": "Hall B"}', "reserve_hall"),
    ("Outcome(kind='FAILED', detail='see the card desk')", "charge_deposit"),
])
def test_a_failed_state_in_a_top_level_field_of_any_name_is_a_failure(payload, tool):
    assert payload_failure(payload, tool)


@pytest.mark.parametrize("payload, tool", [
    # a done state or a true flag beside it: the record does not say failure alone
    ("PartsAnswer(verdict='DECLINED', deposit='PAID')", "order_part"),
    ('{"ordered": true, "supplier_verdict": "declined", "fallback": "ordered from stock"}', "order_part"),
    # another thing's state, nested in the answer
    ('{"order": "PO-77", "customer": {"card": "DECLINED"}}', "order_part"),
    # a finder's record holds what it found
    ('{"application": "GR-2231", "decision": "REJECTED"}', "get_application"),
    # the tool's own verb done: the action it names succeeded
    ('{"invitation": "INV-4", "response": "DECLINED"}', "decline_invitation"),
    ("ClaimAnswer(claim='C-9', decision='rejected', letter_sent=True)", "reject_claim"),
    # words, not an enum
    ('{"remark": "declined by the supplier at first, then accepted"}', "order_part"),
    ('{"part": "rear mech", "eta": "Friday"}', "order_part"),
])
def test_no_lone_verdict_no_failure(payload, tool):
    assert payload_failure(payload, tool) is None


def _run(payload: str, reply: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Please order a rear mech for my Allez, Shimano 105."),
        AgentTurn(agent="workshop"),
        ToolCall(agent="workshop", tool="ask_parts_desk", call_id="p", arguments={"part": "rear mech"}),
        ToolResult(agent="workshop", tool="ask_parts_desk", call_id="p", payload=payload),
        Message(agent="workshop", content=reply), TerminationEvent(reason="completed", final_output=reply)))


PARTS = "PartsAnswer(verdict='DECLINED', part='rear mech', note='out of stock at the supplier')"


def test_a_success_claimed_after_a_lone_declined_verdict_is_claimed():
    [f] = claimed_outcome(_run(PARTS, "All sorted - your rear mech is on order and will be fitted Friday."), None)
    assert (f.agent, f.step) == ("workshop", 4) and "verdict: DECLINED" in f.description
    assert claimed_outcome(_run(PARTS, "The parts desk declined: the rear mech is out of stock."), None) == []


def test_a_decline_tool_that_declined_did_its_job():
    """A tool whose verb is itself a failed state's (decline, reject) answers that state when it
    worked: the reply saying so claims nothing false."""
    run = Trace(scenario_id="s", events=(
        Message(role="user", content="Please decline the Harbour Gala invitation INV-4 for me."),
        AgentTurn(agent="desk"),
        ToolCall(agent="desk", tool="decline_invitation", call_id="d", arguments={"invitation": "INV-4"}),
        ToolResult(agent="desk", tool="decline_invitation", call_id="d",
                   payload='{"invitation": "INV-4", "response": "DECLINED"}'),
        Message(agent="desk", content="Done - the Harbour Gala invitation is declined and the host informed."),
        TerminationEvent(reason="completed", final_output="Done")))
    assert claimed_outcome(run, None) == []
