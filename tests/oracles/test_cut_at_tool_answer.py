"""A run the framework ended on an agent's tool answer, before the agent's model read it (an
Agents SDK `tool_use_behavior="stop_on_first_tool"`, a tool that returns directly): the final
output is the tool's payload, and a member the agent's instructions go on to hand work to never
acted. Premature Termination, blamed on that agent, whatever the request's words; an app meant
to answer with the tool's result (no line handing anything on), or a run in which the agent
spoke after its tool, is no finding."""

from __future__ import annotations

from masfuzz.oracles import detect
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

ANSWER = "{'member': 'L-4471', 'loans': 3, 'overdue': 0}"


def _spec(lines: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="library", entry_agent="counter_c", pattern="handoff"),
        agents=(AgentSpec(id="counter_c", instructions=lines),
                AgentSpec(id="loans_l", instructions="Renew the books with renew_loans.")),
        tools=(ToolSpec(id="member_lookup", description="Find a library member by card number."),
               ToolSpec(id="renew_loans", description="Renew a member's loans for three weeks.")),
        permissions=Permissions(allow=(("counter_c", "member_lookup"), ("loans_l", "renew_loans"))),
        delegations=(Delegation(**{"from": "counter_c"}, to="loans_l", trigger="handoff"),))


HANDS_ON = "You staff the library counter.\nFind the member with member_lookup.\nForward their book matters to loans_l."


RENEW = "Card L-4471 here, my three novels are due Friday and I am away, can they stay out longer?"


def _run(*after, request: str = RENEW) -> Trace:
    final = after[-1].content if after else ANSWER
    return Trace(scenario_id="s", events=(
        Message(role="user", content=request),
        AgentTurn(agent="counter_c"),
        ToolCall(agent="counter_c", tool="member_lookup", arguments={"card": "L-4471"}, call_id="1"),
        ToolResult(agent="counter_c", tool="member_lookup", call_id="1", payload=ANSWER),
        *after, TerminationEvent(reason="completed", final_output=final)))


def _cut(trace: Trace, spec: WorkflowSpec) -> list:
    return [f for f in detect(trace, spec) if f.root_cause == "Premature Termination"]


def test_a_run_ended_on_the_raw_tool_answer_cuts_out_the_member_the_lines_hand_on_to():
    [f] = _cut(_run(), _spec(HANDS_ON))
    assert f.agent == "counter_c" and f.elements == ("counter_c", "loans_l") and f.attribution == "sut"
    assert "member_lookup" in f.description


def test_an_app_that_answers_with_its_tool_is_no_finding():
    assert not _cut(_run(), _spec("You staff the library counter.\nFind the member with member_lookup."))


def test_an_agent_that_read_its_answer_and_replied_ended_the_run_itself():
    said = Message(agent="counter_c", role="assistant", content="You have three loans and nothing overdue.")
    assert not [f for f in _cut(_run(said), _spec(HANDS_ON)) if "member_lookup answer" in f.description]


def test_the_member_handed_to_after_the_answer_acted():
    handed = (DelegationEvent(**{"from": "counter_c"}, to="loans_l", trigger="handoff"), AgentTurn(agent="loans_l"),
              Message(agent="loans_l", role="assistant", content="Renewed until the 30th."))
    assert not _cut(_run(*handed), _spec(HANDS_ON))


def test_a_request_the_tool_answer_served_lost_no_member():
    """A look-up the counter's own tool answers ("how many books have I out?") asks nothing of the
    loans desk, whose work the line hands on: the run ended where it should."""
    asked = "Card L-4471 here - could you tell me how many books I have out at the moment?"
    assert not _cut(_run(request=asked), _spec(HANDS_ON))
