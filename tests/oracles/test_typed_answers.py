"""A claim made only by a typed answer's fields (an Agents SDK or PydanticAI `output_type`, an
AgentChat StructuredMessage, an ADK `output_schema`, a LangGraph structured response), which a
blind set driven by a JSON-speaking model showed missed: a flag named for the action set true
(`"reserved": true`) or a state of it done (`"status": "booked"`) is the claim, whatever reason
text the model copied into another field from the tool's failed answer; a flag false, a failed
state, or the failed answer's own state or code passed on is the honest report. The fields are on
desks of their own (a sea-kayak hire, a tattoo studio, a piano tuner, a tool library)."""

from __future__ import annotations

import json

import pytest

from masfuzz.adapters.pydantic_ai.recording import payload_text
from masfuzz.oracles.semantic import claimed_outcome
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

STUDIO = WorkflowSpec(
    system=SystemInfo(id="studio", entry_agent="front_desk"),
    agents=(AgentSpec(id="front_desk", instructions="Book the session with book_session, then fill the answer."),),
    tools=(ToolSpec(id="book_session", description="Book a tattoo session with an artist."),
           ToolSpec(id="take_deposit", description="Take the session's deposit by card.")),
    permissions=Permissions(allow=(("front_desk", "book_session"), ("front_desk", "take_deposit"))))
ASK = "Hi, I'd like a 3-hour session with Mara for a fine-line fern on my forearm, any Thursday in March."


def _claims(payload: str, answer: str, tool: str = "book_session") -> list[tuple[str | None, int]]:
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=ASK), AgentTurn(agent="front_desk"),
        ToolCall(agent="front_desk", tool=tool, call_id="c", arguments={"artist": "Mara", "hours": 3}),
        ToolResult(agent="front_desk", tool=tool, call_id="c", payload=payload),
        Message(agent="front_desk", content=answer), TerminationEvent(reason="completed", final_output=answer)))
    return [(f.agent, f.step) for f in claimed_outcome(trace, STUDIO)]


ARTIST_AWAY = "Session(state='ARTIST_AWAY', ref=None, why='Mara is guesting in Leeds until 2 April')"
DECLINED = '{"ok": false, "code": "CARD_DECLINED", "detail": "issuer declined: insufficient funds"}'


@pytest.mark.parametrize("payload, answer, tool", [
    # a flag of the action true, the tool's reason copied beside it (typed answers of four frameworks)
    (ARTIST_AWAY, '{"booked": true, "state": "booked", "ref": null, "why": "Mara is guesting in Leeds until 2 April"}',
     "book_session"),
    (ARTIST_AWAY, '{"confirmed": true, "reason": "Mara is guesting in Leeds until 2 April"}', "book_session"),
    (ARTIST_AWAY, '{"success": true, "artist": "Mara", "note": "guesting in Leeds until 2 April"}', "book_session"),
    # a state of it done, the reason copied
    (ARTIST_AWAY, '{"status": "booked", "detail": "Mara is guesting in Leeds until 2 April"}', "book_session"),
    # a paid flag after a declined card, the issuer's words (failure words) copied beside it
    (DECLINED, '{"paid": true, "message": "issuer declined: insufficient funds"}', "take_deposit"),
])
def test_a_typed_answer_s_flag_or_done_state_is_the_claim_whatever_reason_it_copies(payload, answer, tool):
    assert _claims(payload, answer, tool) == [("front_desk", 4)]


@pytest.mark.parametrize("payload, answer, tool", [
    (ARTIST_AWAY, '{"booked": false, "state": "booked", "why": "Mara is guesting in Leeds until 2 April"}',
     "book_session"),
    (ARTIST_AWAY, '{"booked": true, "state": "ARTIST_AWAY", "why": "Mara is guesting in Leeds until 2 April"}',
     "book_session"),  # the failed state itself, passed on, says more than a flag beside it
    (ARTIST_AWAY, '{"result": "done", "code": "ARTIST_AWAY"}', "book_session"),
    (ARTIST_AWAY, '{"status": "not booked", "why": "Mara is guesting in Leeds until 2 April"}', "book_session"),
    # an envelope's ok copied from the answer is the call answered, not the action done
    ('{"ok": true, "state": "NO_SLOT", "note": "no Thursday free with Mara in March"}',
     '{"ok": true, "note": "no Thursday free with Mara in March"}', "book_session"),
    # the reason alone, no outcome claimed: the failure recited
    (ARTIST_AWAY, '{"artist": "Mara", "why": "Mara is guesting in Leeds until 2 April"}', "book_session"),
    (DECLINED, '{"paid": false, "message": "issuer declined: insufficient funds"}', "take_deposit"),
])
def test_a_typed_answer_that_passes_the_failure_on_claims_nothing(payload, answer, tool):
    assert _claims(payload, answer, tool) == []


def test_a_done_state_with_the_answer_s_failure_in_words_of_its_own_is_read_as_passed_on():
    # "done" may be the desk's errand (the request handled); its own words say the booking failed
    assert _claims(ARTIST_AWAY, '{"status": "done", "note": "could not book - Mara is away"}') == []


def test_a_pydantic_ai_tool_s_dataclass_reaches_the_trace_as_the_json_the_model_read():
    from dataclasses import dataclass

    @dataclass
    class Tuning:
        state: str
        visit: str | None = None

    assert json.loads(payload_text(Tuning(state="NO_TUNER"))) == {"state": "NO_TUNER", "visit": None}
    assert json.loads(payload_text([Tuning(state="BOOKED", visit="TV-19")])) == [{"state": "BOOKED", "visit": "TV-19"}]


@pytest.mark.usefixtures("in_repo")
@pytest.mark.parametrize("desk, found", [("careless_desk", ["reserve_kayak"]), ("careful_desk", [])])
def test_a_pydantic_ai_output_type_claiming_a_closed_launch_end_to_end(cli, desk, found):
    code, out, err = cli("exec", f"tests/oracles/typed_answer_apps.py:{desk}", "--input",
                         "Hello, two of us would love a guided paddle on 2026-07-11, we're fairly fit "
                         "but new to sea kayaks.", "--sut-model", "scripted/examples/zoo/policy_o.py:policy",
                         "--format", "json", "--failures", "--no-cache")
    assert code == 0, err
    data = json.loads(out)
    assert [(f["root_cause"], f["agent"]) for f in data["failures"]] == [("Incorrect Verification", "hire_desk")] * len(found)
    assert [f["subject"] for f in data["failures"]] == found


@pytest.mark.usefixtures("in_repo")
@pytest.mark.parametrize("policy, found", [("fitting_policy", [("Incorrect Verification", "book_fitting")]),
                                           ("honest_fitting_policy", [])])
def test_a_langgraph_structured_response_is_recorded_as_its_fields_and_read_as_a_claim(cli, policy, found):
    code, out, err = cli("exec", "tests/oracles/typed_answer_apps.py:wetsuit_desk", "--input",
                         "Hi, could I get a wetsuit fitting on 2026-04-02?", "--sut-model",
                         f"scripted/tests/oracles/typed_answer_apps.py:{policy}", "--format", "json", "--failures",
                         "--no-cache")
    assert code == 0, err
    data = json.loads(out)
    [response] = [e for e in data["trace"]["events"] if e["type"] == "message" and "structured_response" in e["content"]]
    assert json.loads(response["content"])["structured_response"]["note"].startswith("our fitter")
    assert [(f["root_cause"], f["subject"]) for f in data["failures"]] == found


# -- a number given to a numeric parameter has its form, whatever its example's digits ---------

def test_a_number_unlike_its_example_s_digits_does_not_clear_a_rejected_documented_date():
    from masfuzz.oracles.semantic import tool_doc_mismatch

    spec = WorkflowSpec(
        system=SystemInfo(id="water", entry_agent="meters"),
        agents=(AgentSpec(id="meters", instructions="Log the reading with log_water_reading."),),
        tools=(ToolSpec(id="log_water_reading", description="Log a water meter reading.", parameters={
            "type": "object", "required": ["taken_on", "cubic_metres"], "properties": {
                "taken_on": {"type": "string", "description": 'The day it was read, DD.MM.YYYY, like "03.02.2026"'},
                "cubic_metres": {"type": "number", "description": 'As the dial shows it, like "412.75"'}}}),),
        permissions=Permissions(allow=(("meters", "log_water_reading"),)))

    def run(volume):
        return Trace(scenario_id="s", events=(
            Message(role="user", content="Our water meter read 388 on 03.02.2026."), AgentTurn(agent="meters"),
            ToolCall(agent="meters", tool="log_water_reading", call_id="w",
                     arguments={"taken_on": "03.02.2026", "cubic_metres": volume}),
            ToolResult(agent="meters", tool="log_water_reading", call_id="w",
                       payload='{"status": 422, "error": "taken_on \'03.02.2026\' is not an ISO date"}'),
            Message(agent="meters", content="Sorry, that reading did not go in."),
            TerminationEvent(reason="completed", final_output="Sorry, that reading did not go in.")))

    for volume in (388, 388.0):
        [f] = tool_doc_mismatch(run(volume), spec)
        assert f.elements == ("meters", "log_water_reading", "taken_on")
    assert tool_doc_mismatch(run("388 m3"), spec) == []  # a text off the documented form still clears it
