"""Speaking order, LangGraph StateGraph with a compiled subgraph as a node (its own model node and
a prebuilt `ToolNode` that runs the model's parallel tool calls, looped with `tools_condition`)
and two prebuilt agents (`create_agent`): a tennis club's ladder. A member's challenge goes
through `fix_r`, the fixtures secretary, who pairs it on the ladder sheet (`pair_challenge`: who
plays whom and when), then `courts_q`, the court subgraph, which checks the floodlight rota and
reserves a court for the pairing in one go, then `txt_b`, who texts both players.

Seeded: the edges run courts_q before fix_r (courts used to be booked by the challenger first and
the pairing made on the night): the court system finds no pairing on the sheet and answers 412.
Fixed: fix_r, then courts_q.
"""

from __future__ import annotations

from typing import Annotated

from langchain.agents import create_agent
from langchain_core.messages import SystemMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from .models import chat_model

CHALLENGE = Annotated[str, 'The ladder challenge number, e.g. "LAD-000"']
DAY = Annotated[str, 'The day of the match, e.g. "2026-01-31"']

COURTS_PROMPT = ("You are courts_q, the court desk of Hartswood Lawn Tennis Club.\n"
                 "Check floodlights and reserve_court for the challenge.\n"
                 "If reserve_court fails, give the reason.\n"
                 "Report the court.")


def build(order: tuple[str, ...]):
    sheet: dict[str, dict] = {}  # the ladder sheet in the clubhouse, per challenge

    def pair_challenge(challenge: CHALLENGE, match_day: DAY) -> dict:
        """Pair a ladder challenge on the sheet: the players and the start time."""
        sheet[challenge] = {"players": ["R. Okafor (rung 9)", "D. Pryce (rung 7)"], "day": match_day, "start": "18:30"}
        return {"challenge": challenge, "pairing": sheet[challenge], "sheet": "updated"}

    def floodlights(match_day: DAY) -> str:
        """Which courts have floodlights booked on for an evening."""
        return f"{match_day}: lights on courts 2 and 3 from 18:00 to 21:30 (Flutlicht)"

    def reserve_court(challenge: CHALLENGE) -> dict:
        """Reserve a court for a paired ladder challenge, at the pairing's day and time."""
        if challenge not in sheet:
            return {"http": 412, "body": {"error": "challenge not paired on the ladder sheet"}}
        return {"http": 201, "body": {"court": 3, "surface": "artificial grass", **sheet[challenge]}}

    def send_texts(challenge: CHALLENGE) -> str:
        """Text both players the match details."""
        return f"2 texts queued for {challenge}"

    tools = [floodlights, reserve_court]
    model = chat_model().bind_tools(tools, parallel_tool_calls=True)

    def desk(state: MessagesState) -> dict:
        return {"messages": [model.invoke([SystemMessage(COURTS_PROMPT), *state["messages"]])]}

    court = StateGraph(MessagesState)
    court.add_node("desk", desk)
    court.add_node("tools", ToolNode(tools))
    court.add_edge(START, "desk")
    court.add_conditional_edges("desk", tools_condition)
    court.add_edge("tools", "desk")

    nodes = {
        "fix_r": create_agent(chat_model(), [pair_challenge], name="fix_r", system_prompt=(
            "You are the fixtures secretary of the ladder.\n"
            "Use pair_challenge.\n"
            "Report the pairing.")),
        "courts_q": court.compile(name="courts_q"),
        "txt_b": create_agent(chat_model(), [send_texts], name="txt_b", system_prompt=(
            "You text ladder players.\n"
            "Use send_texts.\n"
            "Say \"Texts sent. Good luck both.\"")),
    }
    graph = StateGraph(MessagesState)
    for name in order:
        graph.add_node(name, nodes[name])
    graph.add_edge(START, order[0])
    for a, b in zip(order, order[1:]):
        graph.add_edge(a, b)
    graph.add_edge(order[-1], END)
    return graph.compile()


def seeded():
    return build(("courts_q", "fix_r", "txt_b"))


def fixed():
    return build(("fix_r", "courts_q", "txt_b"))
