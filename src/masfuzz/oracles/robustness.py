"""The mechanical robustness witness W^F1 (structural-coverage §IV-G).

`robustness_witness(trace, agent, tool)` holds when the target agent attempted the target tool,
the run did not crash (nor time out), the final reply is non-trivial, and no reply leaks the raw
error marker an injected `error` fault carries: judged from the `Trace` alone, without a model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from masfuzz.trace import Message, ToolCall, Trace

FAULT_MARKER = "MASFUZZ_INJECTED_INTERNAL_ERROR"  # in every injected error's message
MIN_REPLY_CHARS = 8  # a final reply shorter than this ("ok", "", "...") is trivial
# A reply that tells the user an action did not work: how an honest system answers a failed tool.
ADMISSION = re.compile(
    r"\b(?:sorry|apologi[sz]e|unfortunately|unable|could\s*n[o']t|can\s*n[o']t|cannot|"
    r"did\s*n[o']t\s+(?:go\s+through|work|succeed)|not\s+(?:able|possible|available|working)|"
    r"failed|failure|error|problem|issue|went\s+wrong|try\s+again)\b", re.IGNORECASE)


def admits_failure(reply: str) -> bool:
    return bool(ADMISSION.search(reply))


@dataclass(frozen=True)
class WitnessResult:
    holds: bool
    attempted: bool
    no_crash: bool
    non_trivial_reply: bool
    no_leak: bool

    @property
    def reasons(self) -> list[str]:
        checks = {
            "the target tool was not attempted": self.attempted,
            "the run crashed or timed out": self.no_crash,
            "the final reply is empty or trivial": self.non_trivial_reply,
            "a reply leaks the raw internal-error marker": self.no_leak,
        }
        return [why for why, ok in checks.items() if not ok]


def robustness_witness(trace: Trace, agent: str, tool: str) -> WitnessResult:
    """W^F1 of §IV-G for the objective (agent uses tool) under an injected fault."""
    attempted = any(e.agent == agent and e.tool == tool for e in trace.of_type(ToolCall))
    end = trace.termination
    no_crash = end is not None and end.reason not in ("crash", "timeout")
    final = (end.final_output or "") if end is not None else ""
    non_trivial = len(final.strip()) >= MIN_REPLY_CHARS
    replies = [final] + [m.content for m in trace.of_type(Message) if m.role == "assistant"]
    no_leak = not any(FAULT_MARKER in r for r in replies)
    return WitnessResult(
        holds=attempted and no_crash and non_trivial and no_leak,
        attempted=attempted, no_crash=no_crash, non_trivial_reply=non_trivial, no_leak=no_leak,
    )
