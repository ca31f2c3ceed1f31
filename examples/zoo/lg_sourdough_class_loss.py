"""Information loss, LangGraph (a parent `StateGraph` whose bakery-desk node writes a hand-over
note into the state; the class kitchen is a prebuilt `create_react_agent` sub-agent given only
that note): a sourdough school's weekend classes. `desk_n` reads the enquiry and writes the
kitchen a note; `oven_k` books the places with `book_class`, which takes the gift voucher's code
(most places are bought as presents, and the till redeems the voucher as it books).

Seeded: the desk's note line was written before the school sold gift vouchers: the note carries
the day and the party size but not the voucher code the customer gave, so oven_k has no code to
book with and asks for it again.
Fixed: the note carries the voucher code too.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import create_react_agent

from .models import chat_model

VOUCHERS = {"GV-3391": {"places": 2, "redeemed": False}}
PLACES = {"2026-05-09": 3, "2026-05-10": 0}


@tool(parse_docstring=True)
def book_class(day: str, bakers: int, voucher: str) -> dict:
    """Book places on the Saturday sourdough class (starter, shaping, a loaf to take home), paid by gift voucher.

    Args:
        day: The class day, e.g. "2026-01-31".
        bakers: How many bakers come.
        voucher: The gift voucher code printed on the card, e.g. "GV-0000".
    """
    card = VOUCHERS.get(voucher)
    if card is None or card["redeemed"]:
        return {"booking": None, "till": {"status": 402, "reason": f"voucher {voucher} not found or already used"}}
    if PLACES.get(day, 0) < bakers:
        return {"booking": None, "till": {"status": 409, "reason": f"only {PLACES.get(day, 0)} places left on {day}"}}
    return {"booking": f"SD-{day[5:7]}{day[8:]}-{bakers}", "till": {"status": 200, "reason": "voucher redeemed"},
            "bring": "an apron and a large tub with a lid"}


class Enquiry(TypedDict):
    messages: Annotated[list, add_messages]
    note: str


DESK = "You answer enquiries at Crumb & Crust, a sourdough school in a converted dairy near Frome.\n{note_line}"
NOTE_LINES = {"seeded": "Write oven_k a note with the day and the party size.",
              "fixed": "Write oven_k a note with the day, the party size and the voucher code."}
KITCHEN = ("You run the class kitchen at Crumb & Crust.\nBook the places with book_class.\n"
           "If book_class fails, tell the customer what it said.")


def build(version: str):
    model = chat_model()
    oven_k = create_react_agent(model, [book_class], prompt=KITCHEN, name="oven_k")

    def desk_n(state: Enquiry) -> dict:
        reply = model.invoke([SystemMessage(DESK.format(note_line=NOTE_LINES[version])), *state["messages"]])
        return {"messages": [reply], "note": reply.content}

    def kitchen(state: Enquiry) -> dict:
        out = oven_k.invoke({"messages": [HumanMessage(state["note"])]})
        return {"messages": out["messages"][1:]}

    graph = StateGraph(Enquiry)
    graph.add_node("desk_n", desk_n)
    graph.add_node("oven_k", kitchen)
    graph.add_edge(START, "desk_n")
    graph.add_edge("desk_n", "oven_k")
    graph.add_edge("oven_k", END)
    return graph.compile()


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
