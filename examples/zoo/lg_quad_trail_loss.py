"""Information loss, LangGraph (a `StateGraph` whose gate node calls `llm.bind_tools` by hand and
runs its tool calls itself, then a prebuilt `create_react_agent` with `prompt` and
`response_format`): a quad-bike trail centre. `gate_q` checks the trails' condition on the day
asked for with `trail_conditions`; `trail_b` books a guided ride with `book_trail_ride`, which
needs the rider's membership card number (members ride the black trail unguided after a
refresher; the card carries their licence check).

Seeded: the hand-over to trail_b passes on only the newest message, gate_q's report on the
trails (written when the gate desk retyped each enquiry into its report): the rider's card number
stays behind in the enquiry, and trail_b has to ask for it. Fixed: trail_b gets the whole
conversation.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from langchain_core.messages import SystemMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import create_react_agent
from pydantic import BaseModel

from .models import chat_model

CARDS = {"QB-4471": {"name": "D. Okafor", "licence_checked": "2026-02-02", "level": "black"}}
RIDES: list[tuple] = []


@tool(parse_docstring=True)
def trail_conditions(day: str) -> dict:
    """The state of each trail on a day (mud, closures, the guide on duty).

    Args:
        day: The riding day, e.g. "2026-01-31".
    """
    return {"day": day, "trails": {"green": "open", "red": "open, wet at the ford", "black": "open"},
            "guide": "Morgan", "weather": {"wind": "moderate", "rain_mm": 2}}


@tool(parse_docstring=True)
def book_trail_ride(card: str, day: str, trail: Literal["green", "red", "black"]) -> tuple:
    """Book a member onto a guided trail ride.

    Args:
        card: The rider's membership card number, e.g. "QB-0000".
        day: The riding day, e.g. "2026-01-31".
        trail: green (beginners), red or black (members with a licence check).
    """
    member = CARDS.get(card)
    if member is None:
        return ("UNKNOWN_CARD", f"no member {card}")
    RIDES.append((card, day, trail))
    return ("OK", f"QR-{6100 + len(RIDES)}", f"{member['name']}, {trail} trail, {day} 10:00, helmet size on file")


class RideOutcome(BaseModel):
    booked: bool
    reference: str
    note: str


class Enquiry(TypedDict):
    messages: Annotated[list, add_messages]


GATE = """You are gate_q at Bwlch Quad Trails.
Check the trails on the day asked for with trail_conditions."""

TRAIL = """You are trail_b, who books guided rides at Bwlch Quad Trails.
Book the ride with book_trail_ride."""


def build(whole_enquiry: bool):
    model = chat_model()
    gate_llm = model.bind_tools([trail_conditions])
    trail_b = create_react_agent(model, [book_trail_ride], prompt=TRAIL, name="trail_b",
                                 response_format=RideOutcome)

    def gate_q(state: Enquiry) -> dict:
        said = [SystemMessage(GATE), *state["messages"]]
        new = []
        while True:
            reply = gate_llm.invoke(said + new)
            new.append(reply)
            if not reply.tool_calls:
                return {"messages": new}
            for c in reply.tool_calls:
                new.append(ToolMessage(str(trail_conditions.invoke(c["args"])), tool_call_id=c["id"],
                                       name=c["name"]))

    def book(state: Enquiry) -> dict:
        handed = state["messages"] if whole_enquiry else state["messages"][-1:]
        out = trail_b.invoke({"messages": handed})
        return {"messages": out["messages"][len(handed):]}

    graph = StateGraph(Enquiry)
    graph.add_node("gate_q", gate_q)
    graph.add_node("trail_b", book)
    graph.add_edge(START, "gate_q")
    graph.add_edge("gate_q", "trail_b")
    graph.add_edge("trail_b", END)
    return graph.compile()


def seeded():
    return build(False)


def fixed():
    return build(True)
