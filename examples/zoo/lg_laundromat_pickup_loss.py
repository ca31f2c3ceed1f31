"""Information loss at a hand-over, LangGraph (StateGraph of two model nodes and a tool node): a
laundromat's pickup service. `suds_front` reads a customer's message and writes the brief the
van crew's tablet shows; `route_7`, the van crew's dispatcher, schedules the pickup with
`schedule_pickup`, working from that brief alone (the tablet never shows customers' own
messages, which carry phone numbers and door codes).

Seeded: suds_front's brief template was written before pickups were ticketed; it lists the
day and the bag count only, so the ticket never reaches route_7, which asks for it. Fixed: the
template lists the ticket too. The model re-formats what it passes on (the customer's
"lp-30418" reaches the brief as "LP30418", the day as "Mar 5"): the fixed twin hands the fact
over, only not in the customer's spelling.
"""

from __future__ import annotations

from dataclasses import dataclass

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from .models import chat_model

TICKETS = {"LP30418": "14 Carrow Road, flat 2"}
VAN_SLOTS = {"2026-03-05": ["17:00-19:00", "19:00-21:00"]}


@dataclass
class Pickup:
    ticket: str
    scheduled: bool
    slot: str | None = None
    van: int | None = None
    why: str = ""


@tool(parse_docstring=True)
def schedule_pickup(ticket: str, pickup_day: str, bags: int) -> Pickup:
    """Put a laundry pickup on a van's round.

    Args:
        ticket: The laundry ticket, as printed on the customer's tag, e.g. "LP00000".
        pickup_day: The day to collect, e.g. "2026-01-31".
        bags: How many bags to collect.
    """
    key = ticket.replace("-", "").upper()
    if key not in TICKETS:
        return Pickup(ticket, False, why="ticket inconnu")
    slots = VAN_SLOTS.get(pickup_day, [])
    if not slots:
        return Pickup(ticket, False, why=f"no van round on {pickup_day}")
    return Pickup(ticket, True, slot=slots.pop(0), van=7, why=f"{bags} bag(s), {TICKETS[key]}")


class PickupState(MessagesState):
    brief: str


COUNTER = ("Suds & Co laundromat, pickup line. You write the brief for the van crew's tablet.\n"
           "- Pass on the {items} for the van crew.")
ROUTE = ("Van dispatch, Suds & Co. You only ever see the counter's brief.\n"
         "- Book the pickup with schedule_pickup.\n"
         '- If schedule_pickup comes back false or inconnu, say "couldn\'t get that pickup on a round, the counter '
         'will ring you".\n'
         "- Confirm the pickup to the customer.")


def build(items: str):
    model = chat_model()
    dispatcher = model.bind_tools([schedule_pickup])

    def suds_front(state: PickupState) -> dict:
        note = model.invoke([SystemMessage(COUNTER.format(items=items)), *state["messages"]])
        return {"brief": note.content}

    def route_7(state: PickupState) -> dict:
        own = [m for m in state["messages"][1:] if isinstance(m, AIMessage) or m.type == "tool"]
        reply = dispatcher.invoke([SystemMessage(ROUTE), HumanMessage(state["brief"]), *own])
        return {"messages": [reply]}

    builder = StateGraph(PickupState)
    builder.add_node("suds_front", suds_front)
    builder.add_node("route_7", route_7)
    builder.add_node("tools", ToolNode([schedule_pickup]))
    builder.add_edge(START, "suds_front")
    builder.add_edge("suds_front", "route_7")
    builder.add_conditional_edges("route_7", tools_condition, {"tools": "tools", END: END})
    builder.add_edge("tools", "route_7")
    return builder.compile()


seeded = build("pickup day and the bag count")
fixed = build("ticket number, the pickup day and the bag count")
