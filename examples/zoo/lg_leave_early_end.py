"""Premature termination, LangGraph (StateGraph): an HR leave pipeline. Intake logs the request,
the balance checker looks up the employee's days left, the approver decides.

Seeded: the router after intake ends the run when intake's reply says no further action is
needed (meant for duplicate requests), and intake says so to every employee as a courtesy, so the
run ends normally before the checker and the approver act. Fixed: it ends only on intake's
DUPLICATE marker.
"""

from __future__ import annotations

from langchain_core.messages import SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from .models import chat_model


@tool(parse_docstring=True)
def leave_balance(employee_id: str) -> dict:
    """How many days of leave an employee has left this year.

    Args:
        employee_id: The employee's id, like "EMP-0001".
    """
    return {"employee": employee_id, "days_left": 12, "year": 2025}


def build(ends_intake):
    model = chat_model()

    def node(prompt: str, tools=()):
        bound = model.bind_tools(list(tools)) if tools else model

        def run(state: MessagesState) -> dict:
            return {"messages": [bound.invoke([SystemMessage(prompt), *state["messages"]])]}

        return run

    builder = StateGraph(MessagesState)
    builder.add_node("intake", node("You log leave requests. Say \"Thanks, your request is logged; no further "
                                    "action is needed from you for now.\""))
    builder.add_node("balance_checker", node(
        "You check leave balances. Call leave_balance. Report the result of leave_balance.", [leave_balance]))
    builder.add_node("tools", ToolNode([leave_balance]))
    builder.add_node("approver", node("You decide leave requests from the balance found. Say \"Approved: "
                                      "enjoy your time off.\""))
    builder.add_edge(START, "intake")
    builder.add_conditional_edges(
        "intake", lambda state: END if ends_intake(state["messages"][-1].content) else "balance_checker")
    builder.add_conditional_edges("balance_checker", tools_condition, {"tools": "tools", END: "approver"})
    builder.add_edge("tools", "balance_checker")
    builder.add_edge("approver", END)
    return builder.compile()


seeded = build(lambda text: "no further action" in text.lower())
fixed = build(lambda text: "DUPLICATE" in text)
