"""Runs told by a casual texter, who writes in lower case, slang and emoji and re-formats what it
passes on: each class beside its twin that must stay silent.

- incorrect verification: a (status, body) answer whose code says the request went but whose body
  says the thing is still waited for (`[202, {"state": "waitlisted", "position": 4}]`), and a
  claim with no past verb ("yep that's locked 🔒", "ur in", "done ✅");
- information loss: a reference the user spelt otherwise than the tool documents it ("rb-20417"
  for "RB00000"), lost in a brief the next agent works from alone, and asked for in slang ("can u
  send ur ticket pls?"); passed on re-spelt ("RB20417") it is no loss;
- speaking order: a dependency told by the other agent's work done ("at the rate of the sitter
  hx_pair found") or by the maker, passing a product on for the agent whose tools take it ("Pass
  on the frame code for pricer"); a note left for a coordinator is none;
- misrouted request: a hand-off whose description (what the router chose by) describes a
  sibling's work, refused in slang by the agent reached: the wiring's, no agent's; the same
  route under a right description is the router's;
- a hand-over or a tool scoped by a leading "For X or Y," is a condition, not the agent's whole
  job: the mix engineer handed a live-room request owes no mixing booking.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import (
    instructed_dependencies, instructed_handoffs, instructed_order, misrouted_request,
)
from masfuzz.graph.specification import skeleton
from masfuzz.oracles.flare import tool_omission
from masfuzz.oracles.semantic import claimed_outcome, handover_facts
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import (
    HANDOVER_INPUTS, AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace,
)


def _params(**described: str) -> dict:
    return {"type": "object", "required": list(described),
            "properties": {p: {"type": "string", "description": d} for p, d in described.items()}}

# -- incorrect verification ------------------------------------------------------------------

BOATHOUSE = WorkflowSpec(
    system=SystemInfo(id="boathouse", entry_agent="dock"), agents=(AgentSpec(id="dock"),),
    tools=(ToolSpec(id="reserve_kayak", description="Reserve a kayak for a paddler on a day."),),
    permissions=Permissions(allow=(("dock", "reserve_kayak"),)))


def _kayak_run(payload: str, reply: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="can i get a double kayak on sat the 9th? name's jo"), AgentTurn(agent="dock"),
        ToolCall(agent="dock", tool="reserve_kayak", arguments={"day": "2026-05-09"}, call_id="k"),
        ToolResult(agent="dock", tool="reserve_kayak", call_id="k", payload=payload),
        Message(agent="dock", content=reply), TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("payload", [
    '[202, {"state": "waitlisted", "position": 4, "note": "alle Doppelkajaks vergeben"}]',
    "(202, {'status': 'queued', 'queue_position': 2})",  # the tuple as Python prints it
    '[200, {"booking": {"state": "PENDING"}}]',  # the state in the record the body wraps
    '[404, {"detail": "no kayak left"}]',  # a failure code in the JSON list a tuple is sent as
])
def test_a_status_body_pair_whose_body_waits_contradicts_a_claim(payload):
    [f] = claimed_outcome(_kayak_run(payload, "yep that's locked 🔒 sat 9 may, double kayak, Jo"), BOATHOUSE)
    assert (f.agent, f.subject, f.evidence) == ("dock", "reserve_kayak", (3, 4))


@pytest.mark.parametrize("payload", [
    '[201, {"state": "reserved", "kayak": 12}]', "(200, {'status': 'confirmed'})",
    '[202, "accepted"]',  # a code and no body: nothing says the thing waits
])
def test_a_status_body_pair_whose_body_holds_the_thing_contradicts_nothing(payload):
    assert claimed_outcome(_kayak_run(payload, "yep that's locked 🔒 sat 9 may, double kayak, Jo"), BOATHOUSE) == []


WAITLISTED = '[202, {"state": "waitlisted", "position": 4}]'


@pytest.mark.parametrize("reply", [
    "yep that's locked", "ur in for sat 🎉", "youre in!", "u r all set for sat", "done ✅", "sat 9 may ✅",
    "all done, see u sat", "sorted 👍", "all good, ur in", "ur kayak is secured for sat",
])
def test_a_texter_s_claim_without_a_past_verb_after_a_waitlisting_is_incorrect_verification(reply):
    [f] = claimed_outcome(_kayak_run(WAITLISTED, reply), BOATHOUSE)
    assert (f.agent, f.step) == ("dock", 4)


@pytest.mark.parametrize("reply", [
    "it isnt locked yet, ur on the waitlist", "ur in the queue, #4 👀", "nah, didnt go thru 😕",
    "not locked yet, will ping u", "ur kayak isnt held yet", "locked? nope lol", "cant lock it in rn, sorry!!",
    "no dice 😕 state waitlisted, position 4", "the double is held by another group, ur #4",
])
def test_a_texter_passing_the_waitlisting_on_claims_nothing(reply):
    assert claimed_outcome(_kayak_run(WAITLISTED, reply), BOATHOUSE) == []


def test_words_of_a_thing_held_claim_nothing_of_a_tool_that_holds_nothing():
    """'locked' after a failed unlock_door is the failure told, not a claim of it done."""
    spec = WorkflowSpec(
        system=SystemInfo(id="door", entry_agent="dock"), agents=(AgentSpec(id="dock"),),
        tools=(ToolSpec(id="unlock_door", description="Unlock the boathouse door."),),
        permissions=Permissions(allow=(("dock", "unlock_door"),)))
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="door's stuck, can u open it"), AgentTurn(agent="dock"),
        ToolCall(agent="dock", tool="unlock_door", arguments={}, call_id="d"),
        ToolResult(agent="dock", tool="unlock_door", call_id="d", payload='{"ok": false}'),
        Message(agent="dock", content="hmm it's still locked 🔒"),
        TerminationEvent(reason="completed", final_output="hmm it's still locked 🔒")))
    assert claimed_outcome(trace, spec) == []


# -- information loss ------------------------------------------------------------------------


def _workshop(form: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="workshop", entry_agent="counter", pattern="graph"),
        agents=(AgentSpec(id="counter", instructions="Write the brief for the workshop: the day and the bikes."),
                AgentSpec(id="yard", instructions="Book the service with book_service. You only see the brief.")),
        tools=(ToolSpec(id="book_service", description="Put a bike service on the workshop's list.",
                        parameters=_params(ticket=f"The repair ticket on the customer's tag, e.g. \"{form}\"",
                                           day='The day, e.g. "2026-01-31"')),),
        permissions=Permissions(allow=(("yard", "book_service"),)),
        delegations=({"from": "counter", "to": "yard"},))


def _brief_run(user: str, brief: str, *after) -> Trace:
    events = (Message(role="user", content=user), AgentTurn(agent="counter"),
              Message(agent="counter", content=brief), DelegationEvent(**{"from": "counter"}, to="yard"),
              AgentTurn(agent="yard"), *after)
    final = next(e.content for e in reversed(events) if isinstance(e, Message))
    return Trace(scenario_id="s", events=(*events, TerminationEvent(reason="completed", final_output=final)),
                 meta={HANDOVER_INPUTS: [{"since": 4, "agent": "yard", "text": brief}]})


USER_TICKET = "hiya, can u service our 2 bikes on fri the 6th? ticket's rb-20417 (the blue one squeaks)"


@pytest.mark.parametrize("form", ["RB00000", "RB-0000"])
@pytest.mark.parametrize("ask", ["can u send ur ticket pls?", "whats ur repair ticket? 🙏",
                                 "need ur ticket no pls", "pls send ur ticket"])
def test_a_reference_spelt_otherwise_than_documented_lost_in_a_brief_is_information_loss(form, ask):
    trace = _brief_run(USER_TICKET, "📝 service Fri Mar 6, 2 bikes", Message(agent="yard", content=ask))
    [f] = handover_facts(trace, _workshop(form))
    assert (f.root_cause, f.agent, f.step) == ("Information Loss at Hand-over", "counter", 3)
    assert "rb-20417" in f.description and "not in what it received" in f.description


def test_a_reference_passed_on_re_spelt_is_no_loss():
    call = ToolCall(agent="yard", tool="book_service", call_id="b", arguments={"ticket": "RB20417", "day": "2026-03-06"})
    done = ToolResult(agent="yard", tool="book_service", call_id="b", payload="{'booked': True}")
    trace = _brief_run(USER_TICKET, "📝 ticket RB20417, service Fri Mar 6, 2 bikes", call, done,
                       Message(agent="yard", content="ur booked in for fri 👍"))
    assert handover_facts(trace, _workshop("RB00000")) == []


def test_a_receiver_that_got_the_re_spelt_reference_and_asks_again_lost_it_itself():
    trace = _brief_run(USER_TICKET, "📝 ticket RB20417, service Fri Mar 6, 2 bikes",
                       Message(agent="yard", content="can u send ur ticket pls?"))
    [f] = handover_facts(trace, _workshop("RB00000"))
    assert (f.agent, f.step) == ("yard", 5) and "it received them" in f.description


def test_a_statement_of_what_to_bring_is_no_request():
    trace = _brief_run(USER_TICKET, "📝 service Fri Mar 6, 2 bikes",
                       Message(agent="yard", content="you'll need your repair ticket at the counter."))
    assert handover_facts(trace, _workshop("RB00000")) == []


# -- speaking order --------------------------------------------------------------------------


def _framers(matcher: str, pricer: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="framers", entry_agent="pricer", pattern="fixed_order"),
        agents=(AgentSpec(id="pricer", instructions=pricer), AgentSpec(id="matcher", instructions=matcher),
                AgentSpec(id="fitter", instructions="Book the fitting with book_fitting.")),
        tools=(ToolSpec(id="match_frame", description="Frames that suit an artwork.", parameters=_params(size="The size")),
               ToolSpec(id="quote_frame", description="Quote a frame.",
                        parameters=_params(frame_code='The frame\'s code, e.g. "FR-000"')),
               ToolSpec(id="book_fitting", description="Book a fitting.", parameters=_params(day="The day"))),
        permissions=Permissions(allow=(("matcher", "match_frame"), ("pricer", "quote_frame"),
                                       ("fitter", "book_fitting"))))


def _turns(*speakers) -> Trace:
    events = [Message(role="user", content="hiya, need a frame for a 30x40 print pls")]
    for a in speakers:
        events += [AgentTurn(agent=a), Message(agent=a, content="quick one, need ur frame code pls?")]
    return Trace(scenario_id="s", events=(*events, TerminationEvent(reason="completed", final_output="ok")))


@pytest.mark.parametrize("matcher,pricer", [
    ("Find a frame with match_frame.", "Frames are priced at the rate of the frame matcher found."),
    ("Find a frame with match_frame.", "Quote the moulding the matcher chose with quote_frame."),
    ("Find a frame with match_frame.", "Price the frame the matcher picked."),
    ("Find a frame with match_frame. Pass on the frame code for pricer.", "Quote the frame with quote_frame."),
    ("Find a frame with match_frame, then hand the frame's code on for pricer.", "Quote with quote_frame."),
])
def test_a_dependency_told_by_work_done_or_by_its_maker_orders_the_team(matcher, pricer):
    spec = _framers(matcher, pricer)
    assert [(b, a) for b, a, _ in instructed_dependencies(spec)] == [("matcher", "pricer")]
    [f] = instructed_order(_turns("pricer", "matcher", "fitter"), spec)
    assert (f.agent, f.step, f.elements) == ("pricer", 1, ("matcher", "pricer"))
    assert instructed_order(_turns("matcher", "pricer", "fitter"), spec) == []


@pytest.mark.parametrize("matcher", [
    "Find a frame with match_frame. Leave your notes for pricer.",  # nothing pricer's tools take
    "Find a frame with match_frame. Pass on the frame code for fitter.",  # fitter's tools take no code
])
def test_a_note_left_for_an_agent_whose_tools_do_not_take_it_orders_nothing(matcher):
    spec = _framers(matcher, "Quote the frame with quote_frame.")
    assert instructed_dependencies(spec) == []


# -- misrouted request -----------------------------------------------------------------------

GROOMING = "Grooming: baths, nail clipping and de-shedding for dogs and cats."
CHECKUPS = "Health checks: vaccinations, worming and check-ups for pets."


def _pet_desk(groomer: str, vet: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="pets", entry_agent="desk", pattern="handoff"),
        agents=(AgentSpec(id="desk", instructions="Hand each message to the colleague whose description fits it."),
                AgentSpec(id="groomer", description=groomer, instructions="Book grooming with book_groom."),
                AgentSpec(id="vet", description=vet, instructions="Book health checks with book_checkup.")),
        tools=(ToolSpec(id="book_groom", description="Book a bath, nail clipping or de-shedding session.",
                        parameters=_params(pet="The pet's name")),
               ToolSpec(id="book_checkup", description="Book a health check with the house vet.",
                        parameters=_params(pet="The pet's name"))),
        permissions=Permissions(allow=(("groomer", "book_groom"), ("vet", "book_checkup"))),
        delegations=({"from": "desk", "to": "groomer", "trigger": "handoff"},
                     {"from": "desk", "to": "vet", "trigger": "handoff"}))


def _handed_to_vet() -> Trace:
    reply = "no dice, that's not something i can do from here 🙈"
    return Trace(scenario_id="s", events=(
        Message(role="user", content="hiya! can u book rex in for a groom, bath + nail clipping, on sat? he's "
                                     "shedding everywhere lol. the house is a mess"),
        AgentTurn(agent="desk"), DelegationEvent(**{"from": "desk"}, to="vet", trigger="handoff"),
        AgentTurn(agent="vet"), Message(agent="vet", content=reply),
        TerminationEvent(reason="completed", final_output=reply)))


def test_a_hand_off_description_describing_a_sibling_s_work_misroutes_by_the_wiring():
    """The blurbs zipped onto the desks in the wrong order: the vet is described as the groomer."""
    [f] = misrouted_request(_handed_to_vet(), _pet_desk(groomer=CHECKUPS, vet=GROOMING))
    assert (f.root_cause, f.agent, f.step, f.subject) == ("Misrouted Request", None, 2, "vet")
    assert "book_groom" in f.elements and "description" in f.description


def test_the_same_route_under_right_descriptions_is_the_router_s():
    [f] = misrouted_request(_handed_to_vet(), _pet_desk(groomer=GROOMING, vet=CHECKUPS))
    assert (f.root_cause, f.agent, f.step) == ("Misrouted Request", "desk", 2)


# -- a scoped hand-over ----------------------------------------------------------------------


@pytest.mark.parametrize("line,handed", [
    ("- For new bookings or wedding cars, hand over to hire_b.", False),
    ("For anything about a hire, pass it on to hire_b.", False),
    ("Check the hire with find_hire, then hand over to hire_b.", True),
    ("For each message, hand over to hire_b.", True),  # every message: no scope
])
def test_a_hand_over_scoped_by_a_leading_for_holds_only_for_those_requests(line, handed):
    spec = WorkflowSpec(
        system=SystemInfo(id="garage", entry_agent="line", pattern="handoff"),
        agents=(AgentSpec(id="line", instructions=f"Vintage car hire, phone line.\n{line}"), AgentSpec(id="hire_b")),
        delegations=({"from": "line", "to": "hire_b", "trigger": "handoff"},))
    assert bool(instructed_handoffs(spec)) == handed


@pytest.mark.parametrize("request_,owed", [
    ("hey! we need the live room for tracking drums, 6 hours on 18 april pls", False),
    ("hiya, can u do mixing for our 4 songs? 🎧", True),
])
def test_a_tool_scoped_by_a_leading_for_is_owed_only_for_those_requests(request_, owed):
    spec = WorkflowSpec(
        system=SystemInfo(id="studio", entry_agent="mx_9"),
        agents=(AgentSpec(id="mx_9", instructions="Mix engineer.\n- For mixing or mastering, book with book_mix.\n"
                                                  "- Confirm the mix slot to the artist."),),
        tools=(ToolSpec(id="book_mix", description="Book mixing or mastering time."),),
        permissions=Permissions(allow=(("mx_9", "book_mix"),)))
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=request_), AgentTurn(agent="mx_9"),
        Message(agent="mx_9", content="no dice, that's not something i can do from here 🙈"),
        TerminationEvent(reason="completed", final_output="no dice")))
    assert bool(tool_omission(trace, skeleton(spec), spec)) == owed
