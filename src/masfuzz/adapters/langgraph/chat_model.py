"""A LangChain chat model that answers through a masfuzz model client.

LangGraph apps call a chat model inside their node functions; the adapter puts one of these in
place of the app's model for a run. Which node is asking comes from LangGraph's run metadata
(the top-level node of the checkpoint namespace), so one model object serves every node and each request still carries its
agent (`ChatRequest.agent`). Unlike LangChain's stock fake models it supports `bind_tools` and
gives every message a unique id (LangGraph's `add_messages` merges messages that share one).

Usable directly, too: `MasfuzzChatModel(model="local/gemma-3-270m")` runs an app on any masfuzz
model string.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Sequence

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict, Field, PrivateAttr

from masfuzz.adapters.syncrun import run_coroutine_sync
from masfuzz.llm.types import ChatMessage, ChatReply, ChatRequest, ToolCallRequest, ToolDef

_ids = itertools.count(1)
_TOOL_CHOICE = {"any": "required", "required": "required", "auto": "auto", "none": "none"}


class MasfuzzChatModel(BaseChatModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    model: str = ""  # a masfuzz model string; or pass `client`
    client: Any = None  # a masfuzz ModelClient (wins over `model`)
    agent: str | None = None  # fixed agent name; default: the LangGraph node that calls
    # agent -> model client, for per-agent model configurations (Scenario.agent_models)
    clients: dict[str, Any] = Field(default_factory=dict)
    # agent -> extra tools offered to it (restricted-tool probes), as masfuzz ToolDefs
    extra_tools: dict[str, tuple[ToolDef, ...]] = Field(default_factory=dict)
    # (agent, request, visit): `visit` names the node's run the call is in (`_visit_of`)
    on_request: Callable[[str | None, ChatRequest, str | None], None] | None = None
    on_reply: Callable[[str | None, ChatReply], None] | None = None
    on_error: Callable[[str | None, BaseException], None] | None = None
    _resolved: Any = PrivateAttr(default=None)

    @property
    def _llm_type(self) -> str:
        return "masfuzz"

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: str | None = None,
                   **kwargs: Any) -> Runnable[Any, AIMessage]:
        formatted = [convert_to_openai_tool(t) for t in tools]
        if tool_choice is not None:
            kwargs["tool_choice"] = tool_choice
        return self.bind(tools=formatted, **kwargs)

    def _client_for(self, agent: str | None) -> Any:
        if agent is not None and agent in self.clients:
            return self.clients[agent]
        if self.client is not None:
            return self.client
        if self._resolved is None:
            from masfuzz.llm.settings import sut_client

            self._resolved = sut_client(self.model)
        return self._resolved

    async def _agenerate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                         run_manager: AsyncCallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        agent = self.agent or _node_of(run_manager)
        request = ChatRequest(
            messages=tuple(to_chat_message(m) for m in messages),
            tools=tuple(_tool_def(t) for t in kwargs.get("tools") or ()) + self.extra_tools.get(agent or "", ()),
            tool_choice=_choice(kwargs.get("tool_choice")),
            role="sut",
            agent=agent,
        )
        if self.on_request is not None:
            self.on_request(agent, request, _visit_of(run_manager))
        try:
            reply = await self._client_for(agent).complete(request)
        except Exception as exc:
            if self.on_error is not None:
                self.on_error(agent, exc)
            raise
        if self.on_reply is not None:
            self.on_reply(agent, reply)
        return ChatResult(generations=[ChatGeneration(message=to_ai_message(reply))])

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        coro = self._agenerate(messages, stop, run_manager, **kwargs)  # type: ignore[arg-type]
        return run_coroutine_sync(coro)


def _node_of(run_manager: Any) -> str | None:
    """The top-level node asking: inside a prebuilt agent (a subgraph) `langgraph_node` is the
    agent's own inner node ("agent", "model"), while the checkpoint namespace starts with the
    outer node (`research_expert:<task>|agent:<task>`)."""
    metadata = getattr(run_manager, "metadata", None) or {}
    namespace = str(metadata.get("langgraph_checkpoint_ns") or "")
    if namespace:
        return namespace.split("|", 1)[0].split(":", 1)[0]
    node = metadata.get("langgraph_node")
    return str(node) if node else None


def _visit_of(run_manager: Any) -> str | None:
    """Which run of its top-level node a call is in (`node:<task>`, the first part of the
    checkpoint namespace): a node run again after another agent's is a new hand-over to it,
    though no other model was asked in between (a router that is plain code)."""
    metadata = getattr(run_manager, "metadata", None) or {}
    namespace = str(metadata.get("langgraph_checkpoint_ns") or "")
    return namespace.split("|", 1)[0] or None


def _choice(choice: Any) -> str:
    if choice is None:
        return "auto"
    if isinstance(choice, dict):  # {"type": "function", "function": {"name": ...}}
        return str(choice.get("function", {}).get("name") or "required")
    return _TOOL_CHOICE.get(str(choice), str(choice))


def _tool_def(tool: dict[str, Any]) -> ToolDef:
    fn = tool.get("function", tool)
    return ToolDef(
        name=fn["name"], description=fn.get("description", "") or "",
        parameters=fn.get("parameters") or {"type": "object", "properties": {}},
    )


def to_chat_message(msg: BaseMessage) -> ChatMessage:
    content = msg.content if isinstance(msg.content, str) else msg.text()
    if isinstance(msg, SystemMessage):
        return ChatMessage(role="system", content=content)
    if isinstance(msg, ToolMessage):
        return ChatMessage(role="tool", content=content, name=msg.name, tool_call_id=msg.tool_call_id)
    if isinstance(msg, AIMessage):
        calls = tuple(ToolCallRequest(id=c.get("id") or "", name=c["name"], arguments=c.get("args") or {})
                      for c in msg.tool_calls)
        return ChatMessage(role="assistant", content=content or None, name=msg.name, tool_calls=calls)
    if isinstance(msg, HumanMessage):
        return ChatMessage(role="user", content=content, name=msg.name)
    return ChatMessage(role="user", content=content, name=getattr(msg, "name", None))


def to_ai_message(reply: ChatReply) -> AIMessage:
    n = next(_ids)
    calls = [
        {"name": c.name, "args": dict(c.arguments), "id": c.id or f"call_{n}_{i}", "type": "tool_call"}
        for i, c in enumerate(reply.tool_calls)
    ]
    return AIMessage(
        content=reply.text or "", tool_calls=calls, id=f"masfuzz-msg-{n}",
        usage_metadata={"input_tokens": reply.usage.tokens_in, "output_tokens": reply.usage.tokens_out,
                        "total_tokens": reply.usage.tokens_in + reply.usage.tokens_out},
    )
