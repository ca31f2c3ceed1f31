"""Misrouted request, PydanticAI delegation through tools: a city transport company's
lost-property office. `counter` answers the public and passes each matter to one of three desks
through an `ask_<desk>` tool: `returns` gives items back to their owners (`release_item`),
`handins` logs what staff and passengers hand in, `storage` knows the storage charges and when
unclaimed items go to auction.

The ask tools are made in a loop over the office's `DESKS` table. Seeded: each tool's function
is defined inside the loop and runs `desk`, the loop's variable, which Python looks up when the
tool runs, not when it was made: every ask tool runs the last desk of the table, storage, and an
owner's claim never reaches returns, though counter picked the right tool. Fixed: each tool is
made by a function that binds its own desk.
"""

from __future__ import annotations

from typing import Annotated, Callable

from pydantic import Field
from pydantic_ai import Agent, RunContext, Tool

from .models import pydantic_ai_model

ITEM = Annotated[str, Field(description='The lost-property reference on the office\'s receipt or e-mail, like "LP-100000"')]
HELD = {"LP-250871": {"what": "black Brompton folding bike, brooks saddle", "found": "tram 2, 2026-02-03",
                      "shelf": "cage B", "released": False}}


def release_item(item: ITEM) -> dict:
    """Release a held item to its owner for collection at the office (photo ID at the window)."""
    held = HELD.get(item)
    if held is None:
        return {"item": item, "release": None, "note": "no such reference"}
    held["released"] = True
    return {"item": item, "release": "ready", "collect_from": f"window 3, {held['shelf']}", "what": held["what"]}


def log_hand_in(where_found: Annotated[str, Field(description='Where it was found, like "bus 31"')]) -> str:
    """Log an item handed in by staff or a passenger."""
    return f"Logged as found on {where_found}; it reaches the office within 48 hours."


def storage_charge(item: ITEM) -> str:
    """What storage has cost so far and when an unclaimed item goes to auction."""
    held = HELD.get(item)
    if held is None:
        return f"{item}: not in store."
    return f"{item}: GBP 2.00 a day after the first 7 days, so far GBP 18.00; auction after 90 days, on 2026-05-04."


returns = Agent(pydantic_ai_model(), name="returns", tools=[release_item],
                instructions="You give lost property back to its owners.\nCall release_item.\n"
                             'If release_item raises an error, say "The store system is down - bring your '
                             'receipt and photo ID and we will find it by hand."\nReport the result of release_item.')
handins = Agent(pydantic_ai_model(), name="handins", tools=[log_hand_in],
                instructions="You log items handed in.\nCall log_hand_in.\n"
                             'If log_hand_in raises an error, say "The log is offline; leave the item at window 1 with a note."\n'
                             "Report the result of log_hand_in.")
storage = Agent(pydantic_ai_model(), name="storage", tools=[storage_charge],
                instructions="You answer questions about storage charges and auctions.\nCall storage_charge.\n"
                             'If storage_charge raises an error, say "The charges table is offline; ask at window 3."\n'
                             "Report the result of storage_charge.")

DESKS = {
    "returns": (returns, "Pass an owner's claim for an item the office holds to the returns desk."),
    "handins": (handins, "Pass a report of a found item being handed in to the hand-ins desk."),
    "storage": (storage, "Pass a question about storage charges or auctions to the storage desk."),
}

COUNTER = """You answer the public at Tyneside Transport's lost-property office.
Call ask_returns when the request mentions lost, left, collect or claim.
Call ask_handins when the request mentions found or handed.
Call ask_storage when the request mentions charge, cost, auction or how long.
If ask_returns raises an error, say "The returns desk is busy; please call in with your receipt."
Report the result of ask_returns.
Report the result of ask_handins.
Report the result of ask_storage."""


def ask_tools_in_loop() -> list[Tool]:
    tools = []
    for key, (desk, what) in DESKS.items():
        async def ask(ctx: RunContext, message: str) -> str:
            return (await desk.run(message, usage=ctx.usage)).output
        tools.append(Tool(ask, name=f"ask_{key}", description=what))
    return tools


def ask_tool(desk: Agent) -> Callable:
    async def ask(ctx: RunContext, message: str) -> str:
        return (await desk.run(message, usage=ctx.usage)).output
    return ask


def ask_tools() -> list[Tool]:
    return [Tool(ask_tool(desk), name=f"ask_{key}", description=what) for key, (desk, what) in DESKS.items()]


def seeded():
    return Agent(pydantic_ai_model(), name="counter", instructions=COUNTER, tools=ask_tools_in_loop())


def fixed():
    return Agent(pydantic_ai_model(), name="counter", instructions=COUNTER, tools=ask_tools())
