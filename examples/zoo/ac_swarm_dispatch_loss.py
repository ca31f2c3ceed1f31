"""Information loss at a hand-over, AutoGen AgentChat (Swarm): a freight dispatcher hands a
stuck container over to the rerouting desk.

Seeded: the rerouting agent keeps a one-message model context (set to keep its prompts short), so
what it actually receives after the handoff is the handoff notice alone; the shipment id, given in
the middle of the customer's message, never reaches it and it asks for it again. Fixed: it keeps
the whole conversation.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMessageTermination
from autogen_agentchat.teams import Swarm
from autogen_core.model_context import BufferedChatCompletionContext, UnboundedChatCompletionContext

from .models import agentchat_client


def reroute_shipment(shipment: Annotated[str, 'The shipment id, like "SHP-10001"']) -> dict:
    """Send a shipment on to the nearest free terminal."""
    return {"shipment": shipment, "code": "RR-OK", "terminal": "Antwerp Gate 4", "eta": "2025-06-05"}


def build(context):
    client = agentchat_client()
    dispatcher = AssistantAgent(
        "dispatcher", model_client=client, handoffs=["rerouting"],
        system_message="You are a freight forwarder's dispatcher. Hand off to rerouting when the request "
        "mentions stuck, reroute or delayed. Say \"Thanks, how can we help with your freight?\"")
    rerouting = AssistantAgent(
        "rerouting", model_client=client, tools=[reroute_shipment], reflect_on_tool_use=True,
        model_context=context,
        system_message="You reroute shipments. Call reroute_shipment. If reroute_shipment raises an error, "
        "say \"Our routing system is down; we will call you back.\" Report the result of reroute_shipment.")
    return Swarm([dispatcher, rerouting], termination_condition=TextMessageTermination("rerouting")
                 | TextMessageTermination("dispatcher") | MaxMessageTermination(10))


def seeded():
    return build(BufferedChatCompletionContext(buffer_size=1))


def fixed():
    return build(UnboundedChatCompletionContext())
