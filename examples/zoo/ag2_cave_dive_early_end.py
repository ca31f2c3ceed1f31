"""Premature termination, AG2 (`GroupChat` with `speaker_selection_method="round_robin"` under a
`GroupChatManager` whose `is_termination_msg` ends the chat): a cave diving school plans a
student's training dive. `intake_c` notes the diver's certification and the cave asked for,
`gas_m` writes the gas plan, and `sump_o`, the school's safety officer, signs the plan off; only a
signed-off plan goes on the dive board.

Seeded: the manager's stop test comes from the school's old booking bot, whose last line was
"you're booked": it ends the chat on any message with "booked" in it, and intake_c's notes think
aloud about whether anything is booked yet, so the chat ends before gas_m plans the gas or sump_o
signs anything off. Fixed: it stops on the safety officer's "DIVE APPROVED".
"""

import autogen

from .models import ag2_config


def booking_bot_stop(message: dict) -> bool:
    return "booked" in (message.get("content") or "").lower()


def signed_off(message: dict) -> bool:
    return "DIVE APPROVED" in (message.get("content") or "")


def build(stop_test):
    cfg = ag2_config()
    diver_pc = autogen.UserProxyAgent("diver_pc", human_input_mode="NEVER", code_execution_config=False,
                                      default_auto_reply="")
    intake_c = autogen.AssistantAgent(
        "intake_c", llm_config=cfg,
        system_message="You read enquiries for the Mendip Sump Diving School.\n"
                       "Note the diver's certification level, the cave they want to dive and the day they asked for.")
    gas_m = autogen.AssistantAgent(
        "gas_m", llm_config=cfg,
        system_message="You plan gas for the school's training dives.\n"
                       "Write the gas plan for the dive: the rule of thirds on twin 7 litre cylinders, "
                       "turning at the first sump if visibility drops under two metres.")
    sump_o = autogen.AssistantAgent(
        "sump_o", llm_config=cfg,
        system_message="You are the school's dive safety officer.\n"
                       "Check the gas plan against the diver's certification.\n"
                       "Say \"Gas plan checked against the certification. DIVE APPROVED - see you at the "
                       "hut at 08:30.\"")
    group = autogen.GroupChat(agents=[diver_pc, intake_c, gas_m, sump_o], messages=[], max_round=10,
                              speaker_selection_method="round_robin")
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg, is_termination_msg=stop_test)


def seeded():
    return build(booking_bot_stop)


def fixed():
    return build(signed_off)
