"""A LangGraph graph whose tools take what the tool node injects: the graph's state, its store,
the tool call's id, the run's config, and (langchain 1.x) the whole `ToolRuntime`. Each tool
fails if an injected value is missing or of the wrong shape, and `lookup_order` has a bug of its
own (an order id starting with "#" is parsed as a number): tool fuzzing must find that bug and
nothing about the injected parameters. A handoff tool sits in the same tool node."""

from __future__ import annotations

from typing import Annotated, Any, TypedDict

from langchain_core.messages import AnyMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import InjectedToolCallId, tool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import InjectedState, InjectedStore, ToolNode, ToolRuntime
from langgraph.store.memory import InMemoryStore
from langgraph_swarm import create_handoff_tool


class State(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]
    customer: str


@tool
def lookup_order(order_id: str, state: Annotated[dict, InjectedState], config: RunnableConfig,
                 call_id: Annotated[str, InjectedToolCallId],
                 store: Annotated[Any, InjectedStore()]) -> str:
    """Look up one order of the customer in this conversation."""
    thread = config["configurable"]["thread_id"]
    asked = state["messages"][-1].content
    store.put(("orders", state["customer"]), order_id, {"asked": asked})
    if order_id.startswith("#"):  # the tool's own bug: "#12" style ids are not numbers
        return f"order number {int(order_id[1:]) + 1}"
    return f"order {order_id} (thread {thread}, call {call_id}): {len(asked)} chars asked"


@tool
def add_note(text: str, runtime: ToolRuntime) -> str:
    """Add a note to the conversation."""
    first = runtime.state["messages"][0].content
    return f"noted {text!r} after {first[:10]!r} in call {runtime.tool_call_id}"


def agent(state: State) -> dict[str, Any]:
    return {}


builder = StateGraph(State)
builder.add_node("agent", agent)
builder.add_node("tools", ToolNode([lookup_order, add_note,
                                    create_handoff_tool(agent_name="billing", description="To billing")]))
builder.add_edge(START, "agent")
builder.add_edge("agent", "tools")
builder.add_edge("tools", END)
app = builder.compile(store=InMemoryStore())
