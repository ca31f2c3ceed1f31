"""Tools swapped into an agent for one scenario: faulty versions of its own tools, and recording
stubs of the workflow tools it may not use (restricted probes).

Both are `BaseTool`s that keep the original's name, description and argument schema, so the
model is offered exactly what the user declared; the agent's workbench is replaced for the run
and restored afterwards.
"""

from __future__ import annotations

import asyncio
from typing import Any

from autogen_core import CancellationToken
from autogen_core.tools import BaseTool, ToolSchema
from pydantic import BaseModel, ConfigDict

from masfuzz.adapters.faults import CODE_NOT_RUN, Injection, inject, kept_code
from masfuzz.spec.model import ToolSpec


def blocked_message(agent: str, tool: str) -> str:
    return f"blocked: agent {agent!r} is not allowed to use tool {tool!r}"


class _AnyArgs(BaseModel):
    model_config = ConfigDict(extra="allow")


class FaultyTool(BaseTool[BaseModel, str]):
    """The user's tool with an injected fault or a stub (`masfuzz.adapters.faults`) in place of
    its body."""

    def __init__(self, original: BaseTool[Any, Any], injection: Injection) -> None:
        super().__init__(original.args_type(), str, original.name, original.description)
        self._original, self._injection = original, injection

    @property
    def schema(self) -> ToolSchema:
        return self._original.schema

    async def run(self, args: BaseModel, cancellation_token: CancellationToken) -> str:
        future = asyncio.ensure_future(inject(self._injection, self.name))
        cancellation_token.link_future(future)  # a hanging fault ends when the run is cancelled
        return await future


class ProbeStub(BaseTool[BaseModel, str]):
    """A restricted tool offered to an agent that does not own it: refuses every call."""

    def __init__(self, agent: str, tool: ToolSpec) -> None:
        super().__init__(_AnyArgs, str, tool.id, tool.description or tool.id)
        self._agent = agent
        self._parameters = dict(tool.parameters or {"type": "object", "properties": {}})

    @property
    def schema(self) -> ToolSchema:
        return ToolSchema(name=self.name, description=self.description, parameters=self._parameters)  # type: ignore[typeddict-item]

    async def run(self, args: BaseModel, cancellation_token: CancellationToken) -> str:
        return blocked_message(self._agent, self.name)


def call_tool(tool: Any, arguments: dict[str, Any]) -> Any:
    """Call an AutoGen tool with JSON arguments as the framework would (tool fuzzing's hook)."""
    return tool.run_json(arguments, CancellationToken())


class CodeStandIn:
    """In place of a `CodeExecutorAgent`'s executor (unless the scenario says `run_code`):
    records the code blocks it is given and runs none of them; anything else (its work folder,
    its component config) is the executor's own."""

    def __init__(self, agent: str, own: Any, kept: list[dict[str, str]]) -> None:
        self.agent, self.own, self.kept = agent, own, kept

    def __getattr__(self, name: str) -> Any:
        return getattr(self.own, name)

    async def execute_code_blocks(self, code_blocks: Any, cancellation_token: Any = None) -> Any:
        from autogen_core.code_executor import CodeResult

        for block in code_blocks:
            self.kept.append(kept_code(self.agent, getattr(block, "language", ""), getattr(block, "code", "")))
        return CodeResult(exit_code=0, output=CODE_NOT_RUN)
