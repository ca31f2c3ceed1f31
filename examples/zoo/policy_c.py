"""A third scripted model for the zoo, written apart from `policy.py` and `policy_b.py`: a terse,
tool-first, structured model.

Use it as `--sut-model scripted/examples/zoo/policy_c.py:policy`. Like the others it knows no
system of the zoo: a seeded twin and its fixed twin differ only through what their instructions,
tools and wiring give it. Its character:

- tool-first: before it writes a word it calls, in the order the instructions name them, the
  tools it is offered that its instructions name and that have no answer yet in the
  conversation; its arguments come from the conversation, by the shape of the example a
  parameter's description gives (`e.g. "KY-0000"`, `like "75 cl"`), or the customer's own words
  for a free-text parameter (a note, a question, a request); a value it cannot find it asks for
  in one line (`need: <parameter>?`);
- literal: it does what an instruction line says and nothing the lines do not; a line that
  limits itself (`... only for A, B or C`, `... when asked about A or B`) applies when the
  customer's message touches one of those words;
- conditional replies: `If / When / On TOOL <words> ..., reply/answer/respond/output X` applies
  when the tool's newest answer holds one of the words (`is not W`, `other than W` and
  `anything but W`: when it lacks W; `fails`: when the answer reads as a failure); X is a quoted
  text, a small JSON object or `key: value` fragments, `<field>` slots filled from the answer
  and the call's arguments;
- hand-overs: a line naming a colleague it can hand over to routes there when the message
  touches that line's other words (the colleague whose line shares most wins), once;
- structured: asked for a response schema, it fills each field from the conversation (an enum
  by the words the request shares with each value, a string by its description's example);
- its own words otherwise: `set.`, `ok`, `{"result": "ok"}`..., `err: <tool> down` for a tool
  that broke (the framework's error text), never the raw error.

It plays no group-chat speaker selector.
"""

from __future__ import annotations

import ast
import json
import re

from masfuzz.llm.scripted import call, handoff, say

QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”")
EXAMPLE = re.compile(r"(?:e\.g\.|eg|like|such as|for example|format|as in)[:,]?\s*[\"'`“]([^\"'`”]+)[\"'`”]", re.I)
REPLY = re.compile(r"\b(?:reply|answer|respond|output|return|print|end with|close with|finish with|say|write)\b"
                   r"(?:\s+(?:with|only|just|exactly|back))*\s*[:-]?\s*", re.I)
CONDITION = re.compile(r"^\s*(?:[-*•]|\d+[.)])?\s*(?:if|when|on|whenever)\b", re.I)
LIMIT = re.compile(r"\b(?:only for|only when (?:the )?(?:message|request|customer) (?:mentions|is about)|"
                   r"when asked about|for requests about)\s+(.+?)\s*$", re.I)
NEGATED = re.compile(r"\b(?:is not|isn't|other than|anything but|not)\s+[\"'`]?([\w.%-]+)", re.I)
FREE_TEXT = {"note", "notes", "question", "request", "query", "message", "details", "text", "issue", "fault",
             "problem", "summary", "brief", "task", "input"}
FILLER = {"if", "when", "on", "whenever", "the", "a", "an", "returns", "return", "answers", "answer", "gives",
          "comes", "back", "with", "says", "shows", "has", "have", "is", "are", "its", "it", "of", "or", "and",
          "any", "status", "code", "field", "result", "results", "reply", "value", "then", "in", "to"}
BROKE = ("traceback", "exception", "error:", "raised", "timed out", "errno")
FAILS = re.compile(r"\b(?:[45]\d\d\b|false\b|fail|refus|reject|denied|declin|unavailable|cannot|could not|none\b)",
                   re.I)


def stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 2 and w not in FILLER}


def instructions(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "system")


def rules(request) -> list[str]:
    """The instruction lines: one per line or bullet, long lines cut at sentence ends."""
    out = []
    for line in instructions(request).splitlines():
        line = re.sub(r"^\s*(?:[-*•>]|\d+[.)]|#+)\s*", "", line).strip()
        out += [p.strip() for p in re.split(r"(?<=[.;])\s+(?=[A-Z])", line) if p.strip()]
    return out


def customer(request) -> str:
    """The opening message (the customer's, or whatever the caller asked)."""
    for m in request.messages:
        if m.role == "user" and m.content:
            return m.content
    return ""


def texts(request) -> list[str]:
    """Where a value may be found, newest first: messages and tool answers."""
    return [m.content for m in reversed(request.messages) if m.role != "system" and m.content]


def handoffs(request) -> dict[str, str]:
    """Who it can hand over to: the colleague's name, or the hand-over tool's own name, as a line
    may write either (lower-case) -> the agent."""
    out: dict[str, str] = {}
    for t in request.tools:
        target = t.handoff_to or (t.name[len("transfer_to_"):] if t.name.startswith("transfer_to_") else None)
        if target:
            out.update({target.lower(): target, t.name.lower(): target})
    return out


def own_tools(request) -> set[str]:
    # offered, or called before: AgentChat asks for the reflection on a tool's answer with no tools
    tools = {t.name for t in request.tools if not t.handoff_to and not t.name.startswith("transfer_to_")}
    return tools | {c.name for m in request.messages if m.role == "assistant" for c in m.tool_calls}


def answers(request, tool: str) -> list[str]:
    names = {c.id: c.name for m in request.messages if m.role == "assistant" for c in m.tool_calls}
    return [m.content or "" for m in request.messages
            if m.role == "tool" and (m.name or names.get(m.tool_call_id or "")) == tool]


def named(line: str, names) -> list[str]:
    return [n for n in sorted(names, key=line.find)
            if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", line, re.I)]


def touches(line: str, request) -> bool:
    limit = LIMIT.search(line)
    return not limit or bool(stems(limit.group(1)) & stems(customer(request)))


def shape(example: str) -> re.Pattern:
    parts = []
    runs = re.findall(r"[A-Z]+-|[A-Z]+|[a-z]+|\d+|\s+|.", example)
    for run in runs:  # a capital prefix ("PU-") as written; other letters and digits by their kind
        parts.append(re.escape(run) if run.endswith("-") and len(run) > 1 else r"[A-Z]+" if run.isupper() and run.isalpha() else r"[a-z]+" if run.isalpha()
                     else r"\d+" if run.isdigit() else r"\s+" if run.isspace() else re.escape(run))
    return re.compile(r"(?<![\w-])" + "".join(parts) + r"(?![\w])")


def find(example: str, request) -> str | None:
    """A value shaped like the example, newest text first; one that shares the example's words
    ("10 cases") before any other of its shape."""
    pattern, words = shape(example), set(re.findall(r"[a-z]{2,}", example.lower()))
    found = [m.group(0) for t in texts(request) for m in pattern.finditer(t)]
    return next((f for f in found if words & set(re.findall(r"[a-z]{2,}", f.lower()))), found[0] if found else None)


def arguments(request, tool) -> tuple[dict, str | None]:
    props = tool.parameters.get("properties", {})
    required = tool.parameters.get("required", list(props))
    found: dict = {}
    for name, spec in props.items():
        text = spec.get("description", "") + " " + spec.get("title", "")
        example = EXAMPLE.search(text)
        if example:
            value = find(example.group(1), request)
        elif spec.get("enum"):
            value = max(spec["enum"], key=lambda v: len(stems(str(v)) & stems(customer(request))))
        elif name.lower() in FREE_TEXT or set(name.lower().split("_")) & FREE_TEXT:
            value = customer(request)
        else:
            value = None
        if value is None:
            if name in required:
                return found, name
            continue
        found[name] = value
    return found, None


def data(answer: str):
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(answer)
        except (ValueError, SyntaxError):
            continue
    return None


def fields(answer: str) -> dict[str, str]:
    """A tool's answer flattened to field -> value (JSON, a dict's repr or `key=value` pairs)."""
    parsed = data(answer)
    if parsed is None:
        pairs = re.findall(r"['\"]?(\w+)['\"]?\s*[:=]\s*['\"]?([^,'\"}\)]+)", answer)
        return {k: v.strip() for k, v in pairs}
    out: dict[str, str] = {}

    def walk(node, key=""):
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        elif key:
            out.setdefault(key, str(node))

    walk(parsed)
    return out


def failed(answer: str) -> bool:
    return bool(FAILS.search(answer))


def broke(answer: str) -> bool:
    return not answer.strip() or any(b in answer.lower() for b in BROKE)


def template(line: str) -> str | None:
    """The reply a line dictates: a quoted text, a JSON object or `key: value` fragments."""
    at = REPLY.search(line)
    if not at:
        return None
    rest = line[at.end():].strip()
    if rest.startswith("{"):
        return rest[: rest.rfind("}") + 1]
    quoted = QUOTED.search(rest)
    if quoted and quoted.start() < 3:
        return quoted.group(1) or quoted.group(2)
    if re.match(r"[\w ,]+:\s*\S", rest):
        return rest.rstrip(".")
    return None


def fill(text: str, request, tool: str | None) -> str:
    values: dict[str, str] = {}
    for m in request.messages:
        for c in (m.tool_calls if m.role == "assistant" else ()):
            values.update({k: str(v) for k, v in c.arguments.items()})
    for t in ([tool] if tool else sorted(own_tools(request))):
        for a in answers(request, t)[-1:]:
            values.update(fields(a))
    return re.sub(r"<(\w+)>|\{(\w+)\}", lambda m: values.get(m.group(1) or m.group(2), "?"), text)


def outcome(line: str, request, tools: set[str]) -> str | None:
    """A conditional line's reply, when the tool it names has answered as it says."""
    which = named(line, tools)
    at = REPLY.search(line)
    if not which or not at:
        return None
    given = answers(request, which[0])
    if not given or broke(given[-1]):
        return None
    answer, condition = given[-1].lower(), line[: at.start()]
    condition = re.sub(re.escape(which[0]), " ", condition, flags=re.I)
    negated = NEGATED.search(condition)
    if negated:
        hit = negated.group(1).lower().strip(".,") not in answer
    elif re.search(r"\bfails?\b|\bgoes wrong\b|\bdoes not work\b", condition, re.I):
        hit = failed(answer)
    else:
        words = [q[0] or q[1] for q in QUOTED.findall(condition)] or \
                [w for w in re.findall(r"[\w.%-]+", condition) if w.lower() not in FILLER]
        hit = any(w.lower() in answer for w in words)
    reply = template(line)
    return fill(reply, request, which[0]) if hit and reply else None


def structured(request, schema: dict) -> str:
    props = schema.get("properties", {})
    defs = schema.get("$defs", {})
    out = {}
    for name, spec in props.items():
        if "$ref" in spec:
            spec = defs.get(spec["$ref"].rsplit("/", 1)[-1], spec)
        if spec.get("enum"):
            out[name] = max(spec["enum"], key=lambda v: len(stems(str(v)) & stems(customer(request))))
            continue
        example = EXAMPLE.search(spec.get("description", ""))
        value = None
        if example:
            value = find(example.group(1), request)
        elif name.lower() in FREE_TEXT:
            value = customer(request)[:200]
        kind = spec.get("type")
        out[name] = value if value is not None or kind != "string" else ""
        if value is None and kind == "boolean":
            out[name] = False
    return json.dumps(out)


def act(request):
    lines = rules(request)
    tools = own_tools(request)
    offered = {t.name: t for t in request.tools}
    forced = offered.get(request.tool_choice)
    if request.tool_choice == "required" and request.tools and not any(named(line, offered) for line in lines):
        forced = request.tools[0]  # a call is required, of no tool the lines name: the schema offered first
    if forced is not None:  # a structured answer asked for as a tool call (LangChain's structured output)
        return call(forced.name, **json.loads(structured(request, forced.parameters)))
    # 1. a conditional reply whose tool has answered as it says
    for line in lines:
        if CONDITION.match(line):
            reply = outcome(line, request, tools)
            if reply:
                return say(reply)
    # 2. tools first: each tool a line names, once, in the order the lines name them
    for line in lines:
        if CONDITION.match(line) or not touches(line, request):
            continue
        for name in named(line, tools):
            if name in offered and not answers(request, name):
                args, missing = arguments(request, offered[name])
                if missing:
                    return say(f"need: {missing}?")
                return call(name, **args)
    broken = [t for t in sorted(tools) if answers(request, t) and broke(answers(request, t)[-1])]
    if broken:
        return say(f"err: {broken[0]} down. retry later.")
    # 3. a hand-over the lines route this message to
    routes = handoffs(request)
    if routes and not any(c.name.startswith("transfer") for m in request.messages if m.role == "assistant"
                          for c in m.tool_calls):
        best, score = None, 0
        for line in lines:
            for colleague in named(line, routes):
                overlap = len(stems(line.replace(colleague, " ")) & stems(customer(request)))
                if overlap > score:
                    best, score = routes[colleague.lower()], overlap
        if best:
            return handoff(best)
    if request.response_schema:
        return say(structured(request, request.response_schema))
    # 4. the reply a plain line dictates
    for line in lines:
        if not CONDITION.match(line) and touches(line, request):
            reply = template(line)
            if reply:
                return say(fill(reply, request, None))
    return say("ok" if not any(answers(request, t) for t in tools) else "status: done")


def policy(request):
    return act(request)
