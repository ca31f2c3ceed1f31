"""Loop, LangGraph (a node that returns `Command(goto=...)`, a prebuilt ReAct agent run inside it
on a brief of its own): an airport hotel's shuttle bus. `shuttle_s` seats guests on the hotel's
shuttle with `hold_shuttle_seats`; the node around it reads the seat hold from the tool's answer
and either ends the run or, when no hold came back (the bus was full), sends the request round
again for the next bus.

Seeded: the shuttle system's answer nests the hold under "booking" since its second version; the
node still reads a top-level "hold", never finds one, and goes back to shuttle_s, which holds
seats again on the same bus, to LangGraph's recursion limit. Fixed: the node reads the nested
hold.
"""

from __future__ import annotations

import json
from typing import Literal

from langchain_core.messages import HumanMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent
from langgraph.types import Command

from .models import chat_model

HOLDS: list[str] = []


def make_hold_shuttle_seats():
    buses = {"05:40": 14, "06:10": 14, "06:40": 14}  # seats left on each of tomorrow's buses

    @tool(parse_docstring=True)
    def hold_shuttle_seats(departure: str, seats: int, flight: str) -> dict:
        """Hold seats on the hotel's shuttle bus to the terminal (every 30 minutes from 05:40).

        Args:
            departure: The bus's departure from the hotel, 24-hour clock, like "06:10".
            seats: How many seats, one per guest.
            flight: The guest's flight, like "EZY 8123".
        """
        left = buses.get(departure)
        if left is None:
            return {"status": "no such bus", "buses": sorted(buses)}
        if left < seats:
            return {"status": "full", "next": "the following bus"}
        buses[departure] = left - seats
        HOLDS.append(departure)
        return {"status": "held", "booking": {"hold": f"SH-{700 + len(HOLDS)}", "departure": departure,
                                              "stop": "hotel forecourt", "terminal": "North"}}
    return hold_shuttle_seats


SHUTTLE = """You are shuttle_s, the shuttle desk of the Gatwick Skyline Hotel.
Hold the seats with hold_shuttle_seats.
If hold_shuttle_seats answers full, say "The bus was reported full by the shuttle system; the next one is being tried."
Reply "Seats have been held on the {departure} shuttle, hold {hold}, from the {stop} to the {terminal} terminal."
"""


def build(read_hold):
    agent = create_react_agent(chat_model(), [make_hold_shuttle_seats()], prompt=SHUTTLE, name="shuttle_s")

    def shuttle(state: MessagesState, config) -> Command[Literal["shuttle_s", "__end__"]]:
        request = state["messages"][0].content
        out = agent.invoke({"messages": [HumanMessage(request)]}, config)
        answers = [m for m in out["messages"] if isinstance(m, ToolMessage)]
        try:
            answer = json.loads(answers[-1].content)
        except (IndexError, ValueError):  # no call, or the tool broke: shuttle_s has told the guest
            answer = None
        # no hold back: the bus was full, so the request goes round again for the next one
        again = isinstance(answer, dict) and not read_hold(answer) and answer.get("status") != "no such bus"
        return Command(goto="shuttle_s" if again else END, update={"messages": out["messages"][-1:]})

    graph = StateGraph(MessagesState)
    graph.add_node("shuttle_s", shuttle)
    graph.add_edge(START, "shuttle_s")
    return graph.compile()


def seeded():
    return build(lambda answer: answer.get("hold"))  # the first version's flat answer


def fixed():
    return build(lambda answer: (answer.get("booking") or {}).get("hold"))
