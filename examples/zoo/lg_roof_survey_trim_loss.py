"""Information loss at a hand-over, LangGraph (StateGraph of two model nodes and a tool node, the
crew's prompt cut to a token budget with LangChain's `trim_messages`, as LangGraph's memory
how-to does): a roofing contractor's enquiry line. `desk_r` reads a homeowner's message and
writes the survey crew a note on the roof and the leak; `crew_2` books a survey visit with
`book_survey`, working from the conversation its node passes it.

Seeded: crew_2's node keeps the newest messages that fit in 90 tokens (`strategy="last"`), a
budget set when the crew only ever read the desk's notes. The homeowner's own message, longer,
falls out of the window with the job number and the day asked for, and crew_2 asks for both.
Fixed: the budget fits a whole enquiry (1,000 tokens).
"""

from __future__ import annotations

from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.messages.utils import count_tokens_approximately, trim_messages
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from .models import chat_model

JOBS = {"RF-30418": {"address": "9 Quarry Bank, Hebden Bridge", "roof": "Welsh slate, 1890s, valley gutter in lead"}}
CREWS = {"2026-03-03": ["Ade & Col"], "2026-03-04": []}


@tool(parse_docstring=True)
def book_survey(job_ref: str, survey_day: str) -> dict:
    """Book a roof survey visit by a crew, with the scaffold tower if the roof needs one.

    Args:
        job_ref: The job number on the customer's quote, e.g. "RF-00000".
        survey_day: The day the customer asked for, e.g. "2026-01-31".
    """
    job = JOBS.get(job_ref)
    if job is None:
        return {"status": {"code": 404, "text": f"unknown job {job_ref}"}}
    free = CREWS.get(survey_day, [])
    if not free:
        return {"status": {"code": 409, "text": f"no crew free on {survey_day}"}}
    return {"status": {"code": 201, "text": "booked"},
            "visit": {"crew": free.pop(0), "day": survey_day, "window": "08:00-10:00", "at": job["address"]}}


DESK = ("You take enquiries for Calder Valley Roofing.\n"
        "Write the survey crew a note on the roof and the leak.")
CREW = ("You are the survey crew's scheduler.\n"
        "Book the visit with book_survey.\n"
        "If book_survey returns 404 or 409, explain that the visit could not be booked and why.\n"
        "Confirm the survey visit to the homeowner with the crew's arrival window.")


def build(budget: int):
    model = chat_model()
    crew = model.bind_tools([book_survey])

    def desk_r(state: MessagesState) -> dict:
        note = model.invoke([SystemMessage(DESK), *state["messages"]])
        return {"messages": [HumanMessage(note.content, name="desk_r")]}

    def crew_2(state: MessagesState) -> dict:
        window = trim_messages(state["messages"], max_tokens=budget, strategy="last",
                               token_counter=count_tokens_approximately)
        return {"messages": [crew.invoke([SystemMessage(CREW), *window])]}

    builder = StateGraph(MessagesState)
    builder.add_node("desk_r", desk_r)
    builder.add_node("crew_2", crew_2)
    builder.add_node("tools", ToolNode([book_survey]))
    builder.add_edge(START, "desk_r")
    builder.add_edge("desk_r", "crew_2")
    builder.add_conditional_edges("crew_2", tools_condition, {"tools": "tools", END: END})
    builder.add_edge("tools", "crew_2")
    return builder.compile()


seeded = build(90)
fixed = build(1000)
