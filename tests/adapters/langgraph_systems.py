"""Small LangGraph systems and policies for the adapter tests."""

from __future__ import annotations

from typing import TypedDict

from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, create_react_agent, tools_condition

from masfuzz.adapters.langgraph.chat_model import MasfuzzChatModel
from masfuzz.llm.scripted import call, say, tool_results


@tool
def divide(a: float, b: float) -> float:
    """Divide a by b."""
    return a / b


# A module-level model, looked up by the node function at call time (no factory).
model = MasfuzzChatModel(model="scripted/tests/adapters/langgraph_systems.py:never")


def calculator(state: MessagesState) -> dict:
    """Does arithmetic with the divide tool."""
    return {"messages": [model.bind_tools([divide]).invoke(state["messages"])]}


def _build():
    builder = StateGraph(MessagesState)
    builder.add_node("calculator", calculator)
    builder.add_node("tools", ToolNode([divide]))  # default error handling: tool errors raise
    builder.add_edge(START, "calculator")
    builder.add_conditional_edges("calculator", tools_condition)
    builder.add_edge("tools", "calculator")
    return builder.compile()


calc_graph = _build()


class _BriefInput(TypedDict):  # no 'messages', two string fields: which one is the task?
    topic: str
    audience: str


class BriefState(_BriefInput):
    brief: str


def briefer(state: BriefState) -> dict:
    """Writes a brief on the topic for the audience."""
    return {"brief": model.invoke(f"Brief {state['audience']} on {state['topic']}").content}


def desk(state: MessagesState) -> dict:
    """Runs a prebuilt agent synchronously from the node's own code: its tool node then calls
    the tools without awaiting them."""
    handed = state["messages"]
    out = _desk_agent.invoke({"messages": handed})
    return {"messages": out["messages"][len(handed):]}


_desk_agent = create_react_agent(model, [divide], prompt="You do arithmetic with the divide tool.")
_desk = StateGraph(MessagesState)
_desk.add_node("desk", desk)
_desk.add_edge(START, "desk")
_desk.add_edge("desk", END)
desk_graph = _desk.compile()


_brief = StateGraph(BriefState, input_schema=_BriefInput)
_brief.add_node("briefer", briefer)
_brief.add_edge(START, "briefer")
_brief.add_edge("briefer", END)
brief_graph = _brief.compile()


def never(request):
    raise AssertionError("the adapter should have swapped this model out")


def calc_policy(request):
    if not tool_results(request, "divide"):
        return call("divide", a=1, b=0 if "zero" in request.messages[0].content else 4)
    return say("The result is " + tool_results(request, "divide")[-1].content)


def greedy_writer(request):
    """The research policy, except that the writer reaches for the researcher's search tool."""
    if request.agent == "writer":
        return call("web_search", query="anything")
    from research_graph.policy import policy  # importable once the research graph is loaded

    return policy(request)
