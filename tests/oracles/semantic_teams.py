"""AgentChat round-robin teams for the semantic oracles' end-to-end tests: a researcher, a writer
who writes "based on the researcher's findings" and a reviewer who checks "the writer's draft".

- `writer_first_team`: the configured order puts the writer before the researcher it depends on
  (kind 4); `researcher_first_team` is its fixed twin.
- `stop_word_team`: the team stops at the word FINAL, which the writer's draft heading contains,
  so the run concludes before the reviewer the task asks for has acted (kind 3);
  `researcher_first_team`, which stops at the reviewer's APPROVED, is its fixed twin.
"""

from __future__ import annotations

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from masfuzz.adapters.autogen.bridge import MasfuzzChatCompletionClient
from masfuzz.llm.scripted import say

POLICY = "scripted/tests/oracles/semantic_teams.py:policy"
ROLES = {
    "researcher": "You are the researcher. Gather the key facts on the topic.",
    "writer": "You are the writer. Write a short post based on the researcher's findings.",
    "reviewer": "You are the reviewer. Check the writer's draft and say APPROVED when it is right.",
}


def _team(order: tuple[str, ...], stop: str) -> RoundRobinGroupChat:
    members = [AssistantAgent(name, model_client=MasfuzzChatCompletionClient(POLICY),
                              system_message=ROLES[name]) for name in order]
    return RoundRobinGroupChat(members, termination_condition=TextMentionTermination(stop)
                               | MaxMessageTermination(10))


def writer_first_team() -> RoundRobinGroupChat:
    return _team(("writer", "researcher", "reviewer"), "APPROVED")


def researcher_first_team() -> RoundRobinGroupChat:
    return _team(("researcher", "writer", "reviewer"), "APPROVED")


def stop_word_team() -> RoundRobinGroupChat:
    return _team(("researcher", "writer", "reviewer"), "FINAL")


def policy(request):
    """Each member does its role's work with what the conversation holds so far."""
    said = " ".join(m.content or "" for m in request.messages if m.role != "system")
    if request.agent == "researcher":
        return say("Findings: water evaporates, condenses into clouds and falls back as rain.")
    if request.agent == "writer":
        if "Findings:" in said:
            return say("FINAL DRAFT: Water rises as vapour, gathers into clouds and returns as rain.")
        return say("FINAL DRAFT: A post about the water cycle, written without any findings.")
    if "DRAFT" in said:
        return say("APPROVED: the draft matches the findings.")
    return say("There is no draft to review yet.")
