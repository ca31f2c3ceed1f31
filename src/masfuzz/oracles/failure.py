"""`Failure`: one finding of an oracle over a `Trace`, in FLARE's failure taxonomy (§3.4, Table 2).

A failure names its category (FLARE's four symptom types plus the runtime crashes of its Table 2
and masfuzz's restricted-tool-call observations), its root cause in Table 2's vocabulary, the
detector that found it, one actionable line, the trace events that show it, and the scenario
that reproduces it. Its `fingerprint` is built from the category, the root cause, the detector
and the structural elements involved (agents, tools, termination reasons, cycles), never from
volatile text (ids, timestamps, payloads), so the same defect found by two scenarios is one
failure.
"""

from __future__ import annotations

import hashlib
import json
from typing import Literal

from pydantic import BaseModel, ConfigDict, computed_field

Category = Literal[
    "agent_task_execution",
    "tool_invocation",
    "agent_relationship",
    "system_termination",
    "runtime_crash",
    "restricted_tool_call",
]

CATEGORY_NAMES: dict[str, str] = {
    "agent_task_execution": "agent task execution",
    "tool_invocation": "tool invocation",
    "agent_relationship": "agent relationship",
    "system_termination": "system termination",
    "runtime_crash": "runtime crash",
    "restricted_tool_call": "restricted tool call",
}

# FLARE Table 2's root causes, plus two its text names without a row: premature termination
# (§3.4, termination anomaly 2) and an agent calling a tool outside its agent-tool interactions
# (§3.4, tool misuse 1), which masfuzz observes as a `restricted_attempt`.
RootCause = Literal[
    "Runtime Crash",
    "Prompt and Instruction Deviation",
    "Response Omission",
    "Malformed Output Format",
    "Repetitive Execution of Completed Tasks",
    "Role Misalignment",
    "Explicit Task Refusal",
    "Tool Invocation Omission",
    "Tool Execution Error",
    "Tool Specification Mismatch",
    "Violation of Relationships-based Speaking Order",
    "Termination Condition Violation",
    "Max Round Limit Exceeded",
    "Premature Termination",
    "Restricted Tool Access",
]

FINGERPRINT_CHARS = 16  # 64 bits of sha256: no collisions among the failures of one store


class Failure(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")  # a dumped failure (with its fingerprint) loads back

    category: Category
    root_cause: RootCause
    detector: str
    description: str
    evidence: tuple[int, ...] = ()  # indices into the trace's events
    scenario_id: str = ""
    # The structural elements the failure is about (agent and tool ids, a termination reason, a
    # speaker cycle): what the fingerprint is made of.
    elements: tuple[str, ...] = ()

    @computed_field  # type: ignore[prop-decorator]
    @property
    def fingerprint(self) -> str:
        key = json.dumps([self.category, self.root_cause, self.detector, list(self.elements)])
        return hashlib.sha256(key.encode()).hexdigest()[:FINGERPRINT_CHARS]

    @property
    def category_name(self) -> str:
        return CATEGORY_NAMES[self.category]


def dedupe(failures: list[Failure]) -> list[Failure]:
    """The first failure of each fingerprint, in order."""
    seen: set[str] = set()
    out = []
    for f in failures:
        if f.fingerprint not in seen:
            seen.add(f.fingerprint)
            out.append(f)
    return out
