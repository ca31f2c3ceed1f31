"""The zoo's model: one scripted policy that does what each agent's own instructions say.

Use it as `--sut-model scripted/examples/zoo/policy.py:policy` for every system of the zoo, seeded
or fixed. It plays a dutiful model: it reads the agent's system prompt, the conversation and the
tools it is offered, and acts on the instructions sentence by sentence, in order. It knows nothing
of the zoo (no system, agent or bug is named here), so a defect shows only where the system itself
carries it: in its instructions, its wiring, its tools or its stop condition.

What it understands, in any sentence of an agent's instructions (case-insensitive):

- `Hand off to AGENT.` — hand off, when a handoff to AGENT is offered and not taken before;
- `Call TOOL.` / `Call TOOL until it says WORD.` — call the tool when it is offered and has no
  result yet in this agent's part of the conversation (or its last result lacks WORD), with
  each argument found in the conversation from the example its description gives (`like
  "ORD-1234"`: any text of that shape); an argument it cannot find, it asks the user for;
- `If TOOL fails, say "TEXT".` — say TEXT when the tool's last result is an error or says it
  failed (refused, rejected...);
- `If TOOL raises an error, say "TEXT".` — say TEXT when the tool's last result is an error the
  framework reports (its words "error" or "exception"), not a refusal the tool answered;
- `If TOOL answers WORD, say "TEXT".` — say TEXT when the tool's last result has WORD in it (a
  status the app's own tool uses, like VOID or errors);
- `Report the result of TOOL.` — repeat the tool's last result to the user;
- `Say "TEXT".` — say TEXT;
- `... when the request mentions A, B or C` — the sentence applies only when the user's request
  says one of the words.

The first sentence that applies answers; an agent with nothing left to do says "Done.". As a
group chat's speaker selector it picks the next speaker from the order the selection prompt states
("The work goes a, then b, then c"), else the role whose description shares most words with the
request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from masfuzz.llm.scripted import call, handoff, resolve_handoff, say

FAILED = re.compile(r"\b(error|failed|refused|rejected|invalid|exception)\b", re.I)
RAISED = re.compile(r"\b(error|exception)\b", re.I)
WHEN = re.compile(r"\bwhen the request mentions (.+?)[.]?$", re.I)
EXAMPLE = re.compile(r"(?:like|e\.g\.|such as|for example)[:,]?\s+[\"“']([^\"”']+)[\"”']", re.I)
WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class Step:
    kind: str  # handoff, call, on_error, on_raise, on_word, report, say
    target: str = ""  # the agent or tool
    text: str = ""  # what to say; for a call, the word that ends its repetition
    when: tuple[str, ...] = ()
    word: str = ""  # on_word: what in the tool's result makes the step apply


def sentences(text: str) -> list[str]:
    """The text cut at sentence ends outside quotes."""
    out, cur, quoted = [], [], False
    for i, ch in enumerate(text):
        cur.append(ch)
        ends = i + 1 == len(text) or text[i + 1].isspace()
        if ch in "\"“”":
            quoted = not quoted if ch == '"' else ch == "“"
            if not quoted and ends and i and text[i - 1] in ".!?":  # 'say "Done." Then ...'
                out.append("".join(cur).strip())
                cur = []
        elif ch in ".!?\n" and not quoted and ends:
            out.append("".join(cur).strip())
            cur = []
    out.append("".join(cur).strip())
    return [s for s in out if s]


def parse(instructions: str) -> list[Step]:
    steps = []
    for s in sentences(instructions):
        when = WHEN.search(s)
        listed = re.split(r",|\bor\b|\band\b", when.group(1)) if when else []
        words = tuple(w.strip().lower() for w in listed if w.strip())
        if m := re.search(r"\bif (\w+) fails, say [\"“](.+?)[\"”]", s, re.I):
            steps.append(Step("on_error", m.group(1), m.group(2), words))
        elif m := re.search(r"\bif (\w+) raises an error, say [\"“](.+?)[\"”]", s, re.I):
            steps.append(Step("on_raise", m.group(1), m.group(2), words))
        elif m := re.search(r"\bif (\w+) answers [\"“]?([\w-]+)[\"”]?, say [\"“](.+?)[\"”]", s, re.I):
            steps.append(Step("on_word", m.group(1), m.group(3), (), m.group(2)))
        elif m := re.search(r"\bhand off to (\w+)", s, re.I):
            steps.append(Step("handoff", m.group(1), when=words))
        elif m := re.search(r"\bcall (\w+)(?:.*?\buntil it says (\w+))?", s, re.I):
            steps.append(Step("call", m.group(1), m.group(2) or "", words))
        elif m := re.search(r"\breport the result of (\w+)", s, re.I):
            steps.append(Step("report", m.group(1), when=words))
        elif m := re.search(r"\bsay [\"“](.+?)[\"”]", s, re.I):
            steps.append(Step("say", text=m.group(1), when=words))
    return steps


def _instructions(request) -> str:
    for m in request.messages:
        if m.role == "system":
            return m.content or ""
    return ""


def _task(request) -> str:
    """The user's request: the first user message (in a group chat, the task)."""
    for m in request.messages:
        if m.role == "user" and m.content:
            return m.content
    return ""


def _own_part(request) -> list:
    """The messages since this agent took over: after the last handoff in the conversation."""
    messages = list(request.messages)
    handoff_ids = {c.id for m in messages for c in m.tool_calls if c.name.startswith("transfer_to")}
    start = 0
    for i, m in enumerate(messages):
        if m.role == "tool" and m.tool_call_id in handoff_ids:
            start = i + 1
    return messages[start:]


def _results(request, tool: str) -> list[str]:
    part = _own_part(request)
    ids = {c.id for m in part for c in m.tool_calls if c.name == tool}
    return [m.content or "" for m in part
            if m.role == "tool" and (m.tool_call_id in ids or (m.name == tool and not m.tool_call_id))]


def shape(example: str) -> re.Pattern:
    """A pattern for text shaped like the example: digits and small letters as runs, capitals
    (a prefix such as ORD- or TRK-) and the rest as written; an example of capitals only (a code
    like USD) as that many capitals."""
    if example.isalpha() and example.isupper():
        return re.compile(rf"\b[A-Z]{{{len(example)}}}\b")
    out = []
    for run in re.finditer(r"\d+|[a-z]+|.", example):
        r = run.group()
        out.append(r"\d+" if r.isdigit() else "[a-z]+" if r.isalpha() and r.islower() else re.escape(r))
    return re.compile(r"(?<![\w/.-])" + "".join(out) + r"(?![\w/-])")


def _conversation(request) -> list[str]:
    """What was said and what tools answered (not the instructions), newest first."""
    return [m.content for m in reversed(request.messages) if m.role != "system" and m.content]


def arguments(request, tool) -> tuple[dict, str | None]:
    """The tool's arguments found in the conversation, and the first one missing (its
    description), if any."""
    props = tool.parameters.get("properties", {})
    required = tool.parameters.get("required", list(props))
    said = _conversation(request)
    args: dict = {}
    for name, schema in props.items():
        desc = schema.get("description", "") or name.replace("_", " ")
        example = EXAMPLE.search(desc)
        if example and re.fullmatch(r"[a-z]+(?: [a-z]+)*", example.group(1)):
            # free text, like "steel bolts": as many of the request's last words
            words = re.findall(r"[\w-]+", _task(request))[-len(example.group(1).split()):]
            pattern = re.compile(re.escape(" ".join(words))) if words else None
        elif example:
            pattern = shape(example.group(1))
        elif schema.get("type") in ("number", "integer"):
            pattern = re.compile(r"\b\d+(?:\.\d+)?\b")
        else:
            pattern = None
        value = None
        if pattern is None:
            value = _task(request) or None
        else:
            for text in said:
                if found := pattern.search(text):
                    value = found.group()
                    break
        if value is None:
            if name in required:
                return args, desc
            continue
        if schema.get("type") == "number":
            value = float(value)
        elif schema.get("type") == "integer":
            value = int(value)
        args[name] = value
    return args, None


def _mentions(request, words: tuple[str, ...]) -> bool:
    task = _task(request).lower()
    return not words or any(re.search(rf"\b{re.escape(w)}", task) for w in words)


def act(request):
    tools = {t.name: t for t in request.tools}
    for step in parse(_instructions(request)):
        if not _mentions(request, step.when):
            continue
        if step.kind == "handoff":
            tool = resolve_handoff(step.target, request.tools)
            already = any(c.name == tool.name for m in request.messages for c in m.tool_calls) if tool else True
            if not already:
                return handoff(step.target)
        elif step.kind == "call" and step.target in tools:
            results = _results(request, step.target)
            if results and (not step.text or step.text.lower() in results[-1].lower()):
                continue
            args, missing = arguments(request, tools[step.target])
            if missing:
                wanted = missing.split(",")[0].rstrip(".")
                return say(f"Could you tell me {wanted[:1].lower() + wanted[1:]}?")
            return call(step.target, **args)
        elif step.kind in ("on_error", "on_raise"):
            results = _results(request, step.target)
            if results and (FAILED if step.kind == "on_error" else RAISED).search(results[-1]):
                return say(step.text)
        elif step.kind == "on_word":
            results = _results(request, step.target)
            if results and re.search(rf"(?<![\w-]){re.escape(step.word)}(?![\w-])", results[-1], re.I):
                return say(step.text)
        elif step.kind == "report":
            results = _results(request, step.target)
            if results:
                return say(results[-1])
        elif step.kind == "say":
            return say(step.text)
    return say("Done.")


def select(request):
    """The next speaker of a group chat, from the selection prompt."""
    text = "\n".join(m.content or "" for m in request.messages)
    roles = dict(re.findall(r"^(\w+): (.+)$", text.split("conversation so far")[0], re.M))
    order = re.search(r"The work goes (.+?)\.", text)
    history = text.split("conversation so far", 1)[-1]
    spoke = set(re.findall(r"^(\w+):", history, re.M))
    if order:
        names = [n.strip() for n in re.split(r",\s*(?:then\s+)?|\s+then\s+", order.group(1)) if n.strip()]
        for name in names:
            if name not in spoke:
                return say(name)
        return say(names[-1])
    task = next((line.split(":", 1)[1] for line in history.splitlines() if line.startswith("user:")), "")
    want = set(WORD.findall(task.lower()))
    best = max(roles, key=lambda r: (len(want & set(WORD.findall(roles[r].lower()))), r), default="")
    return say(best)


def policy(request):
    if request.agent == "selector":
        return select(request)
    return act(request)
