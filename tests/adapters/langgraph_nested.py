"""A LangGraph system for the recording tests (not a test module): a subgraph node `booking`
runs a prebuilt ReAct agent `clerk`, which looks a room up with `room_rate`, then a plain node
`ledger` (no model) notes the rate it read. The subgraph node's own update, the final state
of the graph it runs, repeats every message its agent streamed."""

from __future__ import annotations

import re
from typing import TypedDict

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import create_react_agent
from typing_extensions import Annotated

from masfuzz.adapters.langgraph.chat_model import MasfuzzChatModel
from masfuzz.llm.scripted import call, last_user_text, say, tool_names, tool_results

model = MasfuzzChatModel(model="scripted/tests/adapters/langgraph_nested.py:policy")


@tool
def room_rate(nights: int) -> str:
    """The price of a double room for a number of nights."""
    return f"{nights} nights: {nights * 95} GBP"


class Booking(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]
    noted: str  # the subgraph's own key


def ledger(state: Booking) -> dict:
    rates = [m.content for m in state["messages"] if isinstance(m, ToolMessage)]
    return {"noted": rates[-1] if rates else "",
            "messages": [AIMessage(f"Ledger: {rates[-1] if rates else 'nothing to note'}", name="ledger")]}


inner = StateGraph(Booking)
inner.add_node("clerk", create_react_agent(model, [room_rate], name="clerk"))
inner.add_node("ledger", ledger)
inner.add_edge(START, "clerk")
inner.add_edge("clerk", "ledger")
inner.add_edge("ledger", END)
outer = StateGraph(MessagesState)
outer.add_node("booking", inner.compile())
outer.add_edge(START, "booking")
outer.add_edge("booking", END)
graph = outer.compile()


def policy(request):
    """Prices the nights the guest asked for with the tool offered, then reports its answer."""
    if answers := tool_results(request, "room_rate"):
        return say(f"The rate is {answers[-1].content}.")
    nights = re.search(r"\b(\d+)\s+nights?\b", last_user_text(request))
    if "room_rate" in tool_names(request) and nights:
        return call("room_rate", nights=int(nights.group(1)))
    return say("How many nights would you like?")
