"""Fixed twins driven by scripted models they were not written for: what such a model does against
the app's plain instructions is the model's (attribution `harness`), what the app's own words or
wiring cause stays the app's, and a state word the oracles did not know is no failure. Each class
beside its twin.

- participation: a Swarm agent whose own rule hands this request to a member, and which handed
  the floor to the user instead (a hand-off to the user is its model's last word, as a reply is),
  passed the member over; its closing line quoted with a question inside ('Say "Where to?
  TERMINATE."') is one line, which the run's end did not say.
- information loss: in a team whose members read one another's replies, a hander told to report
  its tool's result ("Report the result of best_available.") whose reply left the result out.
- misrouted request: a classifier whose instructions give a label for this request and which said
  none of theirs (a summary of its own), read by the app's router.
- incorrect verification: a claim after a failed answer whose code the claimer's instructions name
  ("If hold_seats answers E409, say ...") beside a detail in words; and a courier run HANDED_OVER
  on a second look is a thing carried that reached its end, no failure to claim against.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import misrouted_request, participation
from masfuzz.oracles.semantic import claimed_outcome, handover_facts
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import (HANDOVER_INPUTS, AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult,
                           Trace)


def _handoff(frm: str, to: str, trigger: str = "handoff") -> DelegationEvent:
    return DelegationEvent.model_validate({"from": frm, "to": to, "trigger": trigger})


# -- participation: a hand-off to the user against the agent's own routing --------------------------

def _kayaks(desk_rules: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="kayak_hire", entry_agent="quay_desk", framework="autogen", pattern="handoff"),
        agents=(AgentSpec(id="quay_desk", instructions=desk_rules, model_settings={"handoffs": ["paddles_k", "user"]}),
                AgentSpec(id="paddles_k", instructions="Put buoyancy aids aside with reserve_aids. Then hand the "
                                                       "conversation back to the user.",
                          model_settings={"handoffs": ["user"]})),
        tools=(ToolSpec(id="book_kayaks", description="Book kayaks for a group on a day.",
                        parameters={"type": "object", "required": ["boats"], "properties": {"boats": {"type": "integer"}}}),
               ToolSpec(id="reserve_aids", description="Put buoyancy aids aside for a group.",
                        parameters={"type": "object", "required": ["aids"], "properties": {"aids": {"type": "integer"}}})),
        permissions=Permissions(allow=(("quay_desk", "book_kayaks"), ("paddles_k", "reserve_aids"))),
        delegations=tuple(Delegation.model_validate({"from": f, "to": t, "trigger": "handoff"})
                          for f, t in (("quay_desk", "paddles_k"), ("quay_desk", "user"), ("paddles_k", "user"))),
        termination={"conditions": ("HandoffTermination(target='user')",)})


ROUTES_AIDS = ("You take kayak bookings at Tarn Quay.\nBook the kayaks with book_kayaks.\n"
               "Hand off to paddles_k when the request mentions buoyancy aids or aids.\n"
               'Say "Which day would you like to paddle? TERMINATE."')
NO_ROUTE = ("You take kayak bookings at Tarn Quay.\nBook the kayaks with book_kayaks.\n"
            "Then hand the conversation back to the user.")


def _kayak_run() -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Four kayaks for Sunday please, and we'll need 4 buoyancy aids as well."),
        AgentTurn(agent="quay_desk"),
        ToolCall(agent="quay_desk", tool="book_kayaks", arguments={"boats": 4}, call_id="k"),
        ToolResult(agent="quay_desk", tool="book_kayaks", call_id="k", payload="{'booked': True, 'ref': 'TQ-44'}"),
        Message(agent="quay_desk", content="{'booked': True, 'ref': 'TQ-44'}"),
        Message(agent="quay_desk", content="Transferred to user, adopting the role of user immediately."),
        _handoff("quay_desk", "user"),
        TerminationEvent(reason="handoff_to_user", detail="Handoff to user from quay_desk detected.")))


def test_a_hand_off_to_the_user_against_the_agent_s_own_routing_is_the_model_s():
    [f] = participation(_kayak_run(), _kayaks(ROUTES_AIDS))
    assert (f.root_cause, f.elements, f.attribution) == ("Premature Termination", ("quay_desk", "paddles_k"),
                                                         "harness")


def test_a_hand_off_to_the_user_the_agent_s_rules_ask_for_stays_the_app_s():
    [f] = participation(_kayak_run(), _kayaks(NO_ROUTE))
    assert (f.root_cause, f.attribution) == ("Premature Termination", "sut")


# -- information loss: a reply that left out the result it was told to report -----------------------

BOX_OFFICE = WorkflowSpec(
    system=SystemInfo(id="box_office", entry_agent="seat_map", framework="autogen", pattern="selector"),
    agents=(AgentSpec(id="seat_map", instructions="You find seats on the seat map.\nCall free_pair.\n"
                                                  "Report the result of free_pair."),
            AgentSpec(id="till", instructions="You hold seats.\nCall hold_pair.\nSay the seats are held.")),
    tools=(ToolSpec(id="free_pair", description="The best free pair of seats for a show.",
                    parameters={"type": "object", "required": ["show"], "properties": {"show": {"type": "string"}}}),
           ToolSpec(id="hold_pair", description="Hold a pair of seats until payment.",
                    parameters={"type": "object", "required": ["seats"], "properties": {"seats": {
                        "type": "string", "description": 'The seat numbers on the map, like "101-102"'}}})),
    permissions=Permissions(allow=(("seat_map", "free_pair"), ("till", "hold_pair"))))
ASK = "Two seats together for the Saturday matinee of Hedda please, show HG-2210."


def _box_office(reply: str) -> Trace:
    events = (
        Message(role="user", content=ASK), AgentTurn(agent="seat_map"),
        ToolCall(agent="seat_map", tool="free_pair", arguments={"show": "HG-2210"}, call_id="f"),
        ToolResult(agent="seat_map", tool="free_pair", call_id="f", payload="Best pair: seats 311-312, row K."),
        Message(agent="seat_map", content=reply),
        _handoff("seat_map", "till", "selector"), AgentTurn(agent="till"),
        Message(agent="till", content="Before I hold anything: what are the seat numbers on the map?"),
        TerminationEvent(reason="completed", detail="'till' answered"))
    return Trace(scenario_id="s", events=events,
                 meta={HANDOVER_INPUTS: [{"agent": "till", "since": 5, "text": f"{ASK}\n{reply}"}]})


def test_a_hander_that_left_out_the_result_it_was_told_to_report_is_the_model_s():
    [f] = handover_facts(_box_office("Summary: nothing needed doing on my side."), BOX_OFFICE)
    assert (f.root_cause, f.agent, f.attribution) == ("Information Loss at Hand-over", "seat_map", "harness")


def test_a_hander_not_told_to_report_the_result_keeps_the_loss_the_app_s():
    told_nothing = BOX_OFFICE.model_copy(update={"agents": (
        BOX_OFFICE.agent("seat_map").model_copy(update={"instructions": "You find seats.\nCall free_pair."}),
        BOX_OFFICE.agents[1])})
    [f] = handover_facts(_box_office("Summary: nothing needed doing on my side."), told_nothing)
    assert (f.root_cause, f.attribution) == ("Information Loss at Hand-over", "sut")


# -- misrouted request: a classifier that said no label of its instructions ------------------------

SURGERY = WorkflowSpec(
    system=SystemInfo(id="vet_surgery", entry_agent="sorter", pattern="graph"),
    agents=(AgentSpec(id="sorter", instructions='Say "JAB" when the request mentions vaccination, booster or jab.\n'
                                                'Say "OTHER".', model_settings={"route_labels": ["JAB", "OTHER"]}),
            AgentSpec(id="nurse"), AgentSpec(id="front")),
    tools=(ToolSpec(id="book_booster", description="Book a booster vaccination for a pet."),
           ToolSpec(id="opening_hours", description="The surgery's opening hours.")),
    permissions=Permissions(allow=(("nurse", "book_booster"), ("front", "opening_hours"))),
    delegations=tuple(Delegation.model_validate({"from": "sorter", "to": to, "trigger": "graph_edge",
                                                 "condition": f"route -> {to}"}) for to in ("nurse", "front")))


def _sorted(said: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Could you book a booster for Biscuit next week?"),
        AgentTurn(agent="sorter"), Message(agent="sorter", content=said),
        _handoff("sorter", "front", "graph_edge"), AgentTurn(agent="front"),
        ToolCall(agent="front", tool="opening_hours", call_id="c", arguments={}),
        ToolResult(agent="front", tool="opening_hours", call_id="c", payload="Mon-Sat 08:30-18:00."),
        Message(agent="front", content="We're open Mon-Sat 08:30-18:00."),
        TerminationEvent(reason="completed", final_output="We're open Mon-Sat 08:30-18:00.")))


@pytest.mark.parametrize("said,attribution", [
    ("Summary: nothing needed doing on my side", "harness"),  # no label its instructions give
    ("OTHER", "sut"),  # a label of theirs, the wrong one: the classifier's choice, the app's
])
def test_a_classifier_that_said_no_label_of_its_instructions_is_the_model_s(said, attribution):
    [f] = misrouted_request(_sorted(said), SURGERY)
    assert (f.agent, f.attribution) == ("sorter", attribution)


# -- incorrect verification ----------------------------------------------------------------------

def _till(rules: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="till", entry_agent="till"), agents=(AgentSpec(id="till", instructions=rules),),
        tools=(ToolSpec(id="hold_pair", description="Hold a pair of seats until payment."),),
        permissions=Permissions(allow=(("till", "hold_pair"),)))


def _held(payload: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Please hold 311-312 for Saturday's matinee."), AgentTurn(agent="till"),
        ToolCall(agent="till", tool="hold_pair", arguments={"seats": "311-312"}, call_id="h"),
        ToolResult(agent="till", tool="hold_pair", call_id="h", payload=payload),
        Message(agent="till", content="Lovely - your seats are held until the interval. Pay at the window."),
        TerminationEvent(reason="completed", final_output="Lovely - your seats are held.")))


TAKEN = '{"code": "E409", "detail": "311-312 already taken", "hold": null}'


@pytest.mark.parametrize("rules,attribution", [
    # the code its instructions name, beside the detail in words: told what to do, and did not
    ('Call hold_pair.\nIf hold_pair answers E409, say "Sorry - those went a moment ago."\nSay the seats are held.',
     "harness"),
    # instructions that look for another word: the claim follows them, the app's
    ('Call hold_pair.\nIf hold_pair answers SOLD_OUT, say "Sorry - those went a moment ago."\nSay the seats are held.',
     "sut"),
])
def test_a_claim_after_a_failure_whose_code_the_instructions_name_is_the_model_s(rules, attribution):
    [f] = claimed_outcome(_held(TAKEN), _till(rules))
    assert (f.root_cause, f.attribution) == ("Incorrect Verification", attribution)


COURIER = WorkflowSpec(
    system=SystemInfo(id="courier_line", entry_agent="run_k"),
    agents=(AgentSpec(id="run_k", instructions="Call courier_status until it says HANDED_OVER. "
                                               "Report the result of courier_status."),),
    tools=(ToolSpec(id="courier_status", description="Where a courier run is now."),),
    permissions=Permissions(allow=(("run_k", "courier_status"),)))


def test_a_run_handed_over_on_a_second_look_is_no_failure_to_claim_against():
    looks = [('{"run": "cr-12", "status": "IN_TRANSIT", "eta": "11:40"}', "a"),
             ('{"run": "cr-12", "status": "HANDED_OVER", "at": "11:36", "to": "ward 3 reception"}', "b")]
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Has courier run cr-12 reached ward 3 yet?"), AgentTurn(agent="run_k"),
        *[x for payload, c in looks for x in (
            ToolCall(agent="run_k", tool="courier_status", arguments={"run": "cr-12"}, call_id=c),
            ToolResult(agent="run_k", tool="courier_status", call_id=c, payload=payload))],
        Message(agent="run_k", content="Done - run cr-12 was handed over to ward 3 reception at 11:36."),
        TerminationEvent(reason="completed", final_output="Done.")))
    assert claimed_outcome(trace, COURIER) == []
