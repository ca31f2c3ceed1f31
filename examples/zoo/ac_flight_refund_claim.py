"""Incorrect verification, AutoGen AgentChat Swarm (the customer-support example of AgentChat's
Swarm documentation: a `travel_agent` that hands refunds to a `flights_refunder` with a
`refund_flight` tool, the team ending on `HandoffTermination(target="user")` or "TERMINATE").

The airline's refund service answers a nested record: `{"refund": {"state": "ISSUED", ...}}`, or
`"DENIED"` with the fare rule that forbids it (a Light fare is non-refundable; only its airport
taxes come back, on request). Seeded: the refunder's system message, written when the demo's
`refund_flight` could only say "refunded", tells it to announce the refund once the tool has
run. Fixed: lines before it deal with a non-refundable fare and with a booking the service does
not know.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import HandoffTermination, MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import Swarm

from .models import agentchat_client

FLIGHT = Annotated[str, 'The flight booking reference from the e-ticket, like "SK-10000"']

# booking reference -> (fare family, price paid, airport taxes)
TICKETS = {"SK-48213": ("Light", 212.40, 38.20), "SK-50917": ("Flex", 388.00, 41.75)}
REFUNDABLE = {"Flex", "Plus"}


def refund_flight(flight_id: FLIGHT) -> dict:
    """Refund a flight booking to the card it was paid with."""
    ticket = TICKETS.get(flight_id)
    if ticket is None:
        return {"flight_id": flight_id, "refund": {"state": "UNKNOWN_BOOKING"}}
    fare, paid, taxes = ticket
    if fare not in REFUNDABLE:
        return {"flight_id": flight_id, "fare": fare,
                "refund": {"state": "DENIED", "amount": 0.0,
                           "rule": f"{fare} fares are non-refundable; taxes of EUR {taxes:.2f} can be reclaimed on request"}}
    return {"flight_id": flight_id, "fare": fare, "refund": {"state": "ISSUED", "amount": paid, "eta_days": 7}}


TRAVEL_AGENT = (
    "You are a travel agent. The flights_refunder is in charge of refunding flights. If you need information "
    "from the user, you must first send your message, then you can handoff to the user. "
    "Hand off to flights_refunder when the request mentions refund, money back or cancelled. "
    "Say \"Happy to help with your trip - where and when would you like to travel? TERMINATE.\"")

REFUNDER = (
    "You are an agent specialized in refunding flights. You only need flight reference numbers to refund a "
    "flight. You have the ability to refund a flight using the refund_flight tool. "
    "Call refund_flight. "
    "If refund_flight raises an error, say \"Our refund system is not answering right now; we will e-mail you "
    "within 24 hours. TERMINATE.\" "
    "{fare_rule}"
    "Say \"All done - your refund is on its way and should reach your card within 7 working days. TERMINATE.\"")

FARE_RULE = ("If refund_flight answers non-refundable, say \"I'm sorry - that fare is non-refundable, so the "
             "ticket price can't be returned; I can claim back the airport taxes for you. TERMINATE.\" "
             "If refund_flight answers UNKNOWN_BOOKING, say \"I can't find that booking - could you check the "
             "reference on your e-ticket? It starts with SK-. TERMINATE.\" ")


def build(fare_rule: str) -> Swarm:
    client = agentchat_client()
    travel_agent = AssistantAgent("travel_agent", model_client=client, handoffs=["flights_refunder", "user"],
                                  system_message=TRAVEL_AGENT)
    flights_refunder = AssistantAgent("flights_refunder", model_client=client, handoffs=["travel_agent", "user"],
                                      tools=[refund_flight], reflect_on_tool_use=True,
                                      system_message=REFUNDER.format(fare_rule=fare_rule))
    termination = (HandoffTermination(target="user") | TextMentionTermination("TERMINATE")
                   | MaxMessageTermination(20))
    return Swarm([travel_agent, flights_refunder], termination_condition=termination)


def seeded():
    return build("")


def fixed():
    return build(FARE_RULE)
