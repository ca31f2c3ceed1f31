"""The agent ToolFuzz tests a tool through (appendix B): one model, the one tool, a loop.

A minimal tool-calling loop over any `ModelClient` (a scripted policy, the embedded local model,
an API model): the tool's documentation goes in as a tool definition, the user's request as the
first message; each tool call the model asks for runs in the sandbox and its result (or its
error, as the agent would see it) goes back, until the model answers in text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

from masfuzz.llm.types import ChatMessage, ChatRequest, ModelClient, ToolCallRequest, ToolDef
from masfuzz.toolfuzz.sandbox import CallOutcome, off_loop
from masfuzz.toolfuzz.tools import FuzzTool

AGENT_SYSTEM = (
    "You are a helpful assistant with one tool. Read the tool's documentation carefully and call "
    "it with arguments that follow it. After the tool answers, reply to the user briefly, using "
    "the tool's output."
)

Executor = Callable[[dict[str, Any]], CallOutcome]


@dataclass
class ToolStep:
    arguments: dict[str, Any]
    outcome: CallOutcome


@dataclass
class AgentRun:
    request: str
    answer: str = ""
    steps: list[ToolStep] = field(default_factory=list)

    @property
    def errors(self) -> list[ToolStep]:
        return [s for s in self.steps if s.outcome.status in ("error", "timeout", "crash")]

    def to_dict(self) -> dict[str, Any]:
        return {"request": self.request, "answer": self.answer,
                "steps": [{"arguments": s.arguments, "status": s.outcome.status,
                           "output": observation(s.outcome)} for s in self.steps]}


def tool_def(tool: FuzzTool) -> ToolDef:
    return ToolDef(name=tool.name, description=tool.description, parameters=tool.schema)


def observation(outcome: CallOutcome) -> str:
    """What the agent is shown for a call: the output, or the error as a tool message."""
    if outcome.status in ("ok", "handled"):
        return outcome.result
    return f"Error: {outcome.error_type}: {outcome.message}"


async def run_agent(client: ModelClient, tool: FuzzTool, request: str, execute: Executor, *,
                    max_steps: int = 4, seed: int | None = None) -> AgentRun:
    run = AgentRun(request)
    messages: list[ChatMessage] = [ChatMessage(role="system", content=AGENT_SYSTEM),
                                   ChatMessage(role="user", content=request)]
    tools = (tool_def(tool),)
    for _ in range(max_steps):
        reply = await client.complete(ChatRequest(messages=tuple(messages), tools=tools, role="sut",
                                                  agent="toolfuzz-agent", seed=seed))
        calls = [c for c in reply.tool_calls if c.name == tool.name]
        if not calls:
            run.answer = reply.text or ""
            return run
        messages.append(ChatMessage(role="assistant", content=reply.text, tool_calls=tuple(calls)))
        for c in calls:
            # in a thread: a sandboxed call blocks, and other tools' work shares this event loop
            outcome = await off_loop(execute, dict(c.arguments))
            run.steps.append(ToolStep(dict(c.arguments), outcome))
            messages.append(ChatMessage(role="tool", name=tool.name, tool_call_id=c.id,
                                        content=observation(outcome)))
    run.answer = "(the agent did not answer within its step limit)"
    return run


async def ask_for_call(client: ModelClient, tool: FuzzTool, arguments: dict[str, Any], *,
                       seed: int | None = None) -> ToolCallRequest | None:
    """The sanity check (§4.1): the agent's model, given the tool's documentation, is asked to
    make exactly this call. A refusal (no call) says the input does not fit the documentation."""
    prompt = (
        f"Call the tool `{tool.name}` with exactly these arguments:\n{json.dumps(arguments, ensure_ascii=False)}\n"
        "If these arguments do not fit what the tool's documentation describes, do not call the "
        "tool; answer REFUSE and say why."
    )
    reply = await client.complete(ChatRequest(
        messages=(ChatMessage(role="system", content=AGENT_SYSTEM), ChatMessage(role="user", content=prompt)),
        tools=(tool_def(tool),), role="sut", agent="toolfuzz-agent", seed=seed))
    calls = [c for c in reply.tool_calls if c.name == tool.name]
    return calls[0] if calls else None
