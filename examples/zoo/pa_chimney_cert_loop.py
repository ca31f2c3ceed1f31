"""Loop, PydanticAI agent delegation (a tool that runs another agent, sharing its usage): a
chimney sweep's office. `flue_desk` answers customers and asks `cert_k` about sweep certificates
through `ask_certs`; cert_k reads the certificate's state with `cert_status`, from the office's
SQLite table the sweeps' handhelds upload to, and waits until it is issued.

Seeded: the handhelds write the job number without its dash ("CS4471"), but `cert_status` looks
it up as the customer gives it ("CS-4471"): no row, "AWAITING_UPLOAD" forever, and cert_k checks
until PydanticAI's request limit. Fixed: the lookup takes the dash out first.
"""

from __future__ import annotations

import sqlite3
from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent, RunContext

from .models import pydantic_ai_model

JOB = Annotated[str, Field(description='The job number on the sweep\'s receipt, e.g. "CS-0000"')]


def office_db() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.execute("create table certs (job text primary key, cert_no text, swept text, flue text)")
    db.execute("insert into certs values ('CS4471', 'SWC-20931', '2026-01-20', 'stove, lined, 6 in')")
    db.commit()
    return db


def certificates(handheld_keys: bool):
    db = office_db()

    def cert_status(job: JOB) -> dict:
        """The state of a sweep certificate (issued once the sweep's handheld has synced)."""
        key = job.replace("-", "") if handheld_keys else job
        row = db.execute("select cert_no, swept, flue from certs where job = ?", (key,)).fetchone()
        if row is None:
            return {"cert": {"state": "AWAITING_UPLOAD", "job": job, "hint": "handheld nog niet gesynchroniseerd"}}
        return {"cert": {"state": "ISSUED", "number": row[0], "swept": row[1], "flue": row[2]}}

    return cert_status


def build(handheld_keys: bool) -> Agent:
    cert_k = Agent(pydantic_ai_model(), name="cert_k",
                   instructions="Certificates, Moorside Sweeps.\n"
                                "Check the certificate with cert_status until it says ISSUED.\n"
                                "Confirm the certificate.")
    cert_k.tool_plain(certificates(handheld_keys))
    flue_desk = Agent(pydantic_ai_model(), name="flue_desk",
                      instructions="Front desk, Moorside Sweeps.\n"
                                   "Ask with ask_certs for a certificate, cert, insurance or landlord.\n"
                                   "Confirm the certificate.\n"
                                   'Reply "Bookings: 01535 600 000."')

    @flue_desk.tool
    async def ask_certs(ctx: RunContext[None], question: str) -> str:
        """Ask the certificates desk about a sweep certificate.

        Args:
            question: The customer's question, in their words.
        """
        result = await cert_k.run(question, usage=ctx.usage)
        return result.output

    return flue_desk


def seeded():
    return build(False)


def fixed():
    return build(True)
