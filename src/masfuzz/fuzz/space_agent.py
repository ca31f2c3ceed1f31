"""FLARE's Space Agent (§3.2.2): the intra-agent behavioural space, refined by the tester model.

The space is each agent's atomic behaviours. The Space Agent reads the same input with the same
reasoning chain as the Specification Agent (the paper's prompts share both) and differs in its
instruction: split each agent's tasks into atomic behaviours, following FLARE's two granularity
principles (different choices within one context are separate behaviours; the same choice in
different contexts is too). Each atomic behaviour becomes a task of the FLARE specification that
`refines` the task it was split from, with a stable id `task::<agent>::<slug>`, so the space
still comes from the specification alone: `BehaviourSpace.of(result.spec)`.

Validation: the agent must be known and the task must be that agent's own task of the
specification; a task "split" into a single behaviour is no split and is rejected; duplicates are
rejected. With a failing or weak model the specification, and so the space, stays as it was.
The execution-path space is enumerated deterministically (`masfuzz.graph.paths`) from the
specification's dependencies, not asked of the model.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from masfuzz.coverage.behaviour import BehaviourSpace
from masfuzz.fuzz.spec_agent import (
    REASONING,
    Known,
    TesterStats,
    by_agent,
    clip,
    copied_example,
    describe_workflow,
    missing_lists,
    object_schema,
    refine_with_model,
    slug,
    tester_request,
    text_schema,
    with_source,
)
from masfuzz.graph.specification import FlareSpec, Task
from masfuzz.llm.types import ChatRequest, ModelClient
from masfuzz.spec.model import WorkflowSpec

EXAMPLE = """Example. The agent writer of a blog team has the task
task::writer::answer: write the article from the researcher's facts.
Its atomic behaviours: {"behaviours": [
{"agent": "writer", "task": "task::writer::answer", "behaviour": "write a first draft from the facts"},
{"agent": "writer", "task": "task::writer::answer", "behaviour": "revise the draft after the editor's comments"}]}"""

INSTRUCTION = (
    "Split each agent's tasks into atomic behaviours. Different choices within the same context "
    "are separate behaviours, and the same choice in different contexts is too. Give a task you "
    "split at least two behaviours, and leave atomic tasks out. Each behaviour names its agent "
    "and the id of the task it comes from. Answer with JSON only."
)


class SpaceResult(BaseModel):
    spec: FlareSpec  # the specification with the atomic behaviours added as refining tasks
    stats: TesterStats

    @property
    def space(self) -> BehaviourSpace:
        return BehaviourSpace.of(self.spec)


async def space_agent(spec: FlareSpec, workflow: WorkflowSpec, client: ModelClient, *,
                      source: str = "", cache_dir: str | Path | None = None,
                      seed: int | None = None) -> SpaceResult:
    """`spec` with each agent's tasks split into atomic behaviours where the model sees a split."""
    refined, stats = await refine_with_model(
        "space", client, workflow, source, cache_dir, start=spec, extra=spec.model_dump_json(),
        request=space_request(spec, workflow, source, seed=seed),
        problem=lambda d, context: missing_lists(d, ("behaviours",)) or copied_example(d["behaviours"], context),
        apply=lambda proposal, stats: apply_behaviours(spec, workflow, proposal["behaviours"], stats))
    return SpaceResult(spec=refined, stats=stats)


def space_request(spec: FlareSpec, workflow: WorkflowSpec, source: str, *,
                  seed: int | None = None) -> ChatRequest:
    tasks = [t for t in spec.tasks if t.refines is None]
    head = [describe_workflow(workflow), ""]
    tail = ["The agents' tasks:",
            *(f"- {t.id} ({t.agent}): {clip(t.description, 160)}" + (f" [tool {t.tool}]" if t.tool else "")
              for t in tasks), "",
            EXAMPLE, "", REASONING, INSTRUCTION]
    return tester_request(with_source(head, source, tail), space_schema(spec), agent="space-agent", seed=seed,
                          metadata={"workflow": workflow.system.id, "kind": "space"})


def space_schema(spec: FlareSpec) -> dict[str, Any]:
    agents = list(dict.fromkeys(t.agent for t in spec.tasks))
    tasks = [t.id for t in spec.tasks if t.refines is None]
    return object_schema({
        "step1_agents": text_schema(300), "step2_relations": text_schema(300),
        "behaviours": {"type": "array", "maxItems": 3 * len(tasks), "items": object_schema({
            "agent": {"type": "string", "enum": agents},
            "task": {"type": "string", "enum": tasks},
            "behaviour": text_schema(160)})},
    })


def apply_behaviours(spec: FlareSpec, workflow: WorkflowSpec, proposed: list[Any],
                     stats: TesterStats) -> FlareSpec:
    """`spec` with the valid atomic behaviours added; the others counted in `stats`."""
    known = Known(workflow)
    taken = {t.id for t in spec.tasks}
    children: dict[str, list[Task]] = {}
    for item in proposed:
        child = _behaviour(item, spec, known, stats)
        if child is None:
            continue
        if child.id in taken:
            stats.reject(child.id, "duplicate id")
            continue
        taken.add(child.id)
        children.setdefault(child.refines or "", []).append(child)
    added: list[Task] = []
    for parent, kids in children.items():
        if len(kids) < 2:
            stats.reject(kids[0].id, f"a single behaviour does not split {parent}")
            continue
        added += kids
        stats.added += [k.id for k in kids]
    tasks = by_agent([*spec.tasks, *added], list(dict.fromkeys(t.agent for t in spec.tasks)))
    return spec.model_copy(update={"tasks": tuple(tasks)})


def _behaviour(item: Any, spec: FlareSpec, known: Known, stats: TesterStats) -> Task | None:
    label = json.dumps(item, default=str)[:120]
    named = known.agent_and_text(item, "behaviour", label, stats)
    if named is None:
        return None
    agent, text = named
    parent = next((t for t in spec.tasks if t.id == item.get("task")), None)
    if parent is None or parent.refines is not None:
        stats.reject(label, f"no task {item.get('task')!r} of the specification to split")
        return None
    if parent.agent != agent:
        stats.reject(label, f"{parent.id} is {parent.agent}'s task, not {agent}'s")
        return None
    return parent.model_copy(update={"id": f"task::{agent}::{slug(text)}", "description": text[:200],
                                     "refines": parent.id})
