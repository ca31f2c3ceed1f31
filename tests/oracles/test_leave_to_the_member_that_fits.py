"""A router told to delegate to "the appropriate agent" (or to "use the provided tools"), naming
none, whose model ended the run itself before the member the request needs acted: the members'
descriptions (or the request naming one) point the way, so the early end is the model's, not the
app's (`specified.model_passed_over`, read by `instructed.participation`). Found on public apps:
the Agents SDK's customer-service triage and agents-as-tools orchestrator under an instruction
follower that does not read such a line. A router whose rules say nothing of delegating, a member
no description points to, or a line that forbids delegating stay the app's."""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import participation
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, Trace


def _desk(rules: str, trigger: str = "handoff", garage: str = "Books repairs and service slots for a car.") -> WorkflowSpec:
    """A car-care front desk: a router and two members, each member holding its own tool."""
    return WorkflowSpec(
        system=SystemInfo(id="garage", entry_agent="front_desk", pattern="handoff"),
        agents=(AgentSpec(id="front_desk", instructions=rules),
                AgentSpec(id="repairs_agent", description=garage),
                AgentSpec(id="billing_agent", description="Explains invoices and refunds.")),
        tools=(ToolSpec(id="book_repair", description="Book a repair slot for a car."),
               ToolSpec(id="explain_invoice", description="Explain an invoice line.")),
        delegations=({"from": "front_desk", "to": "repairs_agent", "trigger": trigger},
                     {"from": "front_desk", "to": "billing_agent", "trigger": trigger}),
        permissions=Permissions(allow=(("repairs_agent", "book_repair"), ("billing_agent", "explain_invoice"))))


TASK = "Please book a repair for my car, the brakes squeal."


def _ended_at_the_desk() -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=TASK), AgentTurn(agent="front_desk"),
        Message(agent="front_desk", content="Thanks for getting in touch."),
        TerminationEvent(reason="completed", final_output="Thanks for getting in touch.")))


@pytest.mark.parametrize("rules,trigger,whose", [
    # the choice is left to the model, the description points: the model's early end
    ("You are the front desk. You can use your tools to delegate questions to other appropriate agents.",
     "handoff", "harness"),
    ("You are the front desk. Always hand it off to the right specialist.", "handoff", "harness"),
    # members lent as tools, none called: which agent a tool runs is not in question
    ("You never repair anything yourself, you always use the provided tools.", "as_tool", "harness"),
    ("You use the tools given to you. If asked for several things, you call the relevant tools in order.",
     "as_tool", "harness"),
    # silent about delegating, or forbidding it: the app's
    ("You are the front desk. Greet the customer.", "handoff", "sut"),
    ("Do not delegate to other appropriate agents; answer yourself.", "handoff", "sut"),
])
def test_an_early_end_by_a_router_told_to_delegate_to_the_member_that_fits(rules, trigger, whose):
    [f] = participation(_ended_at_the_desk(), _desk(rules, trigger))
    assert (f.elements, f.attribution) == (("front_desk", "repairs_agent"), whose)
    assert ("instructions leave the work to the member that fits" in f.because) == (whose == "harness")


def test_a_member_no_description_points_to_stays_the_app_s():
    """The line leaves the choice to the descriptions, and they do not say who books repairs: a
    model that follows the app cannot tell where the request goes."""
    spec = _desk("You can use your tools to delegate questions to other appropriate agents.",
                 garage="Helps customers.")
    found = participation(_ended_at_the_desk(), spec)
    assert found and all(f.attribution == "sut" for f in found)


# -- a round robin bounded to one pass -------------------------------------------------------------

def _pass(max_turns: int, conditions: tuple[str, ...]) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="brief", entry_agent="finder", pattern="fixed_order"),
        agents=(AgentSpec(id="finder"), AgentSpec(id="checker"), AgentSpec(id="writer")),
        termination={"conditions": conditions, "max_turns": max_turns})


@pytest.mark.parametrize("speakers,max_turns,conditions,found", [
    # one turn each, the team's only end its bound of one pass: the app's designed length
    (("finder", "checker", "writer"), 3, ("max_turns=3 (team turns)",), False),
    # a stop word the writer never said: the bound is a safety net, reached
    (("finder", "checker", "writer"), 3, ("max_turns=3 (team turns)", "TextMentionTermination(text='DONE')"), True),
    # a bound of more than one pass, gone round
    (("finder", "checker", "writer", "finder", "checker", "writer"), 6, ("max_turns=6 (team turns)",), True),
])
def test_a_team_bounded_to_one_pass_that_made_it_has_no_missing_termination(speakers, max_turns, conditions, found):
    from masfuzz.oracles.detectors import missing_termination

    events = [Message(role="user", content="Write a brief on tide tables.")]
    for a in speakers:
        events += [AgentTurn(agent=a), Message(agent=a, content=f"{a}'s part, with new facts on tides {len(events)}.")]
    events.append(TerminationEvent(reason="max_turns", detail=f"Maximum number of turns {max_turns} reached."))
    trace = Trace(scenario_id="s", events=tuple(events))
    assert bool(missing_termination(trace, _pass(max_turns, conditions))) == found
