"""Information loss at a hand-over, LangGraph (StateGraph of two model nodes and a tool node): a
moving company's bookings office. `m_desk` reads a customer's message and passes it on to
`crew_b`, who books a crew and a van with `book_crew`, working from what its node passes it.

Seeded: crew_b's node was written to keep its prompt short and passes the model only the newest
message (`state["messages"][-1:]`), which by then is m_desk's hand-over line: the move reference
and the day, in the customer's own message, never reach crew_b, which asks for them. Fixed: the
node passes the whole thread.
"""

from __future__ import annotations

from typing import Literal

from langchain_core.messages import SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from .models import chat_model

QUOTES = {"MV-40218": {"from": "14 Alder Rise", "to": "3 Quay Street, flat 5", "rooms": 3}}
DIARY: dict[str, int] = {"2026-04-30": 3}  # day -> crews already out (four crews in all)


@tool(parse_docstring=True)
def book_crew(move_ref: str, move_day: str, van: Literal["luton", "7.5 tonne", "two luton"]) -> dict:
    """Book a removal crew and van for a quoted move.

    Args:
        move_ref: The move's reference on the quote, e.g. "MV-00000".
        move_day: The day of the move, e.g. "2026-01-31".
        van: The van the survey called for.
    """
    quote = QUOTES.get(move_ref)
    if quote is None:
        return {"status": {"code": 404, "text": "no such quote"}, "ref": move_ref}
    out = DIARY.get(move_day, 0)
    if out >= 4:
        return {"status": {"code": 409, "text": "alle Teams verplant"}, "ref": move_ref}
    DIARY[move_day] = out + 1
    return {"status": {"code": 201, "text": "crew booked"}, "ref": move_ref,
            "crew": f"team {out + 1}", "arrive": f"{move_day} 07:30", "van": van}


DESK = ("Bookings desk, Harbour & Hill Removals.\n"
        "- Pass the message to `crew_b` when it is about a move, removal, van or crew.\n"
        '- Otherwise reply "Our surveyors can be reached on 0161 496 0000."')
CREW = ("Crew planner. Crews are booked only for moves with a signed quote.\n"
        "- Book the crew with `book_crew`.\n"
        "- If `book_crew` reports 404 or 409, mark the booking as not possible, with the diary's reason.\n"
        "- Tick off the crew booking for the customer.")


def build(window):
    model = chat_model()
    planner = model.bind_tools([book_crew])

    def m_desk(state: MessagesState) -> dict:
        return {"messages": [model.invoke([SystemMessage(DESK), *state["messages"]])]}

    def crew_b(state: MessagesState) -> dict:
        return {"messages": [planner.invoke([SystemMessage(CREW), *window(state["messages"])])]}

    builder = StateGraph(MessagesState)
    builder.add_node("m_desk", m_desk)
    builder.add_node("crew_b", crew_b)
    builder.add_node("tools", ToolNode([book_crew]))
    builder.add_edge(START, "m_desk")
    builder.add_edge("m_desk", "crew_b")
    builder.add_conditional_edges("crew_b", tools_condition, {"tools": "tools", END: END})
    builder.add_edge("tools", "crew_b")
    return builder.compile()


seeded = build(lambda messages: messages[-1:])
fixed = build(lambda messages: messages)
