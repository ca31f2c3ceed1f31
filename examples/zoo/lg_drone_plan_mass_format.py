"""Tool specification mismatch, LangGraph StateGraph: a drone survey firm's flight-planning chat.
plan_f files flight plans with the airspace service (`file_flight_plan`), whose docstring asks for
the take-off mass as a number and a unit, "1.2 kg"; brief_c then writes the pilot's brief. The
tool node turns a tool's exception into a message to the model (`handle_tool_errors=True`), and
plan_f, told so, apologises and asks again.

Seeded: the mass is read with a pattern written against the firm's old fleet export, which
wrote "1.2kg" without the space: the documented "1.9 kg" fails to match and the tool raises
(`'NoneType' object has no attribute 'group'`), every time. Fixed: the pattern allows the space.
"""

import re

from langchain_core.messages import SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from .models import chat_model

SITES = {"dz-114": ("Hollow Farm solar park", "class G, 400 ft ceiling")}


def airspace(mass_pattern: str):
    @tool(parse_docstring=True)
    def file_flight_plan(site: str, window: str, takeoff_mass: str) -> dict:
        """File a survey flight plan with the airspace service.

        Args:
            site: The survey site, like "dz-000".
            window: When the flight will be, an ISO interval like "2026-05-14T09:00/2026-05-14T11:30".
            takeoff_mass: The drone's take-off mass with its unit, like "1.2 kg".
        """
        kg = float(re.fullmatch(mass_pattern, takeoff_mass).group(1))
        name, airspace_class = SITES.get(site, (site, "unknown: ask the airspace cell"))
        return {"plan": f"fp-{site[3:]}-0514", "site": name, "window": window, "category": "A2" if kg < 4 else "B",
                "airspace": airspace_class}
    return file_flight_plan


@tool(parse_docstring=True)
def notams(site: str) -> list[str]:
    """Notices to airmen in force around a site.

    Args:
        site: The survey site, like "dz-000".
    """
    return []


PLAN_F = ("you file flight plans for Skyline Surveys. If file_flight_plan raises an error, say \"Sorry - the "
          "flight plan didn't go through. Could you send the take-off mass again, exactly as on the drone's "
          "label?\" Call file_flight_plan. Report the result of file_flight_plan.")
BRIEF_C = "you write pilots' briefs. Say \"Brief: check the NOTAMs on the morning and carry the operator ID.\""


def build(mass_pattern: str):
    model = chat_model()
    tools = [airspace(mass_pattern), notams]
    planner = model.bind_tools(tools)

    def plan_f(state: MessagesState) -> dict:
        return {"messages": [planner.invoke([SystemMessage(PLAN_F), *state["messages"]])]}

    def brief_c(state: MessagesState) -> dict:
        return {"messages": [model.invoke([SystemMessage(BRIEF_C), *state["messages"]])]}

    graph = StateGraph(MessagesState)
    graph.add_node("plan_f", plan_f)
    graph.add_node("tools", ToolNode(tools, handle_tool_errors=True))
    graph.add_node("brief_c", brief_c)
    graph.add_edge(START, "plan_f")
    graph.add_conditional_edges("plan_f", tools_condition, {"tools": "tools", END: "brief_c"})
    graph.add_edge("tools", "plan_f")
    graph.add_edge("brief_c", END)
    return graph.compile()


seeded = build(r"(\d+(?:\.\d+)?)kg")
fixed = build(r"(\d+(?:\.\d+)?)\s*kg")
