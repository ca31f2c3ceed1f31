"""Misrouted request, LangGraph (`StateGraph` whose front-desk node routes with
`Command(goto=...)` by the desk its reply names, the desks prebuilt `create_react_agent`s added
as nodes): a willow weaving workshop's enquiries. `front_w` answers first and passes the customer
on; `shop_s` sells willow by the bundle (`price_bundle`); `class_c` books places on the basket
weaving workshops (`book_workshop`).

Seeded: front_w's first routing line dates from when the workshops were sold as a bundle of
willow with a printed pattern at the shop counter: anything about willow goes to shop_s, so a
request for two places on the basket workshop is priced as willow and never reaches class_c.
Fixed: the shop's line names the shop's own goods, bundles and rods, and workshops go to class_c.
"""

from __future__ import annotations

from typing import Annotated, Literal

from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent
from langgraph.types import Command

from .models import chat_model

DESKS = ("shop_s", "class_c")
WORKSHOPS = {"2026-10-03": {"title": "Frame basket, one day", "places_left": 4}}


@tool(parse_docstring=True)
def price_bundle(variety: str, bundles: int) -> dict:
    """Price bundles of dried weaving willow (5ft rods, about 250 a bundle) for collection or post.

    Args:
        variety: The willow variety, e.g. "Black Maul".
        bundles: How many bundles.
    """
    return {"status": 200, "price": {"each": "£18.00", "total": f"£{18 * bundles}.00", "variety": variety}}


@tool(parse_docstring=True)
def book_workshop(day: str, places: int) -> dict:
    """Book places on a one-day basket weaving workshop (willow, tools, lunch and cake included).

    Args:
        day: The workshop day, e.g. "2026-01-31".
        places: How many places.
    """
    workshop = WORKSHOPS.get(day)
    if workshop is None or workshop["places_left"] < places:
        return {"status": 409, "detail": f"no {places} places on {day}"}
    return {"status": 201, "workshop": {"title": workshop["title"], "day": day, "start": "09:30",
                                        "ref": f"WW-{day[5:7]}{day[8:]}{places}"}}


ROUTING = {
    "counter days": "Send anything about willow, baskets or patterns to shop_s.",
    "workshops": "Send anything about bundles or rods to shop_s.",
}


def build(first_line: str):
    model = chat_model()
    prompt = ("You are front_w at Withy Lane Willow Works in the Somerset Levels.\n"
              f"{first_line}\n"
              "Send workshop, course and class bookings to class_c.")

    def front_w(state: MessagesState) -> Command[Literal["shop_s", "class_c", "__end__"]]:
        reply = model.invoke([{"role": "system", "content": prompt}, *state["messages"]])
        text = reply.content if isinstance(reply.content, str) else str(reply.content)
        named = [d for d in DESKS if d in text]
        # the first desk the note names takes the customer; a reply that names none ends the run
        return Command(goto=named[0] if named else END, update={"messages": [AIMessage(text, name="front_w")]})

    shop_s = create_react_agent(
        model, [price_bundle], name="shop_s",
        prompt="You are shop_s at the Withy Lane shop counter.\nPrice the willow with price_bundle.\n"
               'If price_bundle fails, say "The price list is not answering; we will ring you with a price."')
    class_c = create_react_agent(
        model, [book_workshop], name="class_c",
        prompt="You are class_c, who runs the workshops at Withy Lane.\nBook the places with book_workshop.\n"
               "If book_workshop answers 409, tell the customer what it said.\n"
               'If book_workshop fails, say "The workshop diary is not answering, so no places are held yet."')
    graph = StateGraph(MessagesState)
    graph.add_node("front_w", front_w)
    graph.add_node("shop_s", shop_s)
    graph.add_node("class_c", class_c)
    graph.add_edge(START, "front_w")
    graph.add_edge("shop_s", END)
    graph.add_edge("class_c", END)
    return graph.compile()


def seeded():
    return build(ROUTING["counter days"])


def fixed():
    return build(ROUTING["workshops"])
