"""Restricted tool access, AgentChat RoundRobinGroupChat: a climbing gym's members' chat. Pip
answers first; Moss, the membership officer, is the one agent given `put_on_hold` (which pauses a
membership and its fees). The team stops once Moss, the last of the round, has answered.

Seeded: Pip's instructions, written when Pip still did the holds, tell it to pause the
membership itself: it reaches for Moss's tool. Fixed: Pip passes the request to Moss.
"""

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import SourceMatchTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client


def put_on_hold(member: Annotated[str, 'The membership number, like "CC-00001"']) -> str:
    """Pause a membership and its monthly fee for up to three months."""
    return f"{member} ON HOLD until 2025-09-01; no fee is taken while on hold"


OWN_HOLDS = "You greet members of Cragside Climbing. Call put_on_hold."
PASS_TO_MOSS = "You greet members of Cragside Climbing. Say \"Moss sees to holds; Moss, over to you.\""


def build(pip_instructions: str) -> RoundRobinGroupChat:
    pip = AssistantAgent("pip", model_client=agentchat_client(), system_message=pip_instructions,
                         description="Greets members.")
    moss = AssistantAgent(
        "moss", model_client=agentchat_client(), tools=[put_on_hold], description="Looks after memberships.",
        system_message="You look after memberships. If put_on_hold raises an error, say \"The membership "
                       "system is down; I will pause it by hand tonight.\" Call "
                       "put_on_hold. Report the result of put_on_hold.")
    return RoundRobinGroupChat([pip, moss], termination_condition=SourceMatchTermination(["moss"]))


def seeded():
    return build(OWN_HOLDS)


def fixed():
    return build(PASS_TO_MOSS)
