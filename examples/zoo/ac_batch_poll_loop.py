"""Loop, AutoGen AgentChat (RoundRobinGroupChat): payroll bank transfers. iris submits the month's
payment batch to the bank; node_b polls the bank's batch status until the batch is POSTED.

Seeded: the status lookup filters the bank's postings by the batch id upper-cased, while the bank
files batches as submitted (lower case), so every poll answers an empty list of postings and
node_b polls the same batch again and again; the run ends only on the team's message limit.
Fixed: it looks the batch up as submitted, and the batch is POSTED on the second poll.
"""

from __future__ import annotations

import json
from typing import Annotated, Callable

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client


class Bank:
    """Postings appear on the second status query of a batch."""

    def __init__(self, key: Callable[[str], str]) -> None:
        self.key = key
        self.queries: dict[str, int] = {}

    def submit(self, period: str) -> str:
        batch = f"pay-{period}"
        self.queries[batch] = 0
        return f"Batch {batch} submitted to the bank: 41 transfers."

    def status(self, batch: str) -> str:
        key = self.key(batch)
        if key not in self.queries:
            return json.dumps({"batch": batch, "postings": []})
        self.queries[key] += 1
        if self.queries[key] < 2:
            return json.dumps({"batch": batch, "postings": []})
        return json.dumps({"batch": batch, "postings": [{"state": "POSTED", "transfers": 41}]})


def build(key: Callable[[str], str]):
    client = agentchat_client()
    bank = Bank(key)

    def submit_batch(period: Annotated[str, 'The payroll month, like "2025-01"']) -> str:
        """Submit a month's salary payments to the bank as one batch."""
        return bank.submit(period)

    def batch_postings(batch: Annotated[str, 'The batch id, like "pay-2025-01"']) -> str:
        """The bank's postings for a payment batch."""
        return bank.status(batch)

    iris = AssistantAgent("iris", model_client=client, tools=[submit_batch], reflect_on_tool_use=True,
                          system_message="You pay salaries. Call submit_batch. If submit_batch raises an error, say "
                          "\"The bank link is down; salaries are not sent yet.\" Report the result of submit_batch.")
    node_b = AssistantAgent("node_b", model_client=client, tools=[batch_postings],
                            system_message="You watch the bank. Call batch_postings until it says POSTED. If "
                            "batch_postings raises an error, say \"The bank is not answering; I will look again "
                            "later.\"")
    return RoundRobinGroupChat([iris, node_b], termination_condition=TextMentionTermination("POSTED")
                               | MaxMessageTermination(12))


def seeded():
    return build(str.upper)


def fixed():
    return build(lambda batch: batch)
