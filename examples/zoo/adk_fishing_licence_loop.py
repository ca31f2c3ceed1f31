"""Loop, Google ADK (an `LlmAgent` root transferring to a sub-agent that may not transfer back,
`disallow_transfer_to_parent`): a fishing licence office. `front_f` reads the anglers' messages
and transfers licence questions to `lic_o`, who tells an angler when their licence is issued. The
office's back office moves an application through received, checked and issued, and writes each
step to the application's log (a SQLite table); `licence_status` reads the newest step.

Seeded: the log query was written when each application had one row, and orders by the step's
time without DESC: it reads the oldest step, "received", forever, and lic_o, told to check until
the licence is issued, checks until ADK's call limit ends the run. Fixed: it reads the newest.
Both twins tell an angler whose application number the log does not hold to check the receipt
(an unknown number never reaches issued: without that line any twin checks it until the limit).
"""

from __future__ import annotations

import sqlite3
from typing import Annotated

from google.adk.agents import LlmAgent
from pydantic import Field

from .models import adk_model

STEPS = ("received", "checked", "issued")


class BackOffice:
    """The office's application log; each look at it finds the clerks one step further."""

    def __init__(self) -> None:
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.executescript("""
            CREATE TABLE log (application TEXT, step TEXT, at INTEGER);
            INSERT INTO log VALUES ('FL-88314', 'received', 1);
        """)

    def advance(self, application: str) -> None:
        done = [s for (s,) in self.db.execute("SELECT step FROM log WHERE application = ?", (application,))]
        if done and len(done) < len(STEPS):
            self.db.execute("INSERT INTO log VALUES (?, ?, ?)", (application, STEPS[len(done)], len(done) + 1))


def make_status(order: str):
    office = BackOffice()

    def licence_status(application: Annotated[str, Field(description='The application number on the receipt, e.g. "FL-00000"')]) -> dict:
        """Where a licence application is: received, checked by a clerk, or issued (then posted or emailed)."""
        office.advance(application)
        row = office.db.execute(f"SELECT step, at FROM log WHERE application = ? ORDER BY at {order} LIMIT 1",
                                (application,)).fetchone()
        if row is None:
            return {"application": application, "step": None, "hinweis": "unbekannt"}
        answer = {"application": application, "step": row[0], "updated": f"step {row[1]}"}
        if row[0] == "issued":
            answer["licence"] = {"number": "RL-2026-55071", "waters": "River Lune, Caton beat", "sent": "by email"}
        return answer
    return licence_status


def build(order: str) -> LlmAgent:
    lic_o = LlmAgent(
        name="lic_o", model=adk_model(), description="Tells anglers where their licence application is.",
        instruction=("You answer anglers about their licence applications at the Lune Valley Angling Office.\n"
                     "If licence_status says `unbekannt`, say \"I can't find that application number - could you "
                     "check the receipt?\"\n"
                     "Check the application with licence_status until it says issued."),
        tools=[make_status(order)], disallow_transfer_to_parent=True, disallow_transfer_to_peers=True)
    return LlmAgent(
        name="front_f", model=adk_model(), description="The angling office's front desk.",
        instruction=("You answer messages for the Lune Valley Angling Office.\n"
                     "Transfer to lic_o for licence applications and permits."),
        sub_agents=[lic_o])


def seeded():
    return build("")


def fixed():
    return build("DESC")
