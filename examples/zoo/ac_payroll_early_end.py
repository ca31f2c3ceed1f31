"""Premature termination, AutoGen AgentChat (RoundRobinGroupChat): a month-end payroll run. quill
drafts the run with the payroll tool and sums it up; ledger audits the figures once they are in;
signoff releases the payments.

Seeded: the team's stop condition (a `TextMessageTermination`) names the wrong member, quill, so
the run ends normally on quill's summary of the draft, before ledger audits and signoff releases.
Fixed: it ends on signoff's text message.
"""

from __future__ import annotations

from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMessageTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client


def draft_payroll(period: Annotated[str, 'The payroll month, like "2025-01"']) -> dict:
    """Draft the payroll run for a month from the approved timesheets."""
    return {"period": period, "employees": 41, "gross": "182,400.00", "net": "131,905.12", "state": "draft"}


def build(ends_on: str):
    client = agentchat_client()
    quill = AssistantAgent("quill", model_client=client, tools=[draft_payroll], reflect_on_tool_use=True,
                           system_message="You prepare payroll runs. Call draft_payroll. If draft_payroll raises "
                           "an error, say \"The payroll engine is down; the run will wait.\" Say \"The May draft "
                           "is ready: 41 people, gross 182,400.00.\"")
    ledger = AssistantAgent("ledger", model_client=client,
                            system_message="After the numbers are in, you go through them line by line. Say "
                            "\"Audit passed: gross and net reconcile with the timesheets.\"")
    signoff = AssistantAgent("signoff", model_client=client,
                             system_message="You release payments once the audit has passed. Say \"Payments "
                             "released for May; staff will be paid on the 28th.\"")
    return RoundRobinGroupChat([quill, ledger, signoff],
                               termination_condition=TextMessageTermination(ends_on) | MaxMessageTermination(10))


def seeded():
    return build("quill")


def fixed():
    return build("signoff")
