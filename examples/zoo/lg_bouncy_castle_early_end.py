"""Premature termination, LangGraph: a hand-written router over two prebuilt ReAct workers
(`create_react_agent`), compiled with a checkpointer (`MemorySaver`) so a parent's chat keeps its
thread. A bouncy castle hire firm's party bookings: `castle_desk` reserves an inflatable for the
day (`reserve_castle`), then `drop_r` books the delivery crew's drop-off slot at the address
(`book_drop`); without the drop the castle stays in the van.

Seeded: the router's stop test dates from when the castle desk worked alone and its answer was
the whole job: it ends the run as soon as a desk's reply carries a done mark (✅), so castle_desk's
summary of the reservation ends the run and drop_r never books the crew. Fixed: the router ends
the run once every desk on the job has answered.
"""

from __future__ import annotations

from langchain_core.tools import tool
from langgraph.checkpoint.memory import MemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent

from .models import chat_model

FLEET = {"Jungle Jumper": ("12x15ft", 3), "Princess Castle": ("15x15ft", 1), "Mega Slide": ("18x25ft", 0)}
CREWS = {"2026-07-18": ["08:00-09:30", "13:00-14:00"]}


@tool(parse_docstring=True)
def reserve_castle(party_date: str, castle: str) -> tuple:
    """Reserve an inflatable from the fleet for a party day.

    Args:
        party_date: The day of the party, like "2026-01-31".
        castle: The inflatable's name in the brochure, like "Jungle Jumper".
    """
    size, left = FLEET.get(castle, ("?", 0))
    if not left:
        return ("NO_STOCK", castle, f"keine {castle} frei am {party_date}")
    FLEET[castle] = (size, left - 1)
    return ("RESERVED", castle, size, party_date, f"BC-{party_date[5:7]}{party_date[8:]}-{left}")


@tool(parse_docstring=True)
def book_drop(party_date: str, postcode: str) -> dict:
    """Book the delivery crew's drop-off and set-up slot at the party's address.

    Args:
        party_date: The day of the party, like "2026-01-31".
        postcode: The address's postcode, like "LS6 2AB".
    """
    slots = CREWS.get(party_date, [])
    if not slots:
        return {"crew": None, "status": {"code": 409, "reason": "no crew free"}}
    return {"crew": "Van 2 (Dean, Priya)", "slot": slots.pop(0), "postcode": postcode, "status": {"code": 201}}


CASTLE = ("You run the fleet at Bounce About Leeds.\n"
          "Reserve the inflatable with reserve_castle.\n"
          'If reserve_castle raises an error, say "The fleet list is offline; we will confirm by text."\n'
          "In your summary, mark a step ✅ only when its result says it went through; otherwise ❌ with the reason.")
DROP = ("You plan the delivery crews at Bounce About Leeds.\n"
        "Book the drop-off with book_drop.\n"
        'If book_drop raises an error, say "The crew planner is offline; we will text you a drop-off time."\n'
        "In your summary, mark a step ✅ only when its result says it went through; otherwise ❌ with the reason.")
DESKS = ("castle_desk", "drop_r")


def finished_when_marked(state: MessagesState) -> str:
    """The old stop test: a desk's done mark means the job is done."""
    last = state["messages"][-1]
    if last.type == "ai" and "✅" in str(last.content):
        return END
    return next_desk(state)


def next_desk(state: MessagesState) -> str:
    """The next desk on the job that has not answered yet, else the end."""
    spoke = {m.name for m in state["messages"] if m.type == "ai"}
    return next((d for d in DESKS if d not in spoke), END)


def build(route):
    model = chat_model()
    graph = StateGraph(MessagesState)
    graph.add_node("castle_desk", create_react_agent(model, [reserve_castle], name="castle_desk", prompt=CASTLE))
    graph.add_node("drop_r", create_react_agent(model, [book_drop], name="drop_r", prompt=DROP))
    graph.add_edge(START, "castle_desk")
    for desk in DESKS:
        graph.add_conditional_edges(desk, route, ["castle_desk", "drop_r", END])
    return graph.compile(checkpointer=MemorySaver())


seeded = build(finished_when_marked)
fixed = build(next_desk)
