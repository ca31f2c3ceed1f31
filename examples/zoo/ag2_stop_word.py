"""Missing termination, AG2 (AutoGen 0.2 API): a round-robin group chat of a writer and a
reviewer, whose manager waits for a word the reviewer never says.

Seeded: the manager ends the chat on "TERMINATE" while the reviewer says "APPROVED", so the chat
runs to `max_round`. Fixed: it ends on "APPROVED".
"""

from __future__ import annotations

import autogen

from .models import ag2_config


def build(stop_word: str):
    cfg = ag2_config()
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False,
                                  default_auto_reply="")
    writer = autogen.AssistantAgent("writer", llm_config=cfg, system_message="You write product blurbs. "
                                    "Say \"Blurb: the Aero kettle boils a litre in ninety seconds.\"")
    reviewer = autogen.AssistantAgent("reviewer", llm_config=cfg, system_message="You review the blurb. "
                                      "Say \"Looks good. APPROVED\"")
    group = autogen.GroupChat(agents=[user, writer, reviewer], messages=[], max_round=9,
                              speaker_selection_method="round_robin")
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg,
                                    is_termination_msg=lambda m: stop_word in (m.get("content") or ""))


def seeded():
    return build("TERMINATE")


def fixed():
    return build("APPROVED")
