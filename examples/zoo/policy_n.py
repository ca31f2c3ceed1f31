"""The scripted model of the zoo's twenty-fifth set, written apart from the others: a plain model that simply follows the agent's instructions and talks like an ordinary hosted model
("I've booked ...", "Unfortunately the ... could not be ...", "Let me transfer you to ...",
"Could you tell me your ...?").

Use it as `--sut-model scripted/examples/zoo/policy_n.py:policy`. It knows no system of the zoo.
It reads an agent's instructions one sentence at a time, in order, and the first that applies
answers:

- a routing sentence names a colleague it can hand over to (a handoff tool) with a verb such as
  transfer, hand over, pass, send, route or put through; words after "for", "about" or "if ...
  mentions" limit it to requests that touch them. It hands over once;
- an outcome sentence (`If/When TOOL says/returns WORD ...`, `If TOOL fails ...`) applies to the
  newest answer of that tool: a quoted reply is said as written, otherwise it explains in its own
  words with the tool's reason;
- a tool sentence names an offered tool: it calls it once (`... until it says WORD`: again while
  the newest answer lacks WORD), each argument found in the conversation from the shape of the
  example its description gives (`e.g. "AB-123"`), an allowed value the conversation names, or
  the customer's words for free text; what it cannot find it asks for;
- `Confirm ...` confirms from the last call's arguments and the answer's reference;
  `Pass on / relay / summarise what X said` restates the answer; `Say "TEXT"` says TEXT.

A tool that breaks (an exception's text) gets a plain apology unless a sentence says what to do.
Nothing else left to do, it closes politely.
"""

from __future__ import annotations

import ast
import json
import re

from masfuzz.llm.scripted import call, say
from masfuzz.llm.types import ChatReply, ToolCallRequest

SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'`])|\n+")
ROUTE = re.compile(r"\b(transfer|hand (?:it )?over|hand off|pass (?:it|them|the \w+ )?(?:on )?to|send|route|put \w+ through|refer)\b", re.I)
TOPIC = re.compile(r"\b(?:for|about|if (?:the )?\w+ (?:mentions?|asks? about|wants?)|when (?:the )?\w+ (?:mentions?|asks? about|wants?))\s+(.+)$", re.I)
CONDITION = re.compile(r"^\s*(?:if|when|should|whenever)\b", re.I)
UNTIL = re.compile(r"\buntil\b.*?\b(?:says?|shows?|reads?|returns?|reports?)\s+[\"'`]?([\w-]+)", re.I)
WORDS_SAID = re.compile(r"\b(?:says?|returns?|shows?|reports?|comes back with|answers?)\s+(.+?)(?:,|\bthen\b|$)", re.I)
FAILS = re.compile(r"\b(?:fails?|errors?|does(?:n't| not) go through|is refused|is declined|is rejected|cannot)\b", re.I)
ONLY = re.compile(r"\bonly (?:if|when)\b.*?\b(?:asks? about|mentions?|wants?|is about)\s+(.+)$", re.I)
QUOTE = re.compile(r"[\"“]([^\"”]{3,})[\"”]")
EXAMPLE = re.compile(r"\b(?:e\.g\.|eg|for example|like|such as)\s*[:,]?\s*[\"'“`]([^\"'”`]+)[\"'”`]", re.I)
FAILED = re.compile(r"\b(?:fail|failed|failure|declin\w*|refus\w*|reject\w*|denied|unavailable|not available|full|"
                    r"no (?:space|room|slot|berth|seats?)|cannot|can't|could not|unable|invalid|error|false)\b", re.I)
BROKEN = ("Traceback", "Error:", "Exception", "raised", "Error executing tool", "KeyError", "ValueError")
STOP = {"the", "a", "an", "and", "or", "of", "to", "for", "about", "with", "any", "anything", "their", "your",
        "is", "are", "it", "on", "in", "that", "this", "them", "questions", "question", "requests", "request"}


def system_text(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "system")


def sentences(request) -> list[str]:
    return [s.strip(" -*#\t") for s in SENTENCE.split(system_text(request)) if s.strip(" -*#\t")]


def conversation(request) -> list[str]:
    """What the agent can read besides its instructions, the user's words first."""
    user = [m.content or "" for m in request.messages if m.role == "user"]
    rest = [m.content or "" for m in request.messages if m.role in ("assistant", "tool")]
    return user + rest


def customer(request) -> str:
    return " ".join(m.content or "" for m in request.messages if m.role == "user")


def handoffs(request) -> dict[str, str]:
    """Colleague name -> the tool that hands over to them."""
    found = {}
    for t in request.tools:
        target = t.handoff_to or (t.name[len("transfer_to_"):] if t.name.startswith("transfer_to_") else None)
        if target:
            found[target] = t.name
    return found


def tools(request) -> dict:
    hands = set(handoffs(request).values())
    return {t.name: t for t in request.tools if t.name not in hands}


def mentions(text: str, name: str) -> bool:
    variants = {name, name.replace("_", " ")}
    return any(re.search(rf"(?<![\w]){re.escape(v)}(?![\w])", text, re.I) for v in variants)


def calls_of(request, name: str) -> list:
    return [c for m in request.messages if m.role == "assistant" for c in m.tool_calls if c.name == name]


def answers_of(request, name: str) -> list[str]:
    ids = {c.id for c in calls_of(request, name)}
    return [m.content or "" for m in request.messages
            if m.role == "tool" and (m.name == name or m.tool_call_id in ids)]


def newest_answer(request) -> tuple[str | None, str | None]:
    """The tool whose answer is the conversation's last message, and that answer."""
    last = request.messages[-1] if request.messages else None
    if last is None or last.role != "tool":
        return None, None
    for m in request.messages:
        for c in m.tool_calls:
            if c.id == last.tool_call_id:
                return c.name, last.content or ""
    return last.name, last.content or ""


def stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in STOP}


def shape(example: str) -> re.Pattern:
    parts = []
    for run in re.finditer(r"[A-Z]+|[a-z]+|\d+|\s+|.", example):
        s = run.group()
        if s[0].isdigit():
            parts.append(rf"\d{{{len(s)}}}")
        elif s.isupper():
            parts.append(rf"[A-Z]{{{len(s)}}}")
        elif s.islower():
            parts.append(rf"[a-z]{{{len(s)}}}")
        elif s.isspace():
            parts.append(r"\s")
        else:
            parts.append(re.escape(s))
    return re.compile(r"(?<![\w-])" + "".join(parts) + r"(?![\w-])")


def find(request, schema: dict) -> str | None:
    texts = conversation(request)
    if schema.get("enum"):
        for text in texts:
            for option in schema["enum"]:
                if re.search(rf"\b{re.escape(str(option).replace('_', ' '))}\b", text.replace("_", " "), re.I):
                    return option
        return None
    example = EXAMPLE.search(schema.get("description", ""))
    if example:
        pattern = shape(example.group(1))
        for text in texts:
            hit = pattern.search(text)
            if hit:
                return hit.group()
        return None
    if schema.get("type") in ("integer", "number"):
        return None
    return customer(request) or None


def fill(request, tool) -> tuple[dict, list[str]]:
    props = tool.parameters.get("properties", {})
    required = tool.parameters.get("required", list(props))
    args, missing = {}, []
    for name, schema in props.items():
        schema = schema.get("anyOf", [schema])[0] if "anyOf" in schema else schema
        value = find(request, schema)
        if value is None:
            if name in required:
                missing.append(name)
            continue
        if schema.get("type") == "integer":
            value = int(re.sub(r"\D", "", str(value)) or 0)
        args[name] = value
    return args, missing


def parsed(answer: str):
    for read in (json.loads, ast.literal_eval):  # JSON, or a Python repr (a tuple, a dict)
        try:
            return read(answer)
        except (TypeError, ValueError, SyntaxError, MemoryError, RecursionError):
            continue
    return None


def flat(data, prefix: str = "") -> list[tuple[str, str]]:
    if isinstance(data, dict):
        return [kv for k, v in data.items() for kv in flat(v, k)]
    if isinstance(data, list):
        return [kv for v in data for kv in flat(v, prefix)]
    return [(prefix, str(data))]


def reason(answer: str) -> str:
    data = parsed(answer)
    if data is None:
        return answer.strip().rstrip(".")
    for key, value in flat(data):
        if key.lower() in ("reason", "message", "note", "detail", "error", "text", "msg", "why"):
            return value.rstrip(".")
    return ", ".join(f"{k} {v}" for k, v in flat(data))


def failed(answer: str) -> bool:
    data = parsed(answer)
    if data is not None:
        for key, value in flat(data):
            if key.lower() in ("ok", "success", "booked", "confirmed", "accepted") and value in ("False", "false"):
                return True
            if key.lower() in ("code", "status", "http") and value.isdigit() and int(value) >= 400:
                return True
    return bool(FAILED.search(answer))


def broken(answer: str) -> bool:
    return any(b in answer for b in BROKEN)


def thing(tool: str) -> tuple[str, str]:
    """`order_parts` -> ("ordered", "parts")."""
    verb, _, rest = tool.partition("_")
    done = verb + ("d" if verb.endswith("e") else "ed")
    done = {"book": "booked", "check": "checked", "send": "sent", "set": "set", "get": "got",
            "hold": "held", "pay": "paid", "put": "put"}.get(verb, done)
    return done, rest.replace("_", " ") or "request"


def confirmation(request) -> str | None:
    made = [c for m in request.messages if m.role == "assistant" for c in m.tool_calls
            if c.name in tools(request)]
    if not made:
        return None
    last = made[-1]
    done, what = thing(last.name)
    details = ", ".join(str(v) for v in last.arguments.values() if len(str(v)) < 60)
    answer = (answers_of(request, last.name) or [""])[-1]
    refs = [v for k, v in flat(parsed(answer) or {}) if k.lower() in ("ref", "reference", "id", "booking", "number")]
    text = f"I've {done} the {what} for you ({details})."
    return text + (f" Your reference is {refs[0]}." if refs else "") + " Is there anything else I can help with?"


def relay(request, name: str) -> str | None:
    answers = answers_of(request, name)
    if not answers:
        return None
    data = parsed(answers[-1])
    if data is None:
        return answers[-1].strip()
    return "Here's what I found: " + "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in flat(data)) + "."


def outcome(request, line: str, tool: str, answer: str) -> str | None:
    said = WORDS_SAID.search(line.split(",")[0] + ",")
    words = [w.group().strip("\"'`") for w in
             re.finditer(r"\b[A-Z][A-Z_]{2,}\b|[\"'`][^\"'`]+[\"'`]", said.group(1))] if said else []
    hit = any(w.lower() in answer.lower() for w in words) if words else (FAILS.search(line) and failed(answer))
    if not hit:
        return None
    quoted = QUOTE.search(line)
    if quoted:
        return quoted.group(1)
    done, what = thing(tool)
    return f"Unfortunately the {what} could not be {done}: {reason(answer)}. Is there anything else I can do for you?"


def act(request):
    """The first sentence of the instructions that applies answers; a reply already given in this
    conversation does not count, so the next sentence gets its turn."""
    def fresh(text):
        return text and not already_said(request, text)

    offered, colleagues = tools(request), handoffs(request)
    last_tool, last_answer = newest_answer(request)
    for line in sentences(request):
        # a colleague to hand over to
        target = next((a for a in colleagues if mentions(line, a)), None)
        if target and ROUTE.search(line) and not calls_of(request, colleagues[target]):
            topic = TOPIC.search(line[ROUTE.search(line).end():])
            if topic is None or stems(topic.group(1)) & stems(customer(request)):
                return ChatReply(text=f"Let me transfer you to {target}.",
                                 tool_calls=(ToolCallRequest(name=colleagues[target], arguments={}),))
            continue
        named = [t for t in offered if mentions(line, t)]
        low = line.lower()
        # what to do with a tool's answer
        if CONDITION.match(line):
            if last_tool and (last_tool in named or not named):
                reply = outcome(request, line, last_tool, last_answer)
                if fresh(reply):
                    return say(reply)
            continue
        if last_tool and broken(last_answer):
            return say("I'm sorry, something went wrong on our side while I was checking that. "
                       "Please try again in a little while.")
        if re.match(r"(?:pass on|relay|summari[sz]e|report|tell the \w+ what)", low):
            for name in named or ([last_tool] if last_tool else []):
                text = relay(request, name)
                if fresh(text):
                    return say(text)
            continue
        if low.startswith("confirm"):
            text = confirmation(request)
            if fresh(text):
                return say(text)
            continue
        if low.startswith(("say ", "reply ", "answer ", "respond ", "finish with", "end with", "sign off")):
            quoted = QUOTE.search(line)
            if quoted and not named and fresh(quoted.group(1)):
                return say(quoted.group(1))
        # a tool to call, where the request touches the sentence's topic if it names one
        scope = ONLY.search(line)
        if scope and not stems(scope.group(1)) & stems(customer(request)):
            continue
        for name in named:
            until = UNTIL.search(line)
            answers = answers_of(request, name)
            if answers and not (until and until.group(1).lower() not in answers[-1].lower()):
                continue
            if until and answers:
                return call(name, **calls_of(request, name)[-1].arguments)
            args, missing = fill(request, offered[name])
            if missing:
                wanted = [m.replace("_", " ") for m in missing]
                listed = ", ".join(wanted[:-1]) + " and " + wanted[-1] if len(wanted) > 1 else wanted[0]
                return say(f"Could you tell me your {listed}?")
            return call(name, **args)
    if last_tool and broken(last_answer):
        return say("I'm sorry, something went wrong on our side while I was checking that. "
                   "Please try again in a little while.")
    return say("Thank you, that's everything from me for now.")


def already_said(request, text: str) -> bool:
    return any(m.role == "assistant" and (m.content or "").strip() == text.strip() for m in request.messages)


def policy(request):
    return act(request)
