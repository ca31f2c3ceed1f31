"""Oracle misses and false findings of a blind set driven by a model that writes business letters
(a Subject line, a salutation, sentences, a signed sign-off), by class, each beside its correct
twin (hand-built specs and traces, in domains of their own):

- a tool that rejects the form its own documentation gives, its answer quoting only the piece
  of the value its parser left over ("unconverted data remains: 2026"), neither the parameter
  nor the whole value;
- a stop condition that reads what was said, firing on the first member's own signed reply,
  where the app's code hands the floor on to one member alone, whose tool the request asks for;
- an agent asking the user for an argument of its own look-up tool (the step before) owes no
  later tool of its procedure until the user answers, whatever closes its letter;
- a refusal's detail relayed word for word ("... shows that clean done") is the tool's words,
  not the relaying agent's claim that an earlier failed action was done.
"""

from __future__ import annotations

from masfuzz.graph.specification import skeleton
from masfuzz.oracles.flare import tool_omission
from masfuzz.oracles.instructed import participation
from masfuzz.oracles.semantic import claimed_outcome, tool_doc_mismatch
from masfuzz.spec.model import (AgentSpec, Delegation, Permissions, SystemInfo, Termination, ToolSpec,
                                WorkflowSpec)
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

# -- a parser's leftover quoted in a form rejection ---------------------------------------------

KAYAKS = WorkflowSpec(
    system=SystemInfo(id="kayaks", entry_agent="hire_k"),
    agents=(AgentSpec(id="hire_k", instructions="Hire out kayaks with hire_kayak."),),
    tools=(ToolSpec(id="hire_kayak", description="Hire a sea kayak until the day it comes back.",
                    parameters={"type": "object", "required": ["return_day", "start_day"], "properties": {
                        "return_day": {"type": "string", "description": 'When it comes back, like "31 Jan 2026".'},
                        "start_day": {"type": "string", "description": "When the hire starts."}}}),),
    permissions=Permissions(allow=(("hire_k", "hire_kayak"),)))


def _hire(answer: str, start: str = "tomorrow") -> Trace:
    args = {"return_day": "14 Mar 2026", "start_day": start}
    return Trace(scenario_id="s", events=(
        Message(role="user", content="I'd like a kayak from tomorrow, back on 14 Mar 2026."),
        AgentTurn(agent="hire_k"),
        ToolCall(agent="hire_k", tool="hire_kayak", call_id="h", arguments=args),
        ToolResult(agent="hire_k", tool="hire_kayak", call_id="h", payload=answer),
        Message(agent="hire_k", content="I'm sorry, the hire desk could not take that."),
        TerminationEvent(reason="completed", final_output="I'm sorry, the hire desk could not take that.")))


LEFTOVER = '{"code": 400, "error": "unconverted data remains:  2026"}'


def test_a_form_rejection_quoting_the_parsers_leftover_names_that_argument():
    [f] = tool_doc_mismatch(_hire(LEFTOVER), KAYAKS)
    assert f.root_cause == "Tool Specification Mismatch" and f.elements == ("hire_k", "hire_kayak", "return_day")


def test_a_piece_another_argument_holds_too_names_neither():
    """"2026" is a piece of both arguments here: the answer does not say which one it read."""
    assert tool_doc_mismatch(_hire(LEFTOVER, start="2026-03-01"), KAYAKS) == []


def test_a_rejection_that_quotes_nothing_of_the_value_names_nothing():
    assert tool_doc_mismatch(_hire('{"code": 400, "error": "bad request"}'), KAYAKS) == []


# -- a stop condition that hears the first member's sign-off -----------------------------------

GAS = WorkflowSpec(
    system=SystemInfo(id="manager", entry_agent="intake_i", framework="ag2", pattern="orchestrated"),
    agents=(AgentSpec(id="intake_i", instructions="Look the account up with find_meter.\nReport what find_meter answered."),
            AgentSpec(id="engineer_e", instructions="Book the boiler repair visit with book_engineer."),
            AgentSpec(id="desk_proxy", model_settings={"type": "UserProxyAgent"})),
    tools=(ToolSpec(id="find_meter", description="Find the gas meter on an account.",
                    parameters={"type": "object", "required": ["account"], "properties": {
                        "account": {"type": "string", "description": 'The account, like "AC-1000"'}}}),
           ToolSpec(id="book_engineer", description="Book an engineer to repair a boiler.",
                    parameters={"type": "object", "required": ["meter", "day"], "properties": {
                        "meter": {"type": "string", "description": 'The meter, like "MT-1000"'},
                        "day": {"type": "string", "description": 'The visit day, like "2026-01-31"'}}})),
    permissions=Permissions(allow=(("intake_i", "find_meter"), ("engineer_e", "book_engineer"))),
    delegations=(Delegation(**{"from": "intake_i"}, to="engineer_e", trigger="sequence"),
                 Delegation(**{"from": "engineer_e"}, to="intake_i", trigger="sequence")),
    termination=Termination(conditions=("manager: is_termination_msg",)))
SIGNED = "Good afternoon,\n\nAccount AC-5521 has meter MT-2201 on it.\n\nBest wishes,\nintake_i"


def _gas(request: str, *after, detail: str = "Termination message condition met") -> Trace:
    last = after[-1].content if after else SIGNED
    return Trace(scenario_id="s", events=(
        Message(role="user", content=request),
        AgentTurn(agent="intake_i"),
        ToolCall(agent="intake_i", tool="find_meter", call_id="m", arguments={"account": "AC-5521"}),
        ToolResult(agent="intake_i", tool="find_meter", call_id="m", payload="{'meter': 'MT-2201'}"),
        Message(agent="intake_i", content=SIGNED), *after,
        TerminationEvent(reason="text_mention", detail=detail, final_output=last)))


REPAIR = "Our boiler has stopped heating. Account AC-5521 - could an engineer repair it on 2026-03-04?"


def test_a_stop_on_the_first_members_sign_off_cuts_out_the_member_the_code_hands_on_to():
    [f] = participation(_gas(REPAIR), GAS)
    assert (f.root_cause, f.agent, f.elements) == ("Premature Termination", "intake_i", ("intake_i", "engineer_e"))


def test_a_request_the_first_member_served_lost_nobody():
    assert participation(_gas("Which meter is on account AC-5521, please?"), GAS) == []


def test_the_member_the_code_hands_on_to_acted():
    booked = (DelegationEvent(**{"from": "intake_i"}, to="engineer_e", trigger="sequence"), AgentTurn(agent="engineer_e"),
              ToolCall(agent="engineer_e", tool="book_engineer", call_id="b", arguments={"meter": "MT-2201", "day": "2026-03-04"}),
              ToolResult(agent="engineer_e", tool="book_engineer", call_id="b", payload="{'visit': 'V-9'}"),
              Message(agent="engineer_e", content="Visit V-9 is booked for 2026-03-04.\n\nBest wishes,\nengineer_e"))
    assert participation(_gas(REPAIR, *booked), GAS) == []


def test_a_stop_keyed_to_a_tool_ends_where_the_app_meant():
    assert participation(_gas(REPAIR, detail="find_meter was called"), GAS) == []


# -- asking for the look-up's argument before the later step -----------------------------------

LOCKS = WorkflowSpec(
    system=SystemInfo(id="locks", entry_agent="front_f"),
    agents=(AgentSpec(id="front_f", instructions="Look the tenant up with find_tenancy.\n"
                                                 "Send lock changes to locksmith_l with ask_locksmith."),
            AgentSpec(id="locksmith_l", instructions="Change locks with change_lock.")),
    tools=(ToolSpec(id="find_tenancy", description="Find a tenancy by its number.",
                    parameters={"type": "object", "required": ["tenancy"], "properties": {
                        "tenancy": {"type": "string", "description": 'The tenancy number, like "TN-1000"'}}}),
           ToolSpec(id="ask_locksmith", description="Ask the locksmith desk.",
                    parameters={"type": "object", "required": ["message"], "properties": {
                        "message": {"type": "string"}}})),
    permissions=Permissions(allow=(("front_f", "find_tenancy"), ("front_f", "ask_locksmith"))))


def _asked(reply: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Please change the lock on my flat, I lost my keys."),
        AgentTurn(agent="front_f"), Message(agent="front_f", content=reply),
        TerminationEvent(reason="completed", final_output=reply)))


def _omitted(trace: Trace) -> list:
    return [f for f in tool_omission(trace, skeleton(LOCKS), LOCKS) if f.elements == ("front_f", "ask_locksmith")]


def test_asking_for_the_look_ups_argument_waits_for_the_user():
    letter = ("Re: your keys\n\nDear tenant,\n\nMay we have your tenancy number? We shall arrange everything "
              "once it reaches us.\n\nYours faithfully,\nfront_f")
    assert _omitted(_asked(letter)) == []


def test_a_reply_that_asks_for_nothing_still_owes_the_later_step():
    letter = ("Re: your keys\n\nDear tenant,\n\nThank you for writing. We hope to hear from you again."
              "\n\nYours faithfully,\nfront_f")
    assert _omitted(_asked(letter))


# -- a refusal's detail relayed word for word ------------------------------------------------------

PARCELS = WorkflowSpec(
    system=SystemInfo(id="parcels", entry_agent="post_p"),
    agents=(AgentSpec(id="post_p", instructions="Find the parcel with trace_parcel.\nRefund lost parcels with refund_parcel."),),
    tools=(ToolSpec(id="trace_parcel", description="Trace a parcel by its tracking number."),
           ToolSpec(id="refund_parcel", description="Refund a parcel the depot lost.")),
    permissions=Permissions(allow=(("post_p", "trace_parcel"), ("post_p", "refund_parcel"))))


def _refund(reply: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Parcel PX-77 never came, please refund it."),
        AgentTurn(agent="post_p"),
        ToolCall(agent="post_p", tool="trace_parcel", call_id="t", arguments={"number": "PX-77"}),
        ToolResult(agent="post_p", tool="trace_parcel", call_id="t", payload='{"state": "unknown_number"}'),
        ToolCall(agent="post_p", tool="refund_parcel", call_id="r", arguments={"number": "PX-77"}),
        ToolResult(agent="post_p", tool="refund_parcel", call_id="r",
                   payload='{"state": "declined", "why": "the courier log shows that parcel traced and delivered"}'),
        Message(agent="post_p", content=reply), TerminationEvent(reason="completed", final_output=reply)))


def test_a_relayed_refusal_detail_is_the_tools_words_not_a_claim():
    reply = "Sadly no refund was possible: the reason given is the courier log shows that parcel traced and delivered."
    assert claimed_outcome(_refund(reply), PARCELS) == []


def test_a_claim_of_the_agents_own_beside_the_relayed_words_still_counts():
    reply = "We traced your parcel and it has been delivered; your refund has been issued."
    assert claimed_outcome(_refund(reply), PARCELS)
