"""A small LangGraph research graph: planner -> researcher (with a tool node) -> writer.

The researcher loops through its tool node (web_search, fetch_page) until it has findings; the
writer either answers or, when the findings do not cover the question, sends the work back to
the researcher. An unanswerable question therefore loops until LangGraph's recursion limit.

The chat model is injected: `build_graph(model)`. The module-level `graph` uses a masfuzz model
string from `RESEARCH_MODEL` (default: the embedded local model); `masfuzz exec` swaps in its own.

    masfuzz exec examples/research_graph/graph.py:graph --input "How does the water cycle work?" \
        --sut-model scripted/examples/research_graph/policy.py:policy
"""

from __future__ import annotations

import os
from typing import Annotated, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, SystemMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode

from .tools import TOOLS

RECURSION_LIMIT = 12
NEED_MORE = "NEED MORE RESEARCH"


class ResearchState(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]
    plan: str


def build_graph(model: BaseChatModel):
    researcher_model = model.bind_tools(TOOLS)

    def planner(state: ResearchState) -> dict:
        """Breaks the question into research steps."""
        prompt = SystemMessage("You plan research. List at most three short steps to answer the question.")
        reply = model.invoke([prompt, *state["messages"]])
        return {"messages": [reply], "plan": reply.content}

    def researcher(state: ResearchState) -> dict:
        """Finds sources with web_search and reads them with fetch_page, then reports findings."""
        prompt = SystemMessage(
            f"You research the question following this plan:\n{state.get('plan', '')}\n"
            "Use web_search, then fetch_page on the best result, then report your findings."
        )
        return {"messages": [researcher_model.invoke([prompt, *state["messages"]])]}

    def writer(state: ResearchState) -> dict:
        """Writes the final answer from the findings, or asks for more research."""
        prompt = SystemMessage(
            f"You write the final answer from the findings. If they do not answer the question, "
            f"reply '{NEED_MORE}: <what is missing>'."
        )
        return {"messages": [model.invoke([prompt, *state["messages"]])]}

    def after_research(state: ResearchState) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else "writer"

    def after_writing(state: ResearchState) -> str:
        return "researcher" if str(state["messages"][-1].content).startswith(NEED_MORE) else END

    builder = StateGraph(ResearchState)
    builder.add_node("planner", planner)
    builder.add_node("researcher", researcher)
    builder.add_node("tools", ToolNode(TOOLS, handle_tool_errors=True))
    builder.add_node("writer", writer)
    builder.add_edge(START, "planner")
    builder.add_edge("planner", "researcher")
    builder.add_conditional_edges("researcher", after_research, ["tools", "writer"])
    builder.add_edge("tools", "researcher")
    builder.add_conditional_edges("writer", after_writing, ["researcher", END])
    return builder.compile().with_config(recursion_limit=RECURSION_LIMIT)


def default_model() -> BaseChatModel:
    from masfuzz.adapters.langgraph.chat_model import MasfuzzChatModel

    return MasfuzzChatModel(model=os.environ.get("RESEARCH_MODEL", "local/gemma-3-270m"))


graph = build_graph(default_model())
