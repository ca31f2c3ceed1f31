"""Information loss at a hand-over, LangGraph (StateGraph): a visa service. The front node reads
the applicant's message and writes a one-line brief; node_b, the consular desk, works from that
brief alone (it never sees the applicant's own words) and looks the application up.

Seeded: the brief keeps the applicant's last sentence only, the request itself. The
application's reference sits in an earlier one, and the last names the applicant's previous,
expired visa in the same shape, so node_b never learns the right reference and expedites the old
one instead of asking. Fixed: the brief keeps the whole message.
"""

from __future__ import annotations

import re
from typing import Callable

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from .models import chat_model


@tool(parse_docstring=True)
def expedite_application(application_ref: str) -> dict:
    """Move a visa application to the priority queue.

    Args:
        application_ref: The application's reference code, like "VSA-10001".
    """
    return {"ref": application_ref, "queue": "priority", "decision_due": "within 5 working days"}


def last_sentence(text: str) -> str:
    return re.split(r"(?<=[.!?])\s+", text.strip())[-1]


def build(brief_of: Callable[[str], str]):
    model = chat_model()
    desk = model.bind_tools([expedite_application])

    def front(state: MessagesState) -> dict:
        reply = model.invoke([SystemMessage("You greet visa applicants. Say \"Thank you, I am passing your "
                                            "request to the consular desk.\""), *state["messages"]])
        return {"messages": [reply]}

    def node_b(state: MessagesState) -> dict:
        applicant = next(m.content for m in state["messages"] if isinstance(m, HumanMessage))
        since = [m for m in state["messages"] if not isinstance(m, HumanMessage)][1:]  # its own tool work
        brief = HumanMessage(f"Brief from the front desk: {brief_of(applicant)}")
        reply = desk.invoke([SystemMessage("You are the consular desk. Call expedite_application. If "
                                           "expedite_application raises an error, say \"Our queue system is "
                                           "down; please write to us again tomorrow.\" Report the result of "
                                           "expedite_application."), brief, *since])
        return {"messages": [reply]}

    builder = StateGraph(MessagesState)
    builder.add_node("front", front)
    builder.add_node("node_b", node_b)
    builder.add_node("tools", ToolNode([expedite_application]))
    builder.add_edge(START, "front")
    builder.add_edge("front", "node_b")
    builder.add_conditional_edges("node_b", tools_condition, {"tools": "tools", END: END})
    builder.add_edge("tools", "node_b")
    return builder.compile()


seeded = build(last_sentence)
fixed = build(lambda text: text)
