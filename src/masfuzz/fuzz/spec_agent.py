"""FLARE's Specification Agent (§3.2.1): the tester model refines the specification skeleton.

Input: the skeleton (as JSON), the extracted workflow (agents' instructions, tools, pattern,
termination, the extractor's notes such as a selector prompt) and the target's source text, cut to
a size cap. The prompt follows the paper's parts: input, domain knowledge of the communication
pattern, a three-step reasoning chain (what the agents are and do; how they relate and end; each
agent's tasks and tool use), one worked example and a JSON-schema output format. The model
proposes dependencies among agents, termination closers and per-agent tasks.

Nothing the model says is taken on trust. Each clause is checked against the extracted workflow:
unknown agents and tools are rejected, a tool the agent may not use is dropped from its task
(repaired), a dependency that contradicts the pattern (against a fixed order, without a delegation
route, closing a cycle) is rejected, and every rejection and repair is counted with its reason.
The skeleton's clauses all stay; a malformed reply is retried once, and when the model fails the
skeleton stands unchanged, so a tiny local model can never make the specification worse.

Results are cached on disk by (source, workflow, model): one JSON file per key, written atomically.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel, Field

from masfuzz.errors import ModelError
from masfuzz.graph.specification import CLOSING_WORDS, FlareSpec, Task, skeleton
from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.llm.types import ChatMessage, ChatRequest, ModelClient
from masfuzz.spec.model import WorkflowSpec
from masfuzz.llm.structured import parse_json_object

PROMPT_VERSION = 1  # part of the cache key: a changed prompt must not reuse old answers
SOURCE_CAP = 4_000  # characters of source text
PROMPT_BUDGET = 9_000  # characters of prompt: the embedded model's 4096 tokens hold the answer too
MAX_TOKENS = 1_024
TAG = "masfuzz-flare-spec"  # metadata key scripted tester policies may read

# The framework's operational rules per communication pattern (the paper's "domain knowledge"),
# so the model reasons from how the pattern works rather than guessing it.
PATTERN_KNOWLEDGE = {
    "fixed_order": "Agents speak in a fixed order, round after round; the order is given and "
                   "every dependency must follow it.",
    "selector": "A selector model picks the next speaker each turn from all participants; who "
                "must act before whom follows from what each agent needs from the others.",
    "handoff": "An agent passes control to another with a handoff; an agent can only act after "
               "one that hands work to it.",
    "graph": "Agents are nodes of a graph; control moves along its edges.",
    "orchestrated": "An orchestrator calls the other agents as tools and collects their results.",
}

REASONING = (
    "Think in three steps.\n"
    "Step 1: what are the agents, and what does each one do?\n"
    "Step 2: how do they relate: which agent needs another's output first (before -> after), "
    "and which agent ends the work?\n"
    "Step 3: which tasks does each agent perform (inputs, outputs, responsibility), and with "
    "which of its own tools?"
)

EXAMPLE_INPUT = """System blog_team, pattern selector.
Agents:
- researcher: Finds facts for the article. Instructions: "Search the web with web_search and list the facts." Tools: web_search.
- writer: Writes the article. Instructions: "Write the article from the researcher's facts."
- editor: Reviews the article. Instructions: "Check the article and reply APPROVE when it is ready."
Termination: TextMentionTermination('APPROVE')."""

EXAMPLE_OUTPUT = {
    "step1_agents": "researcher finds facts, writer writes, editor reviews and approves",
    "step2_relations": "writer needs the facts; editor needs the article and ends the work",
    "dependencies": [{"before": "researcher", "after": "writer"},
                     {"before": "writer", "after": "editor"}],
    "closers": ["editor"],
    "tasks": [
        {"agent": "researcher", "description": "search the web for facts on the topic",
         "inputs": ["topic"], "outputs": ["facts"], "tool": "web_search",
         "responsibility": "collect the facts before anyone writes"},
        {"agent": "editor", "description": "approve the finished article",
         "inputs": ["article"], "outputs": ["APPROVE"], "tool": "",
         "responsibility": "end the workflow only when the article is ready"},
    ],
}


# The worked examples' own names (blog team): in an answer about a system that never mentions
# them, they show the answer was copied from the example.
EXAMPLE_MARKERS = ("researcher", "editor", "article", "facts", "blog", "draft", "web")


class Decision(BaseModel):
    item: str  # the clause or id judged, as proposed
    reason: str


class TesterStats(BaseModel):
    """What a tester-model step did: the counts reports show next to its result."""

    calls: int = 0
    malformed: int = 0
    malformed_reasons: list[str] = Field(default_factory=list)
    failures: list[str] = Field(default_factory=list)  # model calls that raised
    added: list[str] = Field(default_factory=list)  # clause ids (or items) accepted
    rejected: list[Decision] = Field(default_factory=list)
    repaired: list[Decision] = Field(default_factory=list)
    merged: list[Decision] = Field(default_factory=list)  # folded into an existing clause
    cached: bool = False

    def reject(self, item: str, reason: str) -> None:
        self.rejected.append(Decision(item=item, reason=reason))

    def repair(self, item: str, reason: str) -> None:
        self.repaired.append(Decision(item=item, reason=reason))


class SpecResult(BaseModel):
    spec: FlareSpec
    stats: TesterStats


# --- the agent -------------------------------------------------------------------------------


async def specification_agent(workflow: WorkflowSpec, client: ModelClient, *, source: str = "",
                              cache_dir: str | Path | None = None,
                              seed: int | None = None) -> SpecResult:
    """The skeleton of `workflow`, refined by the tester model and validated clause by clause."""
    skel = skeleton(workflow)
    spec, stats = await refine_with_model(
        "spec", client, workflow, source, cache_dir, start=skel,
        request=spec_request(workflow, skel, source, seed=seed),
        problem=lambda d, context: missing_lists(d, ("dependencies", "closers", "tasks"))
        or copied_example(d.get("tasks"), context),
        apply=lambda proposal, stats: apply_proposal(skel, workflow, proposal, stats))
    return SpecResult(spec=spec, stats=stats)


async def refine_with_model(kind: str, client: ModelClient, workflow: WorkflowSpec, source: str,
                            cache_dir: str | Path | None, *, start: FlareSpec, request: ChatRequest,
                            problem: Callable[[dict[str, Any], str], str],
                            apply: Callable[[dict[str, Any], TesterStats], FlareSpec],
                            extra: str = "") -> tuple[FlareSpec, TesterStats]:
    """One tester-model step on a specification, cached: `start` refined by the model's answer
    (`problem` judges an answer against the system's text, `apply` validates its clauses), or
    `start` unchanged when the model fails."""
    key = cache_key(kind, client, workflow, source, extra)
    hit = cache_load(cache_dir, key)
    if hit is not None:
        # what the model said then, but no call made now
        stats = TesterStats.model_validate(hit["stats"]).model_copy(update={"cached": True, "calls": 0})
        return FlareSpec.model_validate(hit["spec"]), stats
    stats = TesterStats()
    context = describe_workflow(workflow) + source
    proposal = await ask(client, request, stats, lambda data: problem(data, context))
    if proposal is None:
        return start, stats  # the specification stands; a failure is not cached
    spec = apply(proposal, stats)
    cache_store(cache_dir, key, {"spec": spec.model_dump(mode="json"), "stats": stats.model_dump(mode="json")})
    return spec, stats


def spec_request(workflow: WorkflowSpec, skel: FlareSpec, source: str, *,
                 seed: int | None = None) -> ChatRequest:
    # Context first and the task last, closest to the answer: small models lose the thread of
    # long prompts. The example is another system, so a model that copies it shows
    # (`copied_example`) instead of passing the example off as this system's specification.
    head = [describe_workflow(workflow), "",
            "Current specification (JSON): " + json.dumps(skeleton_view(skel), separators=(",", ":")), ""]
    tail = [
        "Example. For this system:", EXAMPLE_INPUT,
        "the answer is: " + json.dumps(EXAMPLE_OUTPUT), "",
        "Write the testing specification of the system above.", REASONING,
        "Use only the agent and tool names of the system above. Answer with JSON only: the "
        "dependencies (before, after), the agents that end the work (closers) and each agent's "
        "tasks (tool is \"\" when the task needs none).",
    ]
    return tester_request(with_source(head, source, tail), spec_schema(workflow), agent="specification-agent",
                          seed=seed, metadata={"workflow": workflow.system.id, "kind": "spec"})


def skeleton_view(skel: FlareSpec) -> dict[str, Any]:
    """The skeleton as compact JSON: what the workflow description does not already say (a
    selector's all-pairs edges and the tool clauses are left out; descriptions are clipped)."""
    rel = skel.relationships
    view: dict[str, Any] = {"pattern": rel.pattern, "order": list(rel.order),
                            "dependencies": [list(d) for d in rel.dependencies],
                            "closers": list(skel.termination.closers), "max_turns": skel.termination.max_turns}
    if rel.pattern != "selector":
        view["edges"] = [list(e) for e in rel.edges]
    view["tasks"] = [{"id": t.id, "description": clip(t.description, 100), **({"tool": t.tool} if t.tool else {})}
                     for t in skel.tasks]
    return view


def describe_workflow(workflow: WorkflowSpec) -> str:
    """The extracted workflow in plain sentences: the prompt's shared "Input" part (§3.2.2)."""
    graph = CoordinationGraph(workflow)
    pattern = workflow.system.pattern
    out = [f"System {workflow.system.id} ({workflow.system.framework}), pattern {pattern}, "
           f"entry agent {workflow.system.entry_agent}.",
           "How the pattern works: " + PATTERN_KNOWLEDGE.get(pattern, ""), "Agents:"]
    for agent in graph.reachable:
        a = workflow.agent(agent)
        tools = sorted(graph.allowed_by_agent.get(agent, ()))
        out.append(f"- {agent}: {clip(a.description, 200)} Instructions: \"{clip(a.instructions, 500)}\""
                   + (f" Tools: {', '.join(tools)}." if tools else " No tools."))
    if workflow.tools:
        out.append("Tools:")
        out += [f"- {t.id}({', '.join((t.parameters.get('properties') or {}))}): {clip(t.description, 160)}"
                for t in workflow.tools]
    term = workflow.termination
    out.append("Termination: " + ("; ".join(term.conditions) or "not stated")
               + (f"; at most {term.max_turns} turns." if term.max_turns else "."))
    out += [f"Note: {clip(n, 600)}" for n in workflow.notes]
    return "\n".join(out)


def spec_schema(workflow: WorkflowSpec) -> dict[str, Any]:
    """The answer's JSON schema: names are enums, so constrained decoding cannot invent them."""
    agents = CoordinationGraph(workflow).reachable
    tools = [""] + [t.id for t in workflow.tools]
    n = len(agents)
    task = object_schema({
        "agent": {"type": "string", "enum": agents},
        "description": text_schema(160),
        "inputs": texts_schema(4), "outputs": texts_schema(4),
        "responsibility": text_schema(160),
        "tool": {"type": "string", "enum": tools},
    })
    return object_schema({
        "step1_agents": text_schema(300), "step2_relations": text_schema(300),
        "dependencies": {"type": "array", "maxItems": 2 * n, "items": object_schema({
            "before": {"type": "string", "enum": agents}, "after": {"type": "string", "enum": agents}})},
        "closers": {"type": "array", "maxItems": n, "items": {"type": "string", "enum": agents}},
        "tasks": {"type": "array", "maxItems": 3 * n, "items": task},
    })


def object_schema(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False}


def text_schema(limit: int) -> dict[str, Any]:
    return {"type": "string", "maxLength": limit}


def texts_schema(limit: int) -> dict[str, Any]:
    return {"type": "array", "maxItems": limit, "items": text_schema(80)}


def missing_lists(data: dict[str, Any], keys: tuple[str, ...]) -> str:
    """Why the answer is unusable ('' if it is not): it needs at least one of `keys`, and every
    one it has must be a list."""
    present = [k for k in keys if k in data]
    if not present:
        return f"none of {', '.join(keys)}"
    wrong = [k for k in present if not isinstance(data[k], list)]
    return f"{', '.join(wrong)} not a list" if wrong else ""


def copied_example(items: Any, context: str) -> str:
    """Why the answer is a copy of the worked example ('' if it is not): its clauses use the
    example's own names that the system under test never mentions. Small models copy worked
    examples verbatim; such an answer says nothing about this system, whatever its names."""
    words = set(re.findall(r"[a-z]+", json.dumps(items, default=str).lower()))
    known = set(re.findall(r"[a-z]+", context.lower()))
    copied = sorted(w for w in EXAMPLE_MARKERS if w in words and w not in known)
    return f"copies the worked example ({', '.join(copied)})" if copied else ""


# --- validation against the extracted workflow ------------------------------------------------


class Known:
    """The names a proposal may use: the workflow's reachable agents (by id or display name),
    its tools, and who may use which tool."""

    def __init__(self, workflow: WorkflowSpec) -> None:
        graph = CoordinationGraph(workflow)
        self.graph = graph
        self.agents = {a: a for a in graph.reachable}
        self.agents.update({workflow.agent(a).name: a for a in graph.reachable if workflow.agent(a).name})
        self.unreachable = set(graph.agents) - set(graph.reachable)
        self.tools = set(graph.tools)

    def agent(self, name: Any) -> tuple[str | None, str]:
        """The agent id for `name`, or None and why not."""
        if not isinstance(name, str):
            return None, f"not an agent name: {name!r}"
        if name in self.agents:
            return self.agents[name], ""
        if name in self.unreachable:
            return None, f"agent {name!r} is not reachable from the entry agent"
        return None, f"unknown agent {name!r}"

    def agent_and_text(self, item: Any, key: str, label: str,
                       stats: TesterStats) -> tuple[str, str] | None:
        """A proposed item's agent id and its `key` text, or None with the reason counted."""
        text = clean_text(item.get(key)) if isinstance(item, dict) else ""
        if not text:
            stats.reject(label, f"no {key}")
            return None
        agent, why = self.agent(item.get("agent"))
        if agent is None:
            stats.reject(label, why)
            return None
        return agent, text

    def may_use(self, agent: str, tool: str) -> bool:
        return tool in self.graph.allowed_by_agent.get(agent, ())


def apply_proposal(skel: FlareSpec, workflow: WorkflowSpec, proposal: dict[str, Any],
                   stats: TesterStats) -> FlareSpec:
    """The skeleton with the proposal's valid clauses added; the rest counted in `stats`."""
    known = Known(workflow)
    deps = _dependencies(skel, known, _items(proposal, "dependencies"), stats)
    closers = _closers(skel, known, _items(proposal, "closers"), stats)
    tasks = _tasks(skel, known, _items(proposal, "tasks"), stats)
    for agent in closers:
        if not any(t.kind == "conclude" for t in tasks if t.agent == agent):
            tasks.append(Task(id=f"task::{agent}::conclude", agent=agent, kind="conclude",
                              description="conclude the workflow when its goal is met"))
    return skel.model_copy(update={
        "relationships": skel.relationships.model_copy(update={"dependencies": tuple(deps)}),
        "termination": skel.termination.model_copy(update={"closers": tuple(closers)}),
        "tasks": tuple(by_agent(tasks, list(known.graph.reachable)))})


def _items(proposal: dict[str, Any], key: str) -> list[Any]:
    value = proposal.get(key)
    return value if isinstance(value, list) else []


def by_agent(tasks: list[Task], agents: list[str]) -> list[Task]:
    """Tasks grouped by agent in the workflow's order, each agent's in the order given."""
    rank = {a: i for i, a in enumerate(agents)}
    return sorted(tasks, key=lambda t: rank.get(t.agent, len(rank)))


def _dependencies(skel: FlareSpec, known: Known, proposed: list[Any],
                  stats: TesterStats) -> list[tuple[str, str]]:
    deps = list(skel.relationships.dependencies)
    for item in proposed:
        label = _label(item, ("before", "after"), " -> ")
        if not isinstance(item, dict):
            stats.reject(label, "not a {before, after} object")
            continue
        (before, why_b), (after, why_a) = known.agent(item.get("before")), known.agent(item.get("after"))
        reason = why_b or why_a or dependency_problem(before, after, deps, skel, known)
        if reason:
            stats.reject(f"dependency {label}", reason)
        elif (before, after) not in deps and not _implied_by_order(before, after, skel):
            deps.append((before, after))
            stats.added.append(f"dependency {before} -> {after}")
    return deps


def dependency_problem(before: str, after: str, deps: list[tuple[str, str]], skel: FlareSpec,
                       known: Known) -> str:
    """Why (before, after) contradicts the pattern or the dependencies so far ('' if it does not)."""
    rel = skel.relationships
    if before == after:
        return "an agent cannot precede itself"
    if rel.order and before in rel.order and after in rel.order \
            and rel.order.index(before) > rel.order.index(after):
        return f"contradicts the fixed order {' -> '.join(rel.order)}"
    if rel.pattern in ("handoff", "graph", "orchestrated") and not _reaches(known.graph.successors, before, after):
        return f"no delegation route from {before} to {after}"
    if _reaches(_successors(deps), after, before):
        return f"closes a cycle: {after} already acts before {before}"
    return ""


def _implied_by_order(before: str, after: str, skel: FlareSpec) -> bool:
    # Under a fixed order the order is authoritative: a consistent pair adds nothing to it.
    order = skel.relationships.order
    return before in order and after in order


def _successors(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for a, b in pairs:
        out.setdefault(a, []).append(b)
    return out


def _reaches(successors: dict[str, list[str]], start: str, goal: str) -> bool:
    seen, todo = {start}, [start]
    while todo:
        for nxt in successors.get(todo.pop(), ()):
            if nxt == goal:
                return True
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def _closers(skel: FlareSpec, known: Known, proposed: list[Any], stats: TesterStats) -> list[str]:
    closers = list(skel.termination.closers)
    for name in proposed:
        agent, why = known.agent(name)
        if agent is None:
            stats.reject(f"closer {name!r}", why)
        elif agent not in closers:
            closers.append(agent)
            stats.added.append(f"closer {agent}")
    return closers


def _tasks(skel: FlareSpec, known: Known, proposed: list[Any], stats: TesterStats) -> list[Task]:
    tasks = list(skel.tasks)
    for item in proposed:
        task = _task(item, known, stats)
        if task is None:
            continue
        same = next((i for i, t in enumerate(tasks) if t.id == task.id
                     or (task.tool and t.agent == task.agent and t.tool == task.tool)), None)
        if same is None:
            tasks.append(task)
            stats.added.append(task.id)
        elif tasks[same].id in {t.id for t in skel.tasks} and task.tool:
            # The skeleton already has this agent's use of this tool: the proposal adds what the
            # skeleton cannot know (responsibility, meaningful outputs) to that clause.
            tasks[same] = _merged(tasks[same], task)
            stats.merged.append(Decision(item=task.description, reason=f"refines {tasks[same].id}"))
        else:
            stats.reject(f"task {task.description!r}", f"duplicate of {tasks[same].id}")
    return tasks


def _task(item: Any, known: Known, stats: TesterStats) -> Task | None:
    """One proposed task as a clause, or None (rejected, with its reason counted)."""
    label = f"task {_label(item, ('agent', 'description'), ': ')}"
    named = known.agent_and_text(item, "description", label, stats)
    if named is None:
        return None
    agent, description = named
    tool = clean_text(item.get("tool")) or None
    if tool is not None and tool not in known.tools:
        stats.reject(label, f"unknown tool {tool!r}")
        return None
    if tool is not None and not known.may_use(agent, tool):
        stats.repair(label, f"{agent} may not use {tool}: tool dropped")
        tool = None
    description = description[:200]
    kind = "use_tool" if tool else ("conclude" if _closes(description) else "answer")
    return Task(id=f"task::{agent}::{slug(description)}", agent=agent, kind=kind,
                description=description, inputs=_strs(item.get("inputs")),
                outputs=_strs(item.get("outputs")), tool=tool,
                responsibility=clean_text(item.get("responsibility"))[:200])


def _merged(old: Task, new: Task) -> Task:
    generic = old.outputs == (f"{old.tool} result",)
    return old.model_copy(update={
        "responsibility": old.responsibility or new.responsibility,
        "outputs": new.outputs if generic and new.outputs else old.outputs})


def _closes(text: str) -> bool:
    return any(w in text.lower() for w in CLOSING_WORDS)


SLUG_SKIP = {"a", "an", "the", "of", "to", "for", "with", "and", "its", "it", "their"}


def slug(text: str, words: int = 5) -> str:
    """A short stable id part from a description: 'Render the final video!' -> render_final_video."""
    kept = [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in SLUG_SKIP]
    return "_".join(kept[:words]) or "task"


def clean_text(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def _strs(value: Any, limit: int = 6) -> tuple[str, ...]:
    items = value if isinstance(value, list) else []
    return tuple(s[:80] for s in (clean_text(v) for v in items) if s)[:limit]


def _label(item: Any, keys: tuple[str, ...], sep: str) -> str:
    if isinstance(item, dict):
        return sep.join(str(item.get(k, "?")) for k in keys)
    return clip(repr(item), 80)


def clip(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --- source text -------------------------------------------------------------------------------


def read_source(workflow: WorkflowSpec, *, root: str | Path | None = None, cap: int = SOURCE_CAP) -> str:
    """The files the workflow's agents and tools were defined in, concatenated and cut at `cap`
    characters (agents' files first: their initialisation code is what FLARE reads)."""
    base = Path(root) if root is not None else Path.cwd()
    files = dict.fromkeys(x.source.file for x in (*workflow.agents, *workflow.tools) if x.source)
    parts: list[str] = []
    for name in files:
        path = Path(name) if Path(name).is_absolute() else base / name
        try:
            parts.append(f"# file: {name}\n{path.read_text(errors='replace')}")
        except OSError:
            continue
    return "\n".join(parts)[:cap]


def with_source(head: list[str], source: str, tail: list[str], *, cap: int = SOURCE_CAP,
                budget: int = PROMPT_BUDGET) -> str:
    """The prompt with the source text between its context and its task, cut so the whole stays
    within `budget` characters (the small model's context must hold the answer too)."""
    before, after = "\n".join(head), "\n".join(tail)
    room = min(cap, budget - len(before) - len(after) - len("\nSource code:\n\n\n"))
    if not source.strip() or room < 200:
        return f"{before}\n{after}"
    return f"{before}\nSource code:\n{source[:room]}\n\n{after}"


# --- asking the tester model ---------------------------------------------------------------------


def tester_request(prompt: str, schema: dict[str, Any], *, agent: str, seed: int | None = None,
                   max_tokens: int = MAX_TOKENS, metadata: dict[str, Any] | None = None) -> ChatRequest:
    return ChatRequest(messages=(ChatMessage(role="user", content=prompt),), response_schema=schema,
                       temperature=0.0, seed=seed, max_tokens=max_tokens, role="tester", agent=agent,
                       metadata={TAG: metadata or {}})


async def ask(client: ModelClient, request: ChatRequest, stats: TesterStats,
              problem: Callable[[dict[str, Any]], str]) -> dict[str, Any] | None:
    """The reply as a JSON object, asking once more after a malformed one (`problem` says what
    is wrong with it, '' when nothing is); None when the model fails or stays malformed (the
    caller then keeps what it had)."""
    for attempt in range(2):
        if attempt:  # the same request again would get the same answer from a greedy model
            request = request.model_copy(update={"seed": (request.seed or 0) + 1, "temperature": 0.7})
        stats.calls += 1
        try:
            reply = await client.complete(request)
        except ModelError as exc:
            stats.failures.append(str(exc))
            return None
        data = parse_json_object(reply.text or "") if reply.finish_reason != "error" else {}
        why = problem(data) if data else "no JSON object"
        if not why:
            return data
        stats.malformed += 1
        stats.malformed_reasons.append(why)
    return None


# --- the cache ----------------------------------------------------------------------------------


def cache_key(kind: str, client: ModelClient, workflow: WorkflowSpec, source: str, extra: str = "") -> str:
    """Same source, same workflow, same model (and prompt version): same answer."""
    parts = {
        "kind": kind, "prompt": PROMPT_VERSION, "model": client.model_string,
        # a scripted policy's answers change when its file does
        "policy": getattr(client, "fingerprint", None),
        "source": _digest(source), "workflow": _digest(workflow.model_dump_json()), "extra": extra,
    }
    return f"{kind}-{_digest(json.dumps(parts, sort_keys=True))[:24]}"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def cache_load(cache_dir: str | Path | None, key: str) -> dict[str, Any] | None:
    if cache_dir is None:
        return None
    try:
        data = json.loads((Path(cache_dir) / f"{key}.json").read_text())
    except (OSError, ValueError):
        return None  # absent or damaged: ask the model again
    return data if isinstance(data, dict) and data.get("prompt") == PROMPT_VERSION else None


def cache_store(cache_dir: str | Path | None, key: str, payload: dict[str, Any]) -> None:
    """Write through a temporary file and rename, so a reader never sees half a file."""
    if cache_dir is None:
        return
    folder = Path(cache_dir)
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{key}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump({"prompt": PROMPT_VERSION, **payload}, fh, indent=1)
        os.replace(tmp, folder / f"{key}.json")
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
