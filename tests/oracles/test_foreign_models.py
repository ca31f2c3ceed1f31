"""Runs the zoo's fixed twins gave under scripted models they were not written for: a model that
narrates each step before its call, ticks a checklist of every tool it called, or ignores the
line that tells a front desk to pass a request on. The run is the model's, the app is right, and
the oracles must not read it as the app's defect; each test holds such a trace beside its twin
that must still be read as before."""

from __future__ import annotations

from masfuzz.oracles.instructed import misrouted_request
from masfuzz.oracles.semantic import claimed_outcome, handover_facts
from masfuzz.spec.model import ENTERED_BY, AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

# -- a front desk the app's code enters at, told to pass this request on ---------------------------

PICKED = {ENTERED_BY: "next_speaker"}  # an AG2 speaker-selection function that reads the desk's words
PASSES_ON = ('Say "Sorry about that - I\'m handing you over to the workshop" when the request mentions repair, '
             "brakes or puncture.")
ASK = "My brakes squeal on every hill - could you book a repair for my bike on Saturday?"


def _cycle_shop(front_lines: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="cycles", entry_agent="counter", pattern="orchestrated"),
        agents=(AgentSpec(id="counter", instructions=f"You answer the bike shop's chat.\n{front_lines}\n"
                          "Call opening_hours when the request mentions hours or open.", model_settings=PICKED),
                AgentSpec(id="wrench_w", instructions="You run the workshop. Call book_repair.",
                          model_settings=PICKED)),
        tools=(ToolSpec(id="opening_hours", description="When the shop is open."),
               ToolSpec(id="book_repair", description="Book a bike into the workshop for a repair on a day.")),
        permissions=Permissions(allow=(("counter", "opening_hours"), ("wrench_w", "book_repair"))),
        delegations=tuple(Delegation.model_validate({"from": a, "to": b, "trigger": "sequence"})
                          for a, b in (("counter", "wrench_w"), ("wrench_w", "counter"))))


def _front_only() -> Trace:
    """The desk answered itself: the model did not say the hand-on line, so the app's function,
    which gives the workshop the turn when the desk says so, ended the chat."""
    return Trace(scenario_id="s", events=(
        Message(role="user", content=ASK), AgentTurn(agent="counter"),
        Message(agent="counter", content="hey there! we're open 9 till 6 most days."),
        TerminationEvent(reason="completed", final_output="hey there! we're open 9 till 6 most days.")))


def test_a_desk_told_to_pass_the_request_on_is_no_misroute_of_the_code_that_entered_at_it():
    assert misrouted_request(_front_only(), _cycle_shop(PASSES_ON)) == []


def test_a_desk_with_no_such_line_is_still_the_code_s_misroute():
    [f] = misrouted_request(_front_only(), _cycle_shop("Answer questions about bikes for sale."))
    assert (f.agent, f.elements[0]) == (None, "router next_speaker")
    # a line for other requests passes nothing on for this one
    [f] = misrouted_request(_front_only(), _cycle_shop(PASSES_ON.replace("repair, brakes or puncture", "rentals")))
    assert f.elements[0] == "router next_speaker"


# -- a progress line beside the next call, a checklist line naming another tool --------------------

def _docks() -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="docks", entry_agent="bays", pattern="handoff"),
        agents=(AgentSpec(id="bays", instructions="Reserve the bays with reserve_bay. "
                          "bay_status shows a station's bays."),),
        tools=(ToolSpec(id="reserve_bay", description="Reserve overnight bays at a charging station."),
               ToolSpec(id="bay_status", description="Look up a station's live state (read-only).")),
        permissions=Permissions(allow=(("bays", "reserve_bay"), ("bays", "bay_status"))))


def _narrated(between: str, summary: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Can we park our 8 vans at station CS-40 overnight on 2026-07-02?"),
        AgentTurn(agent="bays"),
        ToolCall(agent="bays", tool="reserve_bay", call_id="c1", arguments={"station": "CS-40", "night": "2026-07-02"}),
        ToolResult(agent="bays", tool="reserve_bay", call_id="c1",
                   payload="{'held': False, 'status': 'NO_FREE_BAYS', 'station': 'CS-40'}"),
        Message(agent="bays", content=between),
        ToolCall(agent="bays", tool="bay_status", call_id="c2", arguments={"station": "CS-40"}),
        ToolResult(agent="bays", tool="bay_status", call_id="c2", payload="{'station': 'CS-40', 'free': 0}"),
        Message(agent="bays", content=summary),
        TerminationEvent(reason="completed", final_output=summary)))


HONEST = "Summary:\n❌ 1. reserve bay → not done: NO_FREE_BAYS\n✅ 2. bay status → done (CS-40)"


def test_a_step_announced_beside_its_call_and_a_tick_for_the_other_tool_claim_nothing():
    assert claimed_outcome(_narrated("Step 2/2 — bay status…", HONEST), _docks()) == []


def test_the_failed_step_ticked_or_the_same_words_as_the_answer_still_claim():
    ticked = "Summary:\n✅ 1. reserve bay → done (CS-40)"
    [f] = claimed_outcome(_narrated("Step 2/2 — bay status…", ticked), _docks())
    assert (f.subject, f.step) == ("reserve_bay", 7)
    # the same words as the reply itself, after the failure and beside no call: they speak of the
    # station's bays as if the reservation held
    trace = _narrated("Step 2/2 — bay status…", HONEST)
    events = (*trace.events[:5], TerminationEvent(reason="completed"))
    [f] = claimed_outcome(Trace(scenario_id="s", events=events), _docks())
    assert (f.subject, f.step) == ("reserve_bay", 4)


# -- a parameter asked for by its name, in a noisy model's lower case ------------------------------

def _harbour() -> WorkflowSpec:
    vessel = {"type": "object", "required": ["ssr"], "properties": {"ssr": {
        "type": "string", "description": 'The Small Ships Register number, like "SSR 100000"'}}}
    return WorkflowSpec(
        system=SystemInfo(id="harbour", entry_agent="desk", pattern="orchestrated"),
        agents=(AgentSpec(id="desk", instructions="Greet visiting crews."),
                AgentSpec(id="moorings", instructions="Book a mooring with book_mooring.")),
        tools=(ToolSpec(id="book_mooring", description="Book a visitor mooring for a vessel.", parameters=vessel),),
        permissions=Permissions(allow=(("moorings", "book_mooring"),)),
        delegations=(Delegation.model_validate({"from": "desk", "to": "moorings", "trigger": "sequence"}),))


def _asked_again(told: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=told), AgentTurn(agent="desk"),
        Message(agent="desk", content="lovely, the moorings folks will sort you out"),
        DelegationEvent(**{"from": "desk"}, to="moorings", trigger="sequence"), AgentTurn(agent="moorings"),
        Message(agent="moorings", content="ok quick q before i go ahead - what's the ssr?"),
        TerminationEvent(reason="completed")))


def test_a_value_carrying_the_documented_example_s_word_is_the_fact_its_name_asks_for():
    [f] = handover_facts(_asked_again("Kittiwake, SSR 154320, arriving Friday for 2 nights - a mooring please."),
                         _harbour())
    assert (f.agent, f.elements) == ("desk", ("desk", "moorings", "ssr of book_mooring"))
    assert "SSR 154320" in f.description


def test_a_value_only_the_loose_form_fits_is_no_such_fact():
    # "GBP 40" fits a word-then-digits form by chance: the user gave no register number
    assert handover_facts(_asked_again("Kittiwake, arriving Friday, happy to pay GBP 40 a night."), _harbour()) == []
