"""The SUT model bridge: a `BaseLlm` that answers an ADK agent's model calls through masfuzz.

A run sets one `MasfuzzLlm` as the `model` of every `LlmAgent` it reaches (the agent's own
model setting, so the agent's callbacks and ADK's request processing run as the app wrote them,
and no call can reach Gemini); each knows its agent, so every `ChatRequest` names the agent
asking, and is answered by the client of the model string `Scenario.model_for(agent)` names.

ADK offers LLM-driven transfer as one tool, `transfer_to_agent(agent_name)`. The bridge shows
masfuzz's model one `transfer_to_<agent>` tool per target instead (`ToolDef.handoff_to` set,
as the Agents SDK adapter does), so that a policy can ask for a hand-over to one agent by name,
and turns the call back into ADK's own; the history is converted the same way.
"""

from __future__ import annotations

import json
from typing import Any, AsyncGenerator, Callable

from masfuzz.adapters.adk.extract import TRANSFER_TOOL
from masfuzz.errors import ModelError
from masfuzz.llm.types import ChatMessage, ChatReply, ChatRequest, ToolCallRequest, ToolDef


class Exchange:
    """What the run's recording needs from the bridge: called with the agent's id, the request
    and the reply of every model call."""

    def __init__(self, on_reply: Callable[[str, ChatRequest, ChatReply], None],
                 extra_tools: dict[str, tuple[ToolDef, ...]], names: dict[str, str]) -> None:
        self.on_reply = on_reply
        self.extra_tools = extra_tools  # agent id -> restricted-tool probes offered to it
        self.names = names  # ADK agent name -> agent id
        # (agent, tool) of probe calls the model made that ADK has not yet taken to its tool
        # pipeline (the recording plugin refuses them there)
        self.open_probes: list[tuple[str, str]] = []


_bridge_class: Any = None


def bridge_class() -> Any:
    """`MasfuzzLlm`, made on first use so that importing masfuzz never imports ADK."""
    global _bridge_class
    if _bridge_class is not None:
        return _bridge_class
    from google.adk.models.base_llm import BaseLlm
    from google.adk.models.llm_response import LlmResponse
    from google.genai import types
    from pydantic import ConfigDict

    class MasfuzzLlm(BaseLlm):
        """One agent's model for one run."""

        model_config = ConfigDict(arbitrary_types_allowed=True)
        agent: str
        scenario: Any
        clients: Any  # model string -> masfuzz ModelClient
        exchange: Any

        @property
        def capabilities(self) -> Any:
            from google.adk.models._capabilities import LlmCapabilities

            return LlmCapabilities(output_schema_and_tools=True)

        async def generate_content_async(self, llm_request: Any, stream: bool = False
                                         ) -> AsyncGenerator[Any, None]:
            request = chat_request(self.agent, llm_request, self.exchange)
            model_string = self.scenario.model_for(self.agent)
            if not model_string:
                raise ModelError(f"no model for agent {self.agent!r}: give --sut-model")
            reply: ChatReply = await self.clients(model_string).complete(request)
            self.exchange.on_reply(self.agent, request, reply)
            parts = [types.Part(text=reply.text)] if reply.text else []
            for call in reply.tool_calls:
                name, args = adk_call(call.name, dict(call.arguments), request.tools)
                parts.append(types.Part(function_call=types.FunctionCall(
                    name=name, args=args, id=call.id or None)))
            yield LlmResponse(
                content=types.Content(role="model", parts=parts),
                usage_metadata=types.GenerateContentResponseUsageMetadata(
                    prompt_token_count=reply.usage.tokens_in,
                    candidates_token_count=reply.usage.tokens_out,
                    total_token_count=reply.usage.tokens_in + reply.usage.tokens_out),
            )

    _bridge_class = MasfuzzLlm
    return MasfuzzLlm


def chat_request(agent: str, llm_request: Any, exchange: Exchange) -> ChatRequest:
    config = llm_request.config
    tools: list[ToolDef] = []
    for tool in config.tools or ():
        for decl in getattr(tool, "function_declarations", None) or ():
            if decl.name == TRANSFER_TOOL:
                tools += _transfer_tools(decl, exchange.names)
                continue
            schema = decl.parameters_json_schema or (
                decl.parameters.json_schema.model_dump(mode="json", exclude_none=True)
                if decl.parameters is not None else {"type": "object", "properties": {}})
            tools.append(ToolDef(name=decl.name, description=decl.description or "",
                                 parameters=dict(schema)))
    tools += exchange.extra_tools.get(agent, ())
    messages = [ChatMessage(role="system", content=system)] if (system := _text(
        config.system_instruction)) else []
    names: dict[str, str] = {}  # call id -> the tool name the model saw
    for content in llm_request.contents:
        messages += _messages(content, names)
    schema = config.response_json_schema
    if schema is None and config.response_schema is not None:
        schema = _json_schema(config.response_schema)
    mode = getattr(getattr(getattr(config, "tool_config", None), "function_calling_config", None),
                   "mode", None)
    return ChatRequest(
        messages=tuple(messages), tools=tuple(tools),
        tool_choice="required" if str(mode).endswith("ANY") else "none" if str(mode).endswith(
            "NONE") else "auto",
        response_schema=schema if isinstance(schema, dict) else None,
        temperature=config.temperature, max_tokens=config.max_output_tokens,
        role="sut", agent=agent,
    )


def _json_schema(given: Any) -> dict[str, Any] | None:
    """The JSON schema of an agent's `output_schema` as ADK puts it in the request: a pydantic
    model, a plain type (`str`, `list[str]`: ADK 2's workflow nodes answer those as JSON too), or
    a Gemini `Schema`."""
    from pydantic import TypeAdapter

    if hasattr(given, "model_json_schema"):
        return given.model_json_schema()
    json_schema = getattr(given, "json_schema", None)  # google.genai's Schema
    if json_schema is not None and hasattr(json_schema, "model_dump"):
        return json_schema.model_dump(mode="json", exclude_none=True)
    try:
        return TypeAdapter(given).json_schema()
    except Exception:  # not a type pydantic knows: the answer is asked for as text
        return None


def _transfer_tools(decl: Any, names: dict[str, str]) -> list[ToolDef]:
    schema = decl.parameters_json_schema or (
        decl.parameters.json_schema.model_dump(mode="json", exclude_none=True)
        if decl.parameters is not None else {})
    targets = (schema.get("properties", {}).get("agent_name", {}) or {}).get("enum") or []
    return [ToolDef(name=f"transfer_to_{t}", description=f"Transfer the conversation to agent {t}.",
                    handoff_to=names.get(t, t)) for t in targets]


def adk_call(name: str, args: dict[str, Any], offered: tuple[ToolDef, ...]) -> tuple[str, dict[str, Any]]:
    """A tool call of masfuzz's model as ADK takes it: a `transfer_to_<agent>` call is ADK's
    `transfer_to_agent(agent_name=...)`."""
    for tool in offered:
        if tool.name == name and tool.handoff_to is not None:
            return TRANSFER_TOOL, {"agent_name": name.removeprefix("transfer_to_")}
    return name, args


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    parts = getattr(value, "parts", None)
    if parts is not None:
        return "".join(p.text or "" for p in parts)
    if isinstance(value, list):
        return "\n".join(_text(v) for v in value)
    return str(value)


def _messages(content: Any, names: dict[str, str]) -> list[ChatMessage]:
    role = "assistant" if content.role == "model" else "user"
    texts, calls, out = [], [], []
    for part in content.parts or ():
        if part.text and not part.thought:
            texts.append(part.text)
        if part.function_call is not None:
            fc = part.function_call
            name, args = fc.name or "", dict(fc.args or {})
            if name == TRANSFER_TOOL and "agent_name" in args:
                name, args = f"transfer_to_{args['agent_name']}", {}
            names[fc.id or ""] = name
            calls.append(ToolCallRequest(id=fc.id or "", name=name, arguments=args))
        if part.function_response is not None:
            fr = part.function_response
            name = names.get(fr.id or "", fr.name or "")
            out.append(ChatMessage(role="tool", name=name, tool_call_id=fr.id or "",
                                   content=json.dumps(fr.response, default=str)))
    if texts or calls:
        out.insert(0, ChatMessage(role=role, content="\n".join(texts) or None,
                                  tool_calls=tuple(calls) if role == "assistant" else ()))
    return out
