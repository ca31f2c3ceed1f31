"""LangGraph systems for the recording tests (not a test module). `graph`: a desk whose router is
plain code: `clerk` answers, `checker` (no model) checks the slot it quoted and sends it back to
`clerk` once with a note, so the graph hands over to `clerk` twice, with different inputs, no
other model asked in between. `swapping`: nodes that take the caller's message out of the
state and put their own in its place."""

from __future__ import annotations

import re

from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.graph.message import REMOVE_ALL_MESSAGES

from masfuzz.adapters.langgraph.chat_model import MasfuzzChatModel
from masfuzz.llm.scripted import say

model = MasfuzzChatModel(model="scripted/tests/adapters/langgraph_revisit.py:policy")


def intake(state: MessagesState) -> dict:
    """Notes what the caller wants."""
    return {"messages": [model.invoke(state["messages"])]}


def clerk(state: MessagesState) -> dict:
    """Quotes a slot for the booking."""
    return {"messages": [model.invoke(state["messages"])]}


def checker(state: MessagesState) -> dict:
    """Checks the quoted slot against the diary (no model)."""
    if any("16:45 is taken" in str(m.content) for m in state["messages"]):
        return {"messages": []}
    return {"messages": [AIMessage("Diary: 16:45 is taken, 17:30 is free", name="checker")]}


def _again(state: MessagesState) -> str:
    return "clerk" if state["messages"][-1].name == "checker" else END


builder = StateGraph(MessagesState)
builder.add_node("intake", intake)
builder.add_node("clerk", clerk)
builder.add_node("checker", checker)
builder.add_edge(START, "intake")
builder.add_edge("intake", "clerk")
builder.add_edge("clerk", "checker")
builder.add_conditional_edges("checker", _again, ["clerk", END])
graph = builder.compile()


def policy(request):
    if request.agent == "tidy":
        return say("Thanks, one moment.")
    if request.agent == "desk":
        return say("Noted: " + request.messages[-1].content)
    if request.agent == "intake":
        return say("Caller wants a van slot today.")
    if "17:30 is free" in request.messages[-1].content:
        return say("Booked 17:30.")
    return say("Quoting 16:45.")


# --- a node that swaps the caller's message: `tidy` masks the card number in it (RemoveMessage
# and a new HumanMessage) and greets; `summary` (no model) then puts one summary in place of the
# whole history (REMOVE_ALL_MESSAGES); `desk` answers from what is left.
def tidy(state: MessagesState) -> dict:
    caller = state["messages"][0]
    masked = HumanMessage(re.sub(r"\b\d{4} \d{4} \d{4} \d{4}\b", "[card]", caller.content))
    return {"messages": [RemoveMessage(id=caller.id), masked, model.invoke(state["messages"])]}


def summary(state: MessagesState) -> dict:
    text = " / ".join(str(m.content) for m in state["messages"])
    return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), HumanMessage(f"Summary: {text}")]}


def desk(state: MessagesState) -> dict:
    return {"messages": [model.invoke(state["messages"])]}


swap_builder = StateGraph(MessagesState)
for name, node in (("tidy", tidy), ("summary", summary), ("desk", desk)):
    swap_builder.add_node(name, node)
swap_builder.add_edge(START, "tidy")
swap_builder.add_edge("tidy", "summary")
swap_builder.add_edge("summary", "desk")
swap_builder.add_edge("desk", END)
swapping = swap_builder.compile()
