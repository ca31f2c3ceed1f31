"""Speaking order against a dependency stated indirectly, AG2 (AutoGen 0.2 API): a round-robin
group chat writes a weekly delivery report. The writer works "once the analyst is done", "based
on the data gathered"; a reviewer closes the chat.

Seeded: the members are listed writer first, so round-robin lets the writer speak before the
analyst gathered anything. Fixed: analyst, then writer.
"""

from __future__ import annotations

import autogen

from .models import ag2_config


def build(writer_first: bool):
    cfg = ag2_config()
    user = autogen.UserProxyAgent("ops_lead", human_input_mode="NEVER", code_execution_config=False,
                                  default_auto_reply="")
    analyst = autogen.AssistantAgent("analyst", llm_config=cfg, system_message="You pull the week's delivery "
                                     "figures. Say \"Data for week 23: 1,204 deliveries, 94% on time; late lanes "
                                     "LYN-TRN and GDN-BRQ.\"")
    writer = autogen.AssistantAgent("report_writer", llm_config=cfg, system_message="You write the weekly "
                                    "summary once the analyst is done, based on the data gathered. Say "
                                    "\"Summary: on-time delivery held at 94%; two lanes still run late.\"")
    reviewer = autogen.AssistantAgent("reviewer", llm_config=cfg, system_message="You check the summary "
                                      "against the figures. Say \"Checked. TERMINATE\"")
    order = [writer, analyst] if writer_first else [analyst, writer]
    group = autogen.GroupChat(agents=[user, *order, reviewer], messages=[], max_round=8,
                              speaker_selection_method="round_robin")
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg,
                                    is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""))


def seeded():
    return build(writer_first=True)


def fixed():
    return build(writer_first=False)
