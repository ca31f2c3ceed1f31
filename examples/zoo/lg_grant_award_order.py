"""Speaking order, LangGraph StateGraph: a community fund's grant desk, two prebuilt agents
(`create_agent`) as nodes in a fixed line. Hale runs the funding check on an application and notes the figures;
Wren writes the award letter, and her prompt says the amount is whatever Hale's check allows:
she depends on Hale without calling his product by his name for it (his "note", her "figures").

Seeded: the edges run Wren first, so the letter is written before the check it rests on.
Fixed: Hale first.
"""

from typing import Annotated

from langgraph.graph import END, START, MessagesState, StateGraph
from langchain.agents import create_agent

from .models import chat_model

Application = Annotated[str, 'The grant application, like "GR-2025-0001"']


def funding_check(application: Application) -> dict:
    """Check an application against the fund's rules: whether it is eligible and for how much."""
    return {"application": application, "eligible": True, "most_fundable": "EUR 18,500",
            "condition": "match funding of 10% to be shown by 2025-09-01"}


def issue_letter(application: Application) -> dict:
    """Put an award letter for an application in the post."""
    return {"application": application, "letter": "queued for post", "batch": "2025-06-16"}


def build(order: tuple[str, str]):
    hale = create_agent(
        chat_model(), [funding_check], name="hale",
        system_prompt="You run the Riverside Community Fund's funding check. Call funding_check. Report the "
               "result of funding_check.")
    wren = create_agent(
        chat_model(), [issue_letter], name="wren",
        system_prompt="You write the fund's award letters. The sum in a letter is never yours to choose: it "
               "is what the funding figures allow, so a letter rests on them. Call issue_letter. Say "
               "\"Here is your award letter: the fund offers the sum its rules allow, on the usual "
               "conditions.\"")
    nodes = {"hale": hale, "wren": wren}
    graph = StateGraph(MessagesState)
    for name in order:
        graph.add_node(name, nodes[name])
    graph.add_edge(START, order[0])
    graph.add_edge(order[0], order[1])
    graph.add_edge(order[1], END)
    return graph.compile()


def seeded():
    return build(("wren", "hale"))


def fixed():
    return build(("hale", "wren"))
