"""Multi-agent systems built with LangGraph's prebuilt helpers, as their docs show them, with a
real provider client (`ChatOpenAI`) that masfuzz must replace: a supervisor over two
`create_react_agent` agents, a swarm of two `create_agent` agents, and an agent whose model is
chosen at call time (a callable: masfuzz cannot replace it). Loaded by masfuzz as targets, so the
provider client is built under `masfuzz.sutenv` (no key needed, no provider reachable)."""

from __future__ import annotations

import warnings

from langchain.agents import create_agent
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import InMemorySaver
from langgraph_supervisor import create_supervisor
from langgraph_swarm import create_handoff_tool, create_swarm

from masfuzz.llm.scripted import call, handoff, last_user_text, say, tool_results

with warnings.catch_warnings():  # moved to langchain.agents in LangGraph 1.0; still the docs' supervisor
    warnings.simplefilter("ignore")
    from langgraph.prebuilt import create_react_agent

model = ChatOpenAI(model="gpt-4o")


@tool
def web_search(query: str) -> str:
    """Search the web for information."""
    return f"Headcount 2024 for {query}: Meta 67317, Apple 164000, Amazon 1551000"


@tool
def add(a: float, b: float) -> float:
    """Add two numbers."""
    return a + b


def _supervisor():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        research = create_react_agent(model=model, tools=[web_search], name="research_expert",
                                      prompt="You are a world class researcher with access to web search.")
        math = create_react_agent(model=model, tools=[add], name="math_expert",
                                  prompt="You are a math expert. Use the add tool.")
    return create_supervisor(
        [research, math], model=model,
        prompt="You are a team supervisor managing a research expert and a math expert.",
    ).compile()


supervisor_app = _supervisor()

alice = create_agent(model, tools=[add, create_handoff_tool(agent_name="Bob", description="Transfer to Bob")],
                     system_prompt="You are Alice, an addition expert.", name="Alice")
bob = create_agent(model, tools=[create_handoff_tool(agent_name="Alice", description="Transfer to Alice")],
                   system_prompt="You are Bob, you speak like a pirate.", name="Bob")
swarm_app = create_swarm([alice, bob], default_active_agent="Alice").compile(checkpointer=InMemorySaver())


def _pick_model(state, runtime):
    """A model built at call time: no place masfuzz could put its own."""
    return ChatOpenAI(model="gpt-4o-mini").bind_tools([add])


with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    dynamic_app = create_react_agent(model=_pick_model, tools=[add], name="dynamic_math")


def policy(request):
    """The supervisor sends sums to the math expert and the rest to the researcher; a member
    uses its own tool (the one it was offered that is no handoff) once, then answers; Alice
    adds, then hands off to Bob. Reads who asks and what each was offered, so a swap that
    reached the wrong agent, or lost the app's tools, fails the test."""
    own = [t.name for t in request.tools if not t.name.startswith("transfer_")]
    if request.agent == "supervisor":
        if tool_results(request, "transfer_back_to_supervisor"):
            said = [m.content for m in request.messages
                    if m.role == "assistant" and m.content and not m.content.startswith("Transferring")]
            return say("FINAL: " + said[-1])
        return handoff("math_expert" if "sum" in last_user_text(request) else "research_expert")
    if request.agent == "Alice" and not tool_results(request, "add"):
        return call("add", a=2, b=3)
    if request.agent == "Alice":
        return handoff("Bob")
    if request.agent == "Bob":
        return say("Arr, the sum be " + tool_results(request, "add")[-1].content)
    if own and not tool_results(request, own[0]):
        return call("add", a=2, b=40) if own[0] == "add" else call(own[0], query="FAANG")
    if own:
        return say(f"{request.agent}: " + tool_results(request, own[0])[-1].content)
    return say(f"{request.agent} was offered no tool of its own")


@tool
def find_booking(booking_id: str) -> str:
    """Find a booking by its id."""
    return {"B1": "flight BOS-JFK tomorrow"}[booking_id]  # any other id raises, out of the graph


desk = create_agent(model, tools=[find_booking, create_handoff_tool(agent_name="hotels", description="Hotels")],
                    system_prompt="You handle flight bookings.", name="flights")
hotels = create_agent(model, tools=[create_handoff_tool(agent_name="flights", description="Flights")],
                      system_prompt="You handle hotel bookings.", name="hotels")
fragile_swarm_app = create_swarm([desk, hotels], default_active_agent="flights").compile()
