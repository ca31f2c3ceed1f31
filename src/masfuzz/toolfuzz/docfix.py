"""Documentation auto-fix (§5.3, ToolFuzz-AutoFix): rewrite a tool's description from the prompts
it failed on, re-test each rewrite on the same prompt sets, keep the best of K.

The tester model sees the current description, the erroneous prompts with the agent's tool calls
and outputs, and is asked (argumentatively: what did the agent misunderstand, what must the
documentation say) for a better description. Each candidate is re-tested with the correctness
pipeline on the very prompt sets that failed, and the candidate with the fewest erroneous prompts
wins; the original stays if no candidate beats it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from masfuzz.llm.types import ModelClient
from masfuzz.toolfuzz.agent import observation
from masfuzz.toolfuzz.correctness import CorrectnessReport, correctness_pipeline, sets_of
from masfuzz.toolfuzz.sandbox import Sandbox
from masfuzz.llm.structured import ask_json
from masfuzz.toolfuzz.tools import FuzzTool

FIX_PROMPT = """You maintain the documentation of an AI agent's tool. Agents using it answered these user requests wrongly.
Tool name: {name}
Current description: {description}
Argument schema: {schema}
Failures (user request, the tool call the agent made, what the tool returned):
{failures}
First argue what the agent misunderstood and what the documentation leaves out; then write a corrected description that tells an agent exactly how to call the tool (syntax, formats, limits). This is candidate {k} of {total}: make it differ from the other candidates.
Answer as JSON: {{"reason": "...", "description": "..."}}"""
FIX_SCHEMA = {"type": "object", "properties": {"reason": {"type": "string"}, "description": {"type": "string"}},
              "required": ["description"]}


@dataclass
class DocFix:
    original: str
    best: str
    before: int  # erroneous prompts with the original description
    after: int  # with the best description
    candidates: list[tuple[str, int]]  # (description, erroneous prompts)
    report_after: CorrectnessReport

    @property
    def improved(self) -> bool:
        return self.after < self.before

    def to_dict(self) -> dict[str, Any]:
        return {"original": self.original, "best": self.best, "before": self.before, "after": self.after,
                "improved": self.improved,
                "candidates": [{"description": d, "errors": e} for d, e in self.candidates]}


def failures_text(report: CorrectnessReport, limit: int = 8) -> str:
    lines = []
    for s in report.erroneous_sets:
        for p, run, score in zip(s.prompts, s.runs, s.scores):
            if score >= 5:
                continue
            step = run.steps[-1] if run.steps else None
            lines.append(f"- request: {p}\n  call: {json.dumps(step.arguments) if step else '(none)'}\n"
                         f"  tool returned: {observation(step.outcome)[:300] if step else '(nothing)'}")
    return "\n".join(lines[:limit])


async def fix_documentation(tool: FuzzTool, report: CorrectnessReport, sandbox: Sandbox, agent: ModelClient,
                            tester: ModelClient, *, seed: int, k: int = 3) -> DocFix:
    sets = sets_of(report)
    failures = failures_text(report)
    candidates: list[tuple[str, int]] = []
    best_desc, best_count, best_report = tool.description, report.error_count, report
    for i in range(1, k + 1):
        got = await ask_json(tester, FIX_PROMPT.format(
            name=tool.name, description=tool.description, schema=json.dumps(tool.schema),
            failures=failures or "(none recorded)", k=i, total=k), FIX_SCHEMA, seed=seed + i)
        desc = got.get("description")
        if not isinstance(desc, str) or not desc.strip() or desc.strip() == tool.description:
            continue
        fixed = tool.with_description(desc.strip())
        # Sandbox workers were forked with the old tool; documentation is not code, so the
        # same workers serve: only the agent sees the description.
        retest = await correctness_pipeline(fixed, sandbox, agent, tester, seed=seed, sets=sets)
        candidates.append((desc.strip(), retest.error_count))
        if retest.error_count < best_count:
            best_desc, best_count, best_report = desc.strip(), retest.error_count, retest
    return DocFix(tool.description, best_desc, report.error_count, best_count, candidates, best_report)
