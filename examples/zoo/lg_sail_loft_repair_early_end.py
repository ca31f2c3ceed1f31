"""Premature termination, LangGraph (an intake node that routes with `Command(goto=...)`, the
loft a prebuilt ReAct agent run as a node of the graph): a sail loft's repair desk. `intake_i`
acknowledges the customer's message; `loft_l` books the sail into the repair queue with
`book_sail_repair`. The intake was meant to end the run only when the customer needs nothing
done ("no repair needed").

Seeded: that end was written as any reply with the word "no" in it: intake_i's own line "no
need to send photos" ends the run, normally, before loft_l has booked the repair.
Fixed: the intake ends the run only on "no repair needed".
"""

from __future__ import annotations

import re
from typing import Literal

from langchain_core.messages import SystemMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent
from langgraph.types import Command

from .models import chat_model


def book_sail_repair(sail: Literal["mainsail", "jib", "genoa", "spinnaker"], details: str) -> dict:
    """Book a sail into the loft's repair queue.

    Args:
        sail: Which sail.
        details: What needs doing, in the customer's words.
    """
    return {"status": "queued", "job": "SL-" + str(4100 + len(details) % 900), "sail": sail,
            "ready_in": "10 working days", "drop_off": "the loft door, Quay Lane, before 16:00"}


INTAKE = ('You are intake_i at Penrose Sail Loft.\n'
          'Say "Thanks for your message: no need to send photos, the loft will look the sail over when it comes in."')

LOFT = ("You are loft_l at Penrose Sail Loft, booking repairs.\n"
        "Book the repair with book_sail_repair.\n"
        'If book_sail_repair fails, say "The repair queue is not answering; we will ring you to book."\n'
        "Tell the customer what book_sail_repair answered.")

ENDS = {
    "seeded": r"\bno\b",  # meant for "no repair needed", written as any "no"
    "fixed": r"\bno repair needed\b",
}


def build(version: str):
    model = chat_model()
    loft = create_react_agent(model, [book_sail_repair], prompt=LOFT, name="loft_l")

    def intake_i(state: MessagesState) -> Command:
        reply = model.invoke([SystemMessage(INTAKE), *state["messages"]])
        done = re.search(ENDS[version], str(reply.content), re.I)
        return Command(update={"messages": [reply]}, goto=END if done else "loft_l")

    graph = StateGraph(MessagesState)
    graph.add_node("intake_i", intake_i, destinations=("loft_l", END))
    graph.add_node("loft_l", loft)
    graph.add_edge(START, "intake_i")
    graph.add_edge("loft_l", END)
    return graph.compile()


seeded = build("seeded")
fixed = build("fixed")
