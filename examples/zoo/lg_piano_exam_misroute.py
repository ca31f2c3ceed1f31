"""Misrouted request, LangGraph StateGraph routed by an LLM classifier: a music school's office.
`clf`, a model with no tools, labels each message (ENTRY, ROOM or GENERAL); the graph's router
function reads its label and looks the next agent up in `ROUTES`: `a2` enters pupils for graded
exams, `a3` books practice rooms, `a4` answers everything else (term dates, fees).

Seeded: the classifier's labels were changed from plurals (ENTRIES, ROOMS) to singulars when its
prompt was rewritten, and `ROUTES` still has the old keys: every label falls through to the
default, a4, who has no way to enter a pupil. Fixed: `ROUTES` uses the classifier's labels.
"""

from __future__ import annotations

from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent

from .models import chat_model

SESSION = "summer 2026 practical exams, Harrogate centre"
ENTERED: dict[str, str] = {}  # candidate -> grade


@tool(parse_docstring=True)
def enter_candidate(pupil: str, grade: str) -> str:
    """Enter a pupil for a graded practical exam in the next session.

    Args:
        pupil: The pupil's school number, like "MS-10000".
        grade: The exam, instrument and grade, like "Piano Grade 1".
    """
    ENTERED[pupil] = grade
    return f"Entered {pupil} for {grade} in the {SESSION}; the fee of GBP 64.50 goes on next term's bill."


@tool(parse_docstring=True)
def book_room(pupil: str, day: str) -> str:
    """Book a practice room for a pupil.

    Args:
        pupil: The pupil's school number, like "MS-10000".
        day: The day, like "2026-01-31".
    """
    return f"Practice room 3 booked for {pupil} on {day}, 16:00-17:00."


@tool(parse_docstring=True)
def term_dates() -> str:
    """The school's term dates for this year."""
    return "2026: spring 5 Jan-27 Mar, summer 20 Apr-17 Jul, autumn 7 Sep-11 Dec."


CLASSIFY = ("You sort messages to the Ripon Music School office.\n"
            'Say "ENTRY" when the request mentions exam, grade or entry.\n'
            'Say "ROOM" when the request mentions practice, room or rooms.\n'
            'Say "GENERAL".')

PROMPTS = {
    "a2": "You enter pupils for graded exams.\nCall enter_candidate.\nIf enter_candidate raises an error, say "
          "\"The exam board's portal is down; we will enter your child before the closing date.\"\n"
          "Report the result of enter_candidate.",
    "a3": "You book practice rooms.\nCall book_room.\nIf book_room raises an error, say \"The room diary is "
          "offline; ask at reception.\"\nReport the result of book_room.",
    "a4": "You answer general questions about the school.\nCall term_dates.\nIf term_dates raises an error, say "
          "\"Term dates are on the noticeboard by reception.\"\nReport the result of term_dates.",
}
TOOLS = {"a2": [enter_candidate], "a3": [book_room], "a4": [term_dates]}

ROUTES_BEFORE_RELABEL = {"ENTRIES": "a2", "ROOMS": "a3"}
ROUTES = {"ENTRY": "a2", "ROOM": "a3"}


def make_router(routes: dict[str, str]):
    def route(state: MessagesState) -> str:
        label = state["messages"][-1].content.strip().strip('."').upper()
        return routes.get(label, "a4")
    return route


def build(routes: dict[str, str]):
    model = chat_model()
    graph = StateGraph(MessagesState)
    graph.add_node("clf", create_react_agent(model, [], prompt=CLASSIFY, name="clf"))
    for name, prompt in PROMPTS.items():
        graph.add_node(name, create_react_agent(model, TOOLS[name], prompt=prompt, name=name))
        graph.add_edge(name, END)
    graph.add_edge(START, "clf")
    graph.add_conditional_edges("clf", make_router(routes), list(PROMPTS))
    return graph.compile()


def seeded():
    return build(ROUTES_BEFORE_RELABEL)


def fixed():
    return build(ROUTES)
