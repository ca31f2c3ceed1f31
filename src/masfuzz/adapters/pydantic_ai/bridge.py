"""masfuzz's model in place of each PydanticAI agent's own: a `FunctionModel` per agent.

A run enters `agent.override(model=...)` for every agent of the walk, so the entry agent and
every agent a tool runs inside it (the override is a context variable, which the tool's task
inherits) call the function here, which knows which agent it answers for. It converts
PydanticAI's messages into a `ChatRequest` (instructions as the system message, user prompts,
the agent's earlier replies and tool calls, tool returns and retry prompts as tool messages),
sends it to the client of the model `Scenario.model_for(agent)` names with the agent's own
temperature and token limit (the scenario's sampling may change them), and converts the reply
back.

A typed answer is asked for as the request's `response_schema`: PydanticAI's output tools
(`final_result`, one per member of a union) are how a tool-calling model answers with a type,
not tools of the app, so they are not offered as tools; the model's JSON answer becomes the
call of the output tool whose schema it fits. Native and prompted output modes take the JSON as
text, as PydanticAI expects.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from masfuzz.adapters.pydantic_ai.recording import CURRENT_TOOL, RunRecording
from masfuzz.errors import MasfuzzError, ModelError
from masfuzz.llm.types import ChatMessage, ChatRequest, ToolCallRequest, ToolDef
from masfuzz.trace import SYSTEM_PROMPTS, Message


class AgentModel:
    """The answers of one agent of one run."""

    def __init__(self, agent: str, recording: RunRecording, scenario: Any, clients: Any,
                 probes: tuple[ToolDef, ...] = ()) -> None:
        self.agent = agent
        self.recording = recording
        self.scenario = scenario
        self.clients = clients  # model string -> ModelClient
        self.probes = probes  # restricted tools offered as stubs
        self._calls = 0

    def model(self) -> Any:
        from pydantic_ai.models.function import FunctionModel

        return FunctionModel(self.answer, stream_function=self.stream,
                             model_name=f"masfuzz:{self.agent}")

    async def answer(self, messages: list[Any], info: Any) -> Any:
        """The agent's model's answer. PydanticAI lets whatever the model raises out of the run,
        where it would read as the system's crash: masfuzz's own failure is said as masfuzz's."""
        try:
            return await self._answer(messages, info)
        except MasfuzzError:
            raise
        except Exception as exc:
            raise MasfuzzError(f"masfuzz's model for PydanticAI agent {self.agent} failed: "
                               f"{type(exc).__name__}: {exc}") from exc

    async def _answer(self, messages: list[Any], info: Any) -> Any:
        from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
        from pydantic_ai.usage import RequestUsage

        rec = self.recording
        if rec.words is not None and CURRENT_TOOL.get() is None:  # a run of the app's own code:
            rec.words.heard(user_prompts(messages))  # a new message of the user's, if any
        rec.model_called(self.agent)
        self._returned(messages)
        request = self._request(messages, info)
        rec.recorder.received(self.agent, request.messages)  # a delegate's prompt: what its tool wrote
        if request.messages and request.messages[0].role == "system":
            rec.recorder.meta.setdefault(SYSTEM_PROMPTS, {}).setdefault(self.agent, request.messages[0].content)
        rec.recorder.offered(self.agent, request.tools)
        model_string = self.scenario.model_for(self.agent)
        if not model_string:
            raise ModelError(f"no model for agent {self.agent!r}: give --sut-model")
        reply = await self.clients(model_string).complete(request)
        usage = rec.recorder.usage
        usage.model_calls += 1
        usage.tokens_in += reply.usage.tokens_in
        usage.tokens_out += reply.usage.tokens_out
        parts: list[Any] = []
        output = _output_call(reply.text, info) if reply.text else None
        if output is not None:
            name, args = output
            rec.recorder.add(Message(agent=self.agent, content=reply.text or ""))
            rec.final[self.agent] = reply.text or ""
            parts.append(ToolCallPart(name, args, tool_call_id=self._call_id("")))
        elif reply.text:
            rec.recorder.add(Message(agent=self.agent, content=reply.text))
            rec.final[self.agent] = reply.text
            parts.append(TextPart(reply.text))
        for c in reply.tool_calls:
            call_id = self._call_id(c.id)
            rec.asked(self.agent, c.name, dict(c.arguments), call_id)
            parts.append(ToolCallPart(c.name, dict(c.arguments), tool_call_id=call_id))
        return ModelResponse(parts=parts, usage=RequestUsage(input_tokens=reply.usage.tokens_in,
                                                             output_tokens=reply.usage.tokens_out),
                             model_name=model_string)

    async def stream(self, messages: list[Any], info: Any) -> AsyncIterator[Any]:
        """A streamed run gets the whole answer at once: its text, or its calls."""
        from pydantic_ai.messages import TextPart
        from pydantic_ai.models.function import DeltaToolCall

        response = await self.answer(messages, info)
        calls = {}
        for i, part in enumerate(response.parts):
            if isinstance(part, TextPart):
                yield part.content
            else:
                calls[i] = DeltaToolCall(name=part.tool_name, json_args=json.dumps(part.args_as_dict()),
                                         tool_call_id=part.tool_call_id)
        if calls:
            yield calls

    def _call_id(self, given: str) -> str:
        self._calls += 1
        return given or f"call_masfuzz_{self.agent}_{self._calls}"

    def _returned(self, messages: list[Any]) -> None:
        """Calls of this agent that PydanticAI answered without running a tool: arguments that
        failed validation, a tool the agent does not have (a restricted attempt)."""
        from pydantic_ai.messages import ModelRequest, RetryPromptPart, ToolReturnPart

        rec = self.recording
        last = messages[-1] if messages else None
        for part in getattr(last, "parts", ()) if isinstance(last, ModelRequest) else ():
            call_id = getattr(part, "tool_call_id", None)
            if not call_id or not (call_id in rec.pending or call_id in rec.blocked):
                continue  # the wrapper recorded the call's result
            if isinstance(part, RetryPromptPart) and part.tool_name:  # older PydanticAI
                rec.answered(part.tool_call_id, part.tool_name, "error", part.model_response(), self.agent)
            elif isinstance(part, ToolReturnPart) and getattr(part, "retry", None) is not None:
                rec.answered(part.tool_call_id, part.tool_name, "error", part.model_response_str(), self.agent)

    def _request(self, messages: list[Any], info: Any) -> ChatRequest:
        settings = dict(info.model_settings or {})
        tools = tuple(ToolDef(name=t.name, description=t.description or "",
                              parameters=dict(t.parameters_json_schema or {})) for t in info.function_tools)
        return ChatRequest(
            messages=tuple(chat_messages(messages, info.instructions)),
            tools=tools + self.probes,
            response_schema=_answer_schema(info),
            temperature=settings.get("temperature"),
            max_tokens=settings.get("max_tokens"),
            role="sut",
            agent=self.agent,
        )


def user_prompts(messages: list[Any]) -> list[str]:
    """The user prompts of PydanticAI's message history (`message_history` and the run's own),
    in order."""
    from pydantic_ai.messages import ModelRequest, UserPromptPart

    return [_prompt_text(p) for m in messages if isinstance(m, ModelRequest)
            for p in m.parts if isinstance(p, UserPromptPart)]


def _prompt_text(part: Any) -> str:
    return part.content if isinstance(part.content, str) else " ".join(c for c in part.content if isinstance(c, str))


def chat_messages(messages: list[Any], instructions: str | None) -> list[ChatMessage]:
    """PydanticAI's message history as chat messages."""
    from pydantic_ai.messages import (
        ModelRequest,
        ModelResponse,
        RetryPromptPart,
        SystemPromptPart,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
        UserPromptPart,
    )

    system = [p.content for m in messages if isinstance(m, ModelRequest)
              for p in m.parts if isinstance(p, SystemPromptPart)]
    if instructions:
        system.append(instructions)
    out = [ChatMessage(role="system", content="\n\n".join(system))] if system else []
    for m in messages:
        if isinstance(m, ModelResponse):
            text = "".join(p.content for p in m.parts if isinstance(p, TextPart))
            calls = tuple(ToolCallRequest(id=p.tool_call_id, name=p.tool_name, arguments=p.args_as_dict())
                          for p in m.parts if isinstance(p, ToolCallPart))
            out.append(ChatMessage(role="assistant", content=text or None, tool_calls=calls))
            continue
        for p in m.parts if isinstance(m, ModelRequest) else ():
            if isinstance(p, UserPromptPart):
                out.append(ChatMessage(role="user", content=_prompt_text(p)))
            elif isinstance(p, ToolReturnPart):
                out.append(ChatMessage(role="tool", name=p.tool_name, tool_call_id=p.tool_call_id,
                                       content=p.model_response_str()))
            elif isinstance(p, RetryPromptPart):
                if p.tool_name:
                    out.append(ChatMessage(role="tool", name=p.tool_name, tool_call_id=p.tool_call_id,
                                           content=p.model_response()))
                else:
                    out.append(ChatMessage(role="user", content=p.model_response()))
    return out


def _answer_schema(info: Any) -> dict[str, Any] | None:
    """The JSON schema the agent's typed answer must fit (None: plain text)."""
    params = info.model_request_parameters
    if params.output_mode in ("native", "prompted") and params.output_object is not None:
        return dict(params.output_object.json_schema)
    schemas = [dict(t.parameters_json_schema or {}) for t in info.output_tools]
    if not schemas:
        return None
    return schemas[0] if len(schemas) == 1 else {"anyOf": schemas}


def _output_call(text: str, info: Any) -> tuple[str, dict[str, Any]] | None:
    """The output tool call a JSON answer stands for (None: the text is the answer)."""
    if not info.output_tools or info.model_request_parameters.output_mode in ("native", "prompted"):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    for tool in info.output_tools:
        schema = tool.parameters_json_schema or {}
        props = schema.get("properties") or {}
        args = value if isinstance(value, dict) else None
        if args is None and len(props) == 1:  # a list[str] answer is wrapped as {"response": ...}
            args = {next(iter(props)): value}
        if args is None:
            continue
        if set(schema.get("required") or ()) <= set(args) and (not props or set(args) <= set(props)):
            return tool.name, args
    if isinstance(value, dict) and len(info.output_tools) == 1:
        return info.output_tools[0].name, value  # PydanticAI says what is wrong, the model retries
    return None

