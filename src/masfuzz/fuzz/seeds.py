"""The tester model's two jobs around the seed pool (FLARE §3.3.2, and the `input` baseline).

- `seed_tasks`: N task descriptions a user of the system would give it, written from the
  workflow's documentation (agents, tools, pattern). They join the user's own `--input`s as
  seeds. A weak model that writes nothing usable adds nothing; the run says so.
- `rewrite_input`: the `input` strategy's mutator (LLM-Fuzzer style, the paper's strongest
  baseline): the same task reworded or with a new constraint. FLARE itself never does this; the
  input is invariant under its mutations (§3.3.3).
"""

from __future__ import annotations

from masfuzz.fuzz.spec_agent import (
    TesterStats, ask, clip, describe_workflow, object_schema, tester_request, text_schema,
)
from masfuzz.llm.types import ModelClient
from masfuzz.spec.model import WorkflowSpec

TASK_CHARS = 300
MIN_LETTERS = 3  # a task has words; a weak model's placeholder ("...", "1.") has none
# A task as the grammar of a constrained decoder (llama.cpp's JSON-schema converter) can hold
# it: a capitalised word, then at least three more words. Shown `["...", "..."]` as the answer's
# shape, Gemma 3 270M wrote "..." twice (measured); under this pattern it must write words.
TASK_PATTERN = r"^[A-Z][a-z']+( [A-Za-z0-9,.'?!$:-]+){3,40}$"
SEED_WRITER, INPUT_MUTATOR = "seed_writer", "input_mutator"


async def seed_tasks(workflow: WorkflowSpec, client: ModelClient, n: int, *,
                     seed: int | None = None, stats: TesterStats | None = None) -> list[str]:
    """Up to `n` distinct, non-empty tasks for the system, in the model's order."""
    stats = stats if stats is not None else TesterStats()
    if n <= 0:
        return []
    prompt = "\n".join([
        describe_workflow(workflow), "",
        f"Write {n} different tasks a user could give this system, each one request in one or two "
        "sentences in the user's own words, each using different agents or tools of it. Answer "
        'as JSON: an object whose "tasks" is the list of the tasks\' texts.'])
    task = {**text_schema(TASK_CHARS), "pattern": TASK_PATTERN}
    request = tester_request(prompt, object_schema(
        {"tasks": {"type": "array", "minItems": 1, "maxItems": n, "items": task}}),
                             agent=SEED_WRITER, seed=seed, metadata={"n": n})
    data = await ask(client, request, stats, _tasks_problem)
    if data is None:
        return []
    out: list[str] = []
    for text in data["tasks"]:
        text = clip(" ".join(str(text).split()), TASK_CHARS)
        if text and sum(ch.isalpha() for ch in text) < MIN_LETTERS:
            stats.reject(text, "not a task: no words")  # a weak model's "..." or "TBD"
        elif text and text not in out:
            out.append(text)
    stats.added += out[:n]
    return out[:n]


async def rewrite_input(text: str, workflow: WorkflowSpec, client: ModelClient, *,
                        seed: int | None = None, stats: TesterStats | None = None) -> str:
    """A reworded variant of the task `text`; the task itself when the model gives nothing."""
    stats = stats if stats is not None else TesterStats()
    prompt = "\n".join([
        describe_workflow(workflow), "",
        f'A user gave the system this task: "{clip(text, 600)}"',
        "Rewrite it so that it asks for the same work in different words, or adds one realistic "
        'constraint, to test the system. Answer as JSON: {"task": "..."}'])
    request = tester_request(prompt, object_schema({"task": text_schema(TASK_CHARS * 2)}),
                             agent=INPUT_MUTATOR, seed=seed, metadata={"input": text})
    data = await ask(client, request, stats,
                     lambda d: "" if isinstance(d.get("task"), str) and d["task"].strip()
                     else "no task")
    return " ".join(data["task"].split()) if data else text


def _tasks_problem(data: dict) -> str:
    tasks = data.get("tasks")
    if not isinstance(tasks, list) or not any(isinstance(t, str) and t.strip() for t in tasks):
        return "no tasks"
    return ""
