"""A LangGraph desk for the whose-words tests (not a test module). `desk`: `triage` answers the
caller, `notes` (plain code, no model) puts the file's case note into the conversation as a
`HumanMessage` (the user's role, the node's words), and `billing` asks for a reference. The
caller gave none: the reference in the history is the node's."""

from __future__ import annotations

from langchain_core.messages import HumanMessage
from langgraph.graph import END, START, MessagesState, StateGraph

from masfuzz.adapters.langgraph.chat_model import MasfuzzChatModel
from masfuzz.llm.scripted import say

model = MasfuzzChatModel(model="scripted/tests/oracles/whose_words_app.py:policy")


def triage(state: MessagesState) -> dict:
    """Greets the caller and passes the case on."""
    return {"messages": [model.invoke(state["messages"])]}


def notes(state: MessagesState) -> dict:
    """Adds the case file's note (no model)."""
    return {"messages": [HumanMessage("Case file note: account reference CN-48213 on hold.")]}


def billing(state: MessagesState) -> dict:
    """Sorts out charges."""
    return {"messages": [model.invoke(state["messages"])]}


builder = StateGraph(MessagesState)
for name, node in (("triage", triage), ("notes", notes), ("billing", billing)):
    builder.add_node(name, node)
builder.add_edge(START, "triage")
builder.add_edge("triage", "notes")
builder.add_edge("notes", "billing")
builder.add_edge("billing", END)
desk = builder.compile()


def policy(request):
    if request.agent == "triage":
        return say("Thanks, passing you to billing.")
    return say("Could you provide your account reference?")
