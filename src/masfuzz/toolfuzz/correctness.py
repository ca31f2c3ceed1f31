"""The correctness pipeline (§4.2, Figure 1.2): synonymous prompt sets and cascading checks.

1. A tester model writes template questions with masks ([A], [B], Figure 12) and synonymous
   infills for each mask (Figure 13); zipping the infills gives a prompt set P = {p_1..p_n} whose
   prompts all ask the same thing.
2. The agent runs every p_j; we keep its tool inputs I_j, tool outputs O_j and answers a_j.
3. Checks: (i) argument consistency — all I_j equal after normalisation (case, spacing,
   punctuation, number formatting, key order), not raw string equality; (ii) output consistency
   — all O_j equal after the same normalisation; (iii) the LLM oracle — a tester model answers
   each p_j without the tool (Figure 15), the majority answer is the expectation, and the oracle
   scores each a_j from 1 to 10 against the tool output and that expectation (Figure 17); a
   score below 5 fails.
4. A prompt set is erroneous only when all three checks fail: each check alone has too many
   false positives (non-deterministic tools, harmless rephrasing).

The cascade cannot see a tool that is wrong the same way for every phrasing (a tool documented
in kilometres that answers in miles: consistent inputs, consistent outputs). Where the
documentation itself gives an example with its answer (`Example: trail_length("Kungsleden") ->
"Kungsleden: 440 km"`, or a doctest's `>>> call` and the line after it), that answer is the
author's own expectation, firmer than any model's: the example is called in the sandbox, and an
output that differs from the documented one (after the same normalisation) is a correctness
error of its own (`examples` in the report), with no model asked.
"""

from __future__ import annotations

import ast
import json
import re
import unicodedata
from collections import Counter
from datetime import datetime
from dataclasses import dataclass, field
from typing import Any

from masfuzz.llm.types import ModelClient
from masfuzz.toolfuzz.agent import AgentRun, observation, run_agent
from masfuzz.toolfuzz.generate import DOCUMENTED_DAY
from masfuzz.toolfuzz.priors import doc_priors, stated_formats
from masfuzz.toolfuzz.sandbox import Sandbox, off_loop
from masfuzz.llm.structured import ask_json
from masfuzz.toolfuzz.tools import FuzzTool, tool_doc

ORACLE_THRESHOLD = 5

TEMPLATE_PROMPT = """You are a user asking an AI assistant for help - just speak naturally.
Your task: Generate **template questions** that a user might ask based on a tool's purpose and capabilities.
The tool is described as follows: {doc}
Use placeholders in brackets for the parts that vary, i.e. [A], [B], [C]. Avoid other special characters.
Answer as JSON: {{"templates": ["...", "..."]}}"""
TEMPLATE_SCHEMA = {"type": "object", "properties": {"templates": {"type": "array", "items": {"type": "string"}}},
                   "required": ["templates"]}

INFILL_PROMPT = """You are a user interacting with an AI assistant - just speak naturally.
For the following template question: '{template}'
Generate infills for each placeholder ({masks}). Each infill is a specific example that could fill that blank; the infills of one placeholder must all mean the same thing, written the way different users would: synonyms, abbreviations, rephrasings, alternate spellings.
Use only inputs that are relevant to this tool: {doc}
Answer as JSON: {{"infills": {{"A": ["...", "..."]}}}}"""
INFILL_SCHEMA = {"type": "object", "properties": {"infills": {"type": "object", "additionalProperties": {
    "type": "array", "items": {"type": "string"}}}}, "required": ["infills"]}

ANSWER_PROMPT = """You are emulating the following tool: {doc}
Give the tool's expected answer to this question, in one sentence: {question}
Answer as JSON: {{"answer": "..."}}"""
ANSWER_SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}

ORACLE_PROMPT = """You are assessing an agent RESPONSE. Give a score between 1 and 10. 10 means the response satisfies both criteria: the first is the tool output and the second is the expectation. 1 is for when neither is satisfied. Give your reasoning.
Question: {question}
Agent response: {answer}
Expectations:
1. {tool_output}
2. {expectation}
Answer as JSON: {{"reason": "...", "correctness_degree": 7}}"""
ORACLE_SCHEMA = {"type": "object", "properties": {"reason": {"type": "string"},
                                                  "correctness_degree": {"type": "integer", "minimum": 1, "maximum": 10}},
                 "required": ["correctness_degree"]}


@dataclass
class PromptSetResult:
    template: str
    prompts: list[str]
    runs: list[AgentRun] = field(default_factory=list)
    expectation: str = ""
    scores: list[int] = field(default_factory=list)
    arguments_consistent: bool = True
    outputs_consistent: bool = True
    oracle_passed: bool = True

    @property
    def erroneous(self) -> bool:
        return not self.arguments_consistent and not self.outputs_consistent and not self.oracle_passed

    @property
    def failing_prompts(self) -> list[str]:
        return [p for p, s in zip(self.prompts, self.scores) if s < ORACLE_THRESHOLD]

    def to_dict(self) -> dict[str, Any]:
        return {"template": self.template, "prompts": self.prompts, "expectation": self.expectation,
                "scores": self.scores, "arguments_consistent": self.arguments_consistent,
                "outputs_consistent": self.outputs_consistent, "oracle_passed": self.oracle_passed,
                "erroneous": self.erroneous, "failing_prompts": self.failing_prompts,
                "runs": [r.to_dict() for r in self.runs]}


@dataclass
class ExampleCheck:
    """One example of the documentation, called: what it documents and what the tool gave."""
    call: str  # as the documentation writes it
    arguments: dict[str, Any]
    documented: str
    got: str
    # A date format the summary promises the answer's dates in (`promised_dates`): the answer
    # agrees when every date it writes in that format's shape reads in it, whatever else it says.
    promised: str | None = None

    @property
    def agrees(self) -> bool:
        if self.promised is not None:
            return reads_in(self.got, self.promised)
        return normalise(self.documented) == normalise(self.got)

    def to_dict(self) -> dict[str, Any]:
        return {"call": self.call, "arguments": self.arguments, "documented": self.documented,
                "got": self.got, "agrees": self.agrees}


@dataclass
class CorrectnessReport:
    tool: str
    description: str
    sets: list[PromptSetResult]
    examples: list[ExampleCheck] = field(default_factory=list)

    @property
    def erroneous_sets(self) -> list[PromptSetResult]:
        return [s for s in self.sets if s.erroneous]

    @property
    def wrong_examples(self) -> list[ExampleCheck]:
        return [e for e in self.examples if not e.agrees]

    @property
    def error_count(self) -> int:
        """Erroneous prompts (the failing prompts of the erroneous sets) and documented
        examples the tool answers otherwise."""
        return sum(len(s.failing_prompts) for s in self.erroneous_sets) + len(self.wrong_examples)

    def to_dict(self) -> dict[str, Any]:
        return {"tool": self.tool, "description": self.description, "error_count": self.error_count,
                "erroneous_sets": len(self.erroneous_sets), "sets": [s.to_dict() for s in self.sets],
                "examples": [e.to_dict() for e in self.examples],
                "wrong_examples": len(self.wrong_examples)}


# --- normalisation -------------------------------------------------------------------------


def normalise(value: Any) -> str:
    """A canonical text for comparing arguments or outputs: case, accents, whitespace and
    punctuation folded, numbers canonical (`20`, `20.0`, `20.00` are one), keys sorted."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{normalise(k)}:{normalise(v)}" for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(normalise(v) for v in value) + "]"
    if isinstance(value, bool) or value is None:
        return str(value).lower()
    if isinstance(value, (int, float)):
        return _num(float(value))
    text = unicodedata.normalize("NFKD", str(value)).encode("ascii", "ignore").decode().lower()
    text = re.sub(r"-?\d+(?:\.\d+)?", lambda m: _num(float(m.group())), text)
    text = re.sub(r"[^\w.]+", " ", text)
    return " ".join(text.split())


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) and abs(x) < 1e15 else f"{x:.6g}"


def consistent(values: list[Any]) -> bool:
    return len({normalise(v) for v in values}) <= 1


# --- prompt sets ---------------------------------------------------------------------------

_MASK = re.compile(r"\[([A-Za-z_][\w ]{0,30})\]")


def fill(template: str, infills: dict[str, list[str]], size: int) -> list[str]:
    """Prompt j takes the j-th synonym of every mask (cycling shorter lists)."""
    masks = list(dict.fromkeys(_MASK.findall(template)))
    lists = {m: [s for s in infills.get(m, []) if isinstance(s, str) and s.strip()] for m in masks}
    if not masks or any(not v for v in lists.values()):
        return []
    n = min(size, max(len(v) for v in lists.values()))
    out = []
    for j in range(n):
        out.append(_MASK.sub(lambda m: lists[m.group(1)][j % len(lists[m.group(1)])]
                             if m.group(1) in lists else m.group(0), template))
    return list(dict.fromkeys(out))


async def prompt_sets(tool: FuzzTool, tester: ModelClient, *, templates: int, size: int,
                      seed: int) -> list[tuple[str, list[str]]]:
    doc = tool_doc(tool)
    got = await ask_json(tester, TEMPLATE_PROMPT.format(doc=doc), TEMPLATE_SCHEMA, seed=seed)
    sets = []
    for i, template in enumerate([t for t in got.get("templates", []) if isinstance(t, str)][:templates]):
        masks = list(dict.fromkeys(_MASK.findall(template)))
        if not masks:
            continue
        inf = await ask_json(tester, INFILL_PROMPT.format(template=template, doc=doc,
                                                          masks=", ".join(f"[{m}]" for m in masks)),
                             INFILL_SCHEMA, seed=seed + i)
        prompts = fill(template, inf.get("infills") or {}, size)
        if len(prompts) >= 2:
            sets.append((template, prompts))
    return sets


# --- checks --------------------------------------------------------------------------------


async def expectation(tool: FuzzTool, tester: ModelClient, prompts: list[str], seed: int) -> str:
    """The majority vote over the tester's tool-free answers to each prompt of the set."""
    answers = []
    for j, p in enumerate(prompts):
        got = await ask_json(tester, ANSWER_PROMPT.format(doc=tool_doc(tool), question=p), ANSWER_SCHEMA, seed=seed + j)
        if isinstance(got.get("answer"), str) and got["answer"].strip():
            answers.append(got["answer"].strip())
    if not answers:
        return ""
    votes = Counter(normalise(a) for a in answers)
    winner = votes.most_common(1)[0][0]
    return next(a for a in answers if normalise(a) == winner)


async def oracle_score(tester: ModelClient, question: str, run: AgentRun, expected: str, seed: int) -> int:
    tool_output = observation(run.steps[-1].outcome) if run.steps else "(the tool was not called)"
    got = await ask_json(tester, ORACLE_PROMPT.format(question=question, answer=run.answer,
                                                      tool_output=tool_output[:1500], expectation=expected),
                         ORACLE_SCHEMA, seed=seed)
    score = got.get("correctness_degree")
    try:
        return max(1, min(10, int(score)))
    except (TypeError, ValueError):
        return 1  # an oracle that cannot score does not vouch for the answer


async def check_prompt_set(tool: FuzzTool, template: str, prompts: list[str], sandbox: Sandbox,
                           agent: ModelClient, tester: ModelClient, seed: int) -> PromptSetResult:
    result = PromptSetResult(template, prompts)
    for j, p in enumerate(prompts):
        result.runs.append(await run_agent(agent, tool, p, sandbox.call, seed=seed + j))
    inputs = [[s.arguments for s in r.steps] for r in result.runs]
    outputs = [[observation(s.outcome) for s in r.steps] for r in result.runs]
    result.arguments_consistent = consistent(inputs)
    result.outputs_consistent = consistent(outputs)
    result.expectation = await expectation(tool, tester, prompts, seed)
    result.scores = [await oracle_score(tester, p, r, result.expectation, seed + j)
                     for j, (p, r) in enumerate(zip(prompts, result.runs))]
    result.oracle_passed = all(s >= ORACLE_THRESHOLD for s in result.scores)
    return result


# --- the documentation's own examples ------------------------------------------------------

_EXAMPLE = re.compile(r"(?:^|\n)\s*(?:Examples?:|>>>)\s*(\w+\((?:[^()\n]|\([^()\n]*\))*\))"
                      r"(?:\s*(?:->|=>|returns?:?)\s*|\s*\n\s*(?!>>>))([^\n]+)")


def documented_examples(tool: FuzzTool) -> list[tuple[str, dict[str, Any], str]]:
    """(call, arguments, documented answer) of each example the description gives as a call of
    the tool with literal arguments and its answer: `Example: f("a", 2) -> "x"` or a doctest's
    `>>> f("a", 2)` with the answer on the next line. Positional arguments are named in the
    schema's order."""
    names = list((tool.schema.get("properties") or {}))
    own = {tool.name, getattr(tool.function, "__name__", tool.name)}
    out = []
    for m in _EXAMPLE.finditer(tool.description or ""):
        call, answer = m.group(1), m.group(2).strip()
        try:
            node = ast.parse(call, mode="eval").body
            if (not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name)
                    or node.func.id not in own or len(node.args) > len(names)):
                continue  # a call of something else, or more arguments than the tool takes
            arguments = {names[i]: ast.literal_eval(a) for i, a in enumerate(node.args)}
            arguments.update({k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg})
        except (SyntaxError, ValueError, TypeError):
            continue  # not literal arguments: nothing to call it with
        try:
            documented = ast.literal_eval(answer)
        except (SyntaxError, ValueError):
            documented = answer
        out.append((call, arguments, documented if isinstance(documented, str) else json.dumps(documented)))
    return out


def check_examples(tool: FuzzTool, sandbox: Sandbox) -> list[ExampleCheck]:
    """Each documented example called in the sandbox, against its documented answer; and each
    date format the summary promises, on a call that can tell it (`promised_dates`)."""
    checks = [ExampleCheck(call, arguments, documented, observation(sandbox.call(arguments)))
              for call, arguments, documented in documented_examples(tool)]
    for call, arguments, fmt, spelled in promised_dates(tool):
        checks.append(ExampleCheck(call, arguments, f"dates written {spelled}",
                                   observation(sandbox.call(arguments)), promised=fmt))
    return checks


def _summary(description: str) -> str:
    """A description's first paragraph: what the tool gives (its arguments' lines come after)."""
    return description.strip().split("\n\n")[0]


def promised_dates(tool: FuzzTool) -> list[tuple[str, dict[str, Any], str, str]]:
    """(call, arguments, strftime format, format as spelled) for each date format the summary
    states (`The date as a European invoice prints it, DD/MM/YYYY.`): a promise of the answer's
    dates that no `Example:` line may state. The call gives each date argument the 25th of a
    month in its own documented format (`priors.DOCUMENTED_DAY`), so an answer written month
    first (03/25/2024) cannot read as day first, and each other argument its first documented
    value; a tool with an argument that has none is not called (nothing to call it with). What
    it cannot see: a promise in other words than a format (a unit, "in kilometres"), and a date
    the answer writes in another shape than the one promised."""
    promised = stated_formats(_summary(tool.description or ""))
    props = tool.schema.get("properties") or {}
    if not promised or not props:
        return []
    documented = doc_priors(tool.description or "", tool.schema)
    arguments: dict[str, Any] = {}
    for name in props:
        prior = documented.get(name)
        # its own formats, not the promised one (a format the description states for no
        # argument in particular is each argument's too, `doc_priors`)
        stated = sorted(prior.date_formats) if prior is not None else []
        own = [f for f in stated if f not in promised]
        if own:
            arguments[name] = DOCUMENTED_DAY.strftime(own[0])
        elif prior is not None and prior.constants:
            arguments[name] = sorted(prior.constants)[0]
        elif stated:
            arguments[name] = DOCUMENTED_DAY.strftime(stated[0])
    if set(arguments) != set(props) or not any(documented[n].date_formats for n in arguments):
        return []
    call = f"{tool.name}({', '.join(f'{k}={v!r}' for k, v in arguments.items())})"
    return [(call, arguments, fmt, spelled) for fmt, spelled in promised.items()]


_SHAPES = {"%d": r"\d{1,2}", "%m": r"\d{1,2}", "%Y": r"\d{4}", "%y": r"\d{2}", "%H": r"\d{1,2}",
           "%M": r"\d{2}", "%S": r"\d{2}"}


def reads_in(text: str, fmt: str) -> bool:
    """Whether every date `text` writes in the shape of `fmt` reads in it (03/25/2024 does not
    read as DD/MM/YYYY). A text writing none agrees: nothing to judge."""
    shape = "".join(_SHAPES.get(part, re.escape(part)) for part in re.split(r"(%[a-zA-Z])", fmt) if part)
    for m in re.finditer(rf"(?<![\d/.-]){shape}(?![\d/.-]?\d)", text):
        try:
            datetime.strptime(m.group(), fmt)
        except ValueError:
            return False
    return True


async def correctness_pipeline(tool: FuzzTool, sandbox: Sandbox, agent: ModelClient, tester: ModelClient, *,
                               seed: int, templates: int = 3, size: int = 5,
                               sets: list[tuple[str, list[str]]] | None = None) -> CorrectnessReport:
    """Test `tool` for correctness errors; pass `sets` to re-test on known prompt sets."""
    if sets is None:
        sets = await prompt_sets(tool, tester, templates=templates, size=size, seed=seed)
    results = [await check_prompt_set(tool, t, ps, sandbox, agent, tester, seed + 100 * i)
               for i, (t, ps) in enumerate(sets)]
    examples = await off_loop(check_examples, tool, sandbox)  # a sandboxed call blocks
    return CorrectnessReport(tool.name, tool.description, results, examples)


def sets_of(report: CorrectnessReport) -> list[tuple[str, list[str]]]:
    return [(s.template, s.prompts) for s in report.sets]


def dumps(report: CorrectnessReport) -> str:
    return json.dumps(report.to_dict(), indent=2, default=str)
