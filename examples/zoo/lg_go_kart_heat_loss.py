"""Information loss, LangGraph `StateGraph` with a custom state (reducers on its fields) and a
conditional edge: a go-kart track's group bookings. `pit_lane` (a ReAct agent) looks up the free
heats on the day asked for with `check_heats`; when one is free the graph goes on to `marshal`,
which books the heat with `book_heat` against the group's account code ("GK-30417"), written
inside the customer's message. Each node returns only its own newest message and a line for the
`notes` log, leaving the state's reducers to add them to what is there.

Seeded: the state's `messages` field lost its `add_messages` reducer when the state was split
into a thread and a log (only `notes` kept `operator.add`): pit_lane's update replaces the thread
with its own reply, the customer's message with the account code is gone, and marshal has to ask
for it. Fixed: `messages` keeps `add_messages`.
"""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import create_react_agent

from .models import chat_model

HEATS = {"2026-07-04": {"11:00": "full", "13:30": "free", "15:00": "free"}}
ACCOUNTS = {"GK-30417": "Hartley & Sons Plumbing social club"}
BOOKED: list[str] = []


@tool(parse_docstring=True)
def check_heats(day: str) -> dict:
    """Which heats on the outdoor circuit have room for a group.

    Args:
        day: The race day, like "2026-01-31".
    """
    return {"day": day, "heats": [{"at": t, "state": s} for t, s in HEATS.get(day, {}).items()]}


@tool(parse_docstring=True)
def book_heat(account: str, day: str, heat: str, drivers: int) -> str:
    """Book a whole heat for a group, charged to the group's account.

    Args:
        account: The group's account code, like "GK-00000".
        day: The race day, like "2026-01-31".
        heat: The heat's start, like "13:30".
        drivers: How many drivers race, like "8".
    """
    if account not in ACCOUNTS:
        return f"402 - no account {account}; ask for a card deposit"
    BOOKED.append(heat)
    return f"201 heat {heat} on {day} booked for {drivers} drivers ({ACCOUNTS[account]}), ref AK-{880 + len(BOOKED)}"


class Thread(TypedDict):
    messages: list
    notes: Annotated[list[str], operator.add]


class Threaded(TypedDict):
    messages: Annotated[list, add_messages]
    notes: Annotated[list[str], operator.add]


PIT_LANE = """you answer enquiries at Apex Karting, Swindon.
Look up the free heats on the day with check_heats.
Tell the customer which heats are free."""

MARSHAL = """you book group heats at Apex Karting.
Book the heat with book_heat.
If book_heat says 402, say "We couldn't find that account - we'll take a card deposit instead."
Tell the customer the heat is booked."""


def build(state) -> object:
    model = chat_model()
    pit_lane = create_react_agent(model, [check_heats], prompt=PIT_LANE, name="pit_lane")
    marshal = create_react_agent(model, [book_heat], prompt=MARSHAL, name="marshal")

    def pit_lane_node(s) -> dict:
        out = pit_lane.invoke({"messages": s["messages"]})["messages"]
        free = any(getattr(m, "type", "") == "tool" and "'free'" in str(m.content) or '"free"' in str(m.content)
                   for m in out)
        return {"messages": out[-1:], "notes": ["heat free" if free else "no heat free"]}

    def marshal_node(s) -> dict:
        out = marshal.invoke({"messages": s["messages"]})["messages"]
        return {"messages": out[-1:], "notes": ["marshal answered"]}

    def after_pit_lane(s) -> str:
        return "marshal" if s["notes"][-1] == "heat free" else END

    graph = StateGraph(state)
    graph.add_node("pit_lane", pit_lane_node)
    graph.add_node("marshal", marshal_node)
    graph.add_edge(START, "pit_lane")
    graph.add_conditional_edges("pit_lane", after_pit_lane, ["marshal", END])
    graph.add_edge("marshal", END)
    return graph.compile()


def seeded():
    return build(Thread)


def fixed():
    return build(Threaded)
