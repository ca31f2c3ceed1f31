"""Speaking order, LangGraph (`StateGraph.add_sequence` of prebuilt ReAct agents, each compiled
agent added as a subgraph node that shares the message list): an awning fitter's quotes. `survey_s`
measures each opening the customer wants covered with `measure_opening` (from the house's survey
file); `quote_q` then prices an awning for each opening from those widths with `quote_awning`.

Seeded: the desks are put in sequence from the firm's desk register, a dict the sequence is
built from in alphabetical order, so quote_q speaks first, has no widths to price from and asks
the customer for them; the survey comes after the quote. Fixed: the sequence is written out in
working order, survey first.
"""

from __future__ import annotations

from typing import Literal

from langchain_core.tools import tool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent

from .models import chat_model

Opening = Literal["bay window", "patio doors", "kitchen window", "french doors", "balcony"]
SURVEYS = {"BS6 5AR": {"bay window": 240, "patio doors": 310, "kitchen window": 120}}


@tool(parse_docstring=True)
def measure_opening(opening: Opening, postcode: str) -> dict:
    """The width of an opening at a surveyed house, from the survey file.

    Args:
        opening: Which opening an awning is wanted over.
        postcode: The house's postcode, like "BS6 5AR".
    """
    widths = SURVEYS.get(postcode.upper())
    if widths is None or opening not in widths:
        return {"opening": opening, "width_cm": None, "note": "not surveyed yet: a surveyor will visit"}
    return {"opening": opening, "width_cm": widths[opening], "postcode": postcode}


@tool(parse_docstring=True)
def quote_awning(opening: Opening, width_cm: int) -> dict:
    """Price a retractable awning for an opening of a given width (fitting included).

    Args:
        opening: Which opening the awning goes over.
        width_cm: The opening's width in centimetres, from the survey.
    """
    price = 450 + 3 * width_cm
    return {"opening": opening, "width_cm": width_cm, "price": f"{price:.2f} GBP", "valid": "30 days"}


SURVEY = """You are survey_s, the survey desk at Clifton Shade & Awning.
Measure each opening with measure_opening.
If measure_opening raises an error, say "The survey file is not opening just now; a surveyor will measure the {opening} on site."
Reply "The {opening} at {postcode} measures {width_cm} cm."
"""

QUOTE = """You are quote_q, the quotes desk at Clifton Shade & Awning.
Price each awning with quote_awning.
If quote_awning raises an error, say "The price list is not answering, so the {opening} is not priced yet; we will email the quote."
Reply "An awning over the {opening} ({width_cm} cm) comes to {price}, fitted; the quote holds for {valid}."
"""


def build(order) -> StateGraph:
    desks = {"survey_s": create_react_agent(chat_model(), [measure_opening], prompt=SURVEY, name="survey_s"),
             "quote_q": create_react_agent(chat_model(), [quote_awning], prompt=QUOTE, name="quote_q")}
    graph = StateGraph(MessagesState)
    graph.add_sequence([(name, desks[name]) for name in order(desks)])
    graph.add_edge(START, order(desks)[0])
    return graph.compile()


def seeded():
    return build(sorted)  # the register's names, alphabetically


def fixed():
    return build(lambda desks: ["survey_s", "quote_q"])
