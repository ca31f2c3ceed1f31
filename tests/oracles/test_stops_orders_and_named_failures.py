"""Three classes of finding on small teams, each beside its correct twin:

- a stop condition that fires on a hand-over to a member of the team (AgentChat's
  `HandoffTermination` aimed at a member, not at "user"): the framework opens the receiver's
  turn and the team ends before it says or calls anything; the hand-over to "user" that ends a
  Swarm by design stays clean;
- a dependency an agent's instructions state as the state another agent's work left a product in
  ("works from the lots graded fit to ship"), in a sequence the framework runs in a fixed order (a
  nested-chat queue): the dependent agent speaking first is a speaking-order violation;
- a success claimed after a failure the claimer's own instructions name and say what to do on
  ("If reserve_kiln says overbooked, ..."): the model did not follow the app, the finding is set
  aside (attribution harness); a failure the instructions name only in general words ("if it
  fails") while the result says it failed in its own fields, and a failure they do not name at
  all, stay the app's.
"""

from __future__ import annotations

from masfuzz.oracles import detect
from masfuzz.oracles.instructed import instructed_order
from masfuzz.oracles.semantic import claimed_outcome
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, Termination, ToolSpec, WorkflowSpec
from masfuzz.trace import (
    AgentTurn, ChatEnd, ChatStart, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace,
)


# -- a stop condition that fires on a hand-over to a member ------------------------------------

def _hand(a: str, b: str) -> DelegationEvent:
    return DelegationEvent.model_validate({"from": a, "to": b, "trigger": "handoff"})


PLANT_HIRE = WorkflowSpec(
    system=SystemInfo(id="plant_hire", entry_agent="counter", pattern="handoff"),
    agents=(AgentSpec(id="counter", instructions="Transfer to depot for digger or dumper hire."),
            AgentSpec(id="depot", instructions="Reserve the machine with hold_machine, then transfer to user.")),
    tools=(ToolSpec(id="hold_machine", description="Hold a machine for a hire day."),),
    permissions=Permissions(allow=(("depot", "hold_machine"),)),
    delegations=(Delegation.model_validate({"from": "counter", "to": "depot", "trigger": "handoff"}),),
    termination=Termination(conditions=("HandoffTermination(target='depot')",)))
ASK_HIRE = "Could I hire a 1.5 tonne mini digger for Saturday? Account PH-3310."


def test_a_stop_condition_that_fires_on_the_hand_over_to_a_member_ends_the_team_early():
    stopped = Trace(scenario_id="s", events=(
        Message(role="user", content=ASK_HIRE), AgentTurn(agent="counter"),
        Message(agent="counter", content="Transferred to depot."), _hand("counter", "depot"),
        AgentTurn(agent="depot"),
        TerminationEvent(reason="handoff_to_user", detail="Handoff to depot from counter detected.")))
    [f] = [f for f in detect(stopped, PLANT_HIRE) if f.root_cause == "Premature Termination"]
    assert (f.elements, f.agent, f.attribution) == (("counter", "depot"), "counter", "sut")
    assert "fired on this hand-over to a member" in f.description


def test_the_hand_over_to_the_user_that_ends_a_swarm_by_design_is_no_early_end():
    answered = Trace(scenario_id="s", events=(
        Message(role="user", content=ASK_HIRE), AgentTurn(agent="counter"),
        Message(agent="counter", content="Transferred to depot."), _hand("counter", "depot"),
        AgentTurn(agent="depot"),
        ToolCall(agent="depot", tool="hold_machine", call_id="h", arguments={"machine": "mini digger"}),
        ToolResult(agent="depot", tool="hold_machine", call_id="h", payload='{"held": true, "ref": "MD-88"}'),
        Message(agent="depot", content="Your mini digger is held for Saturday, reference MD-88."),
        _hand("depot", "user"),
        TerminationEvent(reason="handoff_to_user", detail="Handoff to user from depot detected.",
                         final_output="Your mini digger is held for Saturday, reference MD-88.")))
    assert [f for f in detect(answered, PLANT_HIRE) if f.root_cause == "Premature Termination"] == []


# -- a dependency stated as the state another's work left a product in ----------------------

PACKHOUSE = WorkflowSpec(
    system=SystemInfo(id="packhouse", entry_agent="orders", pattern="orchestrated"),
    agents=(AgentSpec(id="orders"),
            AgentSpec(id="grader", instructions="Grade the day's apple lots with grade_lots."),
            AgentSpec(id="loader", instructions=("You plan the lorry loads at Brookfield packhouse, "
                                                 "working from the lots graded fit to ship.\n"
                                                 "Put the order on a lorry with plan_load."))),
    tools=(ToolSpec(id="grade_lots", description="Grade apple lots for export."),
           ToolSpec(id="plan_load", description="Put an order's lots on a lorry.")),
    permissions=Permissions(allow=(("grader", "grade_lots"), ("loader", "plan_load"))))
ORDER = "Please ship 40 crates of Cox to the Rotterdam buyer on Friday."


def _queue(first: str, second: str) -> Trace:
    turns = {"grader": (ToolCall(agent="grader", tool="grade_lots", call_id="g", arguments={"day": "Friday"}),
                        ToolResult(agent="grader", tool="grade_lots", call_id="g", payload="lots L4, L9: class I"),
                        Message(agent="grader", content="Lots L4 and L9 are class I.")),
             "loader": (Message(agent="loader", content="Which lots should go on the lorry?"),)}
    events: list = [Message(role="user", content=ORDER)]
    for n, agent in enumerate((first, second), start=2):
        events += [ChatStart(chat=f"chat-{n}", parent="chat-1", kind="nested", sender="orders", recipient=agent),
                   Message(role="user", content=ORDER), AgentTurn(agent=agent), *turns[agent],
                   ChatEnd(chat=f"chat-{n}", reason="Maximum turns (2) reached")]
    return Trace(scenario_id="s", events=(*events, TerminationEvent(reason="max_turns")))


def test_an_agent_working_from_products_another_finds_speaks_out_of_order_when_the_queue_runs_it_first():
    [f] = instructed_order(_queue("loader", "grader"), PACKHOUSE)
    assert (f.elements, f.agent) == (("grader", "loader"), "loader")
    assert instructed_order(_queue("grader", "loader"), PACKHOUSE) == []


# -- a failure the claimer's own instructions name ------------------------------------------

def _studio(line: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="pottery", entry_agent="kiln_room"),
        agents=(AgentSpec(id="kiln_room", instructions=f"Reserve a firing with reserve_kiln.\n{line}\n"
                                                       "Confirm the firing."),),
        tools=(ToolSpec(id="reserve_kiln", description="Reserve a shelf in the glaze firing."),),
        permissions=Permissions(allow=(("kiln_room", "reserve_kiln"),)))


def _claimed(payload: str, *, status: str = "ok") -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Can my two bowls go in Thursday's glaze firing?"),
        AgentTurn(agent="kiln_room"),
        ToolCall(agent="kiln_room", tool="reserve_kiln", call_id="k", arguments={"day": "Thursday", "pieces": 2}),
        ToolResult(agent="kiln_room", tool="reserve_kiln", call_id="k", status=status, payload=payload),
        Message(agent="kiln_room", content="I've reserved the firing for you on Thursday."),
        TerminationEvent(reason="completed", final_output="I've reserved the firing for you on Thursday.")))


OVERBOOKED = '{"state": "overbooked", "shelves_left": 0}'


def test_a_claim_after_a_failure_the_claimers_instructions_name_is_the_models_lapse():
    [f] = claimed_outcome(_claimed(OVERBOOKED), _studio(
        "If reserve_kiln comes back overbooked, tell the potter the next firing with space."))
    assert f.attribution == "harness" and "did not follow" in f.because
    [f] = claimed_outcome(_claimed('{"code": 503, "detail": "kiln controller offline"}'), _studio(
        "If reserve_kiln fails, apologise and say the firing is not reserved."))
    assert f.attribution == "harness"


def test_a_claim_after_a_failure_the_instructions_do_not_name_stays_the_apps():
    # no rule for this failure at all
    [f] = claimed_outcome(_claimed(OVERBOOKED), _studio("Tell the potter when to bring the pieces."))
    assert f.attribution == "sut"
    # a rule for another failure ("cracked") only
    [f] = claimed_outcome(_claimed(OVERBOOKED), _studio("If reserve_kiln says cracked, ask for photos."))
    assert f.attribution == "sut"
    # general words ("fails", "raises an error") and a result that says it failed in its own fields
    for line in ("If reserve_kiln fails, say the firing is not reserved.",
                 "If reserve_kiln raises an error, say the firing is not reserved."):
        [f] = claimed_outcome(_claimed('{"accepted": false, "why": "every shelf is taken"}'), _studio(line))
        assert f.attribution == "sut"
    # "raises an error" does not name an HTTP error code in an answer the tool returned
    [f] = claimed_outcome(_claimed('{"code": 409, "detail": "clash"}'), _studio(
        "If reserve_kiln raises an error, say the firing is not reserved."))
    assert f.attribution == "sut"
    # a condition on a field of the answer ("answers reservations") is the success's, not a failure's
    [f] = claimed_outcome(_claimed('{"day": "Thursday", "reservations": []}'),
                          _studio("If reserve_kiln answers reservations, say it is done."))
    assert f.attribution == "sut"
