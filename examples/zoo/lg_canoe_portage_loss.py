"""Information loss, LangGraph `StateGraph` with a custom reducer on the thread (`Annotated[list,
reducer]`) and a conditional edge on a state field: a canoe outfitter's portage trips.
`river_desk` (a ReAct agent) checks that the portage path of the route asked for is open with
`check_portage` and sets `portage_open`; when it is, the graph goes on to `kit_out`, which books
the canoes with `book_canoes` against the party's national-park portage permit ("WR-55102"),
given in the customer's message. Each node returns the messages it added; the thread's reducer
merges them.

Seeded: the thread's reducer keeps only the newest messages (`KEEP`), added when the kit-out
model's context window was small: river_desk's three new messages push the customer's message
out, and kit_out never sees the permit and has to ask for it. Fixed: the reducer pins the
customer's opening message and trims only what follows.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from langchain_core.messages import AnyMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import create_react_agent

from .models import chat_model

KEEP = 3  # the kit-out model was given a short thread when it ran on a small context window
PATHS = {"loch-a-to-loch-b": "open", "falls-carry": "closed for nesting ospreys"}
PERMITS = {"WR-55102": 6}
FLEET: list[str] = []


@tool(parse_docstring=True)
def check_portage(route: Literal["loch-a-to-loch-b", "falls-carry"]) -> dict:
    """Whether a route's portage path is open this week, from the ranger's board.

    Args:
        route: The portage route.
    """
    return {"route": route, "ranger": {"path": PATHS[route], "updated": "Mon 07:30"}}


@tool(parse_docstring=True)
def book_canoes(permit: str, launch_day: str, paddlers: int) -> str:
    """Book Canadian canoes and portage trolleys for a party with a portage permit.

    Args:
        permit: The party's portage permit, e.g. "WR-00000".
        launch_day: The launch day, e.g. "2026-01-31".
        paddlers: How many paddlers, e.g. "4".
    """
    if permit not in PERMITS:
        return "403 Forbidden - kein gültiges Portage-Permit; canoes cannot leave the jetty without one"
    FLEET.append(launch_day)
    return (f"201 Created: {(paddlers + 1) // 2} canoes + trolleys on {launch_day} for permit {permit}, "
            f"booking PT-{410 + len(FLEET)}")


def newest_only(old: list, new: list) -> list:
    return (list(old) + list(new))[-KEEP:]


def customer_pinned(old: list, new: list) -> list:
    thread = list(old) + list(new)
    return thread[:1] + thread[1:][-KEEP:]


RIVER = """You answer trip enquiries at Glen Tarsan Canoes.
Check the portage path with check_portage.
Report what check_portage said."""

KIT = """You kit out portage trips at Glen Tarsan Canoes.
Book the canoes with book_canoes.
If book_canoes says 403, explain that the canoes could not be booked and why.
Report what book_canoes said."""


class Trip(TypedDict):
    messages: Annotated[list[AnyMessage], newest_only]
    portage_open: bool


class PinnedTrip(TypedDict):
    messages: Annotated[list[AnyMessage], customer_pinned]
    portage_open: bool


def build(state) -> object:
    model = chat_model()
    river_desk = create_react_agent(model, [check_portage], prompt=RIVER, name="river_desk")
    kit_out = create_react_agent(model, [book_canoes], prompt=KIT, name="kit_out")

    def river_node(s) -> dict:
        out = river_desk.invoke({"messages": s["messages"]})["messages"]
        added = out[len(s["messages"]):]
        is_open = any(m.type == "tool" and "'open'" in str(m.content).replace('"', "'") for m in added)
        return {"messages": added, "portage_open": is_open}

    def kit_node(s) -> dict:
        out = kit_out.invoke({"messages": s["messages"]})["messages"]
        return {"messages": out[len(s["messages"]):]}

    graph = StateGraph(state)
    graph.add_node("river_desk", river_node)
    graph.add_node("kit_out", kit_node)
    graph.add_edge(START, "river_desk")
    graph.add_conditional_edges("river_desk", lambda s: "kit_out" if s["portage_open"] else END, ["kit_out", END])
    graph.add_edge("kit_out", END)
    return graph.compile()


def seeded():
    return build(Trip)


def fixed():
    return build(PinnedTrip)
