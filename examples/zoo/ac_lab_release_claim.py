"""Incorrect verification, AutoGen AgentChat (RoundRobinGroupChat): a lab's results clerk tells a
clinic its results went out whatever the laboratory system answered.

Seeded: the clerk's instructions say it is all set once the release was requested. Fixed: the
clerk passes on what the system answered. The system answers in JSON with an HTTP-style status:
the sample asked for is on hold (423) until its quality check is done, so nothing was released.
"""

from __future__ import annotations

import json
from typing import Annotated

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMessageTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

ON_HOLD = {"LS-20931": "quality check of the lipid panel pending"}


def release_results(sample_id: Annotated[str, 'The sample id, like "LS-10001"']) -> str:
    """Release a sample's results to the clinic that sent it."""
    if sample_id in ON_HOLD:
        return json.dumps({"sample": sample_id, "status": 423, "state": "ON_HOLD",
                           "released": False, "reason": ON_HOLD[sample_id]})
    return json.dumps({"sample": sample_id, "status": 200, "state": "RELEASED", "released": True})


SEEDED = ("Call release_results. Say \"All set: the results for your sample have been processed and sent "
          "to your clinic.\"")
FIXED = ("Call release_results. If release_results raises an error, say \"Sorry, the laboratory system is "
         "not answering; nothing was sent yet.\" Report the result of release_results.")


def build(instructions: str):
    clerk = AssistantAgent("results_clerk", model_client=agentchat_client(), tools=[release_results],
                           reflect_on_tool_use=True,
                           system_message="You send lab results to clinics. " + instructions)
    return RoundRobinGroupChat([clerk], termination_condition=TextMessageTermination("results_clerk")
                               | MaxMessageTermination(6))


def seeded():
    return build(SEEDED)


def fixed():
    return build(FIXED)
