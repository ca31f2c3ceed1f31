"""Where the zoo's systems get their models, the way apps usually do: a model named by an
environment variable (`ZOO_MODEL`, default the embedded local model). masfuzz swaps in its own
model (`--sut-model`) whatever these give, so nothing here knows which model will answer."""

from __future__ import annotations

import os

DEFAULT = "local/gemma-3-270m"


def model_string() -> str:
    return os.environ.get("ZOO_MODEL", DEFAULT)


def agentchat_client():
    """An AutoGen AgentChat model client."""
    from masfuzz.adapters.autogen.bridge import MasfuzzChatCompletionClient

    return MasfuzzChatCompletionClient(model_string())


def chat_model():
    """A LangChain chat model for LangGraph nodes and prebuilt agents."""
    from masfuzz.adapters.langgraph.chat_model import MasfuzzChatModel

    return MasfuzzChatModel(model=model_string())


def ag2_config() -> dict:
    """An AutoGen 0.2-style llm_config: one OpenAI model, its key from the environment."""
    return {"config_list": [{"model": os.environ.get("OPENAI_MODEL", "gpt-4o-mini"),
                             "api_key": os.environ.get("OPENAI_API_KEY", "not-set")}], "cache_seed": None}


def pydantic_ai_model() -> str:
    """A PydanticAI model name (`provider:model`); masfuzz overrides it (`Agent.override`)."""
    return "openai:" + os.environ.get("OPENAI_MODEL", "gpt-4o-mini")


def adk_model() -> str:
    """A Google ADK model name; masfuzz puts its own model in `LlmAgent.model`."""
    return os.environ.get("GEMINI_MODEL", "gemini-2.5-flash")
