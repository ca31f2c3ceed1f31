"""Information loss at a hand-over, LangGraph (StateGraph): an intake node takes the complaint and
a shipping node ships the replacement.

Seeded: the shipping node sends its model only the newest message (a context-trimming shortcut),
so the order number the customer gave never reaches it and it asks again. Fixed: it sends the
whole conversation.
"""

from __future__ import annotations

from langchain_core.messages import SystemMessage
from langchain_core.tools import tool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from .models import chat_model


@tool(parse_docstring=True)
def ship_replacement(order_number: str) -> str:
    """Ship a replacement for a damaged order.

    Args:
        order_number: The order number, like "ORD-1234".
    """
    return f"Replacement for order {order_number} ships tomorrow."


def build(keep_last: int | None):
    model = chat_model()

    def intake(state: MessagesState) -> dict:
        prompt = SystemMessage("You take complaints. Say \"Thanks, shipping will arrange a replacement.\"")
        return {"messages": [model.invoke([prompt, *state["messages"]])]}

    def shipping(state: MessagesState) -> dict:
        prompt = SystemMessage("You ship replacements. Call ship_replacement with the customer's order "
                               "number. Report the result of ship_replacement.")
        history = state["messages"][-keep_last:] if keep_last else state["messages"]
        return {"messages": [model.bind_tools([ship_replacement]).invoke([prompt, *history])]}

    builder = StateGraph(MessagesState)
    builder.add_node("intake", intake)
    builder.add_node("shipping", shipping)
    builder.add_node("tools", ToolNode([ship_replacement]))
    builder.add_edge(START, "intake")
    builder.add_edge("intake", "shipping")
    builder.add_conditional_edges("shipping", tools_condition)
    builder.add_edge("tools", "shipping")
    return builder.compile()


seeded = build(keep_last=1)
fixed = build(keep_last=None)
