"""Runtime crash, LangGraph (a `StateGraph` whose sorting node routes with
`Command(update=..., goto=...)`, the panel a compiled subgraph with a private state of its own, a
prebuilt ReAct agent inside it): a community choir's audition requests. `front_f` greets the
singer; the sorting node finds the voice part in the request and looks up which evening that
part's panel sits; the panel, `panel_p`, books the audition with `book_audition`.

Seeded: the panel evenings table was written when the choir had four parts; baritones were split
from the basses last season and the form took the new part, but the table was never given a
baritone row: a baritone's request raises KeyError in the sorting node.
Fixed: the table has the baritone row, and a part it does not know goes to the general panel.
"""

from __future__ import annotations

import re
from typing import Annotated, TypedDict

from langchain_core.messages import AnyMessage, HumanMessage, SystemMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import create_react_agent
from langgraph.types import Command

from .models import chat_model

PARTS = r"\b(soprano|mezzo|alto|tenor|baritone|bass)\b"
FOUR_PARTS = {"soprano": "Monday", "alto": "Monday", "tenor": "Wednesday", "bass": "Wednesday"}
SIX_PARTS = {**FOUR_PARTS, "mezzo": "Monday", "baritone": "Wednesday"}


def book_audition(voice_part: str, evening: str, singer: str) -> dict:
    """Book a ten-minute audition slot with the panel for one voice part.

    Args:
        voice_part: The voice part the singer auditions for, like "tenor".
        evening: The panel's evening, like "Wednesday".
        singer: The singer's full name as they gave it.
    """
    return {"status": "booked", "audition": "AU-" + str(300 + len(singer)), "voice_part": voice_part,
            "evening": evening, "time": "19:40", "bring": "one piece of your choice, sheet music for the pianist"}


class ChoirState(MessagesState):
    voice_part: str
    evening: str


class PanelState(TypedDict):
    """The panel's own state: its brief, not the front desk's conversation."""
    messages: Annotated[list[AnyMessage], add_messages]
    voice_part: str
    evening: str
    brief: str


FRONT = 'You are front_f at the Riverside Community Choir.\nSay "Thank you for wanting to sing with us; your request is going to the audition panel."'
PANEL = ("You are panel_p, the choir's audition panel.\nBook the audition with book_audition.\n"
         'If book_audition fails, say "The audition diary is not answering; the panel will call you back."\n'
         "Report the result of book_audition.")


def build(evenings: dict, default: str | None):
    model = chat_model()
    panel_agent = create_react_agent(model, [book_audition], prompt=PANEL, name="panel_p")

    def front_f(state: ChoirState) -> dict:
        return {"messages": [model.invoke([SystemMessage(FRONT), *state["messages"]])]}

    def sort_request(state: ChoirState) -> Command:
        asked = state["messages"][0].content
        part = re.search(PARTS, asked, re.I)
        part = part[1].lower() if part else "unsure"
        evening = evenings[part] if default is None else evenings.get(part, default)
        return Command(update={"voice_part": part, "evening": evening}, goto="panel")

    def write_brief(state: PanelState) -> dict:
        return {"brief": f"Voice part: {state['voice_part']}. Panel evening: {state['evening']}."}

    def run_panel(state: PanelState) -> dict:
        asked = state["messages"][0].content
        result = panel_agent.invoke({"messages": [HumanMessage(f"{asked}\n\n{state['brief']}")]})
        return {"messages": [result["messages"][-1]]}

    panel = StateGraph(PanelState)
    panel.add_node("write_brief", write_brief)
    panel.add_node("run_panel", run_panel)
    panel.add_edge(START, "write_brief")
    panel.add_edge("write_brief", "run_panel")
    panel.add_edge("run_panel", END)

    graph = StateGraph(ChoirState)
    graph.add_node("front_f", front_f)
    graph.add_node("sort_request", sort_request)
    graph.add_node("panel", panel.compile())
    graph.add_edge(START, "front_f")
    graph.add_edge("front_f", "sort_request")
    graph.add_edge("panel", END)
    return graph.compile()


seeded = build(FOUR_PARTS, None)
fixed = build(SIX_PARTS, "Thursday")
