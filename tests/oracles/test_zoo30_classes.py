"""Classes of blind set zoo30 (a warm, chatty customer-service model that closes every reply with an
offer of more help), each beside its twin that must stay silent.

- premature termination: a run whose last message closes with a question that asks for nothing
  the task lacks has not stopped to wait for the user. An offer of more help ("Would you like
  anything else from us?") is a sign-off, and a question holding the phrase a stop word
  condition listens for ("Shall we see you then?" for `TextMentionTermination("see you then")`)
  is the team's closing line: a round-robin team stopped on either before a member's first turn
  ended early. A real question before the sign-off ("Which time suits you?") still waits.
- tool specification mismatch: a tool that rejects the documented form names the parameter its
  own way, in capitals, with a space or a hyphen ("FRAME-NO", "Frame No" for `frame_no`), in a
  status tuple or a message; that names it as much as `frame_no` does.
- misrouted request: a router that passes requests on through delegating tools (a PydanticAI tool
  that runs another agent, an `as_tool`) holds the tool whose description fits the request ("Pass
  the owner's message to the grooming parlour."): that tool routes, it serves nothing, so the
  router handing the request to the wrong desk is a misroute, whether the spec binds the tool to
  its agent or only its name says where it goes.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles import detect
from masfuzz.oracles.instructed import misrouted_request, participation
from masfuzz.oracles.semantic import tool_doc_mismatch
from masfuzz.oracles.wording import offers_more
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

# -- premature termination: a closing question is no wait for the user -------------------------

WORKSHOP = WorkflowSpec(
    system=SystemInfo(id="cello_workshop", entry_agent="tuner", pattern="fixed_order"),
    agents=(AgentSpec(id="tuner", instructions="Book the set-up with book_setup. Report what it said."),
            AgentSpec(id="strings_k", instructions="Order the strings the customer asked for with order_strings.")),
    tools=(ToolSpec(id="book_setup", description="Book a cello set-up at the bench."),
           ToolSpec(id="order_strings", description="Order a set of strings for an instrument.")),
    permissions=Permissions(allow=(("tuner", "book_setup"), ("strings_k", "order_strings"))))
CELLO = "Could my cello have a set-up on Friday, and could you fit a fresh set of Larsen strings while it's in?"


def _cello(last: str, detail: str, strings_too: bool = False) -> Trace:
    strings = (AgentTurn(agent="strings_k"),
               ToolCall(agent="strings_k", tool="order_strings", arguments={"set": "Larsen"}, call_id="s"),
               ToolResult(agent="strings_k", tool="order_strings", call_id="s", payload="{'ordered': True}"),
               Message(agent="strings_k", content="The Larsen set is on order. " + last)) if strings_too else ()
    return Trace(scenario_id="s", events=(
        Message(role="user", content=CELLO), AgentTurn(agent="tuner"),
        ToolCall(agent="tuner", tool="book_setup", arguments={"day": "Friday"}, call_id="b"),
        ToolResult(agent="tuner", tool="book_setup", call_id="b", payload="{'ref': 'CS-118', 'day': 'Friday'}"),
        Message(agent="tuner", content=last), *strings,
        TerminationEvent(reason="text_mention", detail=detail, final_output=last)))


@pytest.mark.parametrize("last,detail", [
    # the stop phrase is the offer of more help
    ("Lovely, the set-up is in for Friday under CS-118. Would you like anything else from us?",
     "Text 'anything else from us' mentioned"),
    # the stop phrase is a closing question that offers nothing
    ("Friday it is, reference CS-118, the bench is all yours. Shall we see you then?",
     "Text 'see you then' mentioned"),
    # a stop word said earlier, the reply signed off with an offer
    ("Set-up booked, CS-118. DONE. Anything more we can do for you today?", "Text 'DONE' mentioned"),
    ("CS-118 is yours for Friday. DONE. How else can I help?", "Text 'DONE' mentioned"),
])
def test_a_round_robin_stopped_on_a_closing_question_before_a_member_spoke_ended_early(last, detail):
    [f] = participation(_cello(last, detail), WORKSHOP)
    assert (f.root_cause, f.agent, f.elements) == ("Premature Termination", "tuner", ("tuner", "strings_k"))


@pytest.mark.parametrize("last,detail", [
    # a real question before the sign-off: the run waits for the user's answer
    ("Which time on Friday suits you best? Anything else I can help with?",
     "Text 'anything else I can help with' mentioned"),
    # a question holding no stop phrase, the stop word heard earlier in the run's words
    ("Happy to. DONE. Would you like medium or heavy gauge for the strings?", "Text 'DONE' mentioned"),
])
def test_a_real_question_before_the_sign_off_still_waits_for_the_user(last, detail):
    assert participation(_cello(last, detail), WORKSHOP) == []


def test_the_team_that_stops_after_every_member_spoke_is_clean():
    last = "All done. Would you like anything else from us?"
    assert participation(_cello(last, "Text 'anything else from us' mentioned", strings_too=True), WORKSHOP) == []


@pytest.mark.parametrize("sentence,offers", [
    ("Is there anything else I can help with today?", True),
    ("Anything more I can do for you?", True),
    ("Can I help with something else?", True),
    ("Any other questions?", True),
    ("What else can we do for you?", True),
    ("Is there anything else you need.", False),  # no question
    ("Which day would you like?", False),
    ("Would you like the strings fitted too?", False),
])
def test_an_offer_of_more_help_is_told_from_a_question_about_the_task(sentence, offers):
    assert offers_more(sentence) is offers


# -- tool specification mismatch: the parameter named in the tool's own spelling ---------------

BIKES = WorkflowSpec(
    system=SystemInfo(id="bike_register", entry_agent="desk"), agents=(AgentSpec(id="desk"),),
    tools=(ToolSpec(id="register_bike", description="Register a bicycle against theft.", parameters={
        "type": "object", "required": ["frame_no", "owner"],
        "properties": {"frame_no": {"type": "string",
                                    "description": 'The frame number as stamped under the crank, e.g. "WBK 2231 77"'},
                       "owner": {"type": "string"}}}),),
    permissions=Permissions(allow=(("desk", "register_bike"),)))


def _bike(payload: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Please register my bike, frame WBK 4410 09, owner Ana Ruiz."),
        AgentTurn(agent="desk"),
        ToolCall(agent="desk", tool="register_bike", arguments={"frame_no": "WBK 4410 09", "owner": "Ana Ruiz"},
                 call_id="r"),
        ToolResult(agent="desk", tool="register_bike", call_id="r", payload=payload),
        Message(agent="desk", content="I'm afraid the register came back with an error."),
        TerminationEvent(reason="completed")))


@pytest.mark.parametrize("payload", [
    "(400, 'FRAME-NO', 'numéro de cadre illisible')",
    "{'error': 'Frame No: must be nine digits'}",
    "(422, 'FrameNo', 'Rahmennummer ungültig')",
])
def test_a_rejection_naming_the_parameter_in_its_own_spelling_is_a_spec_mismatch(payload):
    [f] = tool_doc_mismatch(_bike(payload), BIKES)
    assert (f.root_cause, f.agent, f.elements) == ("Tool Specification Mismatch", None,
                                                   ("desk", "register_bike", "frame_no"))


@pytest.mark.parametrize("payload", [
    "(409, 'FRAME-NO', 'already registered to another owner')",  # content, not form
    "(422, 'SERIAL', 'formato non valido')",  # names neither the parameter nor the value
])
def test_a_content_refusal_or_one_naming_another_field_is_no_spec_mismatch(payload):
    assert tool_doc_mismatch(_bike(payload), BIKES) == []


# -- misrouted request: a delegating tool routes, it serves nothing -----------------------------

def _kennels(bound: bool) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="kennels", entry_agent="reception", pattern="orchestrated"),
        agents=(AgentSpec(id="reception", instructions="Use ask_vet for dogs under a year old.\n"
                                                       "Use ask_grooming for anything else."),
                AgentSpec(id="vet", instructions="Book the jab with book_booster."),
                AgentSpec(id="grooming", instructions="Book the groom with book_groom.")),
        tools=(ToolSpec(id="ask_vet", description="Pass the owner's message to the vet nurse."),
               ToolSpec(id="ask_grooming", description="Pass the owner's message to the grooming parlour."),
               ToolSpec(id="book_booster", description="Book a booster vaccination for a pet."),
               ToolSpec(id="book_groom", description="Book a dog groom: a bath, a clip and a nail trim.")),
        permissions=Permissions(allow=(("reception", "ask_vet"), ("reception", "ask_grooming"),
                                       ("vet", "book_booster"), ("grooming", "book_groom"))),
        delegations=tuple(Delegation.model_validate(
            {"from": "reception", "to": a, "trigger": "as_tool", "condition": f"tool ask_{a}" if bound else ""})
            for a in ("vet", "grooming")))


PUPPY = ("Our spaniel puppy Pip (ten months) has rolled in something awful. Could she visit the grooming "
         "parlour on Saturday - a bath and her nails trimmed?")


def _kennel_run(*desks: str) -> Trace:
    events: list = [Message(role="user", content=PUPPY), AgentTurn(agent="reception")]
    for k, desk in enumerate(desks):
        events += [ToolCall(agent="reception", tool=f"ask_{desk}", arguments={"message": PUPPY}, call_id=f"a{k}"),
                   DelegationEvent.model_validate({"from": "reception", "to": desk, "trigger": "as_tool"}),
                   AgentTurn(agent=desk)]
        if desk == "grooming":
            events += [ToolCall(agent="grooming", tool="book_groom", arguments={"day": "Saturday"}, call_id=f"g{k}"),
                       ToolResult(agent="grooming", tool="book_groom", call_id=f"g{k}", payload="{'ref': 'GR-31'}")]
        said = "Saturday's groom is booked, GR-31." if desk == "grooming" else "Which booster is she due for?"
        events += [Message(agent=desk, content=said),
                   ToolResult(agent="reception", tool=f"ask_{desk}", call_id=f"a{k}", payload=said)]
    events += [Message(agent="reception", content="Thanks! " + said + " Anything else I can help with?"),
               TerminationEvent(reason="completed")]
    return Trace(scenario_id="s", events=tuple(events))


@pytest.mark.parametrize("bound", [True, False])
def test_a_request_handed_to_the_wrong_desk_past_the_delegating_tool_that_fits_it_is_misrouted(bound):
    spec = _kennels(bound)
    [f] = misrouted_request(_kennel_run("vet"), spec)
    assert (f.root_cause, f.agent, f.elements) == ("Misrouted Request", "reception", ("reception", "vet", "book_groom"))
    assert [x.root_cause for x in detect(_kennel_run("vet"), spec) if x.attribution == "sut"] == ["Misrouted Request"]


@pytest.mark.parametrize("desks", [("grooming",), ("vet", "grooming")])
def test_the_right_desk_reached_leaves_the_route_alone(desks):
    assert misrouted_request(_kennel_run(*desks), _kennels(True)) == []
