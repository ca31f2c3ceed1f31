"""Premature termination, AG2 (AutoGen 0.2 API): a round-robin group chat of a planner, a writer
and a critic, whose manager ends the chat on a termination message.

Seeded: the manager's termination test looks for "done" anywhere, and the planner says its plan is
done, so the chat ends before the writer and the critic speak. Fixed: it looks for "TERMINATE".
"""

from __future__ import annotations

import autogen

from .models import ag2_config


def build(is_termination_msg):
    cfg = ag2_config()
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False,
                                  default_auto_reply="")
    planner = autogen.AssistantAgent("planner", llm_config=cfg, system_message="You plan the note. "
                                     "Say \"Plan done: give the tower's height, then its opening year.\"")
    writer = autogen.AssistantAgent("writer", llm_config=cfg, system_message="You write the note from the "
                                    "plan. Say \"Note: the Eiffel Tower is 330 m tall and opened in 1889.\"")
    critic = autogen.AssistantAgent("critic", llm_config=cfg, system_message="You check the note. "
                                    "Say \"The note is accurate. TERMINATE\"")
    group = autogen.GroupChat(agents=[user, planner, writer, critic], messages=[], max_round=8,
                              speaker_selection_method="round_robin")
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg, is_termination_msg=is_termination_msg)


def seeded():
    return build(lambda m: "done" in (m.get("content") or "").lower())


def fixed():
    return build(lambda m: "TERMINATE" in (m.get("content") or ""))
