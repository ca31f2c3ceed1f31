"""Speaking order against a dependency stated indirectly, AutoGen AgentChat
(RoundRobinGroupChat): a motor insurance claim. iris inspects the damage with the survey tool;
node_b puts a settlement figure on "what iris reports"; nobody is told in so many words to wait;
the claims desk writes to the policyholder and closes the case.

Seeded: the members are listed node_b first, so the round robin has node_b settle before iris has
surveyed anything. Fixed: iris, then node_b (the desk last in both).
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMessageTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client


def survey_damage(claim: Annotated[str, 'The claim number, like "CLM-100001"']) -> str:
    """Look up the assessor's site survey of a damaged vehicle."""
    return f"Survey for {claim}: rear bumper and tailgate, repair estimate 2,350.00, no structural damage."


def build(settler_first: bool):
    client = agentchat_client()
    iris = AssistantAgent("iris", model_client=client, tools=[survey_damage], reflect_on_tool_use=True,
                          system_message="You assess vehicle damage on site. Call survey_damage. If survey_damage "
                          "raises an error, say \"The survey system is offline; the claim waits for it.\" Report "
                          "the result of survey_damage.")
    node_b = AssistantAgent("node_b", model_client=client,
                            system_message="Take what iris reports and put a settlement figure on it for the "
                            "policyholder. Say \"Settlement offered: 2,350.00 less the 250.00 excess, 2,100.00 "
                            "in total.\"")
    desk = AssistantAgent("claims_desk", model_client=client,
                          system_message="You write to the policyholder with the outcome. Say \"Letter sent with "
                          "the offer; case closed.\"")
    order = [node_b, iris] if settler_first else [iris, node_b]
    return RoundRobinGroupChat([*order, desk], termination_condition=TextMessageTermination("claims_desk")
                               | MaxMessageTermination(8))


def seeded():
    return build(settler_first=True)


def fixed():
    return build(settler_first=False)
