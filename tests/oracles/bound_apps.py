"""Systems whose run a framework's own bound stops, not the one masfuzz sets from --max-turns,
run by the zoo's scripted policy (each agent does as its instructions say).

`pai_ferry_desk`: a PydanticAI desk agent whose `ask_reservations` tool runs the reservations
agent with the desk's usage (`usage=ctx.usage`, as PydanticAI's agent-delegation docs show) and
no limits of its own. The reservations agent is told to check a hold until it is CONFIRMED, and
the operator's status never moves on from PENDING: the nested run goes round until PydanticAI's
default request_limit of 50, which --max-turns (the desk's run's limit) does not reach, and its
`UsageLimitExceeded` comes out of `ask_reservations`.
"""

from __future__ import annotations

import itertools

from pydantic_ai import Agent, RunContext

HOLDS: dict[str, dict] = {}  # the ferry operator's hold requests, by reference
_refs = itertools.count(1)

reservations_agent = Agent("openai:gpt-4o-mini", name="reservations_agent", instructions="""\
You hold car-deck places on the island ferry for customers the desk passes to you.
Call hold_place for the sailing the customer named.
Call hold_status until it says CONFIRMED.
Report the result of hold_status.
""")


@reservations_agent.tool_plain
def hold_place(sailing: str) -> dict:
    """Request a car-deck place on a sailing from the ferry operator.

    Args:
        sailing: The sailing, like "FR-0000".
    """
    ref = f"HLD-{next(_refs):04d}"
    HOLDS[ref] = {"sailing": sailing, "state": "PENDING"}
    return {"reference": ref, "state": "PENDING"}


@reservations_agent.tool_plain
def hold_status(reference: str) -> dict:
    """Where a hold request stands with the ferry operator.

    Args:
        reference: The hold's reference, like "HLD-0000".
    """
    hold = HOLDS.get(reference)
    return {"reference": reference, "state": hold["state"]} if hold else {"error": "no such hold"}


desk_agent = Agent("openai:gpt-4o-mini", name="desk_agent", instructions="""\
You answer customers of the island ferry.
Call ask_reservations.
Report the result of ask_reservations.
""")


@desk_agent.tool
async def ask_reservations(ctx: RunContext, request: str) -> str:
    """Pass the customer's request to reservations.

    Args:
        request: The customer's message, in their own words.
    """
    result = await reservations_agent.run(request, usage=ctx.usage)
    return result.output



# `ac_tasting_panel`: an AgentChat round-robin team of two tasters that never concludes, bounded
# by the app's own MaxMessageTermination(5): a run with --max-turns 20 stops at the app's bound.
def ac_tasting_panel():
    from autogen_agentchat.agents import AssistantAgent
    from autogen_agentchat.conditions import MaxMessageTermination
    from autogen_agentchat.teams import RoundRobinGroupChat
    from autogen_ext.models.openai import OpenAIChatCompletionClient

    client = OpenAIChatCompletionClient(model="gpt-4o-mini", api_key="not-set")
    nose = AssistantAgent("nose", model_client=client, system_message='Say "Blackcurrant on the nose."')
    palate = AssistantAgent("palate", model_client=client, system_message='Say "Firm tannins on the palate."')
    return RoundRobinGroupChat([nose, palate], termination_condition=MaxMessageTermination(5))
