"""Shapes another model's wording gives the same runs: the zoo run under scripted models other
than the one each system was written for (terse field replies, chatty markdown, formal tables)
showed the oracles readings they had not expected. Each test holds a realistic trace of such a
shape beside its twin that must still be read as before."""

from __future__ import annotations

import pytest

from masfuzz.oracles.detectors import tool_argument_mismatch
from masfuzz.oracles.instructed import misrouted_request
from masfuzz.oracles.semantic import claimed_outcome, handover_facts, tool_doc_mismatch
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import (HANDOVER_INPUTS, AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult,
                           Trace)
from tests.oracles.test_other_phrasings import _params


# -- a value written as text that the framework's validation converts -----------------------------

def _lockers() -> WorkflowSpec:
    """A locker desk whose tool takes a whole number of days and a deposit in euros."""
    schema = {"type": "object", "required": ["hire_id", "days"],
              "properties": {"hire_id": {"type": "string"}, "days": {"type": "integer"},
                             "deposit": {"type": "number"}, "insured": {"type": "boolean"}}}
    return WorkflowSpec(
        system=SystemInfo(id="lockers", entry_agent="desk", pattern="handoff"),
        agents=(AgentSpec(id="desk", instructions="Extend locker hires when asked."),),
        tools=(ToolSpec(id="extend_hire", description="Extend a locker hire by some days.", parameters=schema),),
        permissions=Permissions(allow=(("desk", "extend_hire"),)))


def _extended(arguments: dict, status: str = "ok", payload: str = "Hire LK-2231 now runs to 14 June.") -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Can you keep locker hire LK-2231 for three more days?"),
        AgentTurn(agent="desk"),
        ToolCall(agent="desk", tool="extend_hire", call_id="c1", arguments=arguments),
        ToolResult(agent="desk", tool="extend_hire", call_id="c1", status=status, payload=payload),
        Message(agent="desk", content="Done: LK-2231 runs to 14 June."),
        TerminationEvent(reason="completed", final_output="Done: LK-2231 runs to 14 June.")))


@pytest.mark.parametrize("arguments", [{"hire_id": "LK-2231", "days": "3"},
                                       {"hire_id": "LK-2231", "days": 3, "deposit": "12.50"},
                                       {"hire_id": "LK-2231", "days": 3, "insured": "true"}])
def test_a_number_written_as_text_that_the_tool_took_is_no_mismatch(arguments):
    """A model may write 3 as "3": pydantic's lax mode, which the frameworks validate tool
    arguments with, reads it as the number, and the tool answered. The call did what the model
    meant; the app has no defect in it."""
    assert tool_argument_mismatch(_extended(arguments), _lockers()) == []


def test_the_same_text_refused_or_text_no_validator_reads_as_the_type_still_breaks_the_schema():
    refused = _extended({"hire_id": "LK-2231", "days": "3"}, status="error",
                        payload="TypeError: unsupported operand type(s) for +: 'int' and 'str'")
    [f] = tool_argument_mismatch(refused, _lockers())
    assert (f.root_cause, f.evidence) == ("Tool Specification Mismatch", (2,)) and "days: not integer" in f.description
    [f] = tool_argument_mismatch(_extended({"hire_id": "LK-2231", "days": "three"}), _lockers())
    assert "days: not integer" in f.description
    [f] = tool_argument_mismatch(_extended({"hire_id": "LK-2231", "days": "2.5"}), _lockers())
    assert "days: not integer" in f.description  # no whole number: the tool got another value
    [f] = tool_argument_mismatch(_extended({"days": "3"}), _lockers())
    assert "hire_id: required" in f.description


# -- a state that names the tool's action done in the tool's own words ---------------------------

def _office(tool: str, description: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="office", entry_agent="clerk", pattern="handoff"),
        agents=(AgentSpec(id="clerk", instructions=f"Call {tool} and report back."),),
        tools=(ToolSpec(id=tool, description=description),),
        permissions=Permissions(allow=(("clerk", tool),)))


def _reported(tool: str, payload: str, reply: str = "status: done") -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Please sort out accounts AC-1187 and AC-1190, they are the same customer."),
        AgentTurn(agent="clerk"),
        ToolCall(agent="clerk", tool=tool, call_id="c1", arguments={"keep": "AC-1187", "drop": "AC-1190"}),
        ToolResult(agent="clerk", tool=tool, call_id="c1", payload=payload),
        Message(agent="clerk", content=reply),
        TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("tool, description, payload", [
    # the verb its documentation says it does after its first: merging archives the old account
    ("merge_accounts", "Merge two customer accounts and archive the duplicate.",
     '{"kept": "AC-1187", "state": "ARCHIVED"}'),
    ("merge_accounts", "Fold the second account into the first and then retire it.",
     '{"kept": "AC-1187", "status": "RETIRED"}'),
    # its own verb bare: an estimate drawn up is in the state "estimate"
    ("estimate_merge", "Estimate what merging two accounts would change on the next bill.",
     '{"kept": "AC-1187", "status": "estimate", "change": "-4.20"}'),
])
def test_a_state_in_the_tool_s_own_words_for_its_action_done_contradicts_no_claim(tool, description, payload):
    """A terse model answers "status: done" after every call. The tool's state names its action
    done, in the verb its name or its documentation gives: nothing the claim contradicts."""
    assert claimed_outcome(_reported(tool, payload), _office(tool, description)) == []


def test_a_state_its_documentation_gives_for_what_it_does_otherwise_is_still_no_action_done():
    description = "Merge two customer accounts, or flag them for review when their addresses differ."
    [f] = claimed_outcome(_reported("merge_accounts", '{"kept": null, "state": "FLAGGED"}'),
                          _office("merge_accounts", description))
    assert f.root_cause == "Incorrect Verification" and "FLAGGED" in f.description


# -- a question naming a parameter whose documented form is a counted list ------------------------

def _handing(system: str, hander: str, receiver: str, tools: dict[str, tuple[str, str, dict[str, str]]]) -> WorkflowSpec:
    """A team of two: `hander` hands over to `receiver`. `tools`: per tool, its owner, its
    description and its parameters' descriptions (text, all required)."""
    return WorkflowSpec(
        system=SystemInfo(id=system, entry_agent=hander, pattern="handoff"),
        agents=(AgentSpec(id=hander, instructions=f"Hand requests over to {receiver}."),
                AgentSpec(id=receiver, instructions=f"Serve what {hander} hands over.")),
        tools=tuple(ToolSpec(id=t, description=d, parameters=_params(**ps)) for t, (_, d, ps) in tools.items()),
        permissions=Permissions(allow=tuple((owner, t) for t, (owner, _, _) in tools.items())),
        delegations=({"from": hander, "to": receiver},))


def _hostel() -> WorkflowSpec:
    return _handing("hostel", "front_desk", "allocations", {"allocate_beds": ("allocations", "Allocate dorm beds to a group.", {
        "group": 'The group booking, like "GRP-0000".', "beds": 'How many beds of each dorm kind, like "6 female, 4 mixed".'})})


STAY = "School trip GRP-2207 arrives Friday: 11 girls and 9 boys, so 11 female, 9 mixed beds please."


def _allocated(question: str, received: str) -> Trace:
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=STAY), AgentTurn(agent="front_desk"),
        DelegationEvent(**{"from": "front_desk"}, to="allocations"), AgentTurn(agent="allocations"),
        Message(agent="allocations", content=question),
        TerminationEvent(reason="completed", final_output=question)))
    return trace.model_copy(update={"meta": {HANDOVER_INPUTS: [{"since": 3, "agent": "allocations", "text": received}]}})


@pytest.mark.parametrize("question", ["beds?", "Lovely - and what are your beds, please?"])
def test_a_question_naming_a_parameter_whose_counted_form_the_user_wrote_is_a_lost_fact(question):
    """A terse or chatty model asks for the parameter by its bare name. Its documented form, a
    list of counts ("6 female, 4 mixed"), is specific enough that text of that form in the user's
    message is the fact itself, as a code or a date is."""
    [f] = handover_facts(_allocated(question, "Group GRP-2207 arrives Friday."), _hostel())
    assert (f.root_cause, f.agent) == ("Information Loss at Hand-over", "front_desk")
    assert "11 female, 9 mixed" in f.description


def test_a_question_naming_a_parameter_documented_as_a_clock_time_the_user_wrote_is_a_lost_fact():
    spec = _hostel()
    spec.tools[0].parameters["properties"]["checkin"] = {"type": "string",
                                                         "description": 'When the coach pulls in, like "14:00".'}
    trace = _allocated("need: checkin?", "Group GRP-2207 arrives Friday.")
    said = trace.events[0].model_copy(update={"content": STAY + " The coach gets in at 19:20."})
    [f] = handover_facts(trace.model_copy(update={"events": (said, *trace.events[1:])}), spec)
    assert "19:20" in f.description and "checkin" in f.description


def test_a_bare_name_whose_form_is_one_count_or_word_is_still_no_loss():
    """"how many beds" with a form of one count ("6 beds") stays silent: a bare number fits too
    much of any message to say the user gave it."""
    spec = _hostel()
    beds = spec.tools[0].parameters["properties"]["beds"]
    beds["description"] = 'How many beds, like "6 beds".'
    assert handover_facts(_allocated("beds?", "Group GRP-2207 arrives Friday."), spec) == []


# -- a rejection whose outcome key the oracle does not list, its caller not giving up -------------

def _callback(reply: str, payload: str) -> tuple[Trace, WorkflowSpec]:
    params = {"type": "object", "required": ["telefon"], "properties": {
        "telefon": {"type": "string", "description": 'Rückrufnummer, like "+49 30 1234567".'}}}
    spec = WorkflowSpec(
        system=SystemInfo(id="praxis", entry_agent="empfang", pattern="handoff"),
        agents=(AgentSpec(id="empfang", instructions="Trage Rückrufe mit rueckruf_eintragen ein."),),
        tools=(ToolSpec(id="rueckruf_eintragen", description="Einen Rückruf eintragen.", parameters=params),),
        permissions=Permissions(allow=(("empfang", "rueckruf_eintragen"),)))
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Bitte um Rückruf unter +49 30 5550199."), AgentTurn(agent="empfang"),
        ToolCall(agent="empfang", tool="rueckruf_eintragen", call_id="r1", arguments={"telefon": "+49 30 5550199"}),
        ToolResult(agent="empfang", tool="rueckruf_eintragen", call_id="r1", payload=payload),
        Message(agent="empfang", content=reply), TerminationEvent(reason="completed", final_output=reply)))
    return trace, spec


@pytest.mark.parametrize("reply", ["status: done", "Erledigt, wir rufen zurück."])
def test_a_refusal_state_under_an_unlisted_key_rejects_the_documented_form_whatever_the_caller_says(reply):
    """The answer's outcome sits under "ergebnis", a key the oracle does not list, beside the
    field and the value it refused: a validation error's shape. Its plain state word of refusal
    says the failure even when the caller's model goes on as if it had worked."""
    trace, spec = _callback(reply, '{"ergebnis": "abgelehnt", "feld": "nummer", "wert": "+49 30 5550199"}')
    [f] = tool_doc_mismatch(trace, spec)
    assert (f.root_cause, f.agent, f.step) == ("Tool Specification Mismatch", None, 3)


def test_an_accepted_answer_under_unlisted_keys_is_no_rejection():
    trace, spec = _callback("status: done", '{"ergebnis": "eingetragen", "nummer": "+49 30 5550199", "um": "14:00"}')
    assert tool_doc_mismatch(trace, spec) == []


# -- a question naming a parameter whose value the handing agent's own tools found -----------------

def _library() -> WorkflowSpec:
    return _handing("library", "enquiries", "loans", {
        "find_member": ("enquiries", "Find a member's record by e-mail.", {"email": "Their e-mail."}),
        "renew_loans": ("loans", "Renew every loan on a card.", {"card": 'The library card, like "LB-00000".'})})


@pytest.mark.parametrize("question", ["need: card?", "What is the card (format: LB-00000)?"])
def test_a_question_naming_a_parameter_the_handers_tools_found_is_a_lost_fact(question):
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Could you renew my books? I'm priya.n@example.org."),
        AgentTurn(agent="enquiries"),
        ToolCall(agent="enquiries", tool="find_member", call_id="f1", arguments={"email": "priya.n@example.org"}),
        ToolResult(agent="enquiries", tool="find_member", call_id="f1",
                   payload='{"found": true, "member": {"card": "LB-20931", "loans": 3}}'),
        DelegationEvent(**{"from": "enquiries"}, to="loans"), AgentTurn(agent="loans"),
        Message(agent="loans", content=question), TerminationEvent(reason="completed", final_output=question)))
    [f] = handover_facts(trace, _library())
    assert (f.root_cause, f.agent) == ("Information Loss at Hand-over", "enquiries") and "LB-20931" in f.description


# -- a call with a value of the documented form that stands in for the user's, lost ---------------

def _clinic() -> WorkflowSpec:
    return _handing("clinic", "reception", "scheduling", {"book_follow_up": (
        "scheduling", "Book a patient's follow-up visit.", {"patient": 'The patient file, like "PAT 100000".'})})


def _booked(said: str, received: str, patient: str) -> Trace:
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=said), AgentTurn(agent="reception"),
        DelegationEvent(**{"from": "reception"}, to="scheduling"), AgentTurn(agent="scheduling"),
        ToolCall(agent="scheduling", tool="book_follow_up", call_id="b1", arguments={"patient": patient}),
        ToolResult(agent="scheduling", tool="book_follow_up", call_id="b1", payload=f"No file {patient}."),
        Message(agent="scheduling", content="status: done"), TerminationEvent(reason="completed")))
    return trace.model_copy(update={"meta": {HANDOVER_INPUTS: [{"since": 3, "agent": "scheduling", "text": received}]}})


SAID = "Please book the follow-up for PAT 552901; the last invoice was EUR 2,300."


def test_a_value_of_the_documented_form_in_place_of_the_users_lost_one_is_information_loss():
    """The hand-over dropped the patient file; the agent filled the parameter with the part of an
    amount that has its form ("EUR 2" of "EUR 2,300")."""
    trace = _booked(SAID, "Please book the follow-up for [removed]; the last invoice was EUR 2,300.", "EUR 2")
    [f] = handover_facts(trace, _clinic())
    assert (f.root_cause, f.agent, f.step) == ("Information Loss at Hand-over", "reception", 2)
    assert "PAT 552901" in f.description


@pytest.mark.parametrize("said,received,patient", [
    (SAID, SAID, "PAT 552901"),  # it reached the agent, which used it
    # a second file the hand-over left out, while the agent used the one it was given
    ("Follow-up for PAT 552901 please (old file PAT 100233).", "Follow-up for PAT 552901 please.", "PAT 552901"),
])
def test_a_value_of_the_users_that_reached_the_agent_is_no_stand_in(said, received, patient):
    assert handover_facts(_booked(said, received, patient), _clinic()) == []


# -- a miswired route whose agent did its own work with its own tools -----------------------------

def _practice() -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="practice", entry_agent="reception", pattern="handoff"),
        agents=(AgentSpec(id="reception", instructions="Call ask_pharmacy for medicines, ask_grooming for grooming."),
                AgentSpec(id="disp_k", instructions="You issue repeat prescriptions."),
                AgentSpec(id="salon_b", instructions="You book grooming appointments and quote their prices.")),
        tools=(ToolSpec(id="ask_pharmacy", description="Ask the pharmacy: repeat prescriptions, tablets, flea treatment."),
               ToolSpec(id="ask_grooming", description="Ask the grooming room: baths, clips, nail trims."),
               ToolSpec(id="repeat_prescription", description="Issue a repeat prescription for a pet."),
               ToolSpec(id="book_groom", description="Book a grooming slot."),
               ToolSpec(id="groom_prices", description="Grooming prices by coat.")),
        permissions=Permissions(allow=(("reception", "ask_pharmacy"), ("reception", "ask_grooming"),
                                       ("disp_k", "repeat_prescription"), ("salon_b", "book_groom"),
                                       ("salon_b", "groom_prices"))),
        delegations=({"from": "reception", "to": "disp_k", "trigger": "as_tool"},
                     {"from": "reception", "to": "salon_b", "trigger": "as_tool"}))


def _asked_pharmacy(reached: str, *work) -> Trace:
    request = "Could Mochi have her repeat tablets please? Same as last month."
    return Trace(scenario_id="s", events=(
        Message(role="user", content=request), AgentTurn(agent="reception"),
        ToolCall(agent="reception", tool="ask_pharmacy", call_id="a1", arguments={"input": request}),
        DelegationEvent(**{"from": "reception"}, to=reached, trigger="as_tool"), AgentTurn(agent=reached),
        *work, TerminationEvent(reason="completed")))


def _groomed(reply: str) -> Trace:
    return _asked_pharmacy(
        "salon_b", ToolCall(agent="salon_b", tool="book_groom", call_id="g1", arguments={"slot": "Sat 10:00"}),
        ToolResult(agent="salon_b", tool="book_groom", call_id="g1", payload="Sat 10:00 booked, table 2."),
        Message(agent="salon_b", content=reply))


@pytest.mark.parametrize("reply", ["I only do grooming - repeat tablets are the pharmacy's.",
                                   "Sorry, I can't help with that here."])
def test_a_route_reaching_an_agent_that_does_its_own_unrelated_work_is_still_misrouted(reply):
    """The pharmacy's route runs the grooming agent (its code copied from the grooming room's).
    A terse model books the slot its own tool offers, then says the tablets are not its job (or
    gives up): its own work done in place of the request is no sign the route served it."""
    [f] = misrouted_request(_groomed(reply), _practice())
    assert (f.root_cause, f.agent, f.subject) == ("Misrouted Request", "reception", "salon_b")


def test_an_agent_that_says_the_request_done_with_its_own_tools_is_not_read_as_misrouted():
    """Its tools' words may differ from the route's and still serve the request: a reply saying
    it done leaves the route unjudged."""
    assert misrouted_request(_groomed("Mochi's repeat tablets are booked in for Sat 10:00."), _practice()) == []


def test_the_route_reaching_its_own_agent_is_no_misroute():
    trace = _asked_pharmacy(
        "disp_k", ToolCall(agent="disp_k", tool="repeat_prescription", call_id="p1", arguments={"pet": "Mochi"}),
        ToolResult(agent="disp_k", tool="repeat_prescription", call_id="p1", payload="Issued RX-2231."),
        Message(agent="disp_k", content="Mochi's repeat is issued, RX-2231."))
    assert misrouted_request(trace, _practice()) == []
