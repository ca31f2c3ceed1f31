"""Classes of misses a blind set (zoo27, a planner that narrates) showed, over hand-built traces in
other wordings than the zoo's: a fact a chat sequence's carried summary dropped, asked for after a
look-up that tried nothing of it; a speaker the app's candidate function left alone (no model
chose it); a code router's stop test ending the run before the member a value the user gave is
for; a refusal of the documentation's own example value (an unknown record, no step wanting)."""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import MISROUTED, SPEAKING_ORDER, instructed_order, misrouted_request, participation
from masfuzz.oracles.semantic import INFORMATION_LOSS, handover_facts
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, Termination, ToolSpec, WorkflowSpec
from masfuzz.trace import (
    HANDOVER_INPUTS, AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace,
)

# -- a fact a carried summary dropped, asked for after a look-up of something else ------------------

NURSERY = WorkflowSpec(
    system=SystemInfo(id="nursery", entry_agent="intake", pattern="fixed_order"),
    agents=(AgentSpec(id="intake", instructions="Summarise the customer's order for the despatch desk."),
            AgentSpec(id="despatch", instructions="Find the plants with find_stock, then send them with "
                      "send_order.")),
    tools=(ToolSpec(id="find_stock", description="Find plants in stock that match a request.",
                    parameters={"type": "object", "properties": {
                        "request": {"type": "string", "description": "What the customer wants"}}}),
           ToolSpec(id="send_order", description="Send an order to a trade account.",
                    parameters={"type": "object", "properties": {
                        "account": {"type": "string",
                                    "description": 'The garden centre\'s trade account, e.g. "TA-00000"'},
                        "plant": {"type": "string", "description": "The plant's code"}},
                        "required": ["account", "plant"]})),
    permissions=Permissions(allow=(("despatch", "find_stock"), ("despatch", "send_order"))))

ASK = ("Thanks - before I send anything I need two things:\n1. Which trade account should this go on?\n"
       "2. Please confirm the garden centre's trade account.")


def _nursery(look_up: str, payload: str, status: str = "ok") -> Trace:
    task = "Hello, Brookfield Garden Centre here, trade account ta-55102. Could we have 40 lavender plugs?"
    summary = "Order: 40 lavender plugs for Brookfield Garden Centre."
    return Trace(scenario_id="s", events=(
        Message(role="user", content=task),
        AgentTurn(agent="intake"),
        Message(agent="intake", content=summary),
        DelegationEvent(from_="intake", to="despatch", trigger="sequence"),
        AgentTurn(agent="despatch"),
        Message(agent="despatch", content="Plan: 1) find stock 2) send order. Step 1/2 — find stock"),
        ToolCall(agent="despatch", tool="find_stock", arguments={"request": look_up}, call_id="c1"),
        ToolResult(agent="despatch", tool="find_stock", call_id="c1", status=status, payload=payload),
        Message(agent="despatch", content=ASK),
        TerminationEvent(reason="max_turns", final_output=ASK)),
        meta={HANDOVER_INPUTS: [{"agent": "despatch", "since": 3,
                                 "text": "Send the order.\nContext: " + summary}]})


def test_a_fact_a_carried_summary_dropped_is_lost_though_the_receiver_looked_something_else_up():
    [f] = handover_facts(_nursery("40 lavender plugs", '[{"plant": "LAV-12", "in_stock": 300}]'), NURSERY)
    assert (f.root_cause, f.agent, f.elements[:2]) == (INFORMATION_LOSS, "intake", ("intake", "despatch"))
    assert "ta-55102" in f.description


@pytest.mark.parametrize("look_up,payload,status", [
    ("account TA-55102", '[{"plant": "LAV-12", "in_stock": 300}]', "ok"),  # it tried the value itself
    ("40 lavender plugs", "[]", "ok"),  # the look-up found nothing
    ("40 lavender plugs", "stock system unavailable", "error"),  # the tool failed
])
def test_asking_after_a_call_that_tried_the_fact_or_failed_is_no_loss(look_up, payload, status):
    assert handover_facts(_nursery(look_up, payload, status), NURSERY) == []


# -- a speaker the app's candidate function left alone is the app's choice --------------------------

KENNELS = WorkflowSpec(
    system=SystemInfo(id="kennels", entry_agent="grooming", framework="autogen", pattern="selector"),
    agents=(AgentSpec(id="grooming", description="Books baths, trims and nail clips for dogs."),
            AgentSpec(id="boarding", description="Books overnight kennel stays while owners are away.")),
    tools=(ToolSpec(id="book_trim", description="Book a trim for a dog.",
                    parameters={"type": "object", "properties": {"day": {"type": "string"}}}),
           ToolSpec(id="book_stay", description="Book a kennel stay for a dog.",
                    parameters={"type": "object", "properties": {"nights": {"type": "integer"}}})),
    permissions=Permissions(allow=(("grooming", "book_trim"), ("boarding", "book_stay"))),
    delegations=(Delegation(**{"from": "grooming", "to": "boarding", "trigger": "selector",
                               "condition": "chosen by the selector model among candidates from pick"}),
                 Delegation(**{"from": "boarding", "to": "grooming", "trigger": "selector",
                               "condition": "chosen by the selector model among candidates from pick"})))


def _kennels(callers: dict[str, int]) -> Trace:
    ask = "We're away for a week in August - could you arrange an overnight kennel stay for our collie, 7 nights?"
    return Trace(scenario_id="s", events=(
        Message(role="user", content=ask),
        AgentTurn(agent="grooming"),
        ToolCall(agent="grooming", tool="book_trim", arguments={"day": "2026-08-01"}, call_id="c1"),
        ToolResult(agent="grooming", tool="book_trim", call_id="c1", status="ok", payload="trim booked 1 Aug"),
        Message(agent="grooming", content="Summary: ✅ 1. trim → booked for 1 August"),
        TerminationEvent(reason="completed", final_output="Summary: ✅ 1. trim → booked for 1 August")),
        meta={"speaking_order": ["grooming"],
              "agent_settings": {a: {"model": "scripted/p.py:policy", "calls": n} for a, n in callers.items()}})


def test_a_speaker_no_model_chose_is_the_apps_misroute():
    # the members' descriptions point the stay to boarding; the selector's model made no call:
    # the app's candidate function left grooming alone
    [f] = misrouted_request(_kennels({"grooming": 2}), KENNELS)
    assert (f.root_cause, f.agent, f.attribution) == (MISROUTED, None, "sut")


def test_a_speaker_the_selector_model_chose_against_the_descriptions_is_the_models():
    [f] = misrouted_request(_kennels({"selector": 1, "grooming": 2}), KENNELS)
    assert (f.root_cause, f.attribution) == (MISROUTED, "harness")


# -- a code router's stop test ending the run before the member the task's value is for -----------

def _florist(courier_told: str = "Order the flowers with order_flowers.") -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="florist", entry_agent="stems", framework="langgraph", pattern="graph"),
        agents=(AgentSpec(id="stems", instructions=courier_told),
                AgentSpec(id="courier_c", instructions="Book the van with book_courier.")),
        tools=(ToolSpec(id="order_flowers", description="Order flowers from the wholesaler.", parameters={
                   "type": "object", "required": ["day", "flowers"], "properties": {
                       "day": {"type": "string", "description": 'The wedding day, like "2026-01-31"'},
                       "flowers": {"type": "string", "description": "The flowers wanted"}}}),
               ToolSpec(id="book_courier", description="Book the van to the venue.", parameters={
                   "type": "object", "required": ["day", "venue"], "properties": {
                       "day": {"type": "string", "description": 'The wedding day, like "2026-01-31"'},
                       "venue": {"type": "string", "description": 'The venue\'s booking number, like "VN-0000"'}}})),
        permissions=Permissions(allow=(("stems", "order_flowers"), ("courier_c", "book_courier"))),
        delegations=(Delegation(**{"from": "stems", "to": "courier_c", "trigger": "graph_edge",
                                   "condition": "after_desk -> courier_c"}),
                     Delegation(**{"from": "courier_c", "to": "stems", "trigger": "graph_edge",
                                   "condition": "after_desk -> stems"})),
        termination=Termination(conditions=("stems -> END when after_desk -> __end__",
                                            "courier_c -> END when after_desk -> __end__")))


def _wedding(task: str) -> Trace:
    said = "All sorted: ALL DONE - white roses ordered for 2026-09-12."
    return Trace(scenario_id="s", events=(
        Message(role="user", content=task),
        AgentTurn(agent="stems"),
        ToolCall(agent="stems", tool="order_flowers", arguments={"day": "2026-09-12", "flowers": "white roses"},
                 call_id="c1"),
        ToolResult(agent="stems", tool="order_flowers", call_id="c1", status="ok", payload='{"order": "FL-88"}'),
        Message(agent="stems", content=said),
        TerminationEvent(reason="completed", detail="the graph reached END", final_output=said)))


TASK = ("We're getting married on 12 September 2026 - white roses for the tables please. "
        "The barn's booking number is VN-4410, they open the doors at noon.")


def test_a_code_router_ending_before_the_member_a_given_value_is_for_cuts_it_out():
    [f] = participation(_wedding(TASK), _florist())
    assert (f.root_cause, f.agent, f.elements) == ("Premature Termination", "stems", ("stems", "courier_c"))
    assert "VN-4410" in f.description


@pytest.mark.parametrize("task,told", [
    # the value was for no one's tools: nothing says the courier was wanted
    ("We're getting married on 12 September 2026 - white roses for the tables please.",
     "Order the flowers with order_flowers."),
    # a supervisor told whom to pass to chose the end its router read
    (TASK, "Order the flowers with order_flowers, then say courier_c or FINISH."),
])
def test_no_value_for_the_member_or_an_ender_that_chooses_the_route_is_no_cut(task, told):
    assert participation(_wedding(task), _florist(told)) == []


# -- a refusal of the documentation's own example is an unknown record, no step wanting -------------

KITCHENS = WorkflowSpec(
    system=SystemInfo(id="kitchens", entry_agent="costing", framework="autogen", pattern="fixed_order"),
    agents=(AgentSpec(id="costing", instructions="Cost the kitchen with cost_units."),
            AgentSpec(id="designer", instructions="Draw the kitchen with draw_layout.")),
    tools=(ToolSpec(id="cost_units", description="Cost the units of a kitchen layout.", parameters={
               "type": "object", "properties": {
                   "layout": {"type": "string", "description": 'The layout number, e.g. "KL-1000"'}}}),
           ToolSpec(id="draw_layout", description="Draw a kitchen layout for a survey.", parameters={
               "type": "object", "properties": {
                   "layout": {"type": "string", "description": 'The layout number, e.g. "KL-1000"'}}})),
    permissions=Permissions(allow=(("costing", "cost_units"), ("designer", "draw_layout"))))


def _kitchen(layout: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="How much would new units for our galley kitchen cost?"),
        AgentTurn(agent="costing"),
        ToolCall(agent="costing", tool="cost_units", arguments={"layout": layout}, call_id="c1"),
        ToolResult(agent="costing", tool="cost_units", call_id="c1", status="ok",
                   payload=f'{{"layout": "{layout}", "status": 404, "detail": "no layout drawn for this kitchen"}}'),
        Message(agent="costing", content="Summary: ❌ 1. cost units → not done: no layout drawn"),
        AgentTurn(agent="designer"),
        ToolCall(agent="designer", tool="draw_layout", arguments={"layout": layout}, call_id="c2"),
        ToolResult(agent="designer", tool="draw_layout", call_id="c2", status="ok", payload='{"drawn": true}'),
        Message(agent="designer", content="Summary: ✅ 1. draw layout → done"),
        TerminationEvent(reason="completed", final_output="Summary: ✅ 1. draw layout → done")))


def test_a_refused_documented_example_is_no_speaking_order_violation():
    assert instructed_order(_kitchen("KL-1000"), KITCHENS) == []


def test_a_refused_real_record_the_later_member_makes_still_is():
    [f] = instructed_order(_kitchen("KL-4471"), KITCHENS)
    assert (f.root_cause, f.agent, f.elements) == (SPEAKING_ORDER, "costing", ("designer", "costing"))


# -- a manager calling its desks in turn; a brief its own instructions told it to complete --------

def _agency(front_told: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="agency", entry_agent="lead", framework="openai-agents", pattern="orchestrated"),
        agents=(AgentSpec(id="lead", instructions=front_told),
                AgentSpec(id="checks", instructions="Vet the sitter with vet_sitter."),
                AgentSpec(id="rota", instructions="Book the visit with book_visit.")),
        tools=(ToolSpec(id="ask_checks", description="Ask the checks desk to vet a sitter."),
               ToolSpec(id="ask_rota", description="Ask the rota desk to book a visit."),
               ToolSpec(id="vet_sitter", description="Vet a pet sitter's background.", parameters={
                   "type": "object", "required": ["sitter"], "properties": {
                       "sitter": {"type": "string", "description": 'The sitter\'s badge number, e.g. "PS-1000"'}}}),
               ToolSpec(id="book_visit", description="Book a sitter's visit.", parameters={
                   "type": "object", "required": ["day"], "properties": {
                       "day": {"type": "string", "description": 'The visit day, e.g. "2026-01-31"'}}})),
        permissions=Permissions(allow=(("lead", "ask_checks"), ("lead", "ask_rota"), ("checks", "vet_sitter"),
                                       ("rota", "book_visit"))),
        delegations=(Delegation(**{"from": "lead", "to": "checks", "trigger": "as_tool", "condition": "ask_checks"}),
                     Delegation(**{"from": "lead", "to": "rota", "trigger": "as_tool", "condition": "ask_rota"})))


STEPS = "Call ask_checks first, passing the sitter's badge number. Then call ask_rota with the day."
ASKED = "Before I go on:\n1. What is the sitter's badge number?"


def _sitting(brief: str) -> Trace:
    task = "Please vet the sitter with badge number PS-7712 before she starts."
    return Trace(scenario_id="s", events=(
        Message(role="user", content=task),
        AgentTurn(agent="lead"),
        ToolCall(agent="lead", tool="ask_checks", arguments={"input": brief}, call_id="a1"),
        DelegationEvent(from_="lead", to="checks", trigger="as_tool"),
        AgentTurn(agent="checks"),
        Message(agent="checks", content=ASKED),
        ToolResult(agent="lead", tool="ask_checks", call_id="a1", status="ok", payload=ASKED),
        ToolCall(agent="lead", tool="ask_rota", arguments={"input": brief}, call_id="a2"),
        DelegationEvent(from_="lead", to="rota", trigger="as_tool"),
        AgentTurn(agent="rota"),
        Message(agent="rota", content="Which day should the visit be?"),
        ToolResult(agent="lead", tool="ask_rota", call_id="a2", status="ok", payload="Which day should the visit be?"),
        Message(agent="lead", content="Summary: • 1. checks → asks for the badge number • 2. rota → asks for the day"),
        TerminationEvent(reason="completed", final_output="Summary")),
        meta={HANDOVER_INPUTS: [{"agent": "checks", "since": 4, "text": brief},
                                {"agent": "rota", "since": 9, "text": brief}]})


def test_a_manager_calling_the_next_desk_after_the_right_one_is_no_misroute():
    assert misrouted_request(_sitting("Task: vet the sitter before she starts"), _agency(STEPS)) == []


def test_a_fact_the_hander_was_told_to_pass_and_its_brief_left_out_is_the_models_lapse():
    [f] = handover_facts(_sitting("Task: vet the sitter before she starts"), _agency(STEPS))
    assert (f.root_cause, f.agent, f.attribution) == (INFORMATION_LOSS, "lead", "harness")
    assert "badge number" in f.because


@pytest.mark.parametrize("told", [
    "Call ask_checks first. Then call ask_rota with the day.",  # told nothing of the badge
    "Call ask_checks first; if the sitter is new, pass the sitter's badge number.",  # only under a condition
])
def test_a_fact_the_hander_was_not_told_to_pass_stays_the_apps_loss(told):
    [f] = handover_facts(_sitting("Task: vet the sitter before she starts"), _agency(told))
    assert (f.root_cause, f.agent, f.attribution) == (INFORMATION_LOSS, "lead", "sut")


# -- a group whose speakers follow hand-offs starts at its initial agent, no selector's pick ---------

def _boatyard(trigger: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="boatyard", entry_agent="office", framework="ag2", pattern="selector"),
        agents=(AgentSpec(id="office", instructions="Find the berth with find_berth. Hand over to lift_l for lifts."),
                AgentSpec(id="lift_l", instructions="Book the crane with book_lift.")),
        tools=(ToolSpec(id="find_berth", description="Find a boat's berth.", parameters={
                   "type": "object", "required": ["boat"], "properties": {"boat": {"type": "string"}}}),
               ToolSpec(id="book_lift", description="Book the crane to lift a boat out.")),
        permissions=Permissions(allow=(("office", "find_berth"), ("lift_l", "book_lift"))),
        delegations=(Delegation(**{"from": "office", "to": "lift_l", "trigger": trigger,
                                   "condition": "the group pattern's hand-offs"}),))


def _lift() -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Please book a lift for our yacht Kittiwake next week."),
        AgentTurn(agent="office"),
        Message(agent="office", content="Before I go on:\n1. Which pontoon is the boat on?"),
        TerminationEvent(reason="completed", final_output="Which pontoon is the boat on?")))


def test_a_hand_off_groups_first_speaker_is_its_initial_agent_not_a_misroute():
    assert misrouted_request(_lift(), _boatyard("handoff")) == []


def test_a_selectors_first_pick_is_still_judged():
    [f] = misrouted_request(_lift(), _boatyard("selector"))
    assert (f.root_cause, f.elements[:2]) == (MISROUTED, ("speaker selector", "office"))
