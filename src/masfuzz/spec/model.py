"""`WorkflowSpec`: the normalised description of a multi-agent system under test.

It is the structural-coverage paper's specification S (§II-A, Listing 1) with the extra fields
the other methods need (instructions, tool schemas, termination, source locations). Every
adapter's `extract` produces one; the coordination graph and every obligation derive from it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

SPEC_FORMAT_VERSION = 1

Pattern = Literal["fixed_order", "selector", "handoff", "graph", "orchestrated"]
Trigger = Literal["handoff", "as_tool", "selector", "sequence", "graph_edge", "delegate"]
ToolKind = Literal["function", "hosted", "agent", "mcp", "stub"]
RestrictMode = Literal["declared", "closed_world"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class SourceLocation(_Frozen):
    file: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


class SystemInfo(_Frozen):
    id: str
    entry_agent: str
    framework: str = "manifest"
    pattern: Pattern = "handoff"
    # The task the system carries out when given none: an AG2 program's own opening message.
    # FLARE's null seed (fuzzing runs it unchanged beside the other seeds).
    task: str | None = None


# An agent's `model_settings` key naming the router function of the app's code that may enter the
# run at it (a LangGraph conditional edge out of START): the agents sharing one are the router's
# choices, though no agent hands over to them.
ENTERED_BY = "entered_by"
# An agent's `model_settings` key listing the labels the router function reading its output knows
# (a LangGraph conditional edge out of it: the keys of the table the function looks labels up in,
# the strings its code compares with, a path map's keys): a label it says outside them falls
# through to the function's default.
ROUTE_LABELS = "route_labels"
# How a `WorkflowSpec.notes` entry holding a speaker selector's prompt opens (AgentChat's
# `SelectorGroupChat(selector_prompt=...)`): the prompt may state the team's order of work.
SELECTOR_PROMPT = "selector prompt: "


class AgentSpec(_Frozen):
    id: str
    name: str | None = None  # the framework's display name when it differs from the unique id
    description: str = ""
    instructions: str = ""
    instructions_dynamic: bool = False  # instructions computed by a callable at run time
    model: str | None = None
    model_settings: dict[str, Any] = Field(default_factory=dict)
    guardrails: tuple[str, ...] = ()
    source: SourceLocation | None = None


class ToolSpec(_Frozen):
    id: str
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=dict)  # JSON schema of the arguments
    kind: ToolKind = "function"
    enabled_condition: str | None = None  # text of an `is_enabled` callable, if any
    source: SourceLocation | None = None


class Permissions(_Frozen):
    allow: tuple[tuple[str, str], ...] = ()
    restrict: tuple[tuple[str, str], ...] = ()
    # `declared`: exactly the pairs listed. `closed_world`: every reachable agent x workflow tool
    # pair that is not allowed (how the paper's Table I counts); `restrict` must then be empty.
    restrict_mode: RestrictMode = "declared"


class Delegation(_Frozen):
    from_: str = Field(alias="from")
    to: str
    trigger: Trigger = "handoff"
    condition: str = ""

    @property
    def edge(self) -> tuple[str, str]:
        return (self.from_, self.to)


class Termination(_Frozen):
    conditions: tuple[str, ...] = ()
    max_turns: int | None = None


class WorkflowSpec(_Frozen):
    format_version: int = SPEC_FORMAT_VERSION
    system: SystemInfo
    agents: tuple[AgentSpec, ...] = ()
    tools: tuple[ToolSpec, ...] = ()
    permissions: Permissions = Permissions()
    delegations: tuple[Delegation, ...] = ()
    termination: Termination = Termination()
    # What the extractor saw but the graph does not hold (MCP tools, agents started inside tools).
    notes: tuple[str, ...] = ()

    def agent(self, agent_id: str) -> AgentSpec:
        if (a := self.find_agent(agent_id)) is None:
            raise KeyError(agent_id)
        return a

    def tool(self, tool_id: str) -> ToolSpec:
        if (t := self.find_tool(tool_id)) is None:
            raise KeyError(tool_id)
        return t

    # the lookups for an id that may name nothing here (a trace's tool the spec never saw, a
    # call without a tool): None rather than KeyError
    def find_agent(self, agent_id: str | None) -> AgentSpec | None:
        return next((a for a in self.agents if a.id == agent_id), None)

    def find_tool(self, tool_id: str | None) -> ToolSpec | None:
        return next((t for t in self.tools if t.id == tool_id), None)
