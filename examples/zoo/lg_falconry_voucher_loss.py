"""Information loss at a hand-over, LangGraph (StateGraph of two model nodes and a tool node, its
own state schema): a falconry centre's booking line. `perch` greets the guest; `jesses`, the
bookings desk, redeems a gift voucher for a hawk walk with `redeem_voucher`, working from the
conversation the graph's state holds.

Seeded: the graph's state declares `messages` as a plain list, without LangGraph's `add_messages`
reducer, so the greeting node's reply replaces the conversation instead of joining it: the
bookings desk never sees the guest's message with the voucher code, and asks for it. Fixed: the
channel is `Annotated[list, add_messages]`, as LangGraph's own `MessagesState` declares it.
"""

from __future__ import annotations

from typing import Annotated, TypedDict

from langchain_core.messages import SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode, tools_condition

from .models import chat_model

VOUCHERS = {"HW-5521": {"experience": "hawk walk", "guests": 2, "used": False}}


@tool(parse_docstring=True)
def redeem_voucher(voucher: str, day: str) -> str:
    """Book the experience a gift voucher pays for, on a day the flying team is out.

    Args:
        voucher: The code printed on the gift voucher, e.g. "HW-0000".
        day: The day of the visit, e.g. "2026-01-31".
    """
    found = VOUCHERS.get(voucher)
    if found is None:
        return f"Gutschein {voucher} unbekannt (unknown voucher)."
    if found["used"]:
        return f"Voucher {voucher} was already redeemed."
    found["used"] = True
    return (f"Booked: {found['experience']} for {found['guests']} on {day}, meet at the mews 10:30, "
            "wear sturdy shoes. Ref FW-88.")


PERCH = ("You answer the phone for Nidderdale Falconry.\n"
         'Say "Lovely to hear from you, let me pop you through to our bookings team."')
JESSES = ("You are the bookings desk of Nidderdale Falconry.\n"
          "Redeem the voucher with redeem_voucher.\n"
          "If redeem_voucher says unknown or already, explain what the system said.\n"
          "Confirm the booking to the guest.")


class PlainState(TypedDict):
    messages: list  # seeded: each node's update replaces the list


class Conversation(TypedDict):
    messages: Annotated[list, add_messages]  # fixed: each node's update is appended


def build(schema):
    model = chat_model()
    desk = model.bind_tools([redeem_voucher])

    def perch(state) -> dict:
        return {"messages": [model.invoke([SystemMessage(PERCH), *state["messages"]])]}

    def jesses(state) -> dict:
        return {"messages": [desk.invoke([SystemMessage(JESSES), *state["messages"]])]}

    builder = StateGraph(schema)
    builder.add_node("perch", perch)
    builder.add_node("jesses", jesses)
    builder.add_node("tools", ToolNode([redeem_voucher]))
    builder.add_edge(START, "perch")
    builder.add_edge("perch", "jesses")
    builder.add_conditional_edges("jesses", tools_condition, {"tools": "tools", END: END})
    builder.add_edge("tools", "jesses")
    return builder.compile()


seeded = build(PlainState)
fixed = build(Conversation)
