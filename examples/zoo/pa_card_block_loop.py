"""Loop, PydanticAI agent delegation (PydanticAI's bank-support example, `SupportDependencies`
with the customer id and a database connection, grown into two agents the way its "agent
delegation" docs show: `support_agent` runs `cards_agent` from its `ask_cards` tool with
`usage=ctx.usage`).

The bank's card processor is a queue in SQLite: `block_card` files a block request, and each
`card_block_status` check lets the processor work the request on (QUEUED, then BLOCKED) and
answers its state. Seeded: the status check opens its own connection and closes it without
committing, so the processor's step is rolled back every time: "QUEUED" forever, and cards_agent,
told to check until the card shows BLOCKED, asks the same question until the request limit.
Fixed: the check commits its step (`with conn:`), as `block_card` does.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass, field

from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

DB_URI = "file:zoo14_card_processor?mode=memory&cache=shared"
_anchor = sqlite3.connect(DB_URI, uri=True)  # keeps the shared in-memory database alive
with _anchor:
    _anchor.execute("CREATE TABLE IF NOT EXISTS cards (customer_id INTEGER, last4 TEXT, state TEXT)")
    _anchor.execute("CREATE TABLE IF NOT EXISTS blocks (id INTEGER PRIMARY KEY AUTOINCREMENT, "
                    "customer_id INTEGER, last4 TEXT, state TEXT)")
    if not _anchor.execute("SELECT 1 FROM cards").fetchone():
        _anchor.executemany("INSERT INTO cards VALUES (?, ?, ?)",
                            [(123, "0071", "active"), (123, "5532", "active"), (456, "8810", "active")])

NEXT_STATE = {"QUEUED": "BLOCKED"}  # what the processor does to a request each time it is looked at


@dataclass
class DatabaseConn:
    uri: str = DB_URI

    def connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.uri, uri=True)


@dataclass
class SupportDependencies:
    customer_id: int = 123
    db: DatabaseConn = field(default_factory=DatabaseConn)


def make_cards_agent(commit_step: bool) -> Agent:
    cards_agent = Agent(pydantic_ai_model(), name="cards_agent", deps_type=SupportDependencies, instructions="""\
# Card services - Banque Riviera
You block lost or stolen cards for customers the support desk passes to you.
1. Use `block_card` to file the block for the card the customer named.
2. Use `card_block_status` until it shows BLOCKED.
3. Relay what `card_block_status` said.
""")

    @cards_agent.tool
    async def block_card(ctx: RunContext[SupportDependencies], last4: str) -> dict:
        """File a block on one of the customer's cards with the card processor.

        Args:
            last4: The last four digits of the card, like "1234".
        """
        with closing(ctx.deps.db.connect()) as conn, conn:
            card = conn.execute("SELECT state FROM cards WHERE customer_id = ? AND last4 = ?",
                                (ctx.deps.customer_id, last4)).fetchone()
            if card is None:
                return {"code": 404, "detail": f"no card ending {last4} on this customer"}
            cur = conn.execute("INSERT INTO blocks (customer_id, last4, state) VALUES (?, ?, 'QUEUED')",
                               (ctx.deps.customer_id, last4))
        return {"code": 202, "request_id": f"BLK-{cur.lastrowid:06d}", "etat": "QUEUED"}

    @cards_agent.tool
    async def card_block_status(ctx: RunContext[SupportDependencies], request_id: str) -> dict:
        """Where a block request stands at the card processor.

        Args:
            request_id: The block request's id, like "BLK-000000".
        """
        conn = ctx.deps.db.connect()
        try:
            row = conn.execute("SELECT state, last4 FROM blocks WHERE id = ? AND customer_id = ?",
                               (int(request_id.removeprefix("BLK-")), ctx.deps.customer_id)).fetchone()
            if row is None:
                return {"code": 404, "request_id": request_id}
            state, last4 = row
            if state in NEXT_STATE:  # the processor works the request on
                conn.execute("UPDATE blocks SET state = ? WHERE id = ?",
                             (NEXT_STATE[state], int(request_id.removeprefix("BLK-"))))
                if commit_step:
                    conn.commit()
            return {"code": 200, "request_id": request_id, "card": f"**** {last4}", "etat": state}
        finally:
            conn.close()

    return cards_agent


def build(commit_step: bool) -> Agent:
    cards_agent = make_cards_agent(commit_step)
    support_agent = Agent(pydantic_ai_model(), name="support_agent", deps_type=SupportDependencies,
                          instructions="""\
# Support desk - Banque Riviera
You are a support agent in our bank: give the customer support and judge the risk level of their query.
1. Use `ask_cards` for anything about a lost, stolen or blocked card (only for lost, stolen, card or block).
2. Relay what `ask_cards` said.
""")

    @support_agent.tool
    async def ask_cards(ctx: RunContext[SupportDependencies], request: str) -> str:
        """Pass the customer's request to card services.

        Args:
            request: The customer's message, in their own words.
        """
        result = await cards_agent.run(request, deps=ctx.deps, usage=ctx.usage)
        return result.output

    return support_agent


def seeded():
    return build(commit_step=False)


def fixed():
    return build(commit_step=True)
