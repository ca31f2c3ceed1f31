"""Runtime crash, LangGraph (StateGraph): the router after triage reads a priority that only some
requests set, and crashes on the others.

Seeded: the router indexes `state["priority"]`. Fixed: it defaults to "normal".
"""

from __future__ import annotations

from typing import NotRequired

from langchain_core.messages import SystemMessage
from langgraph.graph import END, START, MessagesState, StateGraph

from .models import chat_model


class TicketState(MessagesState):
    priority: NotRequired[str]


def build(route):
    model = chat_model()

    def agent(name: str, prompt: str):
        def node(state: TicketState) -> dict:
            return {"messages": [model.invoke([SystemMessage(prompt), *state["messages"]])]}
        node.__name__ = name
        return node

    builder = StateGraph(TicketState)
    builder.add_node("triage", agent("triage", "You sort support tickets. Say \"Ticket received.\""))
    builder.add_node("support", agent("support", "You answer support tickets. Say \"Restart the router; "
                                      "if the light stays red, we send a technician.\""))
    builder.add_node("escalation", agent("escalation", "You handle urgent tickets. Say \"A technician is on "
                                         "the way.\""))
    builder.add_edge(START, "triage")
    builder.add_conditional_edges("triage", route, ["support", "escalation"])
    builder.add_edge("support", END)
    builder.add_edge("escalation", END)
    return builder.compile()


def route_unchecked(state: TicketState) -> str:
    return "escalation" if state["priority"] == "urgent" else "support"


def route(state: TicketState) -> str:
    return "escalation" if state.get("priority", "normal") == "urgent" else "support"


seeded = build(route_unchecked)
fixed = build(route)
