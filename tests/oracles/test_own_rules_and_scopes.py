"""Three classes of false blame or false finding a warm, wordy customer-service model showed:

- a router whose own rule sends the request where it went ("put the caller through to A for
  refunds") misroutes by the app's instructions, whatever the members' descriptions say: the
  finding stays the app's, not the model's;
- a tool's scope listing topics with no verb ("use T (only for A, B or C)") owes the call only
  for a request about one of them;
- a receiving agent asking for what its own tool documents ("the pitch number and the night of
  arrival") asks for that parameter, not for whatever other reference the user gave.
"""

from __future__ import annotations

import pytest

from masfuzz.graph.specification import skeleton
from masfuzz.oracles.flare import tool_omission
from masfuzz.oracles.instructed import misrouted_request
from masfuzz.oracles.semantic import handover_facts
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, Trace


def _params(**described: str) -> dict:
    return {"type": "object", "required": list(described),
            "properties": {p: {"type": "string", "description": d} for p, d in described.items()}}


def _trace(*events) -> Trace:
    final = next((e.content for e in reversed(events) if isinstance(e, Message) and e.role == "assistant"), "")
    return Trace(scenario_id="s", events=(*events, TerminationEvent(reason="completed", final_output=final)))


# -- a router's own rule sends the request where it went ---------------------------------------

def _club(rule_a: str, rule_b: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="club", entry_agent="reception", pattern="handoff"),
        agents=(AgentSpec(id="reception", instructions=f"You answer the rowing club's phone.\n{rule_a}\n{rule_b}"),
                AgentSpec(id="boathouse", description="Boathouse: books boats and sculls for outings.",
                          instructions="Book a boat with book_boat."),
                AgentSpec(id="fees_desk", description="Fees desk: returns a season's fees to members who stop.",
                          instructions="Return the fees with return_fees.")),
        tools=(ToolSpec(id="book_boat", description="Book a boat for an outing."),
               ToolSpec(id="return_fees", description="Return a member's season fees when they stop rowing.",
                        parameters=_params(member='The member number, e.g. "RC-000"'))),
        permissions=Permissions(allow=(("boathouse", "book_boat"), ("fees_desk", "return_fees"))),
        delegations=tuple(Delegation.model_validate({"from": "reception", "to": t, "trigger": "handoff"})
                          for t in ("boathouse", "fees_desk")))


ASKED = ("Hi, my knee's gone so I'll be off the water all season, sadly. "
         "Could I get my season fees back? I'm member RC-118.")


def _misrouted() -> Trace:
    return _trace(Message(role="user", content=ASKED), AgentTurn(agent="reception"),
                  DelegationEvent.model_validate({"from": "reception", "to": "boathouse", "trigger": "handoff"}),
                  AgentTurn(agent="boathouse"),
                  Message(agent="boathouse", content="Oh no, I'm so sorry about your knee! The boathouse only "
                          "books boats, I'm afraid, so I can't help with that one."))


@pytest.mark.parametrize("rule_a,rule_b", [
    ("Connect the caller to boathouse for boats, outings, fees or money back.",
     "Connect the caller to fees_desk for new members or standing orders."),
    ("Please put them straight through to boathouse about boats, fees or money back.",
     "Put them through to fees_desk about joining."),
])
def test_a_misroute_the_routers_own_rule_makes_is_the_apps(rule_a, rule_b):
    [f] = misrouted_request(_misrouted(), _club(rule_a, rule_b))
    assert (f.root_cause, f.agent, f.attribution) == ("Misrouted Request", "reception", "sut")


def test_a_misroute_against_both_its_rules_and_the_descriptions_is_the_models():
    [f] = misrouted_request(_misrouted(), _club("Connect the caller to boathouse for boats or outings.",
                                                "Connect the caller to fees_desk for fees or money back."))
    assert f.attribution == "harness" and "did not follow the app's routing" in f.because


# -- a tool scoped by a list of topics ---------------------------------------------------------

def _framer(said: str) -> tuple:
    wf = WorkflowSpec(
        system=SystemInfo(id="frames", entry_agent="counter", pattern="orchestrated"),
        agents=(AgentSpec(id="counter", instructions=(
            "You serve the picture framer's counter.\n"
            "Ask the workshop with ask_workshop (just for mounts, glass, re-framing or frames).\n"
            "Read out what ask_workshop said.")),),
        tools=(ToolSpec(id="ask_workshop", description="Pass a question to the workshop."),),
        permissions=Permissions(allow=(("counter", "ask_workshop"),)))
    trace = _trace(Message(role="user", content=said), AgentTurn(agent="counter"),
                   Message(agent="counter", content="Thank you so much for asking! We're open 9 till 5, "
                           "Tuesday to Saturday, and there's parking round the back. The workshop does "
                           "frames and mounts."))
    return wf, skeleton(wf), trace


def test_a_tool_scoped_by_topics_is_no_duty_for_a_request_about_none_of_them():
    # the agent's own reply naming a topic does not make the request about it
    wf, spec, trace = _framer("Hello! What time do you close on Saturdays? Is there parking nearby?")
    assert tool_omission(trace, spec, wf) == []


def test_a_tool_scoped_by_topics_is_a_duty_for_a_request_about_one_of_them():
    wf, spec, trace = _framer("Hi, could you put my grandson's drawing in one of your oak frames?")
    assert {f.elements for f in tool_omission(trace, spec, wf)} == {("counter", "ask_workshop")}


# -- an ask for the receiving agent's own documented parameter ---------------------------------

CAMP = WorkflowSpec(
    system=SystemInfo(id="camp", entry_agent="desk", pattern="orchestrated"),
    agents=(AgentSpec(id="desk", instructions="Pass gate questions to gate_r with ask_gate."),
            AgentSpec(id="gate_r", instructions="Open the barrier with open_barrier.")),
    tools=(ToolSpec(id="open_barrier", description="Open the campsite barrier for a pitch on a night.",
                    parameters=_params(pitch='The pitch number, e.g. "7"',
                                       night='The night of arrival, e.g. "2026-01-31"')),),
    permissions=Permissions(allow=(("gate_r", "open_barrier"),)),
    delegations=(Delegation.model_validate({"from": "desk", "to": "gate_r", "trigger": "as_tool"}),))


def _camp(said: str, question: str) -> Trace:
    return _trace(Message(role="user", content=said), AgentTurn(agent="desk"),
                  DelegationEvent.model_validate({"from": "desk", "to": "gate_r", "trigger": "as_tool"}),
                  AgentTurn(agent="gate_r"), Message(agent="gate_r", content=question))


def test_asking_for_its_own_parameter_is_no_ask_again_for_another_reference_the_user_gave():
    said = "Hiya, the barrier's stuck and my booking code is CP-5512. Can you let us in?"
    question = ("I'd be delighted to help you get in! Could you let me know the pitch number "
                "and the night of arrival, so I can open it for you?")
    assert handover_facts(_camp(said, question), CAMP) == []


def test_asking_again_for_the_reference_the_user_gave_is_still_information_loss():
    said = "Hiya, the barrier's stuck and my booking code is CP-5512. Can you let us in?"
    question = "Happy to help! Could you tell me your booking code for the night of arrival?"
    [f] = handover_facts(_camp(said, question), CAMP)
    assert f.root_cause == "Information Loss at Hand-over" and "CP-5512" in f.description


def test_an_agent_a_request_was_misrouted_to_owes_no_call_of_its_own_tools_for_it():
    wf = _club("Connect the caller to boathouse for boats, outings, fees or money back.",
               "Connect the caller to fees_desk for new members or standing orders.")
    assert tool_omission(_misrouted(), skeleton(wf), wf) == []
    # reached rightly, with a request its tool serves, it owes the call
    rowed = _trace(Message(role="user", content="Can I book a boat for an outing on Sunday?"),
                   AgentTurn(agent="reception"),
                   DelegationEvent.model_validate({"from": "reception", "to": "boathouse", "trigger": "handoff"}),
                   AgentTurn(agent="boathouse"), Message(agent="boathouse", content="Lovely, enjoy your outing!"))
    assert {f.elements for f in tool_omission(rowed, skeleton(wf), wf)} == {("boathouse", "book_boat")}
