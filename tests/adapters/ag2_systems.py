"""Small AutoGen 0.2-style systems, each one shape FLARE's benchmark apps use, written the way
the AutoGen 0.2 tutorials write them (tests/adapters/test_ag2_shapes.py):

- `comedians`: a two-agent chat that ends on a phrase or after two turns (Joke Maker);
- `blog`: a writer and a critic whose reply is composed by nested review chats (Blog Writer);
- `currency`: a tool registered for the model on one agent and for execution on a proxy
  (Tool Caller);
- `round_robin`: a group chat whose members speak in turn (a factory: returns the manager);
- `coder`: an assistant writes code and a proxy's code executor runs it (Financial Analyst,
  Workflow Designer, Game Creator), with an executor object or the legacy `work_dir` config;
- fixtures_ag2/onboarding.py: a three-chat `initiate_chats` sequence with carry-over, at module
  level like a converted notebook, with a human proxy (Customer Onboarding).
"""

import autogen


def cfg():
    return {"config_list": [{"model": "gpt-4o-mini", "api_key": "sk-unused"}], "cache_seed": None}


def comedians():
    cathy = autogen.ConversableAgent(
        "cathy", system_message="Your name is Cathy and you are a stand-up comedian.",
        llm_config=cfg(), human_input_mode="NEVER")
    joe = autogen.ConversableAgent(
        "joe", system_message="Your name is Joe and you are a stand-up comedian. Start the next "
        "joke from the punchline of the previous joke.", llm_config=cfg(), human_input_mode="NEVER",
        is_termination_msg=lambda m: "I gotta go" in (m.get("content") or ""))
    return joe.initiate_chat(cathy, message="I'm Joe. Cathy, let's keep the jokes rolling.",
                             max_turns=2)


def writer_and_critic(**critic_options):
    writer = autogen.AssistantAgent(
        "writer", llm_config=cfg(),
        system_message="You are a writer. You write engaging and concise blogposts.")
    critic = autogen.AssistantAgent(
        "critic", llm_config=cfg(),
        system_message="You are a critic. You review the work of the writer and provide feedback.",
        **critic_options)
    return writer, critic


def blog():
    writer, critic = writer_and_critic(
        is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""))
    seo = autogen.AssistantAgent(
        "seo_reviewer", llm_config=cfg(),
        system_message="You are an SEO reviewer. Give concise suggestions for search ranking.")
    legal = autogen.AssistantAgent(
        "legal_reviewer", llm_config=cfg(),
        system_message="You are a legal reviewer. Make sure the content is legally compliant.")

    def reflection(recipient, messages, sender, config):
        return f"Review the following content.\n\n {recipient.chat_messages_for_summary(sender)[-1]['content']}"

    critic.register_nested_chats(
        [{"recipient": seo, "message": reflection, "summary_method": "last_msg", "max_turns": 1},
         {"recipient": legal, "message": reflection, "summary_method": "last_msg", "max_turns": 1}],
        trigger=writer)
    return critic.initiate_chat(writer, message="Write a blogpost about DeepLearning.AI.",
                                max_turns=2, summary_method="last_msg")


def currency_calculator(base_amount: float, base_currency: str, quote_currency: str) -> str:
    """Convert an amount between USD and EUR."""
    rates = {("USD", "EUR"): 0.9, ("EUR", "USD"): 1.1}
    if (base_currency, quote_currency) not in rates:
        raise ValueError(f"unknown pair {base_currency}/{quote_currency}")
    return f"{base_amount * rates[(base_currency, quote_currency)]:.2f} {quote_currency}"


def currency():
    bot = autogen.AssistantAgent(
        "currency_bot", llm_config=cfg(),
        system_message="For currency exchange tasks, only use the functions you have been "
        "provided with. Reply TERMINATE when the task is done.")
    user = autogen.UserProxyAgent(
        "user_proxy", human_input_mode="NEVER", code_execution_config=False,
        max_consecutive_auto_reply=5,
        is_termination_msg=lambda m: (m.get("content") or "").rstrip().endswith("TERMINATE"))
    autogen.register_function(currency_calculator, caller=bot, executor=user,
                              description="Currency exchange calculator.")
    return user.initiate_chat(bot, message="How much is 123.45 USD in EUR?")


def round_robin():
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False,
                                  default_auto_reply="")
    roles = [autogen.AssistantAgent(r, llm_config=cfg(), system_message=f"You are {r}. Do your part.")
             for r in ("researcher", "drafter", "editor")]
    group = autogen.GroupChat(agents=[user, *roles], messages=[], max_round=5,
                              speaker_selection_method="round_robin")
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg())


def round_robin_program():
    """The round robin, built and started by the program itself (as scripts do)."""
    manager = round_robin()
    return manager.groupchat.agents[0].initiate_chat(manager, message="Write a short report.")


def proxy_review():
    """Nested chats held by a model-less proxy: the writer's draft makes the user proxy ask a
    critic, whose critique goes back to the writer as the proxy's reply."""
    writer, critic = writer_and_critic()
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)
    user.register_nested_chats(
        [{"recipient": critic, "summary_method": "last_msg", "max_turns": 1,
          "message": lambda recipient, messages, sender, config: "Critique: " + messages[-1]["content"]}],
        trigger=writer)
    return user.initiate_chat(writer, message="Write a blogpost about Meta.", max_turns=2)


def coder():
    """The code the coder writes creates the file $CODER_MARKER; $CODER_STYLE picks the
    executor: an executor object (`executor`) or the legacy `work_dir` config (`legacy`)."""
    import os
    import tempfile

    work = tempfile.mkdtemp()
    if os.environ["CODER_STYLE"] == "executor":
        from autogen.coding import LocalCommandLineCodeExecutor

        config = {"executor": LocalCommandLineCodeExecutor(work_dir=work)}
    else:
        config = {"work_dir": work, "use_docker": False}
    writer = autogen.AssistantAgent("coder", llm_config=cfg(),
                                    system_message="You write Python code in a code block.")
    runner = autogen.UserProxyAgent("runner", human_input_mode="NEVER", code_execution_config=config,
                                    max_consecutive_auto_reply=1)
    return runner.initiate_chat(writer, message="Create the marker file.", max_turns=2)
