"""An AutoGen `ChatCompletionClient` that answers through a masfuzz model client.

The adapter swaps one of these into every agent of the team (and into a selector team's
speaker-selection call), so the user's unmodified agents run on the model masfuzz chose. Each
bridge knows which agent it serves and stamps it on every request (`ChatRequest.agent`), which
is how a scripted policy, and the accounting, tell the agents apart.

It is also usable directly: an example app can build its team with
`MasfuzzChatCompletionClient("local/gemma-3-270m")` and run on any masfuzz model string.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, AsyncGenerator, Literal, Mapping, Sequence

from autogen_core import CancellationToken, FunctionCall
from autogen_core.models import (
    AssistantMessage,
    ChatCompletionClient,
    CreateResult,
    FunctionExecutionResultMessage,
    LLMMessage,
    ModelCapabilities,
    ModelInfo,
    RequestUsage,
    SystemMessage,
    UserMessage,
)
from autogen_core.tools import Tool, ToolSchema
from pydantic import BaseModel

from masfuzz.llm.types import ChatMessage, ChatReply, ChatRequest, ModelClient, ToolDef

_FINISH = {"stop": "stop", "tool_calls": "function_calls", "length": "length", "error": "unknown"}


class MasfuzzChatCompletionClient(ChatCompletionClient):
    """`client` is a masfuzz `ModelClient` or a model string (resolved on first use)."""

    def __init__(
        self,
        client: ModelClient | str,
        *,
        agent: str | None = None,
        handoffs: Mapping[str, str] | None = None,
        on_error: Any = None,
        on_request: Any = None,
        parallel_tool_calls: bool = True,
    ) -> None:
        self._client = client
        # False: the app's own client asked its provider for one tool call per answer
        # (`parallel_tool_calls=False`, which AgentChat's TeamTool and AgentTool require): the
        # model's first call is kept, as that provider's answer would hold one
        self._parallel = parallel_tool_calls
        self._on_request = on_request  # called with the agent and each ChatRequest before it is asked
        self._agent = agent
        self._handoffs = dict(handoffs or {})  # handoff tool name -> target agent
        self._on_error = on_error  # called with the exception a model call raised
        self._total = RequestUsage(prompt_tokens=0, completion_tokens=0)
        self._last = RequestUsage(prompt_tokens=0, completion_tokens=0)
        self.calls = 0

    @property
    def model_client(self) -> ModelClient:
        if isinstance(self._client, str):
            from masfuzz.llm.settings import sut_client

            self._client = sut_client(self._client)
        return self._client

    async def create(
        self,
        messages: Sequence[LLMMessage],
        *,
        tools: Sequence[Tool | ToolSchema] = [],
        tool_choice: Tool | Literal["auto", "required", "none"] = "auto",
        json_output: bool | type[BaseModel] | None = None,
        extra_create_args: Mapping[str, Any] = {},
        cancellation_token: CancellationToken | None = None,
    ) -> CreateResult:
        request = ChatRequest(
            messages=tuple(m for msg in messages for m in to_chat_messages(msg)),
            tools=tuple(self._tool_def(t) for t in tools),
            tool_choice=tool_choice if isinstance(tool_choice, str) else tool_choice.name,
            response_schema=_schema_of(json_output),
            role="sut",
            agent=self._agent,
        )
        self.calls += 1
        if self._on_request is not None:
            self._on_request(self._agent, request)
        # linked to the agent's token, as AutoGen's own clients do: a cancelled run (a timeout)
        # ends its model call at once instead of waiting for the answer
        call = asyncio.ensure_future(self.model_client.complete(request))
        if cancellation_token is not None:
            cancellation_token.link_future(call)
        try:
            reply = await call
        except Exception as exc:
            if self._on_error is not None:
                self._on_error(self._agent, exc)
            raise
        return self._to_result(reply)

    async def create_stream(  # type: ignore[override]
        self, messages: Sequence[LLMMessage], **kwargs: Any
    ) -> AsyncGenerator[str | CreateResult, None]:
        """One chunk with the whole text, then the result: masfuzz providers answer at once."""
        result = await self.create(messages, **kwargs)
        if isinstance(result.content, str) and result.content:
            yield result.content
        yield result

    def _tool_def(self, tool: Tool | ToolSchema) -> ToolDef:
        schema = tool.schema if isinstance(tool, Tool) else tool
        return ToolDef(
            name=schema["name"],
            description=schema.get("description", "") or "",
            parameters=dict(schema.get("parameters") or {"type": "object", "properties": {}}),
            handoff_to=self._handoffs.get(schema["name"]),
        )

    def _to_result(self, reply: ChatReply) -> CreateResult:
        usage = RequestUsage(prompt_tokens=reply.usage.tokens_in, completion_tokens=reply.usage.tokens_out)
        self._last = usage
        self._total = RequestUsage(
            prompt_tokens=self._total.prompt_tokens + usage.prompt_tokens,
            completion_tokens=self._total.completion_tokens + usage.completion_tokens,
        )
        if reply.tool_calls:
            calls = reply.tool_calls if self._parallel else reply.tool_calls[:1]
            content: str | list[FunctionCall] = [
                FunctionCall(id=c.id or f"call_{i}", name=c.name, arguments=json.dumps(c.arguments))
                for i, c in enumerate(calls)
            ]
            return CreateResult(
                finish_reason="function_calls", content=content, usage=usage,
                cached=reply.cached, thought=reply.text or None,
            )
        return CreateResult(
            finish_reason=_FINISH.get(reply.finish_reason, "unknown"),  # type: ignore[arg-type]
            content=reply.text or "", usage=usage, cached=reply.cached,
        )

    # --- bookkeeping the ChatCompletionClient interface asks for --------------------------

    async def close(self) -> None:
        close = getattr(self._client, "aclose", None)
        if close is not None:
            await close()

    def actual_usage(self) -> RequestUsage:
        return self._last

    def total_usage(self) -> RequestUsage:
        return self._total

    def count_tokens(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []) -> int:
        return sum(len(str(getattr(m, "content", ""))) for m in messages) // 4

    def remaining_tokens(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []) -> int:
        return max(0, 128_000 - self.count_tokens(messages, tools=tools))

    @property
    def capabilities(self) -> ModelCapabilities:  # type: ignore[override]
        return ModelCapabilities(vision=False, function_calling=True, json_output=True)

    @property
    def model_info(self) -> ModelInfo:
        # "unknown" family: AutoGen then sends a selector's prompt as a user message, which every
        # provider (the embedded models included) answers.
        return ModelInfo(
            vision=False, function_calling=True, json_output=True, family="unknown",
            structured_output=True, multiple_system_messages=True,
        )


def to_chat_messages(msg: LLMMessage) -> list[ChatMessage]:
    """One AutoGen model message as masfuzz chat messages (a tool-result batch becomes several)."""
    if isinstance(msg, SystemMessage):
        return [ChatMessage(role="system", content=msg.content)]
    if isinstance(msg, UserMessage):
        return [ChatMessage(role="user", content=_text(msg.content), name=msg.source or None)]
    if isinstance(msg, AssistantMessage):
        if isinstance(msg.content, str):
            return [ChatMessage(role="assistant", content=msg.content, name=msg.source or None)]
        from masfuzz.llm.types import ToolCallRequest

        calls = tuple(
            ToolCallRequest(id=c.id, name=c.name, arguments=parse_arguments(c.arguments)) for c in msg.content
        )
        return [ChatMessage(role="assistant", content=msg.thought, name=msg.source or None, tool_calls=calls)]
    if isinstance(msg, FunctionExecutionResultMessage):
        return [
            ChatMessage(role="tool", content=r.content, name=r.name or None, tool_call_id=r.call_id)
            for r in msg.content
        ]
    return [ChatMessage(role="user", content=str(getattr(msg, "content", msg)))]


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(c if isinstance(c, str) else f"[{type(c).__name__}]" for c in content)


def parse_arguments(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text) if text else {}
    except json.JSONDecodeError:
        return {"_raw": text}
    return value if isinstance(value, dict) else {"_value": value}


def _schema_of(json_output: bool | type[BaseModel] | None) -> dict[str, Any] | None:
    if isinstance(json_output, type) and issubclass(json_output, BaseModel):
        return json_output.model_json_schema()
    if json_output is True:
        return {"type": "object"}
    return None
