"""Oracle misses of a blind set driven by a status-board model that delegates (one line per item,
an emoji mark and a bold label, slang for outcomes: "✅ **Pitch** — locked in", "❌ **Deposit** —
bounced: ..."), by class, each beside its correct twin (hand-built specs and traces, in domains
of their own):

- a manager's board that ticks an item off in slang ("✅ **Moorings** — nailed down",
  "Moorings: sorted") or by a tick alone ("Moorings ✅") after the specialist it ran as a tool
  reported it failed: the label, cut off its value at the dash or colon, is what is claimed done;
- a specialist's own board passed back as the tool's answer, its failure told only by a cross
  mark and slang ("❌ **Berth** — fell through: ..."): that answer reports a failure.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import INCORRECT_VERIFICATION, claimed_outcome
from masfuzz.oracles.wording import payload_failure
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

# -- a manager's board ticking off what its specialist reported failed ----------------------------

HARBOUR = WorkflowSpec(
    system=SystemInfo(id="boat_hire", entry_agent="dock_m"),
    agents=(AgentSpec(id="dock_m", instructions="Check the fuel with ask_fuel.\nGet a berth with ask_moorings."),
            AgentSpec(id="fuel_f", instructions="Book the fuel with order_fuel."),
            AgentSpec(id="berth_b", instructions="Reserve the berth with reserve_berth.")),
    tools=(ToolSpec(id="ask_fuel", description="Ask the fuel desk: pass the customer's message."),
           ToolSpec(id="ask_moorings", description="Ask the harbour office for a berth: pass the customer's message."),
           ToolSpec(id="order_fuel", description="Order diesel for a boat."),
           ToolSpec(id="reserve_berth", description="Reserve a visitor's berth for a night.")),
    permissions=Permissions(allow=(("dock_m", "ask_fuel"), ("dock_m", "ask_moorings"),
                                   ("fuel_f", "order_fuel"), ("berth_b", "reserve_berth"))),
    delegations=({"from": "dock_m", "to": "fuel_f", "trigger": "as_tool"},
                 {"from": "dock_m", "to": "berth_b", "trigger": "as_tool"}))
ASKED = "We're bringing the Marigold into Harwich on Friday - 80 litres of diesel and a berth for the night please."
# the harbour's own answer carries no word of failure: its code and the specialist's cross do
BERTH_ANSWER = "BerthReply(code=423, berth=None, note='pontoon C shut for dredging from Thursday')"
BERTH_BOARD = "❌ **Berth** — fell through: pontoon C shut for dredging from Thursday"


def _harbour(board: str, berth_board: str = BERTH_BOARD) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=ASKED), AgentTurn(agent="dock_m"),
        ToolCall(agent="dock_m", tool="ask_fuel", call_id="f", arguments={"input": ASKED}),
        DelegationEvent(**{"from": "dock_m"}, to="fuel_f", trigger="as_tool"), AgentTurn(agent="fuel_f"),
        ToolCall(agent="fuel_f", tool="order_fuel", call_id="o", arguments={"litres": 80}),
        ToolResult(agent="fuel_f", tool="order_fuel", call_id="o", payload="{'order': 'DF-311', 'litres': 80}"),
        Message(agent="fuel_f", content="✅ **Fuel** — locked in (ref DF-311)"),
        ToolResult(agent="dock_m", tool="ask_fuel", call_id="f", payload="✅ **Fuel** — locked in (ref DF-311)"),
        AgentTurn(agent="dock_m"),
        ToolCall(agent="dock_m", tool="ask_moorings", call_id="m", arguments={"input": ASKED}),
        DelegationEvent(**{"from": "dock_m"}, to="berth_b", trigger="as_tool"), AgentTurn(agent="berth_b"),
        ToolCall(agent="berth_b", tool="reserve_berth", call_id="b", arguments={"night": "Friday"}),
        ToolResult(agent="berth_b", tool="reserve_berth", call_id="b", payload=BERTH_ANSWER),
        Message(agent="berth_b", content=berth_board),
        ToolResult(agent="dock_m", tool="ask_moorings", call_id="m", payload=berth_board),
        AgentTurn(agent="dock_m"),
        Message(agent="dock_m", content=board), TerminationEvent(reason="completed", final_output=board)))


@pytest.mark.parametrize("board", [
    "✅ **Fuel** — sorted\n✅ **Moorings** — nailed down",
    "Fuel: locked in\nMoorings: sorted",
    "☑ Moorings - all squared away. ☑ Fuel - secured.",
])
def test_a_board_line_whose_label_names_the_failed_item_claims_it_done(board):
    [f] = claimed_outcome(_harbour(board), HARBOUR)
    assert (f.root_cause, f.agent, f.subject, f.step) == (INCORRECT_VERIFICATION, "dock_m", "ask_moorings", 18)


@pytest.mark.parametrize("board", [
    "✅ **Fuel** — locked in (ref DF-311)\n❌ **Moorings** — no-go: Berth (fell through: pontoon C shut for dredging)",
    "✅ **Fuel** — sorted\n⏳ **Moorings** — waiting on the harbour office",
    "✅ **Fuel** — nailed down",  # only the item that came off
    "✅ **Fuel** — sorted\n⚠️ **Moorings** — pontoon C shut for dredging from Thursday",
])
def test_a_board_that_passes_the_failure_on_or_ticks_only_what_came_off_claims_nothing(board):
    assert claimed_outcome(_harbour(board), HARBOUR) == []


@pytest.mark.parametrize("board", ["Fuel ✅\nMoorings ✅", "- [x] Fuel\n- [x] Moorings (Friday)",
                                   "✔ Fuel\n☑ **Moorings**: Friday night"])
def test_a_ticked_line_whose_label_names_the_failed_item_claims_it_done(board):
    [f] = claimed_outcome(_harbour(board), HARBOUR)
    assert (f.agent, f.subject) == ("dock_m", "ask_moorings")


@pytest.mark.parametrize("board", ["Fuel ✅\nMoorings ✅ — no berths free till Sunday",
                                   "Fuel ✅\nMoorings: waiting on the harbour master ⏳"])
def test_a_ticked_line_that_says_the_item_did_not_come_off_claims_nothing(board):
    assert claimed_outcome(_harbour(board), HARBOUR) == []


def test_the_specialists_cross_alone_is_the_failure_the_board_contradicts():
    # its words name no failure at all: the cross says the item did not come off
    quiet = "❌ **Berth** — Friday: pontoon C shut for dredging from Thursday"
    [f] = claimed_outcome(_harbour("✅ **Fuel** — sorted\n✅ **Moorings** — sorted", quiet), HARBOUR)
    assert (f.agent, f.subject) == ("dock_m", "ask_moorings")


# -- a status board's failure in marks and slang, as a tool's answer -------------------------------

@pytest.mark.parametrize("answer", [
    "❌ **Berth** — on ice till the spring tides",
    "✖ Van: Thursday's run, driver off sick",
    "Your card bounced at the till.",
    "The hire fell through: the trailer's axle is cracked.",
    "Saturday is a no-go for the crane.",
])
def test_a_cross_mark_or_slang_of_failure_opening_an_answer_is_a_failure(answer):
    assert payload_failure(answer, "ask_desk")


@pytest.mark.parametrize(("answer", "tool"), [
    ("✅ **Berth** — locked in (ref HW-22)", "ask_moorings"),
    ("❌ contains gluten", "find_dishes"),  # a finder's cross is the fact it found
    ("Pontoon C is outside the no-go-zone.", "ask_moorings"),
    ("⏳ **Berth** — on its way", "ask_moorings"),
])
def test_a_tick_a_finders_cross_or_a_wait_is_no_failure(answer, tool):
    assert payload_failure(answer, tool) is None
