"""The scripted model of the zoo's twenty-sixth set, written apart from the others: a model that
speaks JSON. Where the agent has a typed answer (a response schema) it fills the schema; otherwise
it answers with one short sentence followed by a JSON object of what it did
(`{"booking": "done", "ref": "QT-19"}`), status values copied from the tool's answer under keys
of its own; it asks for what it lacks as `{"need": ["date"]}`; it hands over with the transfer
tool and a one-line reason.

Use it as `--sut-model scripted/examples/zoo/policy_o.py:policy`. It knows no system of the zoo.
It takes an agent's instructions literally, line by line (a line is a sentence), and acts on the
first line that still has something to do:

- `Transfer/Hand over to NAME [for/when TOPIC]`: when a handoff to NAME is offered and the user's
  words touch TOPIC (or there is none), it hands over, once;
- `If/When TOOL says/returns WORD, ...` or `If TOOL fails ...`: when the newest answer of TOOL
  holds WORD (or broke), a quoted `say "TEXT"` is said as written, a `set FIELD to VALUE` shapes
  the typed answer, otherwise it reports the answer's status and reason as JSON;
- a line naming a tool (offered, or in backticks though not offered) calls it once (`until it
  says WORD`: again while the newest answer lacks WORD); each argument comes from the example
  its description gives (`e.g. "AB-12"`), an enum value the conversation names, a number the
  user gave, or the user's own words for free text; a missing one is asked for;
- `Summarise ... as JSON with the keys A, B and C` writes those keys from the user's words;
- `Confirm ...` confirms from the last answer's reference; `Report/Pass on ...` reports the
  newest answer as JSON; `Say "TEXT"` says TEXT; `Set FIELD to VALUE` fixes a typed field.

A tool that breaks, with no line for it, is answered with the error's own text, copied.
"""

from __future__ import annotations

import ast
import json
import re

from masfuzz.llm.scripted import call
from masfuzz.llm.types import ChatReply, ToolCallRequest

LINE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"])|\n+")
HANDOVER = re.compile(r"\b(?:transfer|hand (?:it |them )?over|hand off|route|forward)\b.*?\bto\s+`?(\w+)`?", re.I)
TOPIC = re.compile(r"\b(?:for|when the \w+ (?:asks? about|mentions?|wants?)|about)\s+(.+?)\.?$", re.I)
CONDITIONAL = re.compile(r"^\s*(?:if|when|whenever|only if)\b", re.I)
WORD_SAID = re.compile(r"\b(?:says?|returns?|answers?|reports?|comes back with|shows?)\s+[\"'`]?([\w-]+)", re.I)
BREAKS = re.compile(r"\b(?:fails?|raises?|errors?|breaks?|is down)\b", re.I)
UNTIL = re.compile(r"\buntil\b.*?\b(?:says?|returns?|shows?|reads?)\s+[\"'`]?([\w-]+)", re.I)
QUOTED = re.compile(r"[\"“]([^\"”]{3,})[\"”]")
TICKED = re.compile(r"`(\w+)`")
EXAMPLE = re.compile(r"(?:e\.g\.|eg|for example|like|such as)\s*[:,]?\s*[\"'“`]([^\"'”`]+)[\"'”`]", re.I)
SET = re.compile(r"\bset\s+`?(\w+)`?\s+to\s+[\"'`]?([\w-]+)", re.I)
KEYS = re.compile(r"\bas JSON with the keys?\s+(.+?)\.?$", re.I)
ERROR = ("Traceback", "Error", "Exception", "error occurred", "raised")
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
           "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
STATUS_KEYS = ("status", "state", "outcome", "result", "code", "http", "status_code", "ok", "success", "booked")
REF_KEYS = ("reference", "ref", "booking_ref", "id", "number", "confirmation", "ticket", "code_ref")
RENAMED = {"status": "result", "outcome": "status", "state": "status", "reference": "ref", "reason": "why",
           "note": "why", "message": "detail"}


# --- reading the request -------------------------------------------------------------------

def lines(request) -> list[str]:
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    return [s.strip(" -*\t") for s in LINE.split(text) if s.strip(" -*\t")]


def user_words(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "user")


def everything(request) -> str:
    """What the agent can read, the user's words first and its instructions last (a brief
    passed in by the app may sit there)."""
    rest = [m.content or "" for m in request.messages if m.role in ("assistant", "tool")]
    system = [m.content or "" for m in request.messages if m.role == "system"]
    return "\n".join([user_words(request), *rest, *system])


def handovers(request) -> dict[str, str]:
    out = {}
    for t in request.tools:
        to = t.handoff_to or (t.name[len("transfer_to_"):] if t.name.startswith("transfer_to_") else None)
        if to:
            out[to.lower()] = t.name
    return out


def offered(request) -> dict:
    hands = set(handovers(request).values())
    return {t.name: t for t in request.tools if t.name not in hands}


def my_calls(request, name: str) -> list[ToolCallRequest]:
    return [c for m in request.messages if m.role == "assistant" for c in m.tool_calls if c.name == name]


def answers(request, name: str) -> list[str]:
    ids = {c.id for c in my_calls(request, name)}
    return [m.content or "" for m in request.messages
            if m.role == "tool" and (m.tool_call_id in ids or (m.name == name and not m.tool_call_id))]


def handed_over(request) -> bool:
    hands = set(handovers(request).values())
    return any(c.name in hands for m in request.messages if m.role == "assistant" for c in m.tool_calls)


def named_tool(line: str, tools: dict) -> str | None:
    for name in tools:
        if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", line):
            return name
    return None


# --- tool answers --------------------------------------------------------------------------

def parsed(answer: str):
    """A tool's answer as data when it is JSON, a Python literal or a dataclass repr."""
    text = answer.strip()
    for load in (json.loads, ast.literal_eval):
        try:
            return load(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            pass
    inner = re.search(r"\{.*\}", text, re.S)  # a colleague's answer: a sentence, then its JSON
    if inner and inner.group() != text:
        found = parsed(inner.group())
        if isinstance(found, dict):
            return found
    fields = dict(re.findall(r"(\w+)=('[^']*'|\"[^\"]*\"|[\w.-]+)", text))
    return {k: v.strip("'\"") for k, v in fields.items()} or text


def flat(data, out: dict | None = None) -> dict:
    out = {} if out is None else out
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(v, (dict, list, tuple)):
                flat(v, out)
            else:
                out.setdefault(str(k).lower(), v)
    elif isinstance(data, (list, tuple)):
        for i, v in enumerate(data):
            if isinstance(v, (dict, list, tuple)):
                flat(v, out)
            else:
                out.setdefault("code" if i == 0 and isinstance(v, int) else f"item{i}", v)
    return out


def broke(answer: str) -> bool:
    return any(word in answer for word in ERROR)


def summary(answer: str) -> dict:
    """The answer's status, reference and reason under the model's own keys."""
    data = parsed(answer)
    if not isinstance(data, (dict, list, tuple)):
        return {"result": answer.strip()}
    fields = flat(data)
    out = {}
    for k, v in fields.items():
        if k in STATUS_KEYS or k in REF_KEYS or k in ("reason", "note", "message", "detail", "why"):
            out[RENAMED.get(k, k)] = v
    return out or fields


def reference(request) -> str | None:
    for m in reversed(request.messages):
        if m.role == "tool":
            fields = flat(parsed(m.content or ""))
            for k in REF_KEYS:
                if isinstance(fields.get(k), str) and re.search(r"\d", fields[k]):
                    return fields[k]
    return None


# --- finding arguments ---------------------------------------------------------------------

def shape(example: str) -> re.Pattern:
    parts = []
    for run in re.finditer(r"[A-Z]+|[a-z]+|\d+|\s+|.", example):
        s = run.group()
        if s.isdigit():
            parts.append(rf"\d{{{len(s)}}}")
        elif s.isupper() and len(s) > 1:
            parts.append(rf"[A-Z]{{{len(s)}}}")
        elif s.isalpha():
            parts.append(r"[A-Za-z]+")
        elif s.isspace():
            parts.append(r"\s+")
        else:
            parts.append(re.escape(s))
    return re.compile(r"(?<![\w/-])" + "".join(parts) + r"(?![\w/-])")


def number_for(name: str, text: str) -> int | None:
    words = r"(\d{1,2}|" + "|".join(NUMBERS) + r")"
    nouns = r"(?:people|of us|guests|riders|walkers|jumpers|rowers|pupils|adults|persons|trees|pieces|sessions|hours|copies|sheep)"
    for m in re.finditer(words + r"\s+" + nouns, text, re.I):
        v = m.group(1).lower()
        return int(v) if v.isdigit() else NUMBERS[v]
    for m in re.finditer(r"(?<![\w/:-])(\d{1,2})(?![\w/:-])", text):
        return int(m.group(1))
    return None


def find(request, name: str, schema: dict, text: str):
    kind = schema.get("type")
    if "enum" in schema:  # what the user named first, else what a colleague or tool did
        for where in (user_words(request), text):
            for value in schema["enum"]:
                if re.search(rf"\b{re.escape(str(value))}\b", where, re.I):
                    return value
        return None
    if kind in ("integer", "number"):
        return number_for(name, user_words(request))
    example = EXAMPLE.search(schema.get("description", "") or "")
    if example:
        m = shape(example.group(1)).search(text)
        return m.group() if m else None
    if kind == "boolean":
        return None
    # no example given: the usual shapes of dates and references, by the argument's name
    for pattern, by_name in ((r"\d{4}-\d{2}-\d{2}", r"date|day"), (r"\b[A-Z]{2,4}-\d{2,6}\b", r"_id$|ref|number|member|code")):
        if re.search(by_name, name):
            m = re.search(pattern, text)
            return m.group() if m else None
    return user_words(request).strip() or None


def arguments(request, tool) -> tuple[dict, list[str]]:
    props = (tool.parameters or {}).get("properties", {})
    required = (tool.parameters or {}).get("required", list(props))
    text = everything(request)
    args, missing = {}, []
    for name, schema in props.items():
        schema = dict(schema)
        if "anyOf" in schema:
            schema.update(next((s for s in schema["anyOf"] if s.get("type") != "null"), {}))
        if not schema.get("description") and tool.description:
            hint = re.search(rf"{re.escape(name)}\s*:\s*(.+)", tool.description)
            if hint:
                schema["description"] = hint.group(1)
        value = find(request, name, schema, text)
        if value is None:
            if name in required:
                missing.append(name)
        else:
            args[name] = value
    return args, missing


# --- replies -------------------------------------------------------------------------------

def sentence_and_json(sentence: str, data: dict) -> str:
    return f"{sentence}\n{json.dumps(data, ensure_ascii=False)}"


def ask(missing: list[str]) -> str:
    return sentence_and_json("I need a little more before I can go on - can you send these?",
                             {"need": missing}) + "\nPlease provide: " + ", ".join(missing) + "?"


def typed(request, settings: dict, honest: dict | None) -> str:
    """Fill the response schema: fields set by the instructions, the rest from the newest tool
    answer, copied."""
    schema = request.response_schema or {}
    props = schema.get("properties", {})
    fields = {}
    for m in request.messages:
        if m.role == "tool":
            fields.update(flat(parsed(m.content or "")))
    out = {}
    for name, spec in props.items():
        kind = spec.get("type") or next((s.get("type") for s in spec.get("anyOf", []) if s.get("type") != "null"), None)
        if name in settings:
            value = settings[name]
            out[name] = {"true": True, "false": False}.get(str(value).lower(), value) if kind == "boolean" else value
        elif honest and name in honest:
            out[name] = honest[name]
        elif name.lower() in fields:
            out[name] = fields[name.lower()]
        elif name.lower() in STATUS_KEYS and kind == "string" and any(k in fields for k in STATUS_KEYS):
            out[name] = str(next(fields[k] for k in STATUS_KEYS if k in fields))
        elif kind == "boolean":
            out[name] = False
        elif kind in ("integer", "number"):
            out[name] = 0
        elif name.lower() in REF_KEYS:
            out[name] = reference(request)
        elif name.lower().endswith("_by") or name.lower() in ("agent", "desk", "team"):
            last = next((c.name for m in reversed(request.messages) for c in m.tool_calls), None)
            out[name] = last
        else:
            out[name] = "answered"
    return json.dumps(out, ensure_ascii=False)


def outcome_applies(line: str, tool: str, answer: str) -> bool:
    if BREAKS.search(line) and broke(answer):
        return True
    word = WORD_SAID.search(line.split(tool, 1)[1] if tool in line else line)
    return bool(word) and word.group(1) in answer


def outcome_reply(request, line: str, tool: str, answer: str) -> str:
    quoted = QUOTED.search(line)
    if quoted and re.search(r"\bsay\b", line, re.I):
        return quoted.group(1)
    settings = {k: v for k, v in SET.findall(line)}
    if request.response_schema:
        return typed(request, settings, {k: v for k, v in summary(answer).items()})
    return sentence_and_json("That did not go through.", {tool: "not_done", **summary(answer)})


def report(request) -> str:
    last = next((m for m in reversed(request.messages) if m.role == "tool"), None)
    if last is None:
        return sentence_and_json("Nothing to report yet.", {"result": "none"})
    return sentence_and_json("Here is what came back.", summary(last.content or ""))


def confirm(request, line: str) -> str:
    thing = re.sub(r"^confirm\s+(?:the\s+)?", "", line, flags=re.I).rstrip(".").split()
    key = (thing[-1] if thing else "booking").lower()
    return sentence_and_json(f"All done, your {' '.join(thing) or 'booking'} is confirmed.",
                             {key: "done", "ref": reference(request)})


def summarise(request, keys: str) -> str:
    names = [k.strip(" `\"'") for k in re.split(r",|\band\b", keys) if k.strip(" `\"'")]
    text = user_words(request)
    out = {}
    for name in names:
        if re.search(r"date|day", name):
            m = re.search(r"\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}[/.]\d{4}|\d{1,2} [A-Z][a-z]{2,8} \d{4}", text)
        elif re.search(r"size|count|number_of|people|party|guests|riders|walkers|seats", name):
            n = number_for(name, text)
            out[name] = n
            continue
        else:
            m = re.search(r"\b[A-Z]{2,4}-\d{2,6}\b", text)
        out[name] = m.group() if m else None
    return json.dumps(out)


def about(request, rest: str, routed: bool) -> bool:
    """Does a line's topic (`for A, B or C`, after the tool or colleague it names) touch the
    user's words? A line without one always applies; `for anything else` only when no earlier
    topic line did."""
    topic = TOPIC.search(rest)
    if not topic:
        return True
    if re.search(r"\b(?:anything|everything|all) (?:else|other)", topic.group(1), re.I):
        return not routed
    words = re.findall(r"[a-z]{4,}", topic.group(1).lower())
    return any(w.rstrip("s")[:5] in user_words(request).lower() for w in words)


def policy(request):
    tools = offered(request)
    hands = handovers(request)
    said_last = request.messages[-1] if request.messages else None
    settings: dict = {}
    routed = False  # a line with a topic matched: "anything else" lines no longer apply
    for line in lines(request):
        low = line.lower()
        # a hand-over
        target = HANDOVER.search(line)
        if target and target.group(1).lower() in hands and not CONDITIONAL.match(line):
            if handed_over(request):
                continue
            if not about(request, line[target.end():], routed):
                continue
            topic = TOPIC.search(line[target.end():])
            reason = f"Passing this to {target.group(1)}: {topic.group(1) if topic else 'their desk'}."
            return ChatReply(text=reason, tool_calls=(ToolCallRequest(name=hands[target.group(1).lower()]),))
        tool = named_tool(line, tools) or next((t for t in TICKED.findall(line) if t not in hands and t.lower() not in hands), None)
        # an outcome of a tool already called
        if tool and CONDITIONAL.match(line):
            done = answers(request, tool)
            if done and said_last is not None and said_last.role == "tool" and outcome_applies(line, tool, done[-1]):
                return outcome_reply(request, line, tool, done[-1])
            continue
        # a tool to call, for the topics the line names after it
        if tool and not SET.search(line):
            if not about(request, line[line.find(tool) + len(tool):], routed):
                continue
            routed = True
            done = answers(request, tool)
            until = UNTIL.search(line)
            if done and not (until and until.group(1) not in done[-1]):
                continue
            if tool in tools:
                args, missing = arguments(request, tools[tool])
                if missing:
                    return ask(missing)
                return call(tool, **args)
            return call(tool, request=user_words(request).strip())
        keys = KEYS.search(line)
        if keys:
            return summarise(request, keys.group(1))
        for field, value in SET.findall(line):
            settings[field] = value
        if low.startswith("say "):
            quoted = QUOTED.search(line)
            if quoted:
                return quoted.group(1)
    # nothing left to do: answer
    last_tool = next((m for m in reversed(request.messages) if m.role == "tool"), None)
    if last_tool is not None and broke(last_tool.content or "") and not request.response_schema:
        return (last_tool.content or "").strip()  # copied as it came
    if request.response_schema:
        return typed(request, settings, None)
    for line in lines(request):
        if line.lower().startswith("confirm"):
            return confirm(request, line)
        if re.match(r"^(?:report|pass on|relay|tell the \w+ what)", line, re.I):
            return report(request)
    if last_tool is not None:
        return report(request)
    return sentence_and_json("Noted.", {"status": "received"})
