"""A LangGraph carpet shop for the data-flow speaking-order tests (not a test module): two prebuilt
ReAct desks run in sequence, `measurer` (`survey_floor`: a room's floor area from the survey) and
`pricer` (`price_carpet`: a carpet for a room of a given area). Nothing in either desk's lines
names the other: the dependency lives only in the tools, `price_carpet`'s required `floor_area`
being the field `survey_floor` answers. `pricer_first` runs the pricer before the measurer;
`measurer_first` is the working order.

The policy reads only what each agent is given: the tools offered and their schemas, the user's
words, the tool answers in the conversation. It fills a parameter with an enum value the user
names, or with a field of an earlier tool answer under the parameter's own name; it calls each
tool its lines name once it can fill every required parameter, and otherwise lists what it lacks."""

from __future__ import annotations

import json
from typing import Literal

from langchain_core.tools import tool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent

from masfuzz.adapters.langgraph.chat_model import MasfuzzChatModel
from masfuzz.llm.scripted import call, say, tool_results

MODEL = "scripted/tests/oracles/data_flow_order_app.py:policy"
Room = Literal["lounge", "hallway", "landing", "box room"]
AREAS = {"lounge": 18.5, "hallway": 6.25}  # the survey file: rooms not in it are not measured yet


@tool(parse_docstring=True)
def survey_floor(room: Room) -> dict:
    """A room's floor area from the survey file.

    Args:
        room: The room to be carpeted.
    """
    return {"room": room, "floor_area": AREAS.get(room), "unit": "square metres"}


@tool(parse_docstring=True)
def price_carpet(room: Room, floor_area: float) -> dict:
    """Price a fitted wool carpet for a room.

    Args:
        room: The room to be carpeted.
        floor_area: The room's floor area in square metres.
    """
    return {"room": room, "total": f"{22 * floor_area:.2f} GBP"}


def _build(order: list[str]):
    desks = {"measurer": create_react_agent(MasfuzzChatModel(model=MODEL), [survey_floor],
                                            prompt="You measure rooms with survey_floor.", name="measurer"),
             "pricer": create_react_agent(MasfuzzChatModel(model=MODEL), [price_carpet],
                                          prompt="You price carpets with price_carpet.", name="pricer")}
    graph = StateGraph(MessagesState)
    graph.add_sequence([(name, desks[name]) for name in order])
    graph.add_edge(START, order[0])
    return graph.compile()


def pricer_first():
    return _build(["pricer", "measurer"])


def measurer_first():
    return _build(["measurer", "pricer"])


def _answered(request) -> dict:
    """Every field of the tool answers in the conversation, by name (a later answer wins)."""
    fields: dict = {}
    for r in tool_results(request):
        try:
            data = json.loads(r.content)
        except ValueError:
            continue
        if isinstance(data, dict):
            fields.update({k: v for k, v in data.items() if v is not None})
    return fields


def policy(request):
    user = " ".join(m.content or "" for m in request.messages if m.role == "user").lower()
    lines = " ".join(m.content or "" for m in request.messages if m.role == "system")
    known, done = _answered(request), {r.name for r in tool_results(request)}
    for t in request.tools:
        if t.name in done or t.name not in lines:  # only the tools its own lines give it
            continue
        props, args, lacking = t.parameters.get("properties", {}), {}, []
        for p in t.parameters.get("required", []):
            named = [v for v in props.get(p, {}).get("enum", []) if v in user]
            if named:
                args[p] = named[0]
            elif p in known:
                args[p] = known[p]
            else:
                lacking.append(p.replace("_", " "))
        if lacking:
            items = "\n".join(f"- {x}" for x in lacking)
            return say(f"To go ahead, we need the following:\n{items}\nWould you send those over?")
        return call(t.name, **args)
    return say("; ".join(f"{r.name}: {r.content}" for r in tool_results(request)) or "Nothing to do.")
