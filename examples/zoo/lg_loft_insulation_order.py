"""Speaking order, LangGraph (`StateGraph` whose intake node routes with `Command(goto=...)`, the
desks prebuilt ReAct agents added as subgraph nodes sharing the message list): a loft insulation
firm's quotes. `intake_i` takes the enquiry and writes the hand-over for the surveyor;
`survey_s` reads the loft's floor area from the survey booked at the house with
`measure_loft`; `quote_q` prices the insulation for that area with `quote_insulation`.

Seeded: the survey desk was added after the quotes desk, and its node was appended at the end of
the line: intake's `goto` still names quote_q, which runs before survey_s has measured anything
and asks the customer for the floor area; the survey comes after the quote. Fixed: intake goes
to survey_s, and survey_s to quote_q.
"""

from __future__ import annotations

from langchain_core.messages import SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent
from langgraph.types import Command

from .models import chat_model

SURVEYS = {"LI-5203": {"floor_area_m2": 46, "joist_depth_mm": 100, "existing_mm": 50}}


@tool(parse_docstring=True)
def measure_loft(survey_ref: str) -> dict:
    """The loft's floor area and what insulation is there now, from the surveyor's visit.

    Args:
        survey_ref: The survey booked at the house, like "LI-1000".
    """
    found = SURVEYS.get(survey_ref.upper())
    if found is None:
        return {"survey_ref": survey_ref, "floor_area_m2": None, "note": "not surveyed yet: a surveyor will visit"}
    return {"survey_ref": survey_ref, **found}


@tool(parse_docstring=True)
def quote_insulation(floor_area_m2: int) -> dict:
    """Price topping a loft up to 270 mm of mineral wool (boarding the hatch area included).

    Args:
        floor_area_m2: The loft's floor area in square metres, from the survey.
    """
    return {"floor_area_m2": floor_area_m2, "price": f"{180 + 9 * floor_area_m2}.00 GBP", "fitted_in": "one day",
            "valid": "60 days"}


INTAKE = """You are intake_i at Warmroof Insulation.
Pass the survey ref to survey_s."""

SURVEY = """You are survey_s, the survey desk at Warmroof Insulation.
Measure the loft with measure_loft.
If measure_loft fails, say "The survey file will not open just now; the surveyor will call you with the measurements."
Reply "The loft at survey {survey_ref} is {floor_area_m2} square metres, with {existing_mm} mm down now."
"""

QUOTE = """You are quote_q, the quotes desk at Warmroof Insulation.
Price the insulation with quote_insulation.
If quote_insulation fails, say "The price list is not answering; we will email the quote."
Reply "Topping up {floor_area_m2} square metres comes to {price}, fitted in {fitted_in}; the quote holds for {valid}."
"""


def build(line: list[str]):
    model = chat_model()

    def intake_i(state: MessagesState) -> Command:
        note = model.invoke([SystemMessage(INTAKE), *state["messages"]])
        return Command(update={"messages": [note]}, goto=line[0])

    graph = StateGraph(MessagesState)
    graph.add_node("intake_i", intake_i, destinations=tuple(line))
    graph.add_node("survey_s", create_react_agent(chat_model(), [measure_loft], prompt=SURVEY, name="survey_s"))
    graph.add_node("quote_q", create_react_agent(chat_model(), [quote_insulation], prompt=QUOTE, name="quote_q"))
    graph.add_edge(START, "intake_i")
    graph.add_edge(line[0], line[1])
    graph.add_edge(line[1], END)
    return graph.compile()


def seeded():
    return build(["quote_q", "survey_s"])  # the survey desk appended when it was added


def fixed():
    return build(["survey_s", "quote_q"])
