"""An AG2 script, run as its author runs it (`python booking.py`): an assistant books rooms with
a tool a proxy executes. The tool takes what AG2 injects: the chat's `ChatContext`, a `Depends`
value and the agent's context variables; each fails if its value is missing. `book_room` has a
bug of its own: zero nights divides by zero."""

from typing import Annotated

import autogen
from autogen.tools.dependency_injection import ChatContext, Depends, on

config = {"config_list": [{"model": "gpt-4o-mini", "api_key": "sk-unused"}], "cache_seed": None}
PRICES = {"single": 80, "double": 120}

assistant = autogen.AssistantAgent("booker", llm_config=config,
                                   system_message="Book hotel rooms with the book_room tool.")
proxy = autogen.UserProxyAgent("front_desk", human_input_mode="NEVER", code_execution_config=False,
                               max_consecutive_auto_reply=3)


@proxy.register_for_execution()
@assistant.register_for_llm(description="Book a room for some nights.")
def book_room(room: str, nights: int, chat: ChatContext,
              prices: Annotated[dict, Depends(on(PRICES))]) -> str:
    asked = len(chat.chat_messages)  # a missing ChatContext fails here
    per_night = prices[room] if room in prices else prices["single"]
    discount = per_night // nights  # no check for zero nights: the tool's own bug
    return f"{room} for {nights} nights: {per_night * nights - discount} EUR ({asked} chats)"


proxy.initiate_chat(assistant, message="Book a double room for three nights.", max_turns=2)
