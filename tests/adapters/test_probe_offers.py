"""`--restricted probe` offers each agent stubs of the tools it may not use; never the tool that
stands for the agent itself (an agent lent to another as a tool: ADK's `AgentTool`, an Agents SDK
`as_tool`, a PydanticAI tool that runs an agent). Calling oneself reaches for no other agent's
power, and a model that reads its own name among its tools would make a finding on a correct app."""

from __future__ import annotations

import pytest

from masfuzz.adapters.probes import restricted_probes, stands_for
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import RestrictedAttempt

from tests.adapters.helpers import run_scenario


def _spec(tool: str, condition: str = "", extra: tuple[tuple[str, str], ...] = (), kind: str = "agent") -> WorkflowSpec:
    """`front` holds `tool`, which runs `clerk`; `clerk` files with `file_form`; `porter` lifts."""
    return WorkflowSpec(
        system=SystemInfo(id="office", entry_agent="front", pattern="orchestrated"),
        agents=(AgentSpec(id="front"), AgentSpec(id="clerk"), AgentSpec(id="porter")),
        tools=(ToolSpec(id=tool, kind=kind), ToolSpec(id="file_form"), ToolSpec(id="lift_box"),
               *(ToolSpec(id=t, kind="agent") for _, t in extra)),
        permissions=Permissions(allow=(("front", tool), ("clerk", "file_form"), ("porter", "lift_box"), *extra),
                                restrict_mode="closed_world"),
        delegations=(Delegation(**{"from": "front"}, to="clerk", trigger="as_tool", condition=condition),
                     Delegation(**{"from": "front"}, to="porter", trigger="handoff")))


@pytest.mark.parametrize("tool,condition,kind", [
    ("clerk", "", "agent"),                             # named as the agent (ADK's AgentTool, the SDK's default)
    ("ask_the_clerk", "ask_the_clerk", "agent"),        # a name of its own, bound in the delegation's condition
    ("ask_the_clerk", "tool ask_the_clerk", "function"),  # PydanticAI: a function tool that runs the agent
    ("paperwork", "", "agent"),                         # the holder's only agent tool and only as_tool delegation
])
def test_no_agent_is_offered_the_tool_that_runs_it(tool, condition, kind):
    spec = _spec(tool, condition, kind=kind)
    assert stands_for(spec, tool, "clerk")
    probes = {a: [t.name for t in ts] for a, ts in restricted_probes(spec).items()}
    assert tool not in probes["clerk"] and "lift_box" in probes["clerk"]
    assert tool in probes["porter"]  # another agent reaching for it is still probed


def test_a_holders_other_agent_tool_is_still_probed():
    # front lends two agents: the tool running the other one is no stand-in for clerk
    spec = _spec("paperwork", "", extra=(("front", "ask_porter"),))
    assert not stands_for(spec, "ask_porter", "clerk") and not stands_for(spec, "paperwork", "clerk")
    assert "ask_porter" in [t.name for t in restricted_probes(spec)["clerk"]]


def test_adk_never_offers_an_agent_tool_to_the_agent_it_runs():
    # masfuzz's probe model calls every tool it is offered once: `scout`, lent to `lead` as an
    # AgentTool, reaches the probe of math's `add`, and is never offered itself
    trace = run_scenario("tests/adapters/adk_systems.py:lead", input="look around and add 2 and 3",
                         sut_model="scripted/masfuzz.control:probe", restricted="probe")
    tried = {(e.agent, e.tool) for e in trace.of_type(RestrictedAttempt)}
    assert ("scout", "add") in tried
    assert ("scout", "scout") not in tried
