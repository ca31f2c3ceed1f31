"""Information loss at a hand-over, LangGraph (StateGraph of two model nodes and a tool node): a
pizza chain's delivery phone line. `pz_front` greets the caller and puts them through; `runner`,
the drivers' desk, changes where an order goes with `reroute_order`, working from the messages the
graph's state holds once the front desk is done.

Seeded: the front node applies the chain's card-data rule (card numbers said on the line are
never kept) by removing every message that holds a card number, with LangGraph's
`RemoveMessage`; the caller's message, which also holds the order reference and the new
postcode, goes with it, and the runner asks for the reference. Fixed: the card number is masked
in the caller's message (a message with the same id replaces it), the rest is kept.
"""

from __future__ import annotations

import re

from langchain_core.messages import HumanMessage, RemoveMessage, SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from .models import chat_model

CARD = re.compile(r"\b(?:\d[ -]?){13,19}\b")
ORDERS = {"PZ-30417": {"status": "in the oven", "to": "LS6 1AN", "driver": "Kasia"}}
AREA = ("LS4", "LS5", "LS6", "LS16")


@tool(parse_docstring=True)
def reroute_order(order_ref: str, deliver_to_postcode: str) -> str:
    """Send an order that is not out yet to another address.

    Args:
        order_ref: The order reference, e.g. "PZ-00000", read out to the caller when they ordered.
        deliver_to_postcode: The postcode of the new address, e.g. "LS6 2QD".
    """
    order = ORDERS.get(order_ref)
    if order is None:
        return f"Keine Bestellung {order_ref} gefunden."
    if deliver_to_postcode.split()[0] not in AREA:
        return f"{deliver_to_postcode} is outside our delivery area; order {order_ref} still goes to {order['to']}."
    order["to"] = deliver_to_postcode
    return f"Order {order_ref} now goes to {deliver_to_postcode}, driver {order['driver']}, about 25 minutes."


FRONT = ("You answer the phone for Forno Rosso pizza delivery. Be brief, the caller is listening.\n"
         "Put the caller through to the drivers' desk.")
RUNNER = ("You are the drivers' desk on the Forno Rosso phone line.\n"
          "Change the address with reroute_order.\n"
          "If reroute_order says outside or Keine, tell the caller we cannot change the address and why.\n"
          "Confirm the new address to the caller.")


def without_cards(messages) -> list:
    """Seeded: the card rule as written, drop any message that holds a card number."""
    return [RemoveMessage(id=m.id) for m in messages if isinstance(m, HumanMessage) and CARD.search(m.content)]


def masking_cards(messages) -> list:
    """Fixed: mask the card number in place; the message (same id) keeps everything else."""
    return [HumanMessage(CARD.sub("[card withheld] ", m.content), id=m.id)
            for m in messages if isinstance(m, HumanMessage) and CARD.search(m.content)]


def build(card_rule):
    model = chat_model()
    desk = model.bind_tools([reroute_order])

    def pz_front(state: MessagesState) -> dict:
        greeting = model.invoke([SystemMessage(FRONT), *state["messages"]])
        return {"messages": [*card_rule(state["messages"]), greeting]}

    def runner(state: MessagesState) -> dict:
        return {"messages": [desk.invoke([SystemMessage(RUNNER), *state["messages"]])]}

    builder = StateGraph(MessagesState)
    builder.add_node("pz_front", pz_front)
    builder.add_node("runner", runner)
    builder.add_node("tools", ToolNode([reroute_order]))
    builder.add_edge(START, "pz_front")
    builder.add_edge("pz_front", "runner")
    builder.add_conditional_edges("runner", tools_condition, {"tools": "tools", END: END})
    builder.add_edge("tools", "runner")
    return builder.compile()


seeded = build(without_cards)
fixed = build(masking_cards)
