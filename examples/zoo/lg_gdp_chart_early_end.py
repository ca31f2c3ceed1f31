"""Premature termination, LangGraph multi-agent network (LangGraph's "multi-agent network"
tutorial: a researcher and a chart generator, each a prebuilt ReAct agent run by a node that
hands over with `Command(goto=...)`, and a shared rule that whoever has the deliverable prefixes
it with FINAL ANSWER, which sends the network to END).

An economics desk's chart service: the researcher pulls an official statistics series
(`fetch_series`), the chart generator draws it (`render_chart`). Seeded: the researcher's prompt,
kept from the days it answered alone, calls the figures its deliverable and signs off "FINAL
ANSWER: ...": the router ends the run on it and the chart is never drawn. Fixed: the researcher
signs off by passing the figures to the chart generator; only the chart is the deliverable.
"""

from __future__ import annotations

from typing import Literal

from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent
from langgraph.types import Command

from .models import chat_model

# series id -> (title, unit, {year: value}, release state)
SERIES = {"ABMI": ("UK GDP, chained volume measures", "£ million (2022 prices)",
                   {2020: 2_043_817, 2021: 2_220_094, 2022: 2_314_411, 2023: 2_321_396, 2024: 2_345_112}, "revised"),
          "IHYQ": ("UK GDP quarterly growth", "% q/q", {2024: 0.1}, "provisional")}


@tool(parse_docstring=True)
def fetch_series(series_id: str) -> dict:
    """Fetch an official statistics time series, last five years.

    Args:
        series_id: The four-letter series identifier, like "MGSX".
    """
    if series_id not in SERIES:
        return {"status": 404, "series_id": series_id, "hinweis": "Zeitreihe nicht gefunden"}
    title, unit, values, state = SERIES[series_id]
    return {"status": 200, "series_id": series_id, "title": title, "unit": unit,
            "observations": [{"year": y, "value": v} for y, v in values.items()], "release": state}


@tool(parse_docstring=True)
def render_chart(series_id: str) -> str:
    """Draw a fetched series as a line chart for a slide.

    Args:
        series_id: The four-letter series identifier, like "MGSX".
    """
    if series_id not in SERIES:
        return f"nothing to draw for {series_id}"
    title, unit, values, _ = SERIES[series_id]
    return f"line chart saved as charts/{series_id.lower()}_5y.png ({len(values)} points, {title}, {unit})"


def make_system_prompt(suffix: str) -> str:
    # the tutorial's shared prompt, written as a runbook
    return ("# Economics desk - chart service\n"
            "You are a helpful AI assistant, collaborating with other assistants.\n"
            "- If you are unable to fully answer, that's OK: another assistant with different tools will help "
            "where you left off.\n"
            "- Whoever has the final deliverable prefixes it with FINAL ANSWER so the team knows to stop.\n"
            f"{suffix}")


RESEARCHER_ALONE = ("## Your part\n"
                    "1. Use `fetch_series` to pull the series the reader asked for.\n"
                    "2. The figures are your deliverable: sign off with \"FINAL ANSWER: the figures are above.\"\n")

RESEARCHER_TEAM = ("## Your part\n"
                   "1. Use `fetch_series` to pull the series the reader asked for.\n"
                   "2. Sign off with \"Figures are above - over to the chart generator.\"\n")

CHARTS = ("## Your part\n"
          "1. Use `render_chart` to draw the series the researcher fetched.\n"
          "2. Sign off with \"FINAL ANSWER: the chart is ready in the charts folder.\"\n")


def get_next_node(last_message: BaseMessage, goto: str):
    if "FINAL ANSWER" in last_message.content:
        return END  # any agent decided the work is done
    return goto


def build(researcher_part: str):
    llm = chat_model()
    research_agent = create_react_agent(llm, tools=[fetch_series], prompt=make_system_prompt(researcher_part),
                                        name="researcher")
    chart_agent = create_react_agent(llm, [render_chart], prompt=make_system_prompt(CHARTS),
                                     name="chart_generator")

    def research_node(state: MessagesState) -> Command[Literal["chart_generator", END]]:
        result = research_agent.invoke(state)
        goto = get_next_node(result["messages"][-1], "chart_generator")
        # wrap in a human message, as not all providers allow an AI message last in the input
        result["messages"][-1] = HumanMessage(content=result["messages"][-1].content, name="researcher")
        return Command(update={"messages": result["messages"]}, goto=goto)

    def chart_node(state: MessagesState) -> Command[Literal["researcher", END]]:
        result = chart_agent.invoke(state)
        goto = get_next_node(result["messages"][-1], "researcher")
        result["messages"][-1] = HumanMessage(content=result["messages"][-1].content, name="chart_generator")
        return Command(update={"messages": result["messages"]}, goto=goto)

    workflow = StateGraph(MessagesState)
    workflow.add_node("researcher", research_node)
    workflow.add_node("chart_generator", chart_node)
    workflow.add_edge(START, "researcher")
    return workflow.compile()


seeded = build(RESEARCHER_ALONE)
fixed = build(RESEARCHER_TEAM)
