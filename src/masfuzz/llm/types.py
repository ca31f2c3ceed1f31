"""The model protocol every provider implements and every caller uses.

A `ChatRequest` (messages, tools with JSON schemas, tool choice, optional response schema,
sampling parameters) goes to a `ModelClient`, which answers with a `ChatReply` (text and/or tool
calls, finish reason, usage). Two fields tell a provider who is asking: `role` (the tester or the
system under test) and `agent` (which agent of the system under test, set by the adapters).
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["tester", "sut"]


class ToolDef(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})
    # Set by adapters for tools that hand control to another agent (Agents SDK `transfer_to_x`,
    # AutoGen Swarm handoffs), so a policy can ask for "a handoff to X" by agent name.
    handoff_to: str | None = None


class ToolCallRequest(BaseModel):
    model_config = ConfigDict(frozen=True)
    id: str = ""
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class ChatMessage(BaseModel):
    model_config = ConfigDict(frozen=True)
    role: Literal["system", "user", "assistant", "tool"]
    content: str | None = None
    name: str | None = None  # speaker name in group chats; tool name for tool messages
    tool_calls: tuple[ToolCallRequest, ...] = ()
    tool_call_id: str | None = None


class ChatRequest(BaseModel):
    model_config = ConfigDict(frozen=True)
    messages: tuple[ChatMessage, ...]
    tools: tuple[ToolDef, ...] = ()
    tool_choice: Literal["auto", "required", "none"] | str = "auto"  # or one tool's name
    response_schema: dict[str, Any] | None = None  # JSON schema the text reply must satisfy
    temperature: float | None = None
    seed: int | None = None
    max_tokens: int | None = None
    role: Role = "sut"
    agent: str | None = None  # which agent of the system under test is asking
    # Structured context a caller attaches for scripted policies and logs (e.g. a realizer's
    # witness objective); never sent to a networked model, but part of the cache key.
    metadata: dict[str, Any] = Field(default_factory=dict)


class TokenUsage(BaseModel):
    tokens_in: int = 0
    tokens_out: int = 0


class ChatReply(BaseModel):
    model_config = ConfigDict(frozen=True)
    text: str | None = None
    tool_calls: tuple[ToolCallRequest, ...] = ()
    finish_reason: Literal["stop", "tool_calls", "length", "error"] = "stop"
    usage: TokenUsage = TokenUsage()
    cached: bool = False
    latency: float = 0.0  # seconds of model time (0 for a cache hit)


@runtime_checkable
class ModelClient(Protocol):
    """One model behind one model string. Calls are coroutines, cancellable, with a timeout."""

    model_string: str

    async def complete(self, request: ChatRequest, *, timeout: float | None = None) -> ChatReply:
        ...
