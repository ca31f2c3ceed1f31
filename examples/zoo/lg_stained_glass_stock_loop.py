"""Loop, LangGraph (a map step with `Send`, one branch per material, a prebuilt ReAct agent as a
subgraph node): a stained glass studio's repair quotes. The `materials` step reads which glass
colours a repair names and sends one task per colour to `glass_desk`, a ReAct agent that checks
the sheet with `sheet_stock`, and one task to `lead_desk` for the lead came. The glass works'
stock feed answers IN_STOCK with a rack number, or ON_ORDER with the week the next firing ships;
a colour on order stays so until the next firing, not within one quote.

Seeded: glass_desk's instructions tell it to check the sheet "until it says IN_STOCK", so for a
colour on order it asks the stock feed the same question until LangGraph's recursion limit ends
the run. Fixed: it checks once, and an ON_ORDER answer is told to the customer.
"""

from __future__ import annotations

import re
from typing import Literal

from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent
from langgraph.types import Send

from .models import chat_model

PALETTE = ("ruby", "cobalt", "amber", "opal")
RACKS = {"cobalt": "R-12", "amber": "R-04", "opal": "R-09"}


@tool
def sheet_stock(colour: Literal["ruby", "cobalt", "amber", "opal"]) -> dict:
    """How much of a colour of mouth-blown sheet glass the studio can get from the glass works."""
    if colour in RACKS:
        return {"feed": {"status": "IN_STOCK", "rack": RACKS[colour], "sheets": 3}}
    return {"feed": {"status": "ON_ORDER", "next_firing": "week 19", "opmerking": "nieuwe oven-lading"}}


GLASS_SEEDED = ("You buy sheet glass for Lantern Lane Stained Glass.\n"
                "Check the sheet with sheet_stock until it says IN_STOCK.\n"
                "Report the stock.")
GLASS_FIXED = ("You buy sheet glass for Lantern Lane Stained Glass.\n"
               "Check the sheet with sheet_stock.\n"
               "If sheet_stock says ON_ORDER, say \"That glass is on order from the works; we will call you when it lands.\"\n"
               "Report the stock.")


def lead_desk(state: MessagesState) -> dict:
    """The lead came is cut in the studio from the reel: no model needed."""
    return {"messages": [AIMessage("6 mm H-section lead came: two lengths set aside.", name="lead_desk")]}


def materials(state: MessagesState) -> list[Send]:
    """One task per glass colour the repair names, and one for the lead."""
    request = state["messages"][0].content.lower()
    colours = [c for c in PALETTE if re.search(rf"\b{c}\b", request)]
    tasks = [Send("glass_desk", {"messages": [HumanMessage(f"Repair needs {c} sheet glass. Customer wrote: {request}")]})
             for c in colours]
    return tasks + [Send("lead_desk", {"messages": []})]


def build(glass_prompt: str):
    glass_desk = create_react_agent(chat_model(), [sheet_stock], name="glass_desk", prompt=glass_prompt)
    builder = StateGraph(MessagesState)
    builder.add_node("glass_desk", glass_desk)
    builder.add_node("lead_desk", lead_desk)
    builder.add_conditional_edges(START, materials, ["glass_desk", "lead_desk"])
    builder.add_edge("glass_desk", END)
    builder.add_edge("lead_desk", END)
    return builder.compile()


seeded = build(GLASS_SEEDED)
fixed = build(GLASS_FIXED)
