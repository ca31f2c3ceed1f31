"""A 0.2-style (AutoGen 0.2 / AG2) group chat: a planner looks up facts with a tool, a writer
drafts, a critic approves with TERMINATE. Written the way the AutoGen 0.2 tutorials write apps:
models from OAI_CONFIG_LIST, a user proxy that executes the registered function, and a
GroupChatManager that picks speakers.

    python app.py "Write a short note about the Eiffel Tower"
    masfuzz exec --blackbox "python examples/ag2_groupchat/app.py {input}" --input "..." \
        --sut-model scripted/examples/ag2_groupchat/policy.py:policy
    masfuzz exec examples/ag2_groupchat/app.py:build_manager --input "..." \
        --sut-model scripted/examples/ag2_groupchat/policy.py:policy
"""

import json
import os
import sys

import autogen

FACTS = {"eiffel tower": "330 m tall, finished in 1889", "louvre": "opened in 1793"}


def lookup_fact(topic: str) -> str:
    """Look up a fact about a Paris landmark."""
    return FACTS.get(topic.lower(), f"no fact about {topic}")


def llm_config():
    """Models from OAI_CONFIG_LIST (a JSON list, or a file holding one), as 0.2-style apps read
    them; without it, one OpenAI model whose key and base URL come from the environment."""
    raw = os.environ.get("OAI_CONFIG_LIST", "").strip()
    if raw.startswith("["):
        config_list = json.loads(raw)
    elif raw and os.path.isfile(raw):
        with open(raw, encoding="utf-8") as f:
            config_list = json.load(f)
    else:
        config_list = [{"model": os.environ.get("OPENAI_MODEL", "gpt-4o-mini"),
                        "api_key": os.environ.get("OPENAI_API_KEY", "not-set")}]
    return {"config_list": config_list, "cache_seed": None}


def build_manager():
    cfg = llm_config()
    user = autogen.UserProxyAgent(
        "user", human_input_mode="NEVER", code_execution_config=False,
        max_consecutive_auto_reply=5, default_auto_reply="",
        is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""))
    planner = autogen.AssistantAgent(
        "planner", llm_config=cfg,
        system_message="You are Planner. Look up the facts the note needs with lookup_fact.")
    writer = autogen.AssistantAgent(
        "writer", llm_config=cfg, system_message="You are Writer. Draft the note from the facts.")
    critic = autogen.AssistantAgent(
        "critic", llm_config=cfg,
        system_message="You are Critic. Reply TERMINATE when the note is good.")
    autogen.register_function(lookup_fact, caller=planner, executor=user,
                              description="Look up a fact about a Paris landmark.")
    group = autogen.GroupChat(
        agents=[user, planner, writer, critic], messages=[], max_round=10,
        speaker_selection_method="auto",
        allowed_or_disallowed_speaker_transitions={
            user: [planner], planner: [user, writer], writer: [critic], critic: [writer, user]},
        speaker_transitions_type="allowed")
    manager = autogen.GroupChatManager(
        groupchat=group, llm_config=cfg,
        is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""))
    return manager


def main(task: str) -> None:
    manager = build_manager()
    user = manager.groupchat.agent_by_name("user")
    user.initiate_chat(manager, message=task)


if __name__ == "__main__":
    main(" ".join(sys.argv[1:]) or input("Task: "))
