"""Runtime crash, LangGraph (a compiled subgraph as a node, with a private state key of its own
the parent never sees, around a prebuilt `create_react_agent`): a garden-room builder's sales
desk. The `quoting` subgraph runs `sales_s`, who prices the room with `quote_garden_room`, then
`deposit_note` reads the quote's deposit into the subgraph's private `deposit_pence` to raise the
deposit invoice before the answer goes back to the customer.

Seeded: `deposit_note` reads the deposit with `float(deposit.split()[0])`, written when quotes
were all under a thousand pounds: the quoting system writes "1,840.00 GBP" with a thousands
separator, and `float("1,840.00")` raises ValueError inside the subgraph. Fixed: the separator is
taken out before the amount is read.
"""

from __future__ import annotations

import json
from typing import TypedDict

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import create_react_agent
from typing_extensions import Annotated

from .models import chat_model

INVOICES: list[int] = []


@tool(parse_docstring=True)
def quote_garden_room(width_m: float, depth_m: float, cladding: str) -> dict:
    """Price an insulated garden room, built and wired, on a prepared base.

    Args:
        width_m: The room's width in metres.
        depth_m: The room's depth in metres.
        cladding: The outside finish: "larch", "cedar" or "composite".
    """
    rate = {"larch": 1450, "cedar": 1700, "composite": 1600}.get(cladding.lower(), 1500)  # pounds a square metre
    price = round(width_m * depth_m * rate, 2)
    return {"quote": f"GR-{int(width_m * 10)}{int(depth_m * 10)}", "price": f"{price:,.2f} GBP",
            "deposit": f"{price / 10:,.2f} GBP", "lead_time": "6 weeks"}


SALES = """You are sales_s at Cabin & Co garden rooms, Bristol.
Price the room with quote_garden_room.
If quote_garden_room fails, say "The quoting system is down just now; we will email the quote by tomorrow."
Reply "Quote {quote}: {price} built and wired, {deposit} deposit to book, about {lead_time} to build."
"""


class Quoting(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]
    deposit_pence: int  # the subgraph's own: the deposit invoice is raised from it


def build(read_amount):
    sales_s = create_react_agent(chat_model(), [quote_garden_room], prompt=SALES, name="sales_s")

    def deposit_note(state: Quoting) -> dict:
        answers = [m for m in state["messages"] if isinstance(m, ToolMessage) and m.name == "quote_garden_room"]
        try:
            quote = json.loads(answers[-1].content)
        except (IndexError, ValueError):  # no quote (the tool broke): nothing to invoice
            return {"deposit_pence": 0}
        pence = round(read_amount(quote["deposit"].split()[0]) * 100)
        INVOICES.append(pence)
        return {"deposit_pence": pence,
                "messages": [AIMessage(f"Deposit invoice raised for {pence / 100:.2f} GBP.", name="invoicing")]}

    inner = StateGraph(Quoting)
    inner.add_node("sales_s", sales_s)
    inner.add_node("deposit_note", deposit_note)
    inner.add_edge(START, "sales_s")
    inner.add_edge("sales_s", "deposit_note")
    inner.add_edge("deposit_note", END)

    outer = StateGraph(MessagesState)
    outer.add_node("quoting", inner.compile())
    outer.add_edge(START, "quoting")
    outer.add_edge("quoting", END)
    return outer.compile()


def seeded():
    return build(float)  # "1,840.00" is no float


def fixed():
    return build(lambda amount: float(amount.replace(",", "")))
