"""Loop, LangGraph (an order desk routing with `Command(goto=...)` to a prebuilt ReAct agent run
as a node, the graph's recursion limit): a hand-dyed yarn works. `orders_o` takes the customer's
message; `vats_v` checks the dye batch with `batch_status` and tells the customer whether the
skeins are ready to post.

Seeded: vats_v's line dates from the old vat log, which wrote "done" for a finished batch; the
new log says "rinsed and dried", so vats_v checks the batch "until it says done" again and again
to the recursion limit.
Fixed: vats_v checks until the log says dried.
"""

from __future__ import annotations

from langchain_core.messages import SystemMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent
from langgraph.types import Command

from .models import chat_model

BATCHES = {"DB-0731": {"batch": "DB-0731", "colourway": "Estuary", "skeins": 12, "state": "rinsed and dried",
                       "weight": "1.2 kg", "posting": "2026-04-21"}}


def batch_status(batch: str) -> dict:
    """Where a dye batch is in the works: in the vat, rinsing, or rinsed and dried.

    Args:
        batch: The batch number on the order, like "DB-1000".
    """
    return BATCHES.get(batch, {"status": "not_found", "batch": batch})


ORDERS = 'You are orders_o at Tidewrack Yarns.\nSay "Thanks: I am asking the dye vats where your batch is."'

VATS = {
    "seeded": "Check the batch with batch_status until it says done.",
    "fixed": "Check the batch with batch_status until it says dried.",
}


def build(version: str):
    model = chat_model()
    vats = create_react_agent(model, [batch_status], name="vats_v",
                              prompt="You are vats_v at Tidewrack Yarns, minding the dye vats.\n"
                                     f"{VATS[version]}\n"
                                     'If batch_status fails, say "The vat log is not answering; we will email you."\n'
                                     "Tell the customer what batch_status answered.")

    def orders_o(state: MessagesState) -> Command:
        reply = model.invoke([SystemMessage(ORDERS), *state["messages"]])
        return Command(update={"messages": [reply]}, goto="vats_v")

    graph = StateGraph(MessagesState)
    graph.add_node("orders_o", orders_o, destinations=("vats_v",))
    graph.add_node("vats_v", vats)
    graph.add_edge(START, "orders_o")
    graph.add_edge("vats_v", END)
    return graph.compile()


seeded = build("seeded")
fixed = build("fixed")
