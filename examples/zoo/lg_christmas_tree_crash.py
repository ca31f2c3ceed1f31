"""Runtime crash, LangGraph (a `StateGraph` that fans out with `Send`, one delivery-pricing run of
a prebuilt ReAct agent per tree ordered, each given a brief of its own): a Christmas tree farm's
delivered trees. `orders_o` takes the order and writes the hand-over; the sorting node reads
each tree's height from the order and sends one brief per tree to `delivery_d`, who prices the
delivery with `price_delivery`.

Seeded: the sorting node reads a height with `int()`, written when the farm sold trees in whole
feet; half-foot sizes were added to the order form this season, and a 7.5 ft tree raises
ValueError in the sorting node.
Fixed: the height is read as a decimal.
"""

from __future__ import annotations

import re

from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent
from langgraph.types import Send

from .models import chat_model

HEIGHT = re.compile(r"\b(\d+(?:\.\d+)?)\s*(?:ft|foot|feet)\b", re.I)


@tool(parse_docstring=True)
def price_delivery(height_ft: float, postcode: str) -> dict:
    """Price delivering one cut tree (netted, with a stand if asked) to a postcode.

    Args:
        height_ft: The tree's height in feet, like 6.5.
        postcode: Where it goes, like "GU10 4RT".
    """
    van = "small van" if height_ft <= 7 else "flatbed"
    return {"height_ft": height_ft, "postcode": postcode, "van": van,
            "price": f"{12 + (8 if van == 'flatbed' else 0)}.00 GBP", "slot": "Sat 6 Dec, 09:00-13:00"}


ORDERS = """You are orders_o at Frensham Christmas Trees.
Pass the postcode to delivery_d."""

DELIVERY = """You are delivery_d, who plans tree deliveries at Frensham Christmas Trees.
Price the delivery with price_delivery.
If price_delivery fails, say "The delivery planner is down; we will ring you with the price."
Reply "A {height_ft} ft tree to {postcode} goes on the {van}: {price}, delivered {slot}."
"""


def build(read_height):
    model = chat_model()
    delivery_d = create_react_agent(chat_model(), [price_delivery], prompt=DELIVERY, name="delivery_d")

    def orders_o(state: MessagesState) -> dict:
        return {"messages": [model.invoke([SystemMessage(ORDERS), *state["messages"]])]}

    def one_brief_per_tree(state: MessagesState) -> list[Send]:
        order, note = state["messages"][0].content, state["messages"][-1].content
        return [Send("delivery_d", {"messages": [HumanMessage(f"{note}\nTree: {read_height(h)} ft")]})
                for h in HEIGHT.findall(order)]

    graph = StateGraph(MessagesState)
    graph.add_node("orders_o", orders_o)
    graph.add_node("delivery_d", delivery_d)
    graph.add_edge(START, "orders_o")
    graph.add_conditional_edges("orders_o", one_brief_per_tree, ["delivery_d"])
    graph.add_edge("delivery_d", END)
    return graph.compile()


def seeded():
    return build(int)  # the farm sold whole feet when the node was written


def fixed():
    return build(float)
