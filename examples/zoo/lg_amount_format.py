"""Tool specification mismatch, LangGraph (langgraph-swarm): `send_money` documents amounts with
their currency ("EUR 120.00") and rejects them, and the payments agent apologises.

Seeded: the tool reads the amount as a bare number. Fixed: it reads the documented format.
"""

from __future__ import annotations

from langchain_core.tools import tool
from langgraph.prebuilt import ToolNode, create_react_agent
from langgraph_swarm import create_handoff_tool, create_swarm

from .models import chat_model


def make_send_money(with_currency: bool):
    @tool(parse_docstring=True)
    def send_money(account: str, amount: str) -> str:
        """Transfer money to an account.

        Args:
            account: The payee's account, like "ACC-2291".
            amount: The amount with its currency, like "EUR 120.00".
        """
        value = float(amount.split()[-1]) if with_currency else float(amount)
        return f"Sent {value:.2f} to {account}, transfer T-{int(value)}."

    return send_money


def build(with_currency: bool):
    model = chat_model()
    desk = create_react_agent(model, [create_handoff_tool(agent_name="payments_agent")], name="desk_agent",
                              prompt="You are a bank's front desk. Hand off to payments_agent when the request "
                              "mentions transfer, pay or send. Say \"How can I help?\"")
    payments = create_react_agent(
        model, ToolNode([make_send_money(with_currency)], handle_tool_errors=True), name="payments_agent",
        prompt="You make payments. Call send_money. If send_money fails, say \"Sorry, the transfer could not "
        "be made; please try again later.\" Report the result of send_money.")
    return create_swarm([desk, payments], default_active_agent="desk_agent").compile()


seeded = build(with_currency=False)
fixed = build(with_currency=True)
