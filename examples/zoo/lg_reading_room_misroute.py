"""Misrouted request, LangGraph StateGraph with a plain-function router: a county archive's
enquiry line. `route` reads the reader's message and sends it to one of three agents by the
first keyword it finds: seats (reserves reading-room seats), retrieval (fetches boxes from the
strongroom) or kb (opening hours and general questions).

Seeded: the keyword list starts with the general words ("reading room", "opening"), added for kb
in the archive's first version: a seat request, which names the reading room, goes to kb, who
has no booking tool. Fixed: the specific words come first.
"""

from __future__ import annotations

from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent

from .models import chat_model

SEATS = 14
RESERVED = {"2026-05-07": 9}  # day -> seats already reserved


@tool(parse_docstring=True)
def reserve_seat(ticket: str, day: str) -> str:
    """Reserve a reading-room seat for a reader.

    Args:
        ticket: The reader's ticket number, like "RT-10000".
        day: The day wanted, like "2026-01-31".
    """
    taken = RESERVED.get(day, 0)
    if taken >= SEATS:
        return f'{{"status": "full", "day": "{day}"}}'
    return f'{{"status": "reserved", "ticket": "{ticket}", "day": "{day}", "seat": {taken + 1}}}'


@tool(parse_docstring=True)
def order_box(reference: str) -> str:
    """Order a box up from the strongroom for the next production run.

    Args:
        reference: The catalogue reference, like "PR/1/1".
    """
    return f'{{"status": "ordered", "reference": "{reference}", "production": "11:00"}}'


@tool(parse_docstring=True)
def opening_hours(day: str) -> str:
    """The archive's opening hours on a day.

    Args:
        day: The day, like "2026-01-31".
    """
    return f'{{"day": "{day}", "open": "09:30", "last_orders": "15:30", "close": "16:45"}}'


GENERAL_FIRST = [("reading room", "kb"), ("opening", "kb"), ("seat", "seats"), ("box", "retrieval"),
                 ("document", "retrieval")]
SPECIFIC_FIRST = [("seat", "seats"), ("box", "retrieval"), ("document", "retrieval"), ("reading room", "kb"),
                  ("opening", "kb")]


def make_route(keywords):
    def route(state: MessagesState) -> str:
        text = state["messages"][0].content.lower()
        return next((node for word, node in keywords if word in text), "kb")
    return route


PROMPTS = {
    "seats": "## Reading-room seats\n- Call reserve_seat.\n- If reserve_seat raises an error, say \"The seat "
             "diary is offline; please ring us on 01632 960 448 to book.\"\n- Report the result of reserve_seat.",
    "retrieval": "## Strongroom retrieval\n- Call order_box.\n- If order_box raises an error, say \"The ordering "
                 "system is offline; ask at the desk when you arrive.\"\n- Report the result of order_box.",
    "kb": "## General enquiries\nYou answer questions about visiting the archive.\n- Call opening_hours.\n"
          "- If opening_hours raises an error, say \"We are open 09:30 to 16:45, Tuesday to Saturday.\"\n"
          "- Report the result of opening_hours.",
}


def build(keywords):
    model = chat_model()
    tools = {"seats": [reserve_seat], "retrieval": [order_box], "kb": [opening_hours]}
    graph = StateGraph(MessagesState)
    for name in ("seats", "retrieval", "kb"):
        graph.add_node(name, create_react_agent(model, tools[name], prompt=PROMPTS[name], name=name))
        graph.add_edge(name, END)
    graph.add_conditional_edges(START, make_route(keywords), ["seats", "retrieval", "kb"])
    return graph.compile()


def seeded():
    return build(GENERAL_FIRST)


def fixed():
    return build(SPECIFIC_FIRST)
