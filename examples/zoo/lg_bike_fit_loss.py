"""Information loss, LangGraph (a `StateGraph` over a `TypedDict` whose fields carry the booking's
facts from node to node, not only messages; `add_conditional_edges` with a path map): a bike-fit
studio. `desk_r` reads the rider's enquiry and writes a job sheet as `key: value` lines; the
app's code parses the sheet into the state's fields (`fit_date`, `start_time`, `bike`); a router
sends every sheet that names a bike to `fitter_f`, who books the studio with `book_fit` from a sheet
the app writes out of those fields.

Seeded: the sheet parser was written when the sheet had only dates and codes: it cuts each line
at every colon and keeps the second piece, so a start time of "17:30" reaches the state as "17"
and fitter_f's sheet has no usable time: it asks the rider again. Fixed: each line is cut at its
first colon only.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import create_react_agent

from .models import chat_model

STUDIO_HOURS = ("09:00", "19:00")
DIARY: dict[tuple[str, str], str] = {("2026-04-09", "10:00"): "taken"}


@tool(parse_docstring=True)
def book_fit(fit_date: str, start_time: str, bike: str) -> dict:
    """Book a two-hour bike fit in the studio (pressure mapping, saddle and cleat set-up).

    Args:
        fit_date: The day of the fit, e.g. "2026-01-31".
        start_time: When the fit starts, e.g. "09:30".
        bike: The bike the rider brings, e.g. "road".
    """
    if not (STUDIO_HOURS[0] <= start_time <= STUDIO_HOURS[1]) or len(start_time) != 5:
        return {"result": {"code": 400, "msg": f"no such start time: {start_time!r}"}}
    if (fit_date, start_time) in DIARY:
        return {"result": {"code": 409, "msg": "studio taken"}}
    DIARY[(fit_date, start_time)] = bike
    return {"result": {"code": 200, "msg": "CONFIRMED"}, "fit": {"ref": f"BF-{len(DIARY) + 640}",
                                                                "fitter": "Marta", "bring": "shoes, bib shorts"}}


class Fitting(TypedDict):
    messages: Annotated[list, add_messages]
    fit_date: str
    start_time: str
    bike: str


DESK = """You are desk_r at Saddle & Spoke, a bike-fit studio.
Write the job sheet note with fit date, start time and bike."""

FITTER = """You are fitter_f, the studio's fitter.
Book the fit with book_fit.
If book_fit says 409: "The studio is taken then - please provide: another start time (format HH:MM)."
Give the table."""


def parse_sheet(note: str, first_colon_only: bool) -> dict:
    fields = {}
    for line in note.splitlines():
        if ":" not in line:
            continue
        if first_colon_only:
            key, _, rest = line.partition(":")
        else:  # the parser of the dates-and-codes sheet
            parts = line.split(":")
            key, rest = parts[0], parts[1]
        fields[key.strip()] = rest.strip()
    return fields


def build(first_colon_only: bool):
    model = chat_model()
    fitter = create_react_agent(model, [book_fit], prompt=FITTER, name="fitter_f")

    def desk(state: Fitting) -> dict:
        reply = model.invoke([SystemMessage(DESK), *state["messages"]])
        sheet = parse_sheet(reply.content, first_colon_only)
        return {"messages": [reply], "fit_date": sheet.get("fit_date", ""),
                "start_time": sheet.get("start_time", ""), "bike": sheet.get("bike", "")}

    def route(state: Fitting) -> str:
        # any sheet naming a bike goes to the fitter (the studio fits every kind): a sheet whose
        # bike the desk misread ("bike: hour" of "a two-hour bike fit") still reaches a booking
        return "fit" if state["bike"].strip() else "other"

    def fitting(state: Fitting) -> dict:
        sheet = f"Job sheet\nfit_date: {state['fit_date']}\nstart_time: {state['start_time']}\nbike: {state['bike']}"
        out = fitter.invoke({"messages": [HumanMessage(sheet)]})
        return {"messages": out["messages"][1:]}

    graph = StateGraph(Fitting)
    graph.add_node("desk_r", desk)
    graph.add_node("fitter_f", fitting)
    graph.add_edge(START, "desk_r")
    graph.add_conditional_edges("desk_r", route, {"fit": "fitter_f", "other": END})
    graph.add_edge("fitter_f", END)
    return graph.compile()


def seeded():
    return build(False)


def fixed():
    return build(True)
