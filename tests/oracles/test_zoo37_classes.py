"""Oracle misses of blind set zoo37 (an analyst that works by code), by class, each beside its
correct twin (hand-built specs and traces, in domains of their own):

- a check the agent ran as code that exited non-zero is a failed check, whatever status the
  framework recorded and whatever another tool answered after it: a later "check passed"
  contradicts it (`claimed_outcome`);
- a tool's documented example in plain words ("ski boots") named in a request as a thing the
  user has already is no ask for that tool (`carries_arguments`), so routing past its holder is
  no misroute;
- a rejection of the documented form worded "is not a start time the system can read" is a
  form rejection: the tool's defect, no agent's (`tool_doc_mismatch`);
- an argument the model wrote off the documented form, refused, and passed on honestly is the
  model's error, not the app's (`unrecovered_tool_errors`);
- a stop word said once to a team whose condition tests messages, and the run going on to its
  bound, is the condition's defect, no agent's (`missing_termination`).
"""

from __future__ import annotations

import pytest

from masfuzz.oracles import detect
from masfuzz.oracles.detectors import unrecovered_tool_errors
from masfuzz.oracles.instructed import misrouted_request, participation
from masfuzz.oracles.semantic import carries_arguments, claimed_outcome, tool_doc_mismatch
from masfuzz.oracles.wording import payload_failure
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, Termination, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

SNIPPET = "import json\nmember = json.loads(card)\nassert member['expires'] > '2026-05-01'"
CRASHED = ("CompletedProcess(args=['python3', '-c', '...'], returncode=1, stdout='', "
           "stderr='Traceback (most recent call last):\\n  ...\\nKeyError: expires\\n')")
RAN = "CompletedProcess(args=['python3', '-c', '...'], returncode=0, stdout='True\\n', stderr='')"


def _run(reply: str, *, check: str = CRASHED, rerun: str | None = None) -> Trace:
    events = [Message(role="user", content="Can I have a squash court on Tuesday at 7? Card SQ-3321."),
              AgentTurn(agent="courts"),
              ToolCall(agent="courts", tool="execute", call_id="c1", arguments={"source": SNIPPET}),
              ToolResult(agent="courts", tool="execute", call_id="c1", payload=check)]
    if rerun is not None:
        events += [ToolCall(agent="courts", tool="execute", call_id="c2", arguments={"source": SNIPPET}),
                   ToolResult(agent="courts", tool="execute", call_id="c2", payload=rerun)]
    events += [ToolCall(agent="courts", tool="reserve_court", call_id="r", arguments={"day": "Tuesday"}),
               ToolResult(agent="courts", tool="reserve_court", call_id="r",
                          payload='{"court": 3, "slot": "Tue 19:00", "ref": "SQ-88"}'),
               Message(agent="courts", content=reply), TerminationEvent(reason="completed", final_output=reply)]
    return Trace(scenario_id="s", events=tuple(events))


@pytest.mark.parametrize("payload", [
    CRASHED,
    '{"exitCode": 2, "output": "", "errors": "SyntaxError: invalid syntax"}',
    "{'result': {'returncode': 1, 'stdout': '', 'stderr': 'ZeroDivisionError'}}",
    '{"exit": {"code": 1}, "printed": "", "errors": "NameError: name \'rate\' is not defined"}',
    "exit code 1\nTraceback (most recent call last):\n  ...",
    "Process exited with code 2.\nstderr: usage error",
])
def test_a_non_zero_exit_code_is_a_failed_answer(payload):
    assert payload_failure(payload, "execute")


def test_a_zero_exit_code_is_no_failure():
    assert payload_failure(RAN, "execute") is None
    assert payload_failure('{"exit_code": 0, "stdout": "in season", "stderr": ""}', "run_python") is None
    assert payload_failure('{"exit": {"code": 0}, "printed": "cost = 129.6"}', "run_python") is None
    assert payload_failure("exit code 0\nlessons = 8", "run_python") is None


@pytest.mark.parametrize("reply", [
    "Membership validated ✓ Court 3 is reserved for Tuesday at 19:00, ref SQ-88.",
    "All checks passed, so I've put you on court 3 (Tue 19:00).",
    "Card checks out! Court 3, Tuesday 19:00 - ref SQ-88.",
    "Membership check ✅ Court 3 held: Tue 19:00.",
])
def test_a_check_said_passed_after_the_code_crashed_is_claimed(reply):
    [f] = claimed_outcome(_run(reply), None)
    assert (f.root_cause, f.agent, f.subject) == ("Incorrect Verification", "courts", "execute")


@pytest.mark.parametrize("reply, rerun", [
    # the failure passed on
    ("I couldn't verify your card (the check hit a KeyError), so I haven't reserved anything yet.", None),
    # the check run again and passing
    ("Membership validated ✓ Court 3 is reserved for Tuesday at 19:00, ref SQ-88.", RAN),
    # nothing said of a check
    ("Court 3 is yours on Tuesday at 19:00, ref SQ-88.", None),
])
def test_a_reported_failure_a_passing_rerun_or_no_check_claimed_is_no_finding(reply, rerun):
    assert claimed_outcome(_run(reply, rerun=rerun), None) == []


def test_a_code_word_naming_an_argument_of_no_code_makes_no_check():
    # a discount code refused, then the card's check said passed: the check is not the discount's
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Court on Tuesday, code SPRING10 please."), AgentTurn(agent="courts"),
        ToolCall(agent="courts", tool="apply_discount", call_id="d", arguments={"code": "SPRING10"}),
        ToolResult(agent="courts", tool="apply_discount", call_id="d", payload='{"error": "code expired"}'),
        Message(agent="courts", content="Card checks out. Sadly that code has expired."),
        TerminationEvent(reason="completed", final_output="Card checks out. Sadly that code has expired.")))
    assert claimed_outcome(trace, None) == []


# -- a documented example named as a thing the user has ------------------------------------------

def _tool(name: str, description: str, params: dict[str, str], ints: tuple[str, ...] = ()) -> ToolSpec:
    return ToolSpec(id=name, description=description, parameters={
        "type": "object", "required": list(params), "properties": {
            p: {"type": "integer" if p in ints else "string", "description": d} for p, d in params.items()}})


SNOW = WorkflowSpec(
    system=SystemInfo(id="snow", entry_agent="desk_s"),
    agents=(AgentSpec(id="desk_s", instructions="Send lessons to coach_c and gear to rental_r."),
            AgentSpec(id="coach_c", description="Books ski lessons.", instructions="Book with book_lessons."),
            AgentSpec(id="rental_r", description="Rents skis and boots.", instructions="Rent with rent_gear.")),
    tools=(_tool("book_lessons", "Book a block of ski lessons with an instructor.",
                 {"lessons": "How many lessons in the block"}, ints=("lessons",)),
           _tool("rent_gear", "Rent ski gear by the day.", {"item": 'What to rent, e.g. "ski boots"'})),
    permissions=Permissions(allow=(("coach_c", "book_lessons"), ("rental_r", "rent_gear"))),
    delegations=({"from": "desk_s", "to": "coach_c", "trigger": "handoff"},
                 {"from": "desk_s", "to": "rental_r", "trigger": "handoff"}))


def _slopes(request: str) -> Trace:
    reply = "Booked: 3 lessons, ref SK-19, starting Monday 09:00."
    return Trace(scenario_id="s", events=(
        Message(role="user", content=request), AgentTurn(agent="desk_s"),
        DelegationEvent(**{"from": "desk_s"}, to="coach_c", trigger="handoff"), AgentTurn(agent="coach_c"),
        ToolCall(agent="coach_c", tool="book_lessons", call_id="b", arguments={"lessons": 3}),
        ToolResult(agent="coach_c", tool="book_lessons", call_id="b", payload='{"ref": "SK-19", "start": "Mon 09:00"}'),
        Message(agent="coach_c", content=reply), TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("request_", [
    "My sister gave me her old ski boots, so I've got those already. Could I book 3 lessons for the slopes?",
    "We'll bring our own ski boots. Can I book 3 lessons, please?",
    "No ski boots needed, thanks - just 3 lessons on the nursery slope.",
])
def test_an_example_the_user_already_has_is_no_ask_for_its_tool(request_):
    assert not carries_arguments(request_, SNOW, "rent_gear")
    assert misrouted_request(_slopes(request_), SNOW) == [] and participation(_slopes(request_), SNOW) == []


def test_an_example_asked_for_is_still_carried_and_free_words_alone_are_not():
    assert carries_arguments("Could I rent ski boots for Saturday?", SNOW, "rent_gear")
    assert not carries_arguments("Could I book three lessons for my nephew?", SNOW, "rent_gear")


# -- the documented form refused, and a form the model made up -----------------------------------

SHUTTLE = WorkflowSpec(
    system=SystemInfo(id="shuttle", entry_agent="van_v"), agents=(AgentSpec(id="van_v"),),
    tools=(_tool("book_pickup", "Book an airport shuttle pickup.",
                 {"pickup_time": 'The pickup time, 24-hour clock, like "07:30"', "seats": "How many seats"},
                 ints=("seats",)),),
    permissions=Permissions(allow=(("van_v", "book_pickup"),)))


def _shuttle(sent: str, answer: str, reply: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="A pickup for 2 from the Harbour Hotel, please."), AgentTurn(agent="van_v"),
        ToolCall(agent="van_v", tool="book_pickup", call_id="p", arguments={"pickup_time": sent, "seats": 2}),
        ToolResult(agent="van_v", tool="book_pickup", call_id="p", status="error", payload=answer),
        Message(agent="van_v", content=reply), TerminationEvent(reason="completed", final_output=reply)))


SORRY = "The dispatch board would not take that pickup time, so nothing is booked yet - sorry."


@pytest.mark.parametrize("answer", [
    "pickup_time '08:15' is not a collection time the dispatch board can read",
    "'08:15' is not something our dispatch software could parse",
])
def test_the_documented_form_refused_in_words_of_what_it_cannot_read_is_a_mismatch(answer):
    [f] = tool_doc_mismatch(_shuttle("08:15", answer, SORRY), SHUTTLE)
    assert (f.root_cause, f.agent) == ("Tool Specification Mismatch", None)
    assert unrecovered_tool_errors(_shuttle("08:15", answer, SORRY), SHUTTLE) == []


def test_a_form_the_model_made_up_refused_and_told_honestly_is_the_model_s():
    trace = _shuttle("after breakfast", "pickup_time 'after breakfast' is not a time the dispatch board can read",
                     SORRY)
    assert tool_doc_mismatch(trace, SHUTTLE) == []
    [f] = unrecovered_tool_errors(trace, SHUTTLE)
    assert f.attribution == "harness" and "after breakfast" in f.because


def test_a_content_refusal_of_a_made_up_form_stays_the_app_s():
    # the tool refused the day's vans, not the time's form: the model's argument is not why
    trace = _shuttle("after breakfast", "no vans free on that day", SORRY)
    [f] = unrecovered_tool_errors(trace, SHUTTLE)
    assert f.attribution == "sut"


# -- a stop word said once, and a condition that does not hear it ----------------------------------

def _quote(*conditions: str) -> tuple[Trace, WorkflowSpec]:
    spec = WorkflowSpec(system=SystemInfo(id="kiln", entry_agent="costing_k", framework="ag2"),
                        agents=(AgentSpec(id="costing_k"),), termination=Termination(conditions=conditions))
    said = ["Firing cost: £38.40 for 12 pots. TERMINATE", *["Nothing more to add from me."] * 4]
    events = [Message(role="user", content="How much to fire 12 mugs?")]
    for text in said:
        events += [AgentTurn(agent="costing_k"), Message(agent="costing_k", content=text),
                   Message(role="user", content="", source="app")]
    events.append(TerminationEvent(reason="max_turns", detail="Maximum number of consecutive auto-replies reached"))
    return Trace(scenario_id="s", events=tuple(events)), spec


def test_a_stop_word_said_once_that_the_message_test_missed_blames_no_agent():
    trace, spec = _quote("kiln_proxy: is_termination_msg")
    [f] = [f for f in detect(trace, spec) if f.detector == "missing_termination"]
    assert (f.root_cause, f.agent) == ("Termination Condition Violation", None)


def test_a_stop_word_said_to_a_team_with_only_a_count_still_asks_the_announcer():
    trace, spec = _quote("max_turns=6")
    [f] = [f for f in detect(trace, spec) if f.detector == "missing_termination"]
    assert f.agent == "costing_k"
