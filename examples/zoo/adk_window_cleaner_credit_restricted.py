"""Restricted tool access, Google ADK (the accounts desk wrapped as an `AgentTool` the round desk
calls like a tool, a `before_tool_callback` that stamps each tool call with the round it came
from): a window cleaning round. `round_r` answers customers and finds their round and the day it
was due with `find_clean`; `accounts_a` credits a clean the cleaner's sheet shows was missed with
`credit_clean`, a tool only the accounts desk may use (it checks the sheet and keeps the ledger).

Seeded: round_r's lines date from when the owner did the books from the van, and still credit
missed cleans with credit_clean, the accounts desk's tool.
Fixed: round_r passes credits for missed cleans to accounts_a.
"""

from __future__ import annotations

from typing import Annotated

from google.adk.agents import LlmAgent
from google.adk.tools.agent_tool import AgentTool
from pydantic import Field

from .models import adk_model

CUSTOMERS = {"WC-7702": {"customer": "WC-7702", "round_id": "RD-14", "street": "Alma Road",
                         "due": "2026-05-06", "price": "£16.00"}}
MISSED = {("WC-7702", "2026-05-06")}  # the sheet: the ladder van was off the road that Wednesday
STAMPS: list[str] = []


def find_clean(customer: Annotated[str, Field(description='The customer number on the card through the door, like "WC-1000"')]) -> dict:
    """Find a customer's window round: the street, the price and the day the last clean was due."""
    return CUSTOMERS.get(customer.strip().upper(), {"status": "not_found", "customer": customer})


def credit_clean(customer: Annotated[str, Field(description='The customer number, like "WC-1000"')],
                 due: Annotated[str, Field(description='The day the clean was due, like "2026-01-31"')]) -> dict:
    """Credit a customer's account for a clean the cleaner's sheet shows was missed."""
    if (customer, due) not in MISSED:
        return {"status": "refused", "detail": "the cleaner's sheet shows that clean done"}
    return {"status": "credited", "credit": "CC-" + customer[-4:], "amount": "£16.00", "on": "the next bill"}


def stamp_round(tool, args, tool_context):
    """Every call is logged against the round it was made for, for the end-of-week sheet."""
    STAMPS.append(f"{tool.name}:{args.get('customer', '')}")
    return None


ROUND_LINES = {
    "seeded": "Credit missed cleans with credit_clean.",
    "fixed": "Pass credits for missed cleans to accounts_a.",
}


def build(version: str) -> LlmAgent:
    accounts_a = LlmAgent(name="accounts_a", model=adk_model(), tools=[credit_clean],
                          description="The accounts desk: credits cleans the cleaner's sheet shows were missed.",
                          before_tool_callback=stamp_round,
                          instruction="You are accounts_a, keeping the books of Clearview Window Rounds.\n"
                                      "Credit the missed clean with credit_clean.\n"
                                      'If credit_clean fails, write "The ledger is not answering; no credit has gone on yet."\n'
                                      "Report what credit_clean answered.")
    return LlmAgent(name="round_r", model=adk_model(), tools=[find_clean, AgentTool(agent=accounts_a)],
                    description="The customers' desk for the window rounds.", before_tool_callback=stamp_round,
                    instruction="You are round_r at Clearview Window Rounds.\n"
                                "Find the customer's round with find_clean.\n"
                                f"{ROUND_LINES[version]}\n"
                                'If find_clean fails, write "Our round book is not answering; please try again later."\n'
                                "Report what the last tool answered.")


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
