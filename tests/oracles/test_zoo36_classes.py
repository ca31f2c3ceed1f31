"""Oracle misses of a blind set driven by a normaliser model (facts restated canonically: ISO
dates, 24-hour times, "GBP 45.00"; outcomes set out as a Markdown table `| item | status | ref |`;
hand-over notes as `key: value` lines; asks worded "Please provide: <field> (format ...)"), by
class, each beside its correct twin (hand-built specs and traces, in domains of their own):

- a claim made only in a status table's cell ("| tuning | BOOKED | - |"), after an agent run as a
  tool passed back its typed answer's failed state (`status='DECLINED'`): that agent's own tool
  results inside the call are its answer's making, not another outcome the reply answers;
- a clock time the user gave on the twelve-hour clock ("4:15 pm") that the receiving agent asks
  for again in the documented 24-hour form ("Please provide: start (format 08:45)");
- an ask naming a field by its key ("prepaid") whose own example shows the kind of fact wanted
  ("(format GBP 0.00)"): an amount the user gave ("a £30 deposit");
- a dependency on another member's work told with an irregular participle ("by the survey
  surveyor_s has done", "the plan drafter_d has drawn");
- a documented form whose prose counts the value's parts after "format" ("format, 12 digits in
  groups of four, e.g. ..."): the count is no example, the example is the form, and a 422 with a
  FastAPI-style detail list naming the parameter rejects it.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import instructed_dependencies, participation
from masfuzz.oracles.semantic import (INCORRECT_VERIFICATION, INFORMATION_LOSS, claimed_outcome, example_forms,
                                      handover_facts, tool_doc_mismatch)
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace
from tests.oracles.test_other_phrasings import _end, _params

# -- a status table's cell claims what the agent run as a tool reported failed --------------------

PIANO = WorkflowSpec(
    system=SystemInfo(id="piano_care", entry_agent="desk_m"),
    agents=(AgentSpec(id="desk_m", instructions="Ask the workshop with ask_workshop. Give the table."),
            AgentSpec(id="tuner_t", instructions="Book the tuning with book_tuning.")),
    tools=(ToolSpec(id="ask_workshop", description="Ask the workshop: pass the customer's message."),
           ToolSpec(id="book_tuning", description="Book a piano tuning visit.")),
    permissions=Permissions(allow=(("desk_m", "ask_workshop"), ("tuner_t", "book_tuning"))),
    delegations=({"from": "desk_m", "to": "tuner_t", "trigger": "as_tool"},))
ASKED = "Our Broadwood upright needs tuning before the recital on 2026-05-02, could someone come?"
# the tuner's tool answers in a verdict the oracle need not read; its own typed answer says it
TUNING = "VisitAnswer(piano='Broadwood upright', verdict='DECLINED', why='felts on back order until 2026-08', visit=None)"
RELAYED = "item='tuning' status='DECLINED' ref='-' note='felts on back order until 2026-08'"


def _piano(table: str) -> Trace:
    return _end(
        Message(role="user", content=ASKED), AgentTurn(agent="desk_m"),
        ToolCall(agent="desk_m", tool="ask_workshop", call_id="w", arguments={"input": ASKED}),
        DelegationEvent(**{"from": "desk_m"}, to="tuner_t", trigger="as_tool"), AgentTurn(agent="tuner_t"),
        ToolCall(agent="tuner_t", tool="book_tuning", call_id="b", arguments={"by": "2026-05-02"}),
        ToolResult(agent="tuner_t", tool="book_tuning", call_id="b", payload=TUNING),
        Message(agent="tuner_t", content='{"item": "tuning", "status": "DECLINED", "ref": "-"}'),
        ToolResult(agent="desk_m", tool="ask_workshop", call_id="w", payload=RELAYED),
        AgentTurn(agent="desk_m"), Message(agent="desk_m", content=table))


@pytest.mark.parametrize("table", [
    "| item | status | ref |\n| --- | --- | --- |\n| tuning | BOOKED | - |\n\n1 row above.",
    "| Job | State |\n|:--|:--|\n| piano visit | Confirmed |",
])
def test_a_status_cell_saying_done_after_a_nested_agents_failed_state_is_incorrect_verification(table):
    [f] = claimed_outcome(_piano(table), PIANO)
    assert (f.root_cause, f.agent, f.subject) == (INCORRECT_VERIFICATION, "desk_m", "ask_workshop")


@pytest.mark.parametrize("table", [
    "| item | status | ref |\n| --- | --- | --- |\n| tuning | DECLINED | - |\n\n1 row above.",  # passed on
    "| item | status | ref |\n| --- | --- | --- |\n| tuning | BOOKED | - |\n\nThe tuning could not be booked.",
])
def test_a_status_table_passing_the_failure_on_claims_nothing(table):
    assert claimed_outcome(_piano(table), PIANO) == []


# -- an ask again for a time the user gave on the twelve-hour clock -------------------------------

SURGERY = WorkflowSpec(
    system=SystemInfo(id="dental", entry_agent="reception_r", pattern="graph"),
    agents=(AgentSpec(id="reception_r", instructions="Write the appointment note."),
            AgentSpec(id="chair_c", instructions="Book the chair with `book_chair`.")),
    tools=(ToolSpec(id="book_chair", description="Book a dental chair.",
                    parameters=_params(start='When the appointment starts, e.g. "08:45"')),),
    permissions=Permissions(allow=(("chair_c", "book_chair"),)),
    delegations=({"from": "reception_r", "to": "chair_c"},))


def _surgery(said: str, asked: str) -> Trace:
    return _end(Message(role="user", content=said), AgentTurn(agent="reception_r"),
                Message(agent="reception_r", content="day: 2026-06-09\nstart: 16"),
                DelegationEvent(**{"from": "reception_r"}, to="chair_c"), AgentTurn(agent="chair_c"),
                Message(agent="chair_c", content=asked))


@pytest.mark.parametrize("said,value", [
    ("My filling came out - could I come on Tuesday 9 June at 4:15 pm?", "4:15 pm"),
    ("A check-up please, Tuesday the 9th, 11am suits me best.", "11am"),
])
def test_a_twelve_hour_time_asked_for_again_in_the_documented_form_is_information_loss(said, value):
    trace = _surgery(said, "Please provide: start (format 08:45)\nCan you send it?")
    [f] = handover_facts(trace, SURGERY)
    assert (f.root_cause, f.agent, f.step) == (INFORMATION_LOSS, "reception_r", 3)
    assert value in f.description


@pytest.mark.parametrize("said,asked", [
    ("My filling came out - could I come on Tuesday 9 June?", "Please provide: start (format 08:45)"),  # no time given
    ("Could I come on Tuesday 9 June at 4:15 pm?", "Booked: 2026-06-09 16:15."),  # asked nothing
])
def test_no_time_given_or_no_ask_is_no_loss(said, asked):
    assert handover_facts(_surgery(said, asked), SURGERY) == []


# -- an ask by a field's key whose own example shows the kind wanted ------------------------------

KAYAKS = WorkflowSpec(
    system=SystemInfo(id="kayak_hire", entry_agent="desk_k", pattern="fixed_order"),
    agents=(AgentSpec(id="desk_k", instructions="Write the hire card."),
            AgentSpec(id="shed_s", instructions="Hire the boat with `hire_kayak`.")),
    tools=(ToolSpec(id="hire_kayak", description="Hire out a kayak for the day.",
                    parameters=_params(prepaid="What the customer has already paid, with its currency")),),
    permissions=Permissions(allow=(("shed_s", "hire_kayak"),)),
    delegations=({"from": "desk_k", "to": "shed_s"},))


def _kayaks(said: str, asked: str) -> Trace:
    return _end(Message(role="user", content=said), AgentTurn(agent="desk_k"),
                Message(agent="desk_k", content="name: Rhys Owen\nprepaid: GBP"),
                DelegationEvent(**{"from": "desk_k"}, to="shed_s"), AgentTurn(agent="shed_s"),
                Message(agent="shed_s", content=asked))


@pytest.mark.parametrize("asked", [
    "Please provide: prepaid (format EUR 0.00)\nCan you send it?",
    "Kindly send the prepaid figure, written like 0.00 GBP.",
])
def test_an_ask_whose_example_is_an_amount_asks_for_the_amount_the_user_gave(asked):
    trace = _kayaks("Two sea kayaks for Saturday please - I paid a £30 deposit online already.", asked)
    [f] = handover_facts(trace, KAYAKS)
    assert (f.root_cause, f.agent) == (INFORMATION_LOSS, "desk_k")
    assert "£30" in f.description


@pytest.mark.parametrize("said,asked", [
    ("Two sea kayaks for Saturday please.", "Please provide: prepaid (format EUR 0.00)"),  # no amount given
    ("Two sea kayaks for Saturday please - I paid £30.", "Would you like me to hold them until 2026-07-04?"),
])
def test_no_amount_given_or_an_offer_is_no_loss(said, asked):
    assert handover_facts(_kayaks(said, asked), KAYAKS) == []


# -- a dependency on a member's work told with an irregular participle ----------------------------

def _roofers(said: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="roofing", entry_agent="quote_q", pattern="selector"),
        agents=(AgentSpec(id="quote_q", instructions=f"You price roof repairs, {said}\nPrice with price_roof."),
                AgentSpec(id="surveyor_s", instructions="Survey the roof with survey_roof.")),
        tools=(ToolSpec(id="price_roof", description="Price a roof repair."),
               ToolSpec(id="survey_roof", description="Survey a roof.")),
        permissions=Permissions(allow=(("quote_q", "price_roof"), ("surveyor_s", "survey_roof"))))


@pytest.mark.parametrize("said", [
    "by the survey surveyor_s has done.",
    "from the drawings surveyor_s has drawn.",
    "using the checks surveyor_s has run.",
])
def test_a_product_a_member_has_done_is_a_dependency_on_it(said):
    assert [(b, a) for b, a, _ in instructed_dependencies(_roofers(said))] == [("surveyor_s", "quote_q")]


def test_a_product_a_member_has_not_done_is_none():
    assert instructed_dependencies(_roofers("not by the survey surveyor_s has done.")) == []


# -- a form whose prose counts its parts after "format" -------------------------------------------

LIBRARY = WorkflowSpec(
    system=SystemInfo(id="library", entry_agent="front_l"),
    agents=(AgentSpec(id="front_l"), AgentSpec(id="loans_n")),
    tools=(ToolSpec(id="link_card", description="Link a library card to a reader.", parameters=_params(
        card_number='The card number in the library\'s format, 12 digits in groups of four, e.g. "2900 0000 0000"')),),
    permissions=Permissions(allow=(("loans_n", "link_card"),)))


def _library(payload: str) -> Trace:
    return _end(Message(role="user", content="Please link my card 2900-1234-5678."), AgentTurn(agent="loans_n"),
                ToolCall(agent="loans_n", tool="link_card", call_id="c", arguments={"card_number": "2900 1234 5678"}),
                ToolResult(agent="loans_n", tool="link_card", call_id="c", payload=payload),
                Message(agent="loans_n", content="| item | status | ref |\n| --- | --- | --- |\n| card | failed | - |"))


def test_a_count_of_parts_after_format_is_no_example():
    assert example_forms(LIBRARY.tools[0].parameters["properties"]["card_number"]["description"]) \
        == [["2900 0000 0000"]]


def test_a_422_detail_list_on_a_documented_card_number_is_a_spec_mismatch():
    payload = '{"status": 422, "detail": [{"loc": ["body", "card_number"], "msg": "Ungültige Kartennummer"}]}'
    [f] = tool_doc_mismatch(_library(payload), LIBRARY)
    assert (f.root_cause, f.agent, f.elements) == ("Tool Specification Mismatch", None,
                                                   ("loans_n", "link_card", "card_number"))


def test_a_content_refusal_of_a_documented_card_number_is_none():
    payload = '{"status": 409, "detail": [{"loc": ["body", "card_number"], "msg": "already linked to another reader"}]}'
    assert tool_doc_mismatch(_library(payload), LIBRARY) == []


# -- a status row naming another tool by its words is that tool's ----------------------------------

WORKROOM = WorkflowSpec(
    system=SystemInfo(id="rug_care", entry_agent="assess_a", pattern="fixed_order"),
    agents=(AgentSpec(id="assess_a", instructions="Check the pile with check_pile. Give the table."),
            AgentSpec(id="clean_c", instructions="Schedule the clean with schedule_clean. Give the table.")),
    tools=(ToolSpec(id="check_pile", description="Check a rug's pile for moth damage."),
           ToolSpec(id="schedule_clean", description="Put a rug in the cleaning schedule.")),
    permissions=Permissions(allow=(("assess_a", "check_pile"), ("clean_c", "schedule_clean"))))


def _workroom(row: str) -> Trace:
    return _end(
        Message(role="user", content="Please clean our Kazak rug, ref RG-0000."), AgentTurn(agent="assess_a"),
        ToolCall(agent="assess_a", tool="check_pile", call_id="p", arguments={"rug": "RG0000"}),
        ToolResult(agent="assess_a", tool="check_pile", call_id="p", payload="{'ok': False, 'error': {'code': 404}}"),
        Message(agent="assess_a", content="| item | status | ref |\n| --- | --- | --- |\n| check pile | failed | - |"),
        DelegationEvent(**{"from": "assess_a"}, to="clean_c", trigger="sequence"), AgentTurn(agent="clean_c"),
        ToolCall(agent="clean_c", tool="schedule_clean", call_id="s", arguments={"rug": "RG0000"}),
        ToolResult(agent="clean_c", tool="schedule_clean", call_id="s", payload="CONFIRMED RG0000: bench slot CL-204"),
        Message(agent="clean_c", content=f"| item | status | ref |\n| --- | --- | --- |\n{row}\n\n1 row above."))


def test_a_row_naming_the_tool_that_succeeded_claims_nothing_of_the_one_that_failed():
    assert claimed_outcome(_workroom("| schedule clean | CONFIRMED | CL204 |"), WORKROOM) == []


def test_a_row_naming_the_failed_tools_object_is_still_its_claim():
    [f] = claimed_outcome(_workroom("| pile | CONFIRMED | - |"), WORKROOM)
    assert (f.agent, f.subject) == ("clean_c", "check_pile")


# -- a request telling the agent it reaches to keep the work ---------------------------------------

SPICES = WorkflowSpec(
    system=SystemInfo(id="spice_shop", entry_agent="counter_c", pattern="handoff"),
    agents=(AgentSpec(id="counter_c", description="Sells whole spices, blends and grinders.",
                      instructions="Price items with price_spice."),
            AgentSpec(id="classes_k", description="Runs the cookery classes.",
                      instructions="Book places with book_class.")),
    tools=(ToolSpec(id="price_spice", description="Price a spice or a grinder."),
           ToolSpec(id="book_class", description="Book places on a curry cookery class.")),
    permissions=Permissions(allow=(("counter_c", "price_spice"), ("classes_k", "book_class"))),
    delegations=({"from": "counter_c", "to": "classes_k", "trigger": "handoff"},))


def _spices(said: str) -> Trace:
    return _end(Message(role="user", content=said), AgentTurn(agent="counter_c"),
                ToolCall(agent="counter_c", tool="price_spice", call_id="p", arguments={"item": said}),
                ToolResult(agent="counter_c", tool="price_spice", call_id="p", payload="[{'item': 'Garam masala', 'price': 'GBP 3.20'}]"),
                Message(agent="counter_c", content="| item | status | ref |\n| --- | --- | --- |\n| Garam masala | done | - |"))


ASK_CLASS = "book places on a curry cookery class. Use places: 2."


def test_a_run_ended_by_the_agent_the_user_told_to_keep_the_work_is_no_premature_termination():
    said = ("You handle this yourself, as the one who sells whole spices, blends and grinders. "
            f"Do it yourself right now, without passing me on: {ASK_CLASS}")
    assert participation(_spices(said), SPICES) == []


def test_the_same_end_without_being_told_to_keep_the_work_is_premature_termination():
    [f] = participation(_spices(f"Please {ASK_CLASS}"), SPICES)
    assert (f.root_cause, f.agent, f.elements) == ("Premature Termination", "counter_c", ("counter_c", "classes_k"))


# -- a timeout whose trace the cancel left empty ---------------------------------------------------

def test_a_timeout_that_left_no_event_of_the_run_is_not_the_apps_crash():
    from masfuzz.oracles.detectors import runtime_crash
    from masfuzz.trace import ErrorEvent

    cut = "no result within 120 s; the run was cancelled"
    empty = Trace(scenario_id="s", events=(ErrorEvent(kind="timeout", message=cut),
                                           TerminationEvent(reason="timeout", detail=cut)))
    [f] = runtime_crash(empty, None)
    assert f.attribution == "harness" and "dropped every event" in f.because
    # the same end after the app's own turns: what the app did is there, and the timeout is its
    kept = Trace(scenario_id="s", events=(Message(role="user", content="Is entry SD-2041 in?"), AgentTurn(agent="desk"),
                                          Message(agent="desk", content="Checking."), *empty.events))
    [f] = runtime_crash(kept, None)
    assert f.attribution == "sut"
