"""The only place in masfuzz that talks to models.

    from masfuzz.llm import get_client, ChatRequest, ChatMessage
    client = get_client("scripted/examples/policy.py:policy", role="sut")
    reply = await client.complete(ChatRequest(messages=(ChatMessage(role="user", content="hi"),)))

Providers are imported only when a model string names them, so importing this package never
loads an SDK or a model runtime.
"""

from masfuzz.llm.accounting import Ledger, Usage
from masfuzz.llm.cache import ResponseCache
from masfuzz.llm.client import ManagedClient, get_client, set_max_connections
from masfuzz.llm.modelstring import ModelSpec, parse_model_string
from masfuzz.llm.types import (
    ChatMessage,
    ChatReply,
    ChatRequest,
    ModelClient,
    Role,
    TokenUsage,
    ToolCallRequest,
    ToolDef,
)

__all__ = [
    "ChatMessage",
    "ChatReply",
    "ChatRequest",
    "Ledger",
    "ManagedClient",
    "ModelClient",
    "ModelSpec",
    "ResponseCache",
    "Role",
    "TokenUsage",
    "ToolCallRequest",
    "ToolDef",
    "Usage",
    "get_client",
    "parse_model_string",
    "set_max_connections",
]
