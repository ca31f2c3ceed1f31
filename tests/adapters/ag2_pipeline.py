"""An AG2 group chat of the video pipeline's four roles whose manager's model picks every
speaker ("auto" selection, no transition rules, no repeats): the AG2 system on which the
speaking order's effect on an LLM selector is shown."""

import autogen

ROLES = ("script_writer", "voice_actor", "graphic_designer", "director")


def build_manager():
    cfg = {"config_list": [{"model": "gpt-4o-mini", "api_key": "sk-unused"}], "cache_seed": None}
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False,
                                  default_auto_reply="")
    roles = [autogen.AssistantAgent(r, llm_config=cfg, system_message=f"You are {r}. Do your part.")
             for r in ROLES]
    group = autogen.GroupChat(agents=[user, *roles], messages=[], max_round=len(ROLES) + 1,
                              speaker_selection_method="auto", allow_repeat_speaker=False)
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg)
