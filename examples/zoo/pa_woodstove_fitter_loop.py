"""Loop, PydanticAI (agent delegation through a tool sharing the caller's usage, a `system_prompt`
function reading the run's `deps`): a woodstove fitter's office (stoves on twin-wall flue systems
for houses without a chimney). `stove_desk` answers customers and asks `signoff_k` about the
building-regulations sign-off through `ask_signoff`; signoff_k reads the competent-person
register with `hetas_register`, in the office's SQLite copy, and waits until the job is notified.

Seeded: `hetas_register` still reads the register with the season filter it was written with
(`season = 2025`): this year's installations are never found, the answer is QUEUED for ever, and
signoff_k checks until PydanticAI's request limit. Fixed: the season is the job's own, from its
install date.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

JOB = Annotated[str, Field(description='The job number on the fitting invoice, e.g. "WF-0000"')]


@dataclass
class Office:
    """What the office's job system passes its agents on every run."""
    fitter: str = "Callum"
    phone: str = "01887 820 114"


def office() -> Office:
    return Office()


def register_db() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.execute("create table jobs (job text primary key, installed text)")
    db.execute("create table notified (job text, season int, cert text)")
    db.executemany("insert into jobs values (?, ?)", [("WF-3318", "2026-02-11"), ("WF-2977", "2025-10-02")])
    db.executemany("insert into notified values (?, ?, ?)", [("WF-3318", 2026, "CP-88140"), ("WF-2977", 2025, "CP-80322")])
    db.commit()
    return db


def register(job_season: bool):
    db = register_db()

    def hetas_register(job: JOB) -> dict:
        """Whether the installation has been notified to building control (the sign-off certificate)."""
        installed = db.execute("select installed from jobs where job = ?", (job,)).fetchone()
        if installed is None:
            return {"job": job, "notification": {"state": "NOT_FOUND", "note": "no such job on the fitting list"}}
        season = int(installed[0][:4]) if job_season else 2025
        row = db.execute("select cert from notified where job = ? and season = ?", (job, season)).fetchone()
        if row is None:
            return {"job": job, "notification": {"state": "QUEUED", "note": "wird bearbeitet, up to 30 days"}}
        return {"job": job, "notification": {"state": "NOTIFIED", "installed": installed[0], "certificate": row[0]}}
    return hetas_register


def build(job_season: bool) -> Agent:
    signoff_k = Agent(pydantic_ai_model(), name="signoff_k", deps_type=Office,
                      instructions="You handle building-regulations sign-off at Loch Tay Stoves.\n"
                                   "If hetas_register says NOT_FOUND, say \"We can't find that job number - "
                                   "could you check the invoice?\"\n"
                                   "Check the notification with hetas_register until it says NOTIFIED.\n"
                                   "Report what hetas_register said.")
    signoff_k.tool_plain(register(job_season))
    stove_desk = Agent(pydantic_ai_model(), name="stove_desk", deps_type=Office,
                       instructions="You answer customers at Loch Tay Stoves.\n"
                                    "Ask with ask_signoff for sign-off, certificate, HETAS, building control "
                                    "or notification.\n"
                                    "Report what ask_signoff said.")

    @stove_desk.system_prompt
    def who_fitted(ctx: RunContext[Office]) -> str:
        return f"Installs this month are fitted by {ctx.deps.fitter}; the office phone is {ctx.deps.phone}."

    @stove_desk.tool
    async def ask_signoff(ctx: RunContext[Office], question: str) -> str:
        """Ask the sign-off desk about a stove's building-control notification.

        Args:
            question: The customer's question, in their words.
        """
        return (await signoff_k.run(question, deps=ctx.deps, usage=ctx.usage)).output

    return stove_desk


def seeded():
    return build(False)


def fixed():
    return build(True)
