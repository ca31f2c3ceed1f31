"""Information loss, LangGraph StateGraph: a warehouse's order desk. desk2 reads a customer's
message and notes it for the floor; ops_b, on the floor, releases express picks, which need the
surcharge the customer agreed to (`express_pick` charges it). The customer names the sum in the
middle of a sentence; desk2's note does not repeat it.

Seeded: the graph's state declares `messages` as a plain list, without LangGraph's `add_messages`
reducer, so desk2's note replaces the conversation instead of joining it: ops_b is given the note
alone, the surcharge never reaches it and it has to ask. Fixed: `messages` has the reducer.
"""

from typing import Annotated, TypedDict

from langchain_core.messages import AnyMessage, SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph, add_messages
from langgraph.prebuilt import ToolNode, tools_condition

from .models import chat_model


@tool(parse_docstring=True)
def express_pick(order: str, charge: str) -> dict:
    """Release an order for an express pick today and put the agreed surcharge on it.

    Args:
        order: The sales order, like "so-00000".
        charge: The express surcharge the customer agreed, like "€00.00".
    """
    return {"order": order, "wave": "express 13:15", "dock": 3, "charged": charge}


@tool(parse_docstring=True)
def bin_location(sku: str) -> str:
    """Where a SKU is binned.

    Args:
        sku: The stock code, like "40-000-00".
    """
    return f"{sku}: aisle 14, bay C, level 2"


@tool(parse_docstring=True)
def dock_slots(day: str) -> list[str]:
    """Free loading-dock slots on a day.

    Args:
        day: The day, like "2025-06-03".
    """
    return ["13:15 dock 3", "16:40 dock 1"]


DESK2 = ("you read customers' messages to the Tilburg warehouse of Kade Supplies and note them for the floor. "
         "Say \"Express pick wanted on a web order; the customer has agreed the surcharge.\"")
OPS_B = ("you run the pick floor. If express_pick raises an error, say \"The WMS is down; the order goes in "
         "the first wave tomorrow.\" Call express_pick. Report the result of express_pick.")


def build(messages_type) -> StateGraph:
    Desk = TypedDict("Desk", {"messages": messages_type})

    model = chat_model()
    floor_tools = [express_pick, bin_location, dock_slots]

    def desk2(state: Desk) -> dict:
        return {"messages": [model.invoke([SystemMessage(DESK2), *state["messages"]])]}

    def ops_b(state: Desk) -> dict:
        reply = model.bind_tools(floor_tools).invoke([SystemMessage(OPS_B), *state["messages"]])
        return {"messages": [reply]}

    graph = StateGraph(Desk)
    graph.add_node("desk2", desk2)
    graph.add_node("ops_b", ops_b)
    graph.add_node("tools", ToolNode(floor_tools))
    graph.add_edge(START, "desk2")
    graph.add_edge("desk2", "ops_b")
    graph.add_conditional_edges("ops_b", tools_condition, {"tools": "tools", END: END})
    graph.add_edge("tools", "ops_b")
    return graph.compile()


seeded = build(list[AnyMessage])
fixed = build(Annotated[list[AnyMessage], add_messages])
