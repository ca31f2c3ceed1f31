"""Classes of blind set zoo29 (a terse scripted model that calls independent tools in one
message and answers in clipped words): each beside its twin that must stay silent.

- incorrect verification: a holding tool with a verb of its own (secure_berth, hold_suit)
  answers a record whose state negates the hold (`Berth(state='NOT_SECURED', ...)`), a tool of
  no action that only gives facts (a tide table, a size chart) answered beside it in the same
  message, and the reply claims the hold in words of booking that name nothing ("OK — booked.")
  or in general words ("Done."): no other tool of the run holds anything the words could be
  about, and the fact tool's answer is no request the reply could answer.
- no false finding: an action's record whose state is a word of the app's own, in no table of
  states (`ON_ROTA`, `IN_LEDGER`), beside the reference the action issued (`"job": "TW-561"`)
  and no word of failure or waiting, is the app's word for the action done: "Done" after it
  claims the truth. The same state with no reference, or a state of waiting (WAITLISTED,
  ON_REQUEST) with one, still contradicts it.
- termination condition violation: one agent's closing (the work done, or a farewell) said
  again and again, word for word, with nothing else happening, until the app's bound (AG2's
  auto-reply cap of a proxy whose stop test does not hear the sign-off): the agent had finished
  and the team's stop condition did not fire, not a round limit too low for the task. Words of
  work under way said again ("on it, one moment") stay a bound reached.
- speaking order, in one process with earlier runs: a call refused for want of the step an agent
  of the same run takes only after it is explained by the run's own order; an earlier run of the
  process (the fixed twin, which took the step first) that got the call answered otherwise does
  not make the refusal the shared process's doing. A finding resting on an answer nothing later
  in the run explains still is.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles.attribution import attribute
from masfuzz.oracles.detectors import missing_termination
from masfuzz.oracles.failure import Failure
from masfuzz.oracles.semantic import claimed_outcome
from masfuzz.oracles.wording import unconfirmed_state
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import EARLIER_ANSWERS, AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

# -- incorrect verification: a claim after a failed hold and a fact looked up beside it ---------


def _marina(facts_tool: ToolSpec) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="marina", entry_agent="pontoon"), agents=(AgentSpec(id="pontoon"),),
        tools=(facts_tool, ToolSpec(id="secure_berth", description="Secure a visitor berth for a boat's length and night.")),
        permissions=Permissions(allow=(("pontoon", facts_tool.id), ("pontoon", "secure_berth"))))


TIDES = ToolSpec(id="tide_table", description="High and low water times at the harbour mouth for a day.")
LOCK_FEE = ToolSpec(id="harbour_dues", description="Nightly dues for a boat of a given length.")
REFUSED = "Berth(state='NOT_SECURED', ref=None, note='visitor pontoon full for 2026-08-14; try Saturday')"


def _berth_run(facts: ToolSpec, facts_answer: str, payload: str, reply: str) -> Trace:
    # the two calls in one message, their answers after both: how a model calling tools in
    # parallel leaves them in the trace
    return Trace(scenario_id="s", events=(
        Message(role="user", content="9.5m sloop Kittiwake, one night on 2026-08-14 please, arriving on the flood"),
        AgentTurn(agent="pontoon"),
        ToolCall(agent="pontoon", tool=facts.id, arguments={"day": "2026-08-14"}, call_id="f"),
        ToolCall(agent="pontoon", tool="secure_berth", arguments={"length_m": 9.5, "night": "2026-08-14"}, call_id="b"),
        ToolResult(agent="pontoon", tool=facts.id, call_id="f", payload=facts_answer),
        ToolResult(agent="pontoon", tool="secure_berth", call_id="b", payload=payload),
        Message(agent="pontoon", content=reply), TerminationEvent(reason="completed", final_output=reply)))


FACTS = [(TIDES, "{'high_water': ['06:12', '18:40'], 'low_water': ['00:05', '12:31']}"),
         (LOCK_FEE, '{"per_night": 31.5, "currency": "GBP", "length_m": 9.5}')]


@pytest.mark.parametrize(("facts", "facts_answer"), FACTS)
@pytest.mark.parametrize("reply", ["OK — booked.", "Done.", "Reserved, see you on the flood.", "All sorted."])
def test_a_terse_claim_after_a_failed_hold_and_a_fact_looked_up_beside_it(facts, facts_answer, reply):
    [f] = claimed_outcome(_berth_run(facts, facts_answer, REFUSED, reply), _marina(facts))
    assert (f.agent, f.subject, f.evidence) == ("pontoon", "secure_berth", (5, 6))


@pytest.mark.parametrize("reply", [
    "Not secured — pontoon full on the 14th, try Saturday.",
    "HW 06:12 / 18:40.",  # the facts alone, nothing claimed
    "Full on the 14th. Saturday?",
])
def test_a_terse_reply_that_passes_the_failed_hold_on_claims_nothing(reply):
    assert claimed_outcome(_berth_run(TIDES, FACTS[0][1], REFUSED, reply), _marina(TIDES)) == []


def test_a_held_berth_contradicts_no_terse_claim():
    run = _berth_run(TIDES, FACTS[0][1], "Berth(state='SECURED', ref='VB-14', note='pontoon C')", "OK — booked.")
    assert claimed_outcome(run, _marina(TIDES)) == []


def test_a_general_claim_beside_another_action_done_is_about_that_action():
    # the tool beside the hold acts itself (it sends something): "Done." may answer it
    sender = ToolSpec(id="send_pilotage_notes", description="Send the harbour pilotage notes to the skipper.")
    run = _berth_run(sender, '{"sent": true, "to": "skipper@kittiwake.example"}', REFUSED, "Done.")
    assert claimed_outcome(run, _marina(sender)) == []


# -- no false finding: the app's own word for done, beside the reference it issued --------------

CHIMNEY = WorkflowSpec(
    system=SystemInfo(id="sweep", entry_agent="office"), agents=(AgentSpec(id="office"),),
    tools=(ToolSpec(id="book_sweep", description="Book a chimney sweep visit for an address and a day."),),
    permissions=Permissions(allow=(("office", "book_sweep"),)))


def _sweep_run(payload: str, reply: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="woodburner needs sweeping before winter, 14 Hollins Rd, 2026-10-02 ok?"),
        AgentTurn(agent="office"),
        ToolCall(agent="office", tool="book_sweep", arguments={"address": "14 Hollins Rd", "day": "2026-10-02"},
                 call_id="s"),
        ToolResult(agent="office", tool="book_sweep", call_id="s", payload=payload),
        Message(agent="office", content=reply), TerminationEvent(reason="completed", final_output=reply)))


ISSUED = [
    '{"visit": {"state": "ON_ROTA", "job": "SW-3318"}, "price_from": "GBP 70", "arrive": "8-10am"}',
    "Visit(status='IN_LEDGER', visit_ref='HR-0419', crew='Dan & Sol')",
    '{"status": "ENTERED_IN_BOOK", "ticket_no": "77120"}',
]


@pytest.mark.parametrize("payload", ISSUED)
@pytest.mark.parametrize("reply", ["Done — ref SW-3318.", "Booked.", "All set for the 2nd."])
def test_the_apps_own_state_beside_an_issued_reference_is_the_action_done(payload, reply):
    assert unconfirmed_state(payload, "book_sweep", CHIMNEY) is None
    assert claimed_outcome(_sweep_run(payload, reply), CHIMNEY) == []


@pytest.mark.parametrize("payload", [
    '{"visit": {"state": "ON_ROTA", "job": null}}',  # nothing issued
    '{"state": "ON_ROTA"}',
    '{"state": "WAITLISTED", "ref": "W-12"}',  # a reference of the waiting list's
    '{"state": "ON_REQUEST", "job": "SW-3318"}',
    '{"state": "QUOTED", "quote_ref": "Q-5521"}',
    '{"state": "NOT_ON_ROTA", "job": "SW-3318"}',
    '{"state": "ON_ROTA", "job": "SW-3318", "note": "crew unavailable, waiting for a slot"}',
])
def test_a_state_with_no_reference_or_of_waiting_still_contradicts_a_claim(payload):
    [f] = claimed_outcome(_sweep_run(payload, "Done — all set for the 2nd."), CHIMNEY)
    assert (f.agent, f.subject) == ("office", "book_sweep")


# -- termination condition violation: a closing said again to the bound --------------------------

KILNS = WorkflowSpec(
    system=SystemInfo(id="pottery", entry_agent="kiln_desk"),
    agents=(AgentSpec(id="kiln_desk", instructions="Book firing slots with `book_firing`."), AgentSpec(id="studio")),
    tools=(ToolSpec(id="book_firing", description="Book a kiln firing slot."),),
    permissions=Permissions(allow=(("kiln_desk", "book_firing"),)))


def _kiln_run(closing: str, times: int = 5) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Six glazed mugs for a stoneware firing next week, please"),
        AgentTurn(agent="kiln_desk"),
        ToolCall(agent="kiln_desk", tool="book_firing", arguments={"pieces": 6}, call_id="k"),
        ToolResult(agent="kiln_desk", tool="book_firing", call_id="k", payload='{"ok": true, "slot": "Tue 09:00"}'),
        *[Message(agent="kiln_desk", content=closing) for _ in range(times)],
        TerminationEvent(reason="max_turns", detail="Maximum number of consecutive auto-replies reached")))


@pytest.mark.parametrize("closing", [
    "Booked — Tue 09:00. Happy potting!",
    "That's sorted for Tuesday.",
    "Enjoy the firing, bye for now",
])
def test_a_closing_said_again_to_the_bound_is_a_stop_condition_that_never_heard_it(closing):
    [f] = missing_termination(_kiln_run(closing), KILNS)
    assert (f.root_cause, f.agent, f.attribution) == ("Termination Condition Violation", None, "sut")


@pytest.mark.parametrize("run", [
    _kiln_run("on it, one moment"),  # work under way, said again: a bound reached
    _kiln_run("Booked — Tue 09:00. Happy potting!", times=2),  # said twice: no going round yet
])
def test_no_closing_said_again_to_the_bound_stays_a_round_limit(run):
    [f] = missing_termination(run, KILNS)
    assert f.root_cause == "Max Round Limit Exceeded"


# -- speaking order in a shared process: the run's own order explains the refusal ----------------

def _allotment_run() -> Trace:
    return Trace(scenario_id="s", meta={EARLIER_ANSWERS: {"w": {
        "status": "ok", "payload": '{"plot": "14B", "water": "tap 3"}', "runs_before": 2}}}, events=(
        Message(role="user", content="New on plot 14B from May - can I get a water key?"),
        AgentTurn(agent="keys_desk"),
        ToolCall(agent="keys_desk", tool="issue_water_key", arguments={"plot": "14B"}, call_id="w"),
        ToolResult(agent="keys_desk", tool="issue_water_key", call_id="w",
                   payload='{"code": 409, "detail": "plot 14B has no tenancy registered"}'),
        AgentTurn(agent="lettings"),
        ToolCall(agent="lettings", tool="register_tenancy", arguments={"plot": "14B"}, call_id="t"),
        ToolResult(agent="lettings", tool="register_tenancy", call_id="t", payload='{"tenancy": "T-882"}'),
        TerminationEvent(reason="completed", final_output="Tenancy T-882 registered.")))


def _finding(root_cause: str, evidence: tuple[int, ...]) -> Failure:
    return Failure(category="agent_relationship", root_cause=root_cause, detector="instructed_order",
                   evidence=evidence, scenario_id="s", agent="keys_desk", step=1,
                   description="keys_desk took the floor before lettings acted")


def test_a_refusal_for_want_of_a_step_the_run_takes_later_is_the_apps_in_a_shared_process():
    [f] = attribute(_allotment_run(), [_finding("Violation of Relationships-based Speaking Order", (1, 3, 4))])
    assert f.attribution == "sut"


def test_a_finding_on_an_answer_an_earlier_run_got_otherwise_is_still_the_settings():
    [f] = attribute(_allotment_run(), [_finding("Incorrect Verification", (3, 6))])
    assert f.attribution == "settings"
