"""A routing rule whose object is the message itself ("Pass the message to `workshop` when it is
about a repair, service or warranty."): the words before the member's name route and say nothing
of the request, so the rule's words about the request are those after the name, as in "Hand off
to workshop when ...". A model that ends the run itself where such a rule sends the request on
(a ReAct model that does not read "pass the message to" as a hand-over), or hands it to another
member, did not follow the app's routing: the model's. A rule that sends the request to the
wrong member stays the app's."""

from __future__ import annotations

import pytest

from masfuzz.oracles.specified import model_misroute, model_passed_over
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, Trace

RIGHT = ("Phone line, Treadle Sewing Repairs.\n"
         "- Pass the message to `workshop` when it is about a repair, service or warranty.\n"
         "- Pass the message to `counter` when it is about needles, bobbins or feet.\n"
         '- Otherwise reply "We are open Tuesday to Saturday."')
WRONG = RIGHT.replace("`workshop`", "`x`").replace("`counter`", "`workshop`").replace("`x`", "`counter`")
ASK = "My Pfaff has started skipping stitches and it's still under warranty - can you book it in for a repair?"


def _spec(rules: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="sewing", entry_agent="phone", pattern="handoff"),
        # descriptions that point nowhere: only the phone line's own rules can
        agents=(AgentSpec(id="phone", instructions=rules), AgentSpec(id="workshop", description="Bench B."),
                AgentSpec(id="counter", description="Desk C.")),
        tools=(ToolSpec(id="book_in", description="Book a machine in."),
               ToolSpec(id="price_part", description="Price a part.")),
        permissions=Permissions(allow=(("workshop", "book_in"), ("counter", "price_part"))),
        delegations=tuple(Delegation.model_validate({"from": "phone", "to": t, "trigger": "handoff"})
                          for t in ("workshop", "counter")))


def _ended_by_phone(said: str = "Final Answer: I have what I need from you for now; someone will pick this up.") -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=ASK), AgentTurn(agent="phone"), Message(agent="phone", content=said),
        TerminationEvent(reason="completed", final_output=said)))


def test_an_end_where_a_rule_passes_the_message_on_is_the_models():
    because = model_passed_over(_ended_by_phone(), _spec(RIGHT), "workshop", "phone")
    assert "phone's instructions point this request on to workshop" in because


def test_a_hand_off_against_a_rule_that_passes_the_message_on_is_the_models():
    assert "phone's instructions point" in model_misroute(_spec(RIGHT), "phone", ASK, "counter", ["workshop"])


@pytest.mark.parametrize("check", ["end", "misroute"])
def test_a_rule_passing_the_message_to_the_wrong_member_stays_the_apps(check):
    if check == "end":
        assert model_passed_over(_ended_by_phone(), _spec(WRONG), "workshop", "phone") == ""
    else:
        assert model_misroute(_spec(WRONG), "phone", ASK, "counter", ["workshop"]) == ""


# -- closing words as the last step of a procedure that routes first ----------------------------

STEPS = ("Phone line, Treadle Sewing Repairs.\n"
         "1. Transfer to `workshop` when the message is about a repair, service or warranty.\n"
         '2. Close with "Thank you for calling Treadle Sewing Repairs."')
CLOSED = "Thank you for calling Treadle Sewing Repairs."


def test_closing_words_said_without_the_routing_step_before_them_are_the_models():
    because = model_passed_over(_ended_by_phone(CLOSED), _spec(STEPS), "workshop", "phone")
    assert "phone's instructions point this request on to workshop" in because


def test_closing_words_the_instructions_give_before_any_routing_let_the_agent_end():
    # the app put its close first: a model that closes there did as the app's order says
    first = "\n".join([STEPS.splitlines()[0], STEPS.splitlines()[2].replace("2.", "1."),
                       STEPS.splitlines()[1].replace("1.", "2.")])
    assert model_passed_over(_ended_by_phone(CLOSED), _spec(first), "workshop", "phone") == ""
