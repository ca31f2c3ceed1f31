"""Information loss at a hand-over, LangGraph (StateGraph with a structured-output intake): a
council's school bus office. `intake` turns a parent's message into a `ChangeTicket` with
`with_structured_output`; `routes`, the transport planner, works from the ticket alone (it never
sees the parent's own words) and moves the pupil's pick-up with `move_pickup`.

Seeded: `ChangeTicket` is the form from when pick-ups were changed per route, not per pupil: it
has the route and the new stop but no pupil reference, so routes never learns whose pick-up to
move and asks for it. Fixed: the ticket carries the pupil reference.
"""

from __future__ import annotations

from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from pydantic import BaseModel, Field

from .models import chat_model

STOPS = {"stop 07C": "Birchwood Rd / Mill Lane, 07:52", "stop 11A": "Kirkgate shelter, 07:41"}


@tool(parse_docstring=True)
def move_pickup(pupil_ref: str, new_stop: str) -> dict:
    """Move a pupil's morning pick-up to another stop on the same route.

    Args:
        pupil_ref: The pupil's transport reference, like "PU-00000".
        new_stop: The stop as the timetable names it, like "stop 00X".
    """
    if new_stop not in STOPS:
        return {"status": {"code": 404, "text": f"no {new_stop} on this route"}}
    return {"status": {"code": 200, "text": "moved"}, "pupil": pupil_ref, "pickup": STOPS[new_stop],
            "from": "Monday"}


class RouteTicket(BaseModel):
    """A pick-up change, as the route planners file it."""

    route: str = Field(description='The bus route, like "SB-12"')
    new_stop: str = Field(description='The stop asked for, like "stop 00X"')


class PupilTicket(RouteTicket):
    pupil_ref: str = Field(description='The pupil\'s transport reference, like "PU-00000"')


def build(ticket: type[BaseModel]):
    model = chat_model()
    planner = model.bind_tools([move_pickup])

    def intake(state: MessagesState) -> dict:
        filed = model.with_structured_output(ticket).invoke(
            [SystemMessage("Intake, school transport office. File the parent's message as a ticket."),
             *state["messages"]])
        note = ", ".join(f"{k}: {v}" for k, v in filed.model_dump().items())
        return {"messages": [HumanMessage(f"ticket - {note}", name="intake")]}

    def routes(state: MessagesState) -> dict:
        ticket_note = state["messages"][1]
        own = state["messages"][2:]  # its own tool work
        reply = planner.invoke([SystemMessage("Route planner. Work from the intake ticket.\n"
                                              "- move_pickup on the ticket.\n"
                                              '- If move_pickup gives "404", reply: not moved, reason: <text>\n'
                                              "- reply: moved, pickup: <pickup>, from: <from>"),
                                ticket_note, *own])
        return {"messages": [reply]}

    builder = StateGraph(MessagesState)
    builder.add_node("intake", intake)
    builder.add_node("routes", routes)
    builder.add_node("tools", ToolNode([move_pickup]))
    builder.add_edge(START, "intake")
    builder.add_edge("intake", "routes")
    builder.add_conditional_edges("routes", tools_condition, {"tools": "tools", END: END})
    builder.add_edge("tools", "routes")
    return builder.compile()


seeded = build(RouteTicket)
fixed = build(PupilTicket)
