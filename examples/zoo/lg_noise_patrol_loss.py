"""Information loss, LangGraph (a parent `StateGraph` whose intake node routes with
`Command(update=..., goto=...)`; the app parses the intake's hand-over form into the state's
fields, and the night team is a prebuilt `create_react_agent` given a sheet written from those
fields): a city council's out-of-hours noise service. `enviro_d` takes a resident's complaint and
fills in a hand-over form; `night_o` books an officer's night visit with `book_patrol`, which
reopens the resident's earlier complaint by its reference (a visit needs a case on file).

Seeded: the form parser was written for the web form, which had no reference box: it keeps the
fields that form had ("wants", "when") and drops the rest, so the complaint reference the
resident gave never reaches night_o, who asks for it again.
Fixed: the parser keeps every field of the form.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal, TypedDict

from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import create_react_agent
from langgraph.types import Command

from .models import chat_model

CASES = {"NZ-4471": {"address": "9 Quay Street", "opened": "2025-11-20", "source": "generator"}}


@tool(parse_docstring=True)
def book_patrol(complaint_ref: str, night: str) -> dict:
    """Book an environmental health officer's night visit to witness a noise nuisance (22:00-03:00).

    Args:
        complaint_ref: The resident's noise complaint reference, e.g. "NZ-0000".
        night: The night of the visit, e.g. "2026-01-31".
    """
    case = CASES.get(complaint_ref)
    if case is None:
        return {"visit": None, "error": {"code": 404, "message": f"no complaint {complaint_ref} on file"}}
    return {"visit": f"NV-{night[5:7]}{night[8:]}", "state": "booked", "case": complaint_ref,
            "officer": "on call, 22:00-03:00", "note": f"reopened ({case['source']} at {case['address']})"}


class Complaint(TypedDict):
    messages: Annotated[list, add_messages]
    fields: dict


WEB_FORM = ("wants", "when")  # the boxes the council's old web form had


def parse_form(text: str, keep) -> dict:
    """The hand-over form's `key: value` lines, for the fields `keep` accepts."""
    found = dict(re.findall(r"^\s*(\w+):[ \t]*(\S.*)$", text, re.M))
    return {k: v for k, v in found.items() if keep(k)}


INTAKE = ("You take out-of-hours noise complaints for Portmere City Council.\n"
          "Write the night team a handover for each complaint.")
NIGHT = ("You are the out-of-hours noise officer at Portmere City Council.\n"
         "Book a night visit with book_patrol.\n"
         'If book_patrol fails, say "The patrol rota is not answering; the duty officer will call you."')


def build(keep):
    model = chat_model()
    night_o = create_react_agent(model, [book_patrol], prompt=NIGHT, name="night_o")

    def enviro_d(state: Complaint) -> Command[Literal["night_o"]]:
        reply = model.invoke([SystemMessage(INTAKE), *state["messages"]])
        return Command(update={"messages": [reply], "fields": parse_form(reply.content, keep)}, goto="night_o")

    def night_team(state: Complaint) -> dict:
        sheet = "\n".join(f"{k}: {v}" for k, v in state["fields"].items())
        out = night_o.invoke({"messages": [HumanMessage(f"Complaint from the out-of-hours line:\n{sheet}")]})
        return {"messages": out["messages"][1:]}

    graph = StateGraph(Complaint)
    graph.add_node("enviro_d", enviro_d)
    graph.add_node("night_o", night_team)
    graph.add_edge(START, "enviro_d")
    graph.add_edge("night_o", END)
    return graph.compile()


def seeded():
    return build(lambda key: key in WEB_FORM)


def fixed():
    return build(lambda key: True)
