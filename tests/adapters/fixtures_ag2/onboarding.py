"""Customer onboarding as a converted notebook: three sequential chats with carry-over at
module level, and a customer proxy that a human answers (human_input_mode ALWAYS)."""

import autogen

llm_config = {"config_list": [{"model": "gpt-3.5-turbo", "api_key": "sk-unused"}], "cache_seed": None}

personal = autogen.ConversableAgent(
    name="onboarding_personal_information_agent",
    system_message="You are a helpful customer onboarding agent. Gather the customer's name and "
    "location. Return 'TERMINATE' when you have gathered all the information.",
    llm_config=llm_config, code_execution_config=False, human_input_mode="NEVER")
topics = autogen.ConversableAgent(
    name="onboarding_topic_preference_agent",
    system_message="You are a helpful customer onboarding agent. Gather the customer's preferences "
    "on news topics. Return 'TERMINATE' when you have gathered all the information.",
    llm_config=llm_config, code_execution_config=False, human_input_mode="NEVER")
engagement = autogen.ConversableAgent(
    name="customer_engagement_agent",
    system_message="You are a helpful customer service agent here to provide fun for the customer "
    "based on the user's personal information and topic preferences. Return 'TERMINATE' when done.",
    llm_config=llm_config, code_execution_config=False, human_input_mode="NEVER",
    is_termination_msg=lambda msg: "terminate" in (msg.get("content") or "").lower())
customer = autogen.ConversableAgent(
    name="customer_proxy_agent", llm_config=False, code_execution_config=False,
    human_input_mode="ALWAYS",
    is_termination_msg=lambda msg: "terminate" in (msg.get("content") or "").lower())

chats = [
    {"sender": personal, "recipient": customer,
     "message": "Hello, I'm here to help you get started. Could you tell me your name and location?",
     "summary_method": "reflection_with_llm", "max_turns": 2, "clear_history": True,
     "summary_args": {"summary_prompt": "Return the customer information as a JSON object only: "
                                        "{'name': '', 'location': ''}"}},
    {"sender": topics, "recipient": customer,
     "message": "Great! Could you tell me what topics you are interested in reading about?",
     "summary_method": "reflection_with_llm", "max_turns": 1, "clear_history": False},
    {"sender": customer, "recipient": engagement, "message": "Let's find something fun to read.",
     "max_turns": 1, "summary_method": "reflection_with_llm"},
]
chat_results = autogen.initiate_chats(chats)
print(chat_results[-1].summary)
