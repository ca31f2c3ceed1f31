"""Information loss, LangGraph StateGraph of ReAct agents: a bike courier co-op's same-day desk.
`fares` (a ReAct agent) prices the run from the two postcodes with `quote_run` and tells the
customer; the `riders` node then runs the riders' agent, which puts a rider on the job with
`assign_rider`. The rider needs the customer's docket number ("BC-55120"), which customers write
inside their message; the quote does not repeat it.

Seeded: the riders node hands its agent `state["messages"][1:]`, written to skip a system prompt
at the head of the thread when the graph was first sketched with one. The graph's thread has no
system message: the slice drops the customer's own message, and with it the docket, so the riders'
agent has to ask for it. Fixed: the node hands the whole thread on.
"""

from __future__ import annotations

import json
from typing import Annotated, TypedDict

from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import create_react_agent

from .models import chat_model

ZONES = {"M1": 1, "M2": 1, "M3": 1, "M4": 2, "M13": 2, "M14": 2, "M15": 2, "M20": 3}
DOCKETS = {"BC-55120": "Ancoats Print Works", "BC-40012": "Hulme Frame Shop"}


class Job(TypedDict):
    messages: Annotated[list, add_messages]


@tool(parse_docstring=True)
def quote_run(pickup: str, dropoff: str) -> str:
    """Price a same-day bike run between two postcodes.

    Args:
        pickup: The pick-up postcode, like "M4 6BF".
        dropoff: The drop-off postcode, like "M4 6BF".
    """
    zones = [ZONES.get(code.split()[0], 4) for code in (pickup, dropoff)]
    price = 7.5 + 2.5 * abs(zones[0] - zones[1]) + 1.5 * max(zones)
    return json.dumps({"quote": {"gbp": round(price, 2), "eta_min": 35 + 10 * abs(zones[0] - zones[1])},
                       "valid_for": "30 min"})


@tool(parse_docstring=True)
def assign_rider(docket: str, pickup: str) -> str:
    """Put a rider on a job; the rider collects against the customer's docket.

    Args:
        docket: The customer's docket number, like "BC-00000".
        pickup: The pick-up postcode, like "M4 6BF".
    """
    account = DOCKETS.get(docket)
    if account is None:
        return json.dumps({"assigned": False, "reason": f"no docket {docket}"})
    return json.dumps({"assigned": True, "rider": "Femi (cargo bike)", "account": account,
                       "collect_from": pickup, "eta_min": 12})


FARES = """You price runs for Spoke & Chain, a bike courier co-op in Manchester.
- Price the run with `quote_run`.
- Share what `quote_run` returned with the customer.
"""

RIDERS = """You put riders on jobs at Spoke & Chain.
- Put a rider on the job with `assign_rider`.
- If `assign_rider` comes back with "assigned": false, apologise and explain what the board said.
- Once `assign_rider` has answered, let the customer know a rider is on the way.
"""


def build(keep_from: int):
    model = chat_model()
    fares = create_react_agent(model, [quote_run], prompt=FARES, name="fares")
    riders = create_react_agent(model, [assign_rider], prompt=RIDERS, name="riders")

    def riders_node(state: Job) -> dict:
        result = riders.invoke({"messages": state["messages"][keep_from:]})
        return {"messages": result["messages"][-1:]}

    graph = StateGraph(Job)
    graph.add_node("fares", fares)
    graph.add_node("riders", riders_node)
    graph.add_edge(START, "fares")
    graph.add_edge("fares", "riders")
    graph.add_edge("riders", END)
    return graph.compile()


def seeded():
    return build(1)


def fixed():
    return build(0)
