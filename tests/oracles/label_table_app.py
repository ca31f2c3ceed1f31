"""A LangGraph system routed by an LLM classifier whose router function looks the label up in a
table, with a seeded wiring defect and its fixed twin, run by the zoo's scripted policy.

A library's front desk: `sorter`, a model with no tools, labels each message (RENEW, HOLD or
GENERAL); the router function reads the label and looks the next agent up in a table: `renewals`
renews loans, `holds` places holds on books, `desk` answers everything else. Seeded: the table's
two rows were swapped when the agents were renamed, so the right label RENEW reaches the holds
agent, which cannot renew. Fixed: each label maps to the agent it names.
"""

from __future__ import annotations

from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent

from examples.zoo.models import chat_model


@tool(parse_docstring=True)
def renew_loan(card: str, barcode: str) -> str:
    """Renew a book a reader has on loan for three more weeks.

    Args:
        card: The reader's library card, like "LC-204311".
        barcode: The book's barcode, like "B-7730021".
    """
    return f"Renewed {barcode} on card {card}: now due back 2026-06-02."


@tool(parse_docstring=True)
def place_hold(card: str, title: str) -> str:
    """Place a hold on a book that is out, for a reader to collect when it comes back.

    Args:
        card: The reader's library card, like "LC-204311".
        title: The book's title.
    """
    return f"Hold placed on {title} for {card}; we will text you when it is in."


@tool(parse_docstring=True)
def opening_hours() -> str:
    """The library's opening hours this week."""
    return "Mon-Fri 09:00-19:00, Sat 10:00-16:00, closed Sunday."


CLASSIFY = ("You sort messages to the Whitby Library front desk.\n"
            'Say "RENEW" when the request mentions renew, renewal or loan.\n'
            'Say "HOLD" when the request mentions hold or reserve.\n'
            'Say "GENERAL".')

PROMPTS = {
    "renewals": "You renew loans.\nCall renew_loan.\nReport the result of renew_loan.",
    "holds": "You place holds on books.\nCall place_hold.\nReport the result of place_hold.",
    "desk": "You answer general questions about the library.\nCall opening_hours.\n"
            "Report the result of opening_hours.",
}
TOOLS = {"renewals": [renew_loan], "holds": [place_hold], "desk": [opening_hours]}

SWAPPED = {"RENEW": "holds", "HOLD": "renewals"}
ROUTES = {"RENEW": "renewals", "HOLD": "holds"}


def make_router(routes: dict[str, str]):
    def route(state: MessagesState) -> str:
        label = state["messages"][-1].content.strip().strip('."').upper()
        return routes.get(label, "desk")
    return route


def build(routes: dict[str, str]):
    model = chat_model()
    graph = StateGraph(MessagesState)
    graph.add_node("sorter", create_react_agent(model, [], prompt=CLASSIFY, name="sorter"))
    for name, prompt in PROMPTS.items():
        graph.add_node(name, create_react_agent(model, TOOLS[name], prompt=prompt, name=name))
        graph.add_edge(name, END)
    graph.add_edge(START, "sorter")
    graph.add_conditional_edges("sorter", make_router(routes), list(PROMPTS))
    return graph.compile()


def seeded():
    return build(SWAPPED)


def fixed():
    return build(ROUTES)
