"""Misrouted request, LangGraph (a routing node that returns `Command(goto=...)`, two prebuilt
ReAct agents as subgraph nodes): a working limestone quarry's visitor line. `switchboard` reads
the enquiry and transfers it with one of two `transfer_to_...` tools, as LangGraph's handoff how-to
names them; the node turns the choice into `Command(goto=desk)`. `tour_desk` books guided tours
with `book_tour`; `safety_desk` answers questions on boots, hard hats and blasting days with
`site_rules`.

Seeded: the switchboard's instructions were edited when the two desks swapped phone extensions,
and the topics were swapped with them: tours and bookings go to safety_desk, which has no booking
tool, and tour_desk never hears of the request. Fixed: each desk gets its own topics.
"""

from __future__ import annotations

from typing import Literal

from langchain_core.messages import SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent
from langgraph.types import Command

from .models import chat_model

TOURS = {"2026-06-04": 30, "2026-06-11": 12}
BOOKED: dict[str, int] = {}


@tool(parse_docstring=True)
def book_tour(tour_day: str, group_size: int, lead_name: str) -> dict:
    """Book a guided walk round Helmsdon Quarry's viewing terraces and the old kilns.

    Args:
        tour_day: The day of the tour, e.g. "2026-01-31".
        group_size: How many people are coming, e.g. "12".
        lead_name: Who the booking is under, in the customer's words.
    """
    left = TOURS.get(tour_day, 0) - BOOKED.get(tour_day, 0)
    if group_size > left:
        return {"result": {"state": "declined", "why": f"only {left} places left on {tour_day}"}}
    BOOKED[tour_day] = BOOKED.get(tour_day, 0) + group_size
    return {"result": {"state": "booked", "ref": f"HQ-{5500 + sum(BOOKED.values())}", "meet": "weighbridge, 09:45"}}


@tool(parse_docstring=True)
def site_rules(topic: str) -> str:
    """The quarry's site rules for visitors on one topic.

    Args:
        topic: What the visitor asks about, in their words.
    """
    return ("Visitors wear boots with toe caps and the hard hats and vests we lend; no tours on blasting "
            "days (Thursdays); children over 8 only.")


@tool
def transfer_to_tour_desk() -> str:
    """Put the caller through to the tour desk."""
    return "transferred"


@tool
def transfer_to_safety_desk() -> str:
    """Put the caller through to the safety desk."""
    return "transferred"


SEEDED = ("You answer the visitor line at Helmsdon Quarry.\n"
          "Transfer to safety_desk for tours, visits, bookings, walks or groups.\n"
          "Transfer to tour_desk for boots, hard hats, vests, blasting or site rules.")
FIXED = ("You answer the visitor line at Helmsdon Quarry.\n"
         "Transfer to tour_desk for tours, visits, bookings, walks or groups.\n"
         "Transfer to safety_desk for boots, hard hats, vests, blasting or site rules.")


def build(instructions: str):
    model = chat_model()
    router = model.bind_tools([transfer_to_tour_desk, transfer_to_safety_desk])

    def switchboard(state: MessagesState) -> Command[Literal["tour_desk", "safety_desk", "__end__"]]:
        reply = router.invoke([SystemMessage(instructions), *state["messages"]])
        if reply.tool_calls:
            return Command(goto=reply.tool_calls[0]["name"].removeprefix("transfer_to_"))
        return Command(goto=END, update={"messages": [reply]})

    tour_desk = create_react_agent(model, [book_tour], name="tour_desk", prompt=(
        "You book guided tours of Helmsdon Quarry.\n"
        "Book the tour with book_tour.\n"
        "If book_tour says declined, explain why the tour could not be booked.\n"
        "Confirm the booking."))
    safety_desk = create_react_agent(model, [site_rules], name="safety_desk", prompt=(
        "You answer visitors' safety questions at Helmsdon Quarry.\n"
        "Look the rules up with site_rules.\n"
        "Pass on what site_rules said."))
    builder = StateGraph(MessagesState)
    builder.add_node("switchboard", switchboard)
    builder.add_node("tour_desk", tour_desk)
    builder.add_node("safety_desk", safety_desk)
    builder.add_edge(START, "switchboard")
    builder.add_edge("tour_desk", END)
    builder.add_edge("safety_desk", END)
    return builder.compile()


seeded = build(SEEDED)
fixed = build(FIXED)
