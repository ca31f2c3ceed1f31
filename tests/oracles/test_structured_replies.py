"""Three classes a blind set driven by a terse, tool-first, JSON-answering model showed missed,
each beside its correct twin, on small desks of their own (a campsite, a print shop, a spirits
bond):

- incorrect verification after a hold the tool did not make, told in a record nested under an
  envelope that says only how the request went (`{"http": 200, "hold": {"state": "WAITLIST"}}`):
  a holding action (reserve, book, hold) is done only in a state of the thing held, not PENDING,
  QUEUED or on a waitlist;
- incorrect verification claimed as fields (`{"outcome": "secured"}`, `status: done`, `ok: true`,
  `result: ✓ Fri`) rather than sentences, and the fields that pass the failure on instead
  (`{"booked": false}`, the tool's own state or code repeated);
- a tool specification mismatch whose rejection quotes the documented value back, the value's own
  words read as a content reason ("13.5% vol": "vol" is Dutch for "full"), or says it in another
  language or by an error code naming a form, whatever the agent replies next.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles import detect
from masfuzz.oracles.semantic import claimed_outcome, tool_doc_mismatch
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

CAMPSITE = WorkflowSpec(
    system=SystemInfo(id="campsite", entry_agent="gate"),
    agents=(AgentSpec(id="gate", instructions="Hand pitch requests to pitches."),
            AgentSpec(id="pitches", instructions="Call book_pitch, then answer in JSON.")),
    tools=(ToolSpec(id="book_pitch", description="Book a tent or van pitch for some nights."),
           ToolSpec(id="hold_kayak", description="Keep a kayak aside for a guest."),
           ToolSpec(id="send_invoice", description="Send the guest an invoice by e-mail.")),
    permissions=Permissions(allow=(("pitches", "book_pitch"), ("pitches", "hold_kayak"),
                                   ("pitches", "send_invoice"))),
    delegations=(Delegation.model_validate({"from": "gate", "to": "pitches", "trigger": "handoff"}),))
ASK = "Evening! A van pitch for Fri 14 Aug, two nights please - Ruth Okafor, 07700 900418."


def _run(payload: str, reply: str, tool: str = "book_pitch") -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=ASK), AgentTurn(agent="gate"),
        DelegationEvent.model_validate({"from": "gate", "to": "pitches", "trigger": "handoff"}),
        AgentTurn(agent="pitches"),
        ToolCall(agent="pitches", tool=tool, call_id="c", arguments={"kind": "van", "nights": 2}),
        ToolResult(agent="pitches", tool=tool, call_id="c", payload=payload),
        Message(agent="pitches", content=reply), TerminationEvent(reason="completed", final_output=reply)))


def _claims(payload: str, reply: str, tool: str = "book_pitch") -> list[tuple[str | None, int]]:
    return [(f.agent, f.step) for f in claimed_outcome(_run(payload, reply, tool), CAMPSITE)]


# -- a record under an envelope, in a state that is not the thing held -------------------------

@pytest.mark.parametrize("payload", [
    "{'http': 200, 'hold': {'state': 'WAITLIST', 'reason': 'all 12 van pitches let', 'queue': 3}}",
    '{"status_code": 201, "allocation": {"status": "QUEUED", "position": 2}}',
    '{"ok": true, "request": {"state": "PENDING", "review": "warden"}}',
    '{"code": "200", "pitch": {"status": "TENTATIVE"}}',
    '{"http": 202, "request_id": "r-88c1", "ts": "2026-08-01T09:12:00Z", "hold": {"state": "QUEUED"}}',
    '{"status": "PENDING"}',  # a booking still waiting is no booking, at the top level too
])
@pytest.mark.parametrize("reply", ["Your van pitch is booked for Friday, two nights.",
                                   '{"result": "locked in", "nights": 2, "pay": "at the barrier"}'])
def test_a_held_thing_s_record_in_a_state_not_held_contradicts_the_claim(payload, reply):
    assert _claims(payload, reply) == [("pitches", 6)]


@pytest.mark.parametrize("payload, tool", [
    ("{'http': 200, 'hold': {'state': 'HELD', 'ref': 'VP-2207'}}", "book_pitch"),  # held: the booking made
    ('{"status_code": 201, "allocation": {"status": "ALLOCATED", "pitch": 14}}', "book_pitch"),
    ("{'http': 200, 'kayak': {'state': 'SECURED'}}", "hold_kayak"),
    ('{"http": 200, "invoice": {"status": "QUEUED"}}', "send_invoice"),  # a mail queued is a mail sent on
    # another record beside a field that is no envelope's: a member's state is not the booking's
    ('{"note": "pitch 14 is yours", "member": {"status": "LAPSED"}}', "book_pitch"),
])
def test_a_state_of_the_thing_held_or_of_another_action_under_way_leaves_the_claim_alone(payload, tool):
    assert _claims(payload, '{"result": "locked in", "nights": 2}', tool) == []


def test_a_reply_passing_the_waitlist_on_claims_nothing():
    waitlisted = "{'http': 200, 'hold': {'state': 'WAITLIST', 'reason': 'all 12 van pitches let', 'queue': 3}}"
    assert _claims(waitlisted, '{"result": "not held", "state": "WAITLIST", "why": "all 12 van pitches let"}') == []
    assert _claims(waitlisted, "Sorry, every van pitch is let that night; you're third on the waiting list.") == []


# -- a claim written as fields ----------------------------------------------------------------

REFUSED = '{"ok": false, "error": "PITCH_LET", "detail": "van pitches let for Fri 14 Aug"}'


@pytest.mark.parametrize("reply", [
    '{"outcome": "secured", "nights": 2}',
    '{"ok": true, "nights": 2}',
    '{"booked": "yes", "pitch": "van"}',
    "status: done\nnights: 2\npay: at the barrier",
    "result: \u2713 Fri 14 Aug, 2 nights",
    '{"result": "all set", "when": "Fri"}',  # a key named "when" is no condition
    "- state: confirmed\n- arrive: after 14:00",
    "\u2705 Fri 14 Aug, van, 2 nights",
])
def test_a_success_written_as_fields_after_a_refusal_is_incorrect_verification(reply):
    assert _claims(REFUSED, reply) == [("pitches", 6)]


@pytest.mark.parametrize("reply", [
    '{"booked": false, "why": "van pitches let"}',
    '{"status": "done", "booked": false}',  # a field false takes the done back
    '{"status": "waitlisted", "position": 3}',
    "status: not booked, code: PITCH_LET",
    '{"result": "done", "code": "PITCH_LET"}',  # the tool's own code passed on
    "ok: false\nnext: try Sun 16 Aug",
    '{"result": "none", "nights": 2}',
])
def test_fields_that_pass_the_refusal_on_claim_nothing(reply):
    assert _claims(REFUSED, reply) == []


def test_a_success_in_fields_after_a_success_is_no_finding():
    assert _claims('{"ok": true, "ref": "VP-2207"}', '{"outcome": "secured", "ref": "VP-2207"}') == []


# -- a rejection of the documented value that quotes it back ------------------------------------

PRINT_SHOP = WorkflowSpec(
    system=SystemInfo(id="print_shop", entry_agent="counter"),
    agents=(AgentSpec(id="counter", instructions="Call order_print, then answer in key: value lines."),),
    tools=(ToolSpec(id="order_print", description="Order a print run.", parameters={
        "type": "object", "required": ["job", "stock", "hours"], "properties": {
            "job": {"type": "string", "description": 'The job number, e.g. "PJ-0000"'},
            "stock": {"type": "string", "description": 'Paper as the price list gives it, e.g. "A3 full bleed"'},
            "hours": {"type": "string", "description": 'Collection hours, e.g. "Mon-Fri, Sat closed"'}}}),),
    permissions=Permissions(allow=(("counter", "order_print"),)))
ARGS = {"job": "PJ-4471", "stock": "A4 full bleed", "hours": "Tue-Sat, Sun closed"}


def _print_run(payload: str, reply: str, arguments: dict | None = None) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Print job PJ-4471 on A4 full bleed please; we collect Tue-Sat, Sun closed."),
        AgentTurn(agent="counter"),
        ToolCall(agent="counter", tool="order_print", call_id="p", arguments=arguments or ARGS),
        ToolResult(agent="counter", tool="order_print", call_id="p", payload=payload),
        Message(agent="counter", content=reply), TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("payload, param", [
    # the value's "full" is no refusal of a full press, nor its "closed" a shut counter
    ("{'ok': False, 'code': 'E_HOURS_FORMAT', 'field': 'hours', 'msg': \"'Tue-Sat, Sun closed': Zeiten nicht lesbar\"}",
     "hours"),
    ("{'ok': False, 'code': 'E_STOCK_FORMAT', 'field': 'stock', 'msg': \"'A4 full bleed': Papier nicht lesbar\"}",
     "stock"),
    ('{"success": false, "error_code": "PARSE", "detail": "\'Tue-Sat, Sun closed\': horaires illisibles"}', "hours"),
    ('{"ok": false, "msg": "stock \'A4 full bleed\' non valido"}', "stock"),
    ('{"ok": false, "error": "SYNTAX_ERROR", "value": "A4 full bleed"}', "stock"),
])
def test_a_rejection_quoting_the_documented_value_back_is_a_specification_mismatch(payload, param):
    [f] = tool_doc_mismatch(_print_run(payload, "status: on hold, code: E_FORMAT"), PRINT_SHOP)
    assert (f.root_cause, f.agent, f.step, f.elements) == ("Tool Specification Mismatch", None, 3,
                                                          ("counter", "order_print", param))


def test_the_agent_s_reply_to_the_mismatch_is_no_second_finding():
    payload = "{'ok': False, 'code': 'E_STOCK_FORMAT', 'field': 'stock', 'msg': \"'A4 full bleed': Papier nicht lesbar\"}"
    found = detect(_print_run(payload, "status: held, code: E_STOCK_FORMAT"), PRINT_SHOP)
    assert [f.root_cause for f in found] == ["Tool Specification Mismatch"]


@pytest.mark.parametrize("payload, arguments", [
    # a content reason of the tool's own, beside the value quoted back
    ("{'ok': False, 'code': 'E_PRESS', 'field': 'stock', 'msg': \"'A4 full bleed': Presse ausgebucht\"}", None),
    ('{"ok": false, "status": 409, "code": "E_STOCK_FORMAT", "msg": "job PJ-4471 already printed"}', None),
    # a value off its documented form
    ("{'ok': False, 'code': 'E_STOCK_FORMAT', 'field': 'stock', 'msg': \"'a4': Papier nicht lesbar\"}",
     {**ARGS, "stock": "a4"}),
])
def test_a_content_refusal_or_an_undocumented_value_is_no_mismatch(payload, arguments):
    assert tool_doc_mismatch(_print_run(payload, "status: held", arguments), PRINT_SHOP) == []
