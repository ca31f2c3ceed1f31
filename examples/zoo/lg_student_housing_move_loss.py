"""Information loss at a hand-over, LangGraph (StateGraph of two model nodes and a tool node): a
university's student housing office. `h_front` reads a student's message and writes a hand-over
note; `alloc` moves a tenancy to another hall with `transfer_tenancy`, working from what its
node passes it.

Seeded: alloc's node keeps only the hand-over notes, with LangChain's `filter_messages(...,
include_names=["h_front"])` (meant to keep other offices' chatter out of its prompt); the
student's own message has no name and is dropped with it, so the student number never reaches
alloc, which asks for it. Fixed: the node keeps the human messages, the student's and the note.
"""

from __future__ import annotations

from typing import Literal

from langchain_core.messages import HumanMessage, SystemMessage, filter_messages
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from .models import chat_model

HALLS = {"cedar house": 4, "birch court": 0, "elm court": 1, "canal block": 0}
TENANCIES = {"S-2204817": "Canal Block E3.14"}


@tool(parse_docstring=True)
def transfer_tenancy(student_number: str,
                     to_hall: Literal["cedar house", "birch court", "elm court", "canal block"]) -> dict:
    """Move a student's tenancy to a room in another hall of residence.

    Args:
        student_number: The student's university number, e.g. "S-0000000".
        to_hall: The hall asked for.
    """
    current = TENANCIES.get(student_number)
    free = HALLS.get(to_hall.lower(), 0)
    if current is None:
        return {"result": {"code": "E_NO_TENANCY", "student": student_number}}
    if not free:
        return {"result": {"code": "E_HALL_FULL", "hall": to_hall}}
    HALLS[to_hall.lower()] = free - 1
    return {"result": {"code": "OK", "from": current, "to": f"{to_hall.title()} G.0{free}", "keys": "porters' lodge, 10:00"}}


FRONT = ("Front desk, Student Housing Office.\n"
         "- Each request is to be classified and referred to the allocations team.")
ALLOC = ("Allocations team. Room transfers on medical or welfare grounds take priority.\n"
         "1. The transfer is to be made by means of transfer_tenancy.\n"
         "2. Where transfer_tenancy reports E_HALL_FULL or E_NO_TENANCY, the student is to be told that the "
         "transfer could not be made.\n"
         "3. Confirm the transfer to the student.")


def build(keep):
    model = chat_model()
    allocator = model.bind_tools([transfer_tenancy])

    def h_front(state: MessagesState) -> dict:
        note = model.invoke([SystemMessage(FRONT), *state["messages"]])
        return {"messages": [HumanMessage(note.content, name="h_front")]}

    def alloc(state: MessagesState) -> dict:
        handed = [m for m in state["messages"] if isinstance(m, HumanMessage)]
        own = [m for m in state["messages"] if not isinstance(m, HumanMessage)]
        return {"messages": [allocator.invoke([SystemMessage(ALLOC), *keep(handed), *own])]}

    builder = StateGraph(MessagesState)
    builder.add_node("h_front", h_front)
    builder.add_node("alloc", alloc)
    builder.add_node("tools", ToolNode([transfer_tenancy]))
    builder.add_edge(START, "h_front")
    builder.add_edge("h_front", "alloc")
    builder.add_conditional_edges("alloc", tools_condition, {"tools": "tools", END: END})
    builder.add_edge("tools", "alloc")
    return builder.compile()


seeded = build(lambda messages: filter_messages(messages, include_names=["h_front"]))
fixed = build(lambda messages: filter_messages(messages, include_types=["human"]))
