"""The SUT model bridge: an `agents.Model` that answers every agent's model call through masfuzz.

Given to the SDK as `RunConfig(model=...)`, it drives every agent of the run, nested
`Agent.as_tool` agents included, without touching the user's code. Each call is converted from
the SDK's Responses-format input into a `ChatRequest` (function tools become `ToolDef`s, handoffs
`ToolDef`s with `handoff_to` set to the target agent's id), stamped with the calling agent (which
the SDK does not tell a model; the run's input filter does), sent to the client of the model
string that `Scenario.model_for(agent)` names, and the reply converted back.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from masfuzz.adapters.openai_agents import sdk
from masfuzz.adapters.openai_agents.recording import CURRENT_AGENT, PendingCall, RunRecording
from masfuzz.errors import ModelError
from masfuzz.llm.responses_format import responses_messages
from masfuzz.llm.types import ChatReply, ChatRequest, ToolCallRequest, ToolDef
from masfuzz.trace import Message



def complete_types() -> None:
    """Build the Responses types a model call's answer is made of, which the openai package
    leaves to their first use (a pydantic schema build each): a pool worker does it once,
    before it forks its runs (`Adapter.prepare`), instead of every run doing it."""
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText
    from openai.types.responses.response_usage import InputTokensDetails, OutputTokensDetails

    for kind in (ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText,
                 InputTokensDetails, OutputTokensDetails):  # the last two: agents.Usage's
        kind.model_rebuild()


class BridgeModel:
    """Built per run by `make_model`, which mixes in the installed SDK's `Model` base."""

    def __init__(self, recording: RunRecording, scenario: Any, clients: Any) -> None:
        self.recording = recording
        self.scenario = scenario
        self.clients = clients  # model string -> ModelClient (shared across runs)
        self._calls = 0

    def _tooldefs(self, agent: str, tools: list[Any], handoffs: list[Any]) -> tuple[ToolDef, ...]:
        defs = []
        for tool in tools:
            schema = getattr(tool, "params_json_schema", None)
            if schema is None:  # hosted tools run on OpenAI's servers, not through a chat model
                continue
            defs.append(ToolDef(name=tool.name, description=str(tool.description or ""),
                                parameters=dict(schema)))
        for h in handoffs:
            target = self.recording.handoff_tools.get((agent, str(h.tool_name))) or \
                self.recording.handoff_targets.get((agent, str(h.agent_name)))
            defs.append(ToolDef(name=h.tool_name, description=str(h.tool_description or ""),
                                parameters=dict(h.input_json_schema or {"type": "object",
                                                                        "properties": {}}),
                                handoff_to=target or self.recording.id_by_name(str(h.agent_name))))
        return tuple(defs)

    async def get_response(self, system_instructions: str | None, input: Any, model_settings: Any,
                           tools: list[Any], output_schema: Any, handoffs: list[Any],
                           tracing: Any, **_: Any) -> Any:
        agents = sdk.require()
        agent = CURRENT_AGENT.get() or self.recording.walk.ids.get(0) or "?"
        schema = None
        if output_schema is not None and not output_schema.is_plain_text():
            schema = output_schema.json_schema()
        tool_choice = getattr(model_settings, "tool_choice", None)
        request = ChatRequest(
            messages=tuple(responses_messages(system_instructions, input)),
            tools=self._tooldefs(agent, tools, handoffs),
            tool_choice=tool_choice if isinstance(tool_choice, str) else "auto",
            response_schema=schema,
            temperature=getattr(model_settings, "temperature", None),
            max_tokens=getattr(model_settings, "max_tokens", None),
            role="sut",
            agent=agent,
        )
        self.recording.recorder.received(agent, request.messages)  # after the handoff's input_filter
        model_string = self.scenario.model_for(agent)
        if not model_string:
            raise ModelError(f"no model for agent {agent!r}: give --sut-model")
        reply: ChatReply = await self.clients(model_string).complete(request)
        current = agents.tracing.get_current_span()
        rec = self.recording
        rec.recorder.usage.model_calls += 1
        rec.recorder.usage.tokens_in += reply.usage.tokens_in
        rec.recorder.usage.tokens_out += reply.usage.tokens_out
        if reply.text:
            rec.recorder.add(Message(agent=agent, role="assistant", content=reply.text,
                                     t=rec.recorder.now()))
        output: list[Any] = []
        if reply.text:
            output.append(_text_item(reply.text))
        pending = []
        for i, c in enumerate(reply.tool_calls):
            self._calls += 1
            call_id = c.id or f"call_masfuzz_{self._calls}"
            raw = json.dumps(c.arguments)
            pending.append(PendingCall(c.name, dict(c.arguments), raw, call_id))
            output.append(_call_item(c.name, raw, call_id, i))
        if pending:
            rec.model_asked(agent, current, pending, {t.name for t in request.tools})
        usage = agents.Usage(requests=1, input_tokens=reply.usage.tokens_in,
                             output_tokens=reply.usage.tokens_out,
                             total_tokens=reply.usage.tokens_in + reply.usage.tokens_out)
        return agents.ModelResponse(output=output, usage=usage, response_id=None)

    async def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        """Streaming runs get the whole reply as one completed response."""
        from openai.types.responses import Response, ResponseCompletedEvent

        result = await self.get_response(*args, **kwargs)
        response = Response(id="resp_masfuzz", created_at=0, model="masfuzz-bridge",
                            object="response", output=result.output, tool_choice="auto",
                            tools=[], parallel_tool_calls=True, top_p=None, temperature=None)
        yield ResponseCompletedEvent(type="response.completed", response=response,
                                     sequence_number=0)


def _text_item(text: str) -> Any:
    from openai.types.responses import ResponseOutputMessage, ResponseOutputText

    return ResponseOutputMessage(
        id="msg_masfuzz", role="assistant", status="completed", type="message",
        content=[ResponseOutputText(text=text, annotations=[], type="output_text")],
    )


def _call_item(name: str, raw: str, call_id: str, index: int) -> Any:
    from openai.types.responses import ResponseFunctionToolCall

    return ResponseFunctionToolCall(arguments=raw, call_id=call_id, name=name,
                                    type="function_call", id=f"fc_masfuzz_{index}",
                                    status="completed")


# The class mixing `BridgeModel` into the SDK's `Model`, made once per `Model` class: making it
# per run cost every run a new ABC class, left behind as cyclic garbage for the collector.
_model_classes: dict[type, type] = {}


def make_model(recording: RunRecording, scenario: Any, clients: Any) -> Any:
    """A `BridgeModel` that is also an instance of the installed SDK's `Model`."""
    base = sdk.require().Model
    cls = _model_classes.get(base)
    if cls is None:
        cls = _model_classes[base] = type("MasfuzzSUTModel", (BridgeModel, base), {})
    return cls(recording, scenario, clients)
