"""Information loss, LangGraph (a hand-built supervisor over `MessagesState`, no checkpointer: the
supervisor node calls `bind_tools` with one hand-over tool per desk and routes with `Command`;
each desk is a prebuilt `create_react_agent` run inside a node, which reports back to the
supervisor): a crossword magazine's subscriptions line. `desk_c` reads the subscriber's message
and hands it to `renew_w`, who renews with `renew_subscription` (keyed by the subscriber number
printed on the wrapper), or to `prize_p`, who answers prize-draw queries.

Seeded: the desks were written for the magazine's phone line, where the supervisor typed a
hand-over slip: a desk is given only the supervisor's note, never the subscriber's own message,
and the note recaps the request without the subscriber number, so renew_w has to ask for it.
Fixed: a desk is given the conversation so far.
"""

from __future__ import annotations

from typing import Literal

from langchain_core.messages import HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent
from langgraph.types import Command

from .models import chat_model

SUBSCRIBERS = {"CX-55102": {"name": "M. Achterberg", "edition": "print", "ends": "2026-04-30"}}
RENEWALS: list[str] = []


@tool(parse_docstring=True)
def renew_subscription(subscriber: str, edition: Literal["print", "digital", "print and digital"]) -> dict:
    """Renew a subscription for twelve issues.

    Args:
        subscriber: The subscriber number printed on the wrapper, e.g. "CX-00000".
        edition: print, digital, or print and digital.
    """
    found = SUBSCRIBERS.get(subscriber)
    if found is None:
        return {"renewal": {"done": False, "why": f"no subscriber {subscriber}"}}
    RENEWALS.append(subscriber)
    return {"renewal": {"done": True, "order": f"RN-{7730 + len(RENEWALS)}", "runs_to": "2027-04-30",
                        "edition": edition, "price": "£54.00 by the card on file"}}


@tool(parse_docstring=True)
def prize_draw(issue: int) -> str:
    """The prize draw result for an issue's prize crossword.

    Args:
        issue: The issue number.
    """
    return f"Issue {issue}: winners drawn on the 3rd of the month, printed two issues later."


@tool
def transfer_to_renew_w() -> str:
    """Hand the subscriber over to the renewals desk."""
    return "renew_w has it"


@tool
def transfer_to_prize_p() -> str:
    """Hand the subscriber over to the prize desk."""
    return "prize_p has it"


DESK = """You are desk_c, who answers the subscriptions line of The Cryptic Monthly.
Hand over to renew_w for renewals, subscriptions and editions.
Hand over to prize_p for prize draws and winners."""

DESKS = {"renew_w": ("You are renew_w, who renews subscriptions to The Cryptic Monthly.\n"
                     "Renew the subscription with renew_subscription.", [renew_subscription]),
         "prize_p": ("You are prize_p, who answers prize draw queries for The Cryptic Monthly.\n"
                     "Look the draw up with prize_draw.", [prize_draw])}
HANDOVERS = {"transfer_to_renew_w": "renew_w", "transfer_to_prize_p": "prize_p"}


def build(whole_conversation: bool):
    model = chat_model()
    supervisor_llm = model.bind_tools([transfer_to_renew_w, transfer_to_prize_p])

    def desk_c(state: MessagesState) -> Command[Literal["renew_w", "prize_p", "__end__"]]:
        reply = supervisor_llm.invoke([SystemMessage(DESK), *state["messages"]])
        if not reply.tool_calls:
            return Command(goto=END, update={"messages": [reply]})
        c = reply.tool_calls[0]
        done = ToolMessage(transfer_to_renew_w.invoke({}) if c["name"] == "transfer_to_renew_w"
                           else transfer_to_prize_p.invoke({}), tool_call_id=c["id"], name=c["name"])
        return Command(goto=HANDOVERS[c["name"]], update={"messages": [reply, done]})

    def desk_node(name: str):
        prompt, tools = DESKS[name]
        agent = create_react_agent(model, tools, prompt=prompt, name=name)

        def run(state: MessagesState) -> dict:
            if whole_conversation:
                handed = state["messages"]
            else:  # the hand-over slip: the supervisor's note beside its hand-over call
                handed = [HumanMessage(state["messages"][-2].content)]
            out = agent.invoke({"messages": handed})
            return {"messages": out["messages"][len(handed):]}
        return run

    graph = StateGraph(MessagesState)
    graph.add_node("desk_c", desk_c)
    graph.add_node("renew_w", desk_node("renew_w"))
    graph.add_node("prize_p", desk_node("prize_p"))
    graph.add_edge(START, "desk_c")
    graph.add_edge("renew_w", END)
    graph.add_edge("prize_p", END)
    return graph.compile()


def seeded():
    return build(False)


def fixed():
    return build(True)
