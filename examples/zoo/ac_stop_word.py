"""Missing termination, AutoGen AgentChat (RoundRobinGroupChat): the team stops on a word the
reviewer never says.

Seeded: the stop condition waits for "TERMINATE" while the reviewer's instructions end with
"APPROVED", so the writer and the reviewer go round until the message limit. Fixed: the
condition waits for "APPROVED".
"""

from __future__ import annotations

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client


def build(stop_word: str):
    client = agentchat_client()
    writer = AssistantAgent("writer", model_client=client,
                            system_message="You write product blurbs. Say \"Blurb: the Aero kettle boils "
                            "a litre in ninety seconds.\"")
    reviewer = AssistantAgent("reviewer", model_client=client,
                              system_message="You review the blurb. Say \"Looks good. APPROVED\"")
    stop = TextMentionTermination(stop_word) | MaxMessageTermination(9)
    return RoundRobinGroupChat([writer, reviewer], termination_condition=stop)


def seeded():
    return build("TERMINATE")


def fixed():
    return build("APPROVED")
