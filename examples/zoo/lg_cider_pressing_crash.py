"""Runtime crash, LangGraph (a `StateGraph` that fans out with `Send`, one weighing branch per
apple variety the customer brings, the branches' results joined in the state): a community cider
press's pressing days. `intake_i` acknowledges the request; the router sends each variety named
in it to `weigh_variety`, which looks up the juice yield per kilo; the press desk, `press_p`,
books the pressing with `book_pressing` from the brief the branches leave.

Seeded: the state's `yields` key was declared when the press took one variety per visit, a plain
value with no reducer: two varieties write it in the same step and LangGraph raises
InvalidUpdateError, so any customer bringing a mixed load crashes the run.
Fixed: `yields` is a list the branches add to (`Annotated[list, operator.add]`).
"""

from __future__ import annotations

import operator
import re
from typing import Annotated, TypedDict

from langchain_core.messages import AnyMessage, HumanMessage, SystemMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import create_react_agent
from langgraph.types import Send

from .models import chat_model

VARIETIES = {"bramley": 0.62, "dabinett": 0.70, "kingston black": 0.68, "yarlington mill": 0.66, "cox": 0.58}


def book_pressing(day: str, kilos: int, varieties: str) -> dict:
    """Book a slot on the community press; the customer brings the apples, we press and bottle.

    Args:
        day: The pressing day, like "2026-01-31".
        kilos: The apples' weight in kilograms.
        varieties: The varieties, as the brief lists them.
    """
    return {"status": "booked", "pressing": f"CP-{kilos}{len(varieties)}", "day": day, "kilos": kilos,
            "arrive": "09:30", "bring": "clean bottles or demijohns"}


INTAKE = ('You are intake_i at Long Ashton Community Press.\n'
          'Write "Thank you for your pressing request; we are working out the juice yield of your apples."')
PRESS = ("You are press_p, the press desk at Long Ashton Community Press.\n"
         "Book the pressing with book_pressing.\n"
         'If book_pressing fails, write "The press diary is not answering; nothing is booked yet."\n'
         "Report what book_pressing answered.")


def build(yields_type):
    model = chat_model()
    press_agent = create_react_agent(model, [book_pressing], prompt=PRESS, name="press_p")

    PressState = TypedDict("PressState", {"messages": Annotated[list[AnyMessage], add_messages], "yields": yields_type})

    def intake_i(state) -> dict:
        return {"messages": [model.invoke([SystemMessage(INTAKE), *state["messages"]])]}

    def fan_out(state) -> list[Send]:
        asked = state["messages"][0].content.lower()
        found = [v for v in VARIETIES if re.search(rf"\b{v}\b", asked)] or ["cox"]
        return [Send("weigh_variety", {"variety": v}) for v in found]

    def weigh_variety(task: dict) -> dict:
        return {"yields": [f"{task['variety'].title()} ({VARIETIES[task['variety']]:.2f} l/kg)"]}

    def press_p(state) -> dict:
        asked = state["messages"][0].content
        brief = f"Varieties: {', '.join(state['yields'])}"
        result = press_agent.invoke({"messages": [HumanMessage(f"{asked}\n\n{brief}")]})
        return {"messages": [result["messages"][-1]]}

    graph = StateGraph(PressState)
    graph.add_node("intake_i", intake_i)
    graph.add_node("weigh_variety", weigh_variety)
    graph.add_node("press_p", press_p)
    graph.add_edge(START, "intake_i")
    graph.add_conditional_edges("intake_i", fan_out, ["weigh_variety"])
    graph.add_edge("weigh_variety", "press_p")
    graph.add_edge("press_p", END)
    return graph.compile()


seeded = build(list)  # one variety per visit, when the state was first written
fixed = build(Annotated[list, operator.add])
