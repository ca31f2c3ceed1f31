"""Information loss, LangGraph (the desk's ticket filed with `with_structured_output`, handed on
with `Send` to a node whose input is a private state of its own, a prebuilt ReAct agent inside
it): a night sleeper train's bookings. `desk_d` files each passenger's request as a structured
ticket (date, passengers, berth, railcard); the graph sends the ticket's fields on to `berth_b`,
who reserves the berth with `reserve_berth`, the railcard taking a third off the fare.

Seeded: the `Send` keeps only the fields of the ticket's first version (it keeps berth_b's brief
short); the railcard field was added later and is filtered out, so berth_b reserves at the full
fare. Fixed: the railcard goes along.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent
from langgraph.types import Send
from pydantic import BaseModel, Field

from .models import chat_model

FARES = {"solo cabin": 210.0, "shared cabin": 140.0, "seat": 55.0}
BERTHS: list[str] = []


@tool(parse_docstring=True)
def reserve_berth(travel_date: str, passengers: int, berth: Literal["solo cabin", "shared cabin", "seat"],
                  railcard: str = "") -> dict:
    """Reserve places on the Highland night sleeper, London Euston to Inverness.

    Args:
        travel_date: The night of travel, like "2026-01-31".
        passengers: How many passengers travel.
        berth: solo cabin, shared cabin (two berths) or seat.
        railcard: The passenger's railcard number if they have one, like "RC-12345" (a third off).
    """
    fare = FARES[berth] * (passengers if berth == "seat" else 1)
    if railcard:
        fare = round(fare * 2 / 3, 2)
    BERTHS.append(travel_date)
    return {"status": "reserved", "reservation": f"NS-{2600 + len(BERTHS)}", "fare": f"{fare:.2f} GBP",
            "railcard": railcard or "none", "boarding": "from 22:30, platform 15"}


class SleeperTicket(BaseModel):
    """The desk's ticket for a sleeper booking."""

    travel_date: str = Field(description='The night of travel, like "2026-01-31"')
    passengers: int = Field(description="How many passengers travel")
    berth: Literal["solo cabin", "shared cabin", "seat"]
    railcard: str = Field("", description='The railcard number if one was given, like "RC-12345"')
    notes: str = Field("", description="Anything else the passenger asked")


class BerthTask(TypedDict, total=False):
    """berth_b's own input: the ticket's fields, not the conversation."""

    travel_date: str
    passengers: int
    berth: str
    railcard: str


DESK = """You are desk_d at the Highland Sleeper bookings office.
File the passenger's request as a sleeper ticket."""

BERTH = """You are berth_b, the berth reservations clerk of the Highland Sleeper.
Reserve the berth with reserve_berth.
If reserve_berth fails, say "The reservation could not be made by the berth system; the office will call back."
Reply "A {berth} has been reserved: {reservation}, fare {fare} (railcard: {railcard}). Boarding {boarding}."
"""


def build(fields: tuple[str, ...]):
    model = chat_model()
    clerk = create_react_agent(model, [reserve_berth], prompt=BERTH, name="berth_b")

    def desk(state: MessagesState) -> dict:
        ticket = model.with_structured_output(SleeperTicket).invoke([SystemMessage(DESK), *state["messages"]])
        return {"messages": [HumanMessage(f"Sleeper ticket filed: {ticket.model_dump_json()}", name="desk_d")],
                "ticket": ticket.model_dump()}

    def to_berths(state) -> list[Send]:
        ticket = state["ticket"]
        return [Send("berth_b", {k: ticket[k] for k in fields if ticket.get(k) not in (None, "")})]

    def berth(task: BerthTask) -> dict:
        brief = "Sleeper ticket\n" + "\n".join(f"{k}: {v}" for k, v in task.items())
        out = clerk.invoke({"messages": [HumanMessage(brief)]})
        return {"messages": out["messages"][1:]}

    class Booking(MessagesState):
        ticket: dict

    graph = StateGraph(Booking)
    graph.add_node("desk_d", desk)
    graph.add_node("berth_b", berth)
    graph.add_edge(START, "desk_d")
    graph.add_conditional_edges("desk_d", to_berths, ["berth_b"])
    graph.add_edge("berth_b", END)
    return graph.compile()


FIRST_VERSION = ("travel_date", "passengers", "berth")


def seeded():
    return build(FIRST_VERSION)


def fixed():
    return build(FIRST_VERSION + ("railcard",))
