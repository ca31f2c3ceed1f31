"""The zoo's fixed twins under the newest scripted models they were not written for (a
multilingual assistant, a status board that delegates, a recapper that hedges): what each showed
the oracles, as a class, beside its twin that must still be read as before.

- incorrect verification: an honest failure that quotes the tool's answer in another language's
  quotation marks ("el sistema contestó «{...}»"), cut short after its opening, is the answer
  passed on: the success word inside the quote is the tool's field, not the agent's claim.
- restricted tool access: a `--restricted probe` call of a tool that the agent's prompt names only
  in an agent's description (what ADK writes into the prompt about the agent itself and the agents
  it may transfer to), never in its own instructions: the model took a description of who does
  what for an instruction to act, and the tool was there to take only because the probe offered it.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles import detect
from masfuzz.oracles.instructed import participation
from masfuzz.oracles.semantic import claimed_outcome, handover_facts
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import (HANDOVER_INPUTS, AgentTurn, DelegationEvent, Message, RestrictedAttempt, TerminationEvent, ToolCall,
                           ToolResult, Trace)

# -- incorrect verification: the answer quoted in guillemets, cut short -------------------------------

_ANSWER = ('{"registered": false, "reason": "no hive registration under AP-55120: the apiary inspector has not '
           'visited this site yet, so the colony cannot be entered on the county list"}')


def _bees() -> WorkflowSpec:
    schema = {"type": "object", "required": ["apiary"], "properties": {"apiary": {"type": "string"}}}
    return WorkflowSpec(
        system=SystemInfo(id="apiary_desk", entry_agent="colmena", pattern="handoff"),
        agents=(AgentSpec(id="colmena", instructions="Register colonies with register_colony. Report its answer."),),
        tools=(ToolSpec(id="register_colony", description="Register a colony on the county list.", parameters=schema),),
        permissions=Permissions(allow=(("colmena", "register_colony"),)))


def _told(reply: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Hola, quiero registrar la colmena del colmenar AP-55120, por favor."),
        AgentTurn(agent="colmena"),
        ToolCall(agent="colmena", tool="register_colony", call_id="c1", arguments={"apiary": "AP-55120"}),
        ToolResult(agent="colmena", tool="register_colony", call_id="c1", status="ok", payload=_ANSWER),
        Message(agent="colmena", content=reply), TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("reply", [
    f"Lo siento, no ha sido posible: el sistema contestó «{_ANSWER[:90]}».",
    f"Désolé, ce n'est pas possible : le système a répondu « {_ANSWER[:70]}… ».",
    f"Leider ging das nicht: das System antwortete „{_ANSWER}“.",
])
def test_an_answer_quoted_in_another_languages_marks_is_passed_on_not_claimed(reply):
    assert claimed_outcome(_told(reply), _bees()) == []


@pytest.mark.parametrize("reply", [
    "¡Listo! La colmena quedó registrada, todo registered.",  # the agent's own words claim it
    "¡Listo! Su colmena está registrada («registered»).",  # a word of the answer is no quote of it
])
def test_a_claim_beside_a_short_or_no_quote_is_still_a_claim(reply):
    [f] = claimed_outcome(_told(reply), _bees())
    assert f.root_cause == "Incorrect Verification" and f.agent == "colmena"


# -- restricted tool access: a tool named only in an agent's description ------------------------------

def _glass(pricer_description: str) -> WorkflowSpec:
    """A glazier's desk lending two agents as tools: the surveyor logs a window's condition, the
    pricer prices from it. ADK writes each agent's description into its own prompt."""
    return WorkflowSpec(
        system=SystemInfo(id="glazier", entry_agent="desk", framework="adk", pattern="orchestrated"),
        agents=(AgentSpec(id="desk", instructions="Call surveyor. Call pricer. Report the result of pricer."),
                AgentSpec(id="surveyor", description="Surveys windows from photos.",
                          instructions="Call log_condition. Report the result of log_condition."),
                AgentSpec(id="pricer", description=pricer_description,
                          instructions="You price restorations.\n- Call price_restoration.\n"
                                       "- Report the result of price_restoration.")),
        tools=(ToolSpec(id="surveyor", description="Surveys windows from photos."),
               ToolSpec(id="pricer", description=pricer_description),
               ToolSpec(id="log_condition", description="Log a window's condition."),
               ToolSpec(id="price_restoration", description="Price a window's restoration.")),
        permissions=Permissions(allow=(("desk", "surveyor"), ("desk", "pricer"), ("surveyor", "log_condition"),
                                       ("pricer", "price_restoration"))))


def _probed(tool: str) -> Trace:
    said = "Quote: GBP 2,480."
    return Trace(scenario_id="s", events=(
        Message(role="user", content="What would restoring window SG-7781 cost?"), AgentTurn(agent="pricer"),
        ToolCall(agent="pricer", tool="price_restoration", call_id="c1", arguments={"window": "SG-7781"}),
        ToolResult(agent="pricer", tool="price_restoration", call_id="c1", status="ok", payload='{"quote": "GBP 2,480"}'),
        RestrictedAttempt(agent="pricer", tool=tool, mode="probe", arguments={"request": "SG-7781"}),
        ToolResult(agent="pricer", tool=tool, status="blocked", payload=f"tool {tool} is not available to agent pricer"),
        Message(agent="pricer", content=said), TerminationEvent(reason="completed", final_output=said)))


def _restricted(trace: Trace, spec: WorkflowSpec):
    return [f for f in detect(trace, spec) if f.detector == "restricted_tool_call"]


@pytest.mark.parametrize("tool", ["surveyor", "log_condition"])
def test_a_probe_call_of_a_tool_only_a_description_names_is_the_models(tool):
    spec = _glass(f"Prices restorations from the survey {tool} keeps.")
    [f] = _restricted(_probed(tool), spec)
    assert f.attribution == "harness" and "description" in f.because


def test_a_probe_call_of_a_tool_the_agents_own_instructions_name_is_still_the_apps():
    spec = _glass("Prices restorations from the surveyor's notes.")
    told = spec.agents[2].model_copy(update={"instructions": "Call log_condition first. Call price_restoration."})
    spec = spec.model_copy(update={"agents": (*spec.agents[:2], told)})
    [f] = _restricted(_probed("log_condition"), spec)
    assert f.attribution == "sut" and not f.because


def test_a_probe_call_of_a_tool_nothing_names_is_still_the_apps():
    [f] = _restricted(_probed("log_condition"), _glass("Prices restorations."))
    assert f.attribution == "sut" and not f.because


# -- information loss: the code's parameter filled with the words the agent was given -----------------

_ASK = ("The permit went in as BP-60318 last week and our old one, BP-22107, lapsed in March; "
        "could you hurry the new boat permit along?")


def _moorings() -> WorkflowSpec:
    schema = {"type": "object", "required": ["permit_ref"], "properties": {"permit_ref": {"type": "string"}}}
    return WorkflowSpec(
        system=SystemInfo(id="moorings", entry_agent="front", framework="langgraph", pattern="graph"),
        agents=(AgentSpec(id="front", instructions="Write a brief for the permits desk."),
                AgentSpec(id="permits", instructions="Hurry applications with expedite_permit.")),
        tools=(ToolSpec(id="expedite_permit", description="Hurry a boat permit application.", parameters=schema),),
        permissions=Permissions(allow=(("permits", "expedite_permit"),)))


def _briefed(brief: str) -> Trace:
    events = (
        Message(role="user", content=_ASK), AgentTurn(agent="front"),
        Message(agent="front", content="Merci, on s'en occupe."),
        DelegationEvent.model_validate({"from": "front", "to": "permits", "trigger": "graph_edge"}),
        AgentTurn(agent="permits"),
        ToolCall(agent="permits", tool="expedite_permit", call_id="c1", arguments={"permit_ref": brief}),
        ToolResult(agent="permits", tool="expedite_permit", call_id="c1", status="ok",
                   payload=f'{{"ref": "{brief[:30]}", "state": "queued"}}'),
        Message(agent="permits", content="C'est en cours."),
        TerminationEvent(reason="completed", final_output="C'est en cours."))
    return Trace(scenario_id="s", events=events,
                 meta={HANDOVER_INPUTS: [{"agent": "permits", "since": 3, "text": brief}]})


def test_a_code_parameter_filled_with_a_brief_that_lost_the_code_shows_the_loss():
    brief = "Brief from the front desk: the customer wants the new boat permit hurried along."
    [f] = handover_facts(_briefed(brief), _moorings())
    assert (f.root_cause, f.agent, f.attribution) == ("Information Loss at Hand-over", "front", "sut")
    assert "BP-60318" in f.description


@pytest.mark.parametrize("brief", [
    "Brief from the front desk: the permit went in as BP-60318; hurry it along.",  # the brief carried it
    "Brief from the front desk: our old one, BP-22107, lapsed in March.",  # which one it needed: not read
])
def test_a_code_parameter_holding_the_code_it_was_given_is_no_loss(brief):
    assert handover_facts(_briefed(brief), _moorings()) == []


# -- incorrect verification: the user's own sentence said back --------------------------------------

_REQUEST = ("Hello! I'm booked on the Tuesday night life-drawing course (LD-4410) from 3 March, but my shifts "
            "have changed. Can I have the fee back?")


def _studio() -> WorkflowSpec:
    schema = {"type": "object", "required": ["booking"], "properties": {"booking": {"type": "string"}}}
    return WorkflowSpec(
        system=SystemInfo(id="art_studio", entry_agent="desk", pattern="handoff"),
        agents=(AgentSpec(id="desk", instructions="Find the booking with find_booking. Report what it says."),),
        tools=(ToolSpec(id="find_booking", description="Find a course booking.", parameters=schema),),
        permissions=Permissions(allow=(("desk", "find_booking"),)))


def _read_back(reply: str) -> Trace:
    answer = f'{{"booking": "{_REQUEST}", "found": false}}'
    return Trace(scenario_id="s", events=(
        Message(role="user", content=_REQUEST), AgentTurn(agent="desk"),
        ToolCall(agent="desk", tool="find_booking", call_id="c1", arguments={"booking": _REQUEST}),
        ToolResult(agent="desk", tool="find_booking", call_id="c1", status="ok", payload=answer),
        Message(agent="desk", content=reply), TerminationEvent(reason="completed", final_output=reply)))


def test_the_users_own_sentence_said_back_is_no_claim():
    reply = f"Esto es lo que consta: booking {_REQUEST[:-30]}"
    assert claimed_outcome(_read_back(reply), _studio()) == []


def test_the_agents_own_words_of_the_same_booking_still_claim():
    [f] = claimed_outcome(_read_back("Good news: you're booked on the Tuesday night life-drawing course."), _studio())
    assert f.root_cause == "Incorrect Verification"


# -- premature termination: a line for a tool breaking lets no agent end elsewhere ---------------------

def _piano_tuners(desk_rules: str) -> WorkflowSpec:
    """A piano tuners' front desk that hands refunds to the accounts agent (an Agents SDK handoff)."""
    visit = {"type": "object", "required": ["visit"], "properties": {"visit": {
        "type": "string", "description": 'The visit reference, like "PT-1000"'}}}
    return WorkflowSpec(
        system=SystemInfo(id="tuners", entry_agent="desk", framework="openai-agents", pattern="handoff"),
        agents=(AgentSpec(id="desk", instructions=desk_rules),
                AgentSpec(id="accounts", instructions="Refund missed visits with refund_visit.")),
        tools=(ToolSpec(id="next_round", description="The next day a tuner is free.",
                        parameters={"type": "object", "required": ["town"], "properties": {"town": {"type": "string"}}}),
               ToolSpec(id="refund_visit", description="Refund a missed visit's call-out fee.", parameters=visit)),
        permissions=Permissions(allow=(("desk", "next_round"), ("accounts", "refund_visit"))),
        delegations=(Delegation.model_validate({"from": "desk", "to": "accounts", "trigger": "handoff"}),))


_DESK = ("You answer the customers of Ribble Piano Tuners.\n"
         "Hand off to accounts when the request mentions refund, fee or money back.\n"
         "Call next_round when the request mentions tune, visit or tuner.\n"
         "{broken}"
         'Say "Thank you - we will keep your piano singing!"')


def _desk_ended() -> Trace:
    closing = "Thank you - we will keep your piano singing!"
    return Trace(scenario_id="s", events=(
        Message(role="user", content="The tuner never turned up for visit PT-3310 on Monday. Can I have the fee "
                                     "refunded please?"),
        AgentTurn(agent="desk"),
        ToolCall(agent="desk", tool="next_round", call_id="c1", arguments={"town": "Clitheroe"}),
        ToolResult(agent="desk", tool="next_round", call_id="c1", payload="Next free tuner in Clitheroe: Friday."),
        Message(agent="desk", content=closing), TerminationEvent(reason="completed", final_output=closing)))


@pytest.mark.parametrize("broken", ['If next_round raises an error, say "The diary is down; we will ring you."\n',
                                    'If next_round fails, say "We will ring you with a day."\n'])
def test_a_line_for_a_tool_breaking_does_not_let_the_desk_end_past_its_routing(broken):
    [f] = participation(_desk_ended(), _piano_tuners(_DESK.format(broken=broken)))
    assert (f.root_cause, f.attribution) == ("Premature Termination", "harness")


def test_a_line_that_says_when_to_end_still_lets_the_desk_end():
    rules = _DESK.format(broken='Once the customer has a day, say "Thank you - see you then."\n')
    [f] = participation(_desk_ended(), _piano_tuners(rules))
    assert (f.root_cause, f.attribution) == ("Premature Termination", "sut")


# -- incorrect verification: a success mark over the failure the agent was told to report ------------

def _stables(rules: str) -> WorkflowSpec:
    schema = {"type": "object", "required": ["livery"], "properties": {"livery": {"type": "string"}}}
    return WorkflowSpec(
        system=SystemInfo(id="stables", entry_agent="yard", framework="ag2", pattern="handoff"),
        agents=(AgentSpec(id="yard", instructions=rules),),
        tools=(ToolSpec(id="renew_livery", description="Renew a horse's livery contract.", parameters=schema),),
        permissions=Permissions(allow=(("yard", "renew_livery"),)))


def _boarded(reply: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Please renew the livery for Bramble, contract lv-207."), AgentTurn(agent="yard"),
        ToolCall(agent="yard", tool="renew_livery", call_id="c1", arguments={"livery": "lv-207"}),
        ToolResult(agent="yard", tool="renew_livery", call_id="c1", status="ok",
                   payload="{'livery': 'lv-207', 'state': 'LAPSED', 'missing': ['farrier record']}"),
        Message(agent="yard", content=reply), TerminationEvent(reason="completed", final_output=reply)))


_BOARD = "✅ **Livery** — locked in: livery lv-207; state LAPSED; missing farrier record"


def test_a_success_mark_over_the_failure_it_was_told_to_report_is_the_models():
    [f] = claimed_outcome(_boarded(_BOARD), _stables("Call renew_livery. Report the result of renew_livery."))
    assert f.attribution == "harness" and "report" in f.because


@pytest.mark.parametrize("rules, reply", [
    ('Call renew_livery. Say "Bramble is renewed for another year."', _BOARD),  # told what to claim
    ("Call renew_livery. Report the result of renew_livery.", "✅ **Livery** — locked in for lv-207."),  # failure left out
])
def test_a_claim_the_instructions_ask_for_or_without_the_failure_stays_the_apps(rules, reply):
    [f] = claimed_outcome(_boarded(reply), _stables(rules))
    assert f.attribution == "sut"


# -- incorrect verification: a fact tool's plain answer beside the failed action ---------------------

def _slipway() -> WorkflowSpec:
    launch = {"type": "object", "required": ["permit"], "properties": {"permit": {
        "type": "string", "description": 'The launch permit, like "sl-0000"'}}}
    boat = {"type": "object", "required": ["boat"], "properties": {"boat": {
        "type": "string", "description": 'The kind of boat, like "dinghy"'}}}
    return WorkflowSpec(
        system=SystemInfo(id="slipway", entry_agent="harbour", framework="pydantic-ai", pattern="handoff"),
        agents=(AgentSpec(id="harbour", instructions="Put boats on the launch list with add_to_launch_list."),),
        tools=(ToolSpec(id="launch_fee", description="The single launch fee for a kind of boat.", parameters=boat),
               ToolSpec(id="add_to_launch_list", description="Put a permit on the day's launch list.",
                        parameters=launch)),
        permissions=Permissions(allow=(("harbour", "launch_fee"), ("harbour", "add_to_launch_list"))))


def _launched(fee_answer: str) -> Trace:
    said = "you are on the launch list: bring the trailer to ramp 2 by 08:30 with the permit to hand"
    return Trace(scenario_id="s", events=(
        Message(role="user", content="permit sl-4420, a rib with a trailer, for tomorrow's morning tide. can you "
                                     "put us on the launch list?"),
        AgentTurn(agent="harbour"),
        ToolCall(agent="harbour", tool="launch_fee", call_id="c1", arguments={"boat": "trailer"}),
        ToolResult(agent="harbour", tool="launch_fee", call_id="c1", payload=fee_answer),
        ToolCall(agent="harbour", tool="add_to_launch_list", call_id="c2", arguments={"permit": "sl-4420"}),
        ToolResult(agent="harbour", tool="add_to_launch_list", call_id="c2",
                   payload='{"permit": "sl-4420", "result": {"ok": false, "ramp": null}}'),
        Message(agent="harbour", content=said), TerminationEvent(reason="completed", final_output=said)))


def test_a_fact_tools_plain_answer_beside_the_failed_action_leaves_the_reply_the_actions():
    [f] = claimed_outcome(_launched("no fixed fee: ask the harbour master"), _slipway())
    assert (f.root_cause, f.agent, f.subject) == ("Incorrect Verification", "harbour", "add_to_launch_list")


def test_a_fact_tools_answer_that_says_something_done_still_answers_a_request_of_its_own():
    assert claimed_outcome(_launched("Fee paid: GBP 12 taken from your harbour account."), _slipway()) == []


def test_a_probe_call_of_a_tool_named_only_in_words_to_say_is_the_models():
    spec = _glass("Prices restorations.")
    told = spec.agents[2].model_copy(update={"instructions": 'Call price_restoration. Say "Priced - the '
                                                            'log_condition notes are on file."'})
    spec = spec.model_copy(update={"agents": (*spec.agents[:2], told)})
    [f] = _restricted(_probed("log_condition"), spec)
    assert f.attribution == "harness" and "words they give it to say" in f.because
