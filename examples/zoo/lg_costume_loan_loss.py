"""Information loss, LangGraph StateGraph: a theatre's costume store lends costumes to amateur
companies. `receive` keeps the company's message in the state, `front` (a ReAct agent) writes a
one-line note for the wardrobe, and the wardrobe node runs the `wardrobe` agent on the company's
message and that note. The loan needs the company's hire account ("TC-4410"), which companies
write inside their message.

Seeded: the state key that keeps the message was renamed from `request` to `enquiry` when the
graph gained its intake step, and the wardrobe node still reads `request`: the wardrobe agent
gets the note alone and has to ask for the account. Fixed: it reads `enquiry`.
"""

from __future__ import annotations

from typing import Annotated, TypedDict

from langchain_core.messages import HumanMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import create_react_agent

from .models import chat_model

ACCOUNTS = {"TC-4410": "Little Dunmow Players", "TC-1175": "Orchard Street Opera"}
RAIL = {"Victorian day dress": 14, "morning suit": 6, "maid's uniform": 9}  # item -> pieces on the rail


class Loan(TypedDict):
    messages: Annotated[list, add_messages]
    enquiry: str


@tool(parse_docstring=True)
def reserve_costumes(account: str, collect_on: str) -> str:
    """Reserve costumes from the store for a company's production.

    Args:
        account: The company's hire account, like "TC-1000".
        collect_on: The collection date, like "2026-01-31".
    """
    company = ACCOUNTS.get(account)
    if company is None:
        return f"No hire account {account}."
    return f"Reserved for {company} ({account}): fitting and collection on {collect_on}, loan of three weeks."


@tool(parse_docstring=True)
def rail_stock(item: str) -> str:
    """How many pieces of an item are on the store's rails.

    Args:
        item: The item, like "morning suit".
    """
    return f"{item}: {RAIL.get(item, 0)} on the rail"


FRONT = ("You are the front desk of the Corn Exchange theatre's costume store.\n"
         'Say "Note for wardrobe: a company wants to borrow costumes for a production; please reserve them."')

WARDROBE = ("You are the wardrobe mistress's assistant at the costume store.\n"
            "Call reserve_costumes.\n"
            'If reserve_costumes raises an error, say "The loans book is offline; we will pencil the loan in by hand."\n'
            "Report the result of reserve_costumes.")


def receive(state: Loan) -> dict:
    return {"enquiry": state["messages"][0].content}


def build(message_key: str):
    model = chat_model()
    front = create_react_agent(model, [rail_stock], prompt=FRONT, name="front")
    wardrobe = create_react_agent(model, [reserve_costumes], prompt=WARDROBE, name="wardrobe")

    def wardrobe_node(state: Loan) -> dict:
        note = state["messages"][-1].content
        given = [HumanMessage(text) for text in (state.get(message_key), note) if text]
        result = wardrobe.invoke({"messages": given})
        return {"messages": result["messages"][-1:]}

    graph = StateGraph(Loan)
    graph.add_node("receive", receive)
    graph.add_node("front", front)
    graph.add_node("wardrobe", wardrobe_node)
    graph.add_edge(START, "receive")
    graph.add_edge("receive", "front")
    graph.add_edge("front", "wardrobe")
    graph.add_edge("wardrobe", END)
    return graph.compile()


def seeded():
    return build("request")


def fixed():
    return build("enquiry")
