"""The scripted model of the zoo's twenty-eighth set, written apart from the others: a noisy,
imperfect but honest model. It writes in lower case with the odd typo, chats ("ooh nice", "bit
grey out today"), paraphrases tool words ("locked in", "no dice", "all squared away"), calls its
colleagues by what they do ("the folks on the booking side"), now and then looks something up a
second time, or ends with a question it did not strictly need. Yet it does what each agent's
instructions say (a wrong instruction too) and never misreports a tool's answer on its own.

Use it as `--sut-model scripted/examples/zoo/policy_q.py:policy`. It knows no system of the zoo.
Its noise is drawn from a hash of the newest message and the asking agent, so a seeded and a
fixed twin that reach the same point say the same chatter: the noise is never the defect.

It reads an agent's instructions one sentence at a time, in order; the first that applies acts:

- a routing sentence (hand over, transfer, pass, send, route, put through) names a colleague an
  offered handoff tool reaches; words after "for", "about" or "if ... mentions" limit it to
  requests that touch them. It hands over once;
- an outcome sentence (`If/When TOOL says WORD ...`, `If TOOL fails/breaks ...`) applies to the
  newest answer of TOOL: a quoted reply is said as written, otherwise it explains in its own words
  quoting the tool's status and reason;
- a tool sentence names an offered tool: it calls it once (`... until it says WORD`: again while
  the newest answer lacks WORD), filling each argument from an allowed value the conversation
  names, the shape of the example in the argument's description (`e.g. "AB-123"`), a number next
  to a word of the argument's name, or the customer's words for free text; what it cannot find it
  asks for;
- `Confirm ...` / `Tell ... it is booked` confirms, from the last call's arguments and a
  reference in the answer; `Pass on / relay / report what X said` restates the answer (`word for
  word`: as written); `Say "TEXT"` says TEXT.

With nothing left to do, it sums up honestly what the newest tool said, or signs off.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re

from masfuzz.llm.scripted import call, handoff, say

SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'`])|\n+")
ROUTE = re.compile(r"\b(hand(?:s|ed)? (?:it |them |the \w+ )?(?:over|off)|transfer|pass(?: it| them| the \w+)? (?:on )?to|"
                   r"send|route|put \w+ through)\b", re.I)
TOPIC = re.compile(r"\b(?:for|about|if (?:the )?\w+ (?:mentions?|asks? about|wants?))\s+(.+)$", re.I)
CONDITION = re.compile(r"^\s*(?:if|when|whenever|should|once)\b", re.I)
UNTIL = re.compile(r"\buntil\b.*?\b(?:says?|shows?|reads?|returns?|reports?|answers?)\s+[\"'`]?([\w-]+)", re.I)
SAYS = re.compile(r"\b(?:says?|returns?|shows?|reports?|answers?|comes back with)\s+[\"'`]?([\w-]+)", re.I)
BREAKS = re.compile(r"\b(?:fails?|breaks?|errors?|raises?|crash\w*|is down)\b", re.I)
ONLY = re.compile(r"\bonly (?:if|when)\b.*?\b(?:asks? about|mentions?|wants?|is about)\s+(.+)$", re.I)
QUOTE = re.compile(r"[\"“]([^\"”]{2,})[\"”]")
EXAMPLE = re.compile(r"\b(?:e\.g\.|eg|for example|like|such as)\s*[:,]?\s*[\"'“`]([^\"'”`]+)[\"'”`]", re.I)
FAILED = re.compile(r"\b(?:fail\w*|declin\w*|refus\w*|reject\w*|denied|unavailable|not available|full|"
                    r"no_\w+|none left|no \w+ (?:free|left|found)|cannot|can't|could not|unable|invalid|error|false|out of)\b", re.I)
NEGATED = re.compile(r"\b(?:not|no such|no joy|no dice|nothing)\b|n't\b|try again", re.I)
BROKEN = ("Traceback", "Error:", "Exception", "raised", "Error executing tool", "KeyError", "ValueError")
STATUS_KEYS = {"status", "outcome", "result", "state", "ok", "code", "error", "success", "found", "booked",
               "confirmed", "available", "assigned"}
LOOKUP = re.compile(r"^(?:check|look|find|get|search|list|quote|status|price|fetch|read)", re.I)
STOP = {"the", "a", "an", "and", "or", "of", "to", "for", "about", "with", "any", "anything", "their", "your",
        "is", "are", "it", "on", "in", "that", "this", "them", "questions", "question", "requests", "request",
        "how", "many", "what", "which", "who", "day", "number"}

OPENERS = ("ok so", "right,", "hiya -", "cool cool.", "aha,", "ooh ok,", "mm,", "so,")
ASIDES = ("", " (bit grey out today isn't it)", "", " - sorry, teh printer's jammed again -", "",
          " (love that, btw)", "", " - one sec, kettle -")
GOOD = ("all squared away", "locked in", "sorted", "done and dusted")
BAD = ("no dice", "couldn't swing it", "no joy, i'm afraid", "that one didn't go through")
ASKS = (" oh - did you want a reminder text the day before?", " was there anything else on your list?")
COLLEAGUE = "the folks who handle that"


class Noise:
    """Chatter drawn from the newest message and the asking agent: the same point of the same
    conversation gets the same chatter, whichever twin it is in."""

    def __init__(self, request) -> None:
        last = request.messages[-1].content if request.messages else ""
        self.n = int(hashlib.sha256(f"{request.agent}|{last}".encode()).hexdigest()[:8], 16)

    def pick(self, options, shift: int = 0):
        return options[(self.n >> shift) % len(options)]

    def wrap(self, text: str) -> str:
        return f"{self.pick(OPENERS)}{self.pick(ASIDES, 5)} {text}".strip()

    def repeats(self) -> bool:
        return self.n % 2 == 0

    def asks(self) -> bool:
        return (self.n >> 9) % 3 == 0


def system_text(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "system")


def sentences(request) -> list[str]:
    """The instructions' sentences; a quoted reply with full stops inside stays whole."""
    quotes: list[str] = []

    def keep(m: re.Match) -> str:
        quotes.append(m.group(0))
        return f"\x00{len(quotes) - 1}\x00"

    text = re.sub(r"[\"“][^\"”\n]*[\"”]", keep, system_text(request))
    back = lambda s: re.sub(r"\x00(\d+)\x00", lambda m: quotes[int(m.group(1))], s)  # noqa: E731
    return [back(s).strip(" -*#\t") for s in SENTENCE.split(text) if s.strip(" -*#\t")]


def conversation(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role in ("user", "assistant"))


def customer(request) -> str:
    said = [m.content for m in request.messages if m.role == "user" and m.content]
    return said[0] if said else ""


def handoffs(request) -> dict[str, str]:
    found = {}
    for t in request.tools:
        if t.handoff_to:
            found[t.handoff_to] = t.name
        elif t.name.startswith("transfer_to_"):
            found[t.name.removeprefix("transfer_to_")] = t.name
    return found


def tools(request) -> dict:
    return {t.name: t for t in request.tools if t.name not in handoffs(request).values()}


def mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text, re.I) is not None


def calls_of(request, name: str) -> list:
    return [c for m in request.messages if m.role == "assistant" for c in m.tool_calls if c.name == name]


def answers_of(request, name: str) -> list[str]:
    ids = {c.id for c in calls_of(request, name)}
    return [m.content or "" for m in request.messages
            if m.role == "tool" and (m.tool_call_id in ids or m.name == name)]


def newest_answer(request) -> tuple[str | None, str | None]:
    """The newest tool message and the tool it answers, if the conversation ends with one."""
    names = {c.id: c.name for m in request.messages if m.role == "assistant" for c in m.tool_calls}
    for m in reversed(request.messages):
        if m.role == "tool":
            return m.name or names.get(m.tool_call_id or ""), m.content or ""
        if m.role in ("assistant", "user") and m.content:
            return None, None
    return None, None


def stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]+", text.lower()) if w not in STOP and len(w) > 2}


def shape(example: str) -> re.Pattern:
    out = ""
    for ch in example:
        out += r"\d" if ch.isdigit() else "[A-Za-z]" if ch.isalpha() else re.escape(ch)
    out = re.sub(r"(\\d)+", lambda m: r"\d{%d}" % (len(m.group(0)) // 2), out)
    if re.fullmatch(r"\\d\{\d+\}", out):
        out = r"\d+"
    return re.compile(rf"(?<![\w-]){out}(?![\w-])")


def find(request, name: str, schema: dict) -> object:
    text = conversation(request)
    kind = schema.get("type")
    if "enum" in schema:
        hits = [v for v in schema["enum"] if mentions(text, str(v))]
        return hits[0] if hits else None
    example = EXAMPLE.search(schema.get("description", "") or "")
    if kind in ("integer", "number"):
        words = stems(name.replace("_", " ") + " " + (schema.get("description") or "").split("e.g")[0])
        for m in re.finditer(r"(?<![\w/:.-])(\d{1,3})(?![\w/:.-])((?:\s+[A-Za-z]+){1,3})", text):
            if {w.lower()[:5] for w in m.group(2).split()} & words:
                return int(m.group(1))
        return None
    if example:
        hit = shape(example.group(1)).search(text)
        return hit.group(0) if hit else None
    return customer(request) or None


def fill(request, tool) -> tuple[dict, list[str]]:
    params = tool.parameters or {}
    required = set(params.get("required", []))
    args, missing = {}, []
    for name, schema in (params.get("properties") or {}).items():
        value = find(request, name, schema)
        if value is not None:
            args[name] = value
        elif name in required:
            missing.append(name.replace("_", " "))
    return args, missing


def record(answer: str):
    """A dataclass's or named tuple's repr, `Name(key=value, ...)`, as a dict."""
    try:
        node = ast.parse(answer.strip(), mode="eval").body
        if isinstance(node, ast.Call) and node.keywords:
            return {k.arg: ast.literal_eval(k.value) for k in node.keywords}
    except (ValueError, SyntaxError, TypeError):
        pass
    raise ValueError(answer)


def parsed(answer: str):
    for load in (json.loads, ast.literal_eval, record):
        try:
            return load(answer)
        except (ValueError, SyntaxError, TypeError):
            continue
    return answer


def flat(data, prefix: str = "") -> list[tuple[str, str]]:
    if isinstance(data, dict):
        return [kv for k, v in data.items() for kv in flat(v, f"{prefix}{k} ")]
    if isinstance(data, (list, tuple)):
        return [kv for v in data for kv in flat(v, prefix)]
    return [(prefix.strip(), str(data))]


def broken(answer: str) -> bool:
    return any(word in answer for word in BROKEN)


def status_pairs(data) -> list[tuple[str, str]]:
    """The fields that say how a call went: top-level status-like keys, and what sits under a
    top-level `status`/`result`/`outcome` record."""
    if isinstance(data, (list, tuple)) and data and not isinstance(data[0], (dict, list, tuple)):
        data = {"status": data[0]}  # ("ok", {...}), (404, "...")
    if not isinstance(data, dict):
        return []
    found = []
    for key, value in data.items():
        if isinstance(value, dict) and key.lower() in STATUS_KEYS:
            found += [(k, str(v)) for k, v in value.items() if k.lower() in STATUS_KEYS]
        elif key.lower() in STATUS_KEYS and not isinstance(value, (dict, list)):
            found.append((key.lower(), str(value)))
    return found


def bad(key: str, value: str) -> bool:
    if key == "error":
        return value.strip().lower() not in ("", "none", "null", "false", "0")
    if value.isdigit():
        return int(value) >= 400
    if key in ("ok", "success", "found", "booked", "confirmed", "available", "assigned"):
        return value.lower() in ("false", "no", "0")
    return FAILED.search(value) is not None


def failed(answer: str) -> bool:
    """Whether the answer says the call did not do what was asked: its status fields if it has
    any, else how the prose starts (a list of items some of which are "full" is no failure)."""
    if broken(answer):
        return True
    data = parsed(answer)
    pairs = status_pairs(data)
    if pairs or not isinstance(data, str):
        return any(bad(k, v) for k, v in pairs)
    head = answer.strip()[:100]
    return bool(re.match(r"^[4-5]\d\d\b", head) or FAILED.search(head) or NEGATED.search(head))


def gist(answer: str) -> str:
    """The answer's words the model keeps when it paraphrases: its status and reasons."""
    pairs = flat(parsed(answer))
    if len(pairs) == 1:
        return pairs[0][1]
    return "; ".join(f"{k}: {v}" if k else v for k, v in pairs if v not in ("None", ""))


def reference(answer: str) -> str | None:
    hits = re.findall(r"\b[A-Z]{1,4}-?\d{3,}\b", answer)
    return hits[-1] if hits else None  # the newest reference: a booking's, not the one it was made for


def honest(noise: Noise, tool: str, answer: str) -> str:
    if broken(answer):
        return noise.wrap(f"hmm, the {tool.replace('_', ' ')} thing fell over on me, so nothing's done yet, sorry.")
    who = re.sub(r"^(?:ask|call|consult|check_with)_", "", tool).replace("_", " ")
    if isinstance(parsed(answer), str) and tool != who.replace(" ", "_"):  # a colleague's own words
        verdict = noise.pick(BAD, 3) if failed(answer) else "good news"
        return noise.wrap(f"{verdict} - word from the folks at the {who}: {answer.strip()}")
    if failed(answer):
        return noise.wrap(f"{noise.pick(BAD, 3)} - it came back with: {gist(answer)}.")
    if LOOKUP.match(tool):
        return noise.wrap(f"had a look for you - {gist(answer)}.")
    return noise.wrap(f"{noise.pick(GOOD, 3)} - here's what came back: {gist(answer)}.")


def confirmation(request, noise: Noise) -> str:
    made = [c for m in request.messages if m.role == "assistant" for c in m.tool_calls
            if c.name in tools(request)]
    details = ", ".join(str(v) for v in made[-1].arguments.values() if len(str(v)) < 40) if made else ""
    answers = [m.content or "" for m in request.messages if m.role == "tool"]
    ref = reference(answers[-1]) if answers else None
    return noise.wrap(f"that's {noise.pick(GOOD, 3)} for you{' (' + details + ')' if details else ''}"
                      f"{', ref ' + ref if ref else ''}. see you then!")


def limited(request, line: str) -> bool:
    """A sentence limited to some requests (`only if ... mentions X`, `for X`) that this one
    does not touch."""
    only = ONLY.search(line) or TOPIC.search(line)
    return bool(only) and not stems(only.group(1)) & stems(customer(request))


def act(request, noise: Noise):
    offered = tools(request)
    routes = handoffs(request)
    handed = any(calls_of(request, name) for name in routes.values())
    for line in sentences(request):
        # routing
        targets = [a for a in routes if mentions(line, a)]
        if targets and ROUTE.search(line) and not handed:
            if not limited(request, line):
                tool = next(t for t in request.tools if t.name == routes[targets[0]])
                if (tool.parameters or {}).get("properties"):  # a handoff that takes an input
                    return call(tool.name, **fill(request, tool)[0])
                return handoff(targets[0])
            continue
        named = [t for t in offered if mentions(line, t)]
        if CONDITION.match(line) and named:
            tool = named[0]
            answers = answers_of(request, tool)
            if not answers:
                continue
            answer = answers[-1]
            word = SAYS.search(line)
            hit = (word and word.group(1).lower() in answer.lower()) or (
                BREAKS.search(line.split(",")[0]) and broken(answer))
            if not hit:
                continue
            quote = QUOTE.search(line)
            if quote:
                return say(quote.group(1))
            return say(honest(noise, tool, answer))
        if named and not CONDITION.match(line):
            if ONLY.search(line) and limited(request, line):
                continue
            tool = named[0]
            done = calls_of(request, tool)
            until = UNTIL.search(line)
            relay = re.search(r"\b(pass on|relay|report|repeat|tell)\b", line, re.I)
            if relay and done:
                answer = answers_of(request, tool)[-1] if answers_of(request, tool) else ""
                if re.search(r"word for word|verbatim|exactly", line, re.I):
                    return say(answer)
                return say(honest(noise, tool, answer))
            if relay:
                continue
            if not done or (until and until.group(1).lower() not in (answers_of(request, tool) or [""])[-1].lower()):
                args, missing = fill(request, offered[tool])
                if missing:
                    return say(noise.wrap(f"quick q before i go ahead - what's the {' and the '.join(missing)}?"))
                return call(tool, **args)
            last, _ = newest_answer(request)
            if last == tool and len(done) == 1 and LOOKUP.match(tool) and noise.repeats():
                return call(tool, **dict(done[-1].arguments))  # "let me just double-check that"
            continue
        quote = QUOTE.search(line)
        if re.match(r"^(?:then |finally |always )?say\b", line, re.I) and quote:
            return say(quote.group(1))
        if re.match(r"^(?:then |always )?(?:confirm|tell (?:the )?\w+ (?:it|the \w+) (?:is|has been) "
                    r"(?:booked|confirmed|done|sorted))", line, re.I):
            return say(confirmation(request, noise))
    tool, answer = newest_answer(request)
    if tool:
        return say(honest(noise, tool, answer) + (noise.pick(ASKS, 11) if noise.asks() else ""))
    return say(noise.wrap("that's me done for now - shout if you need anything from " + COLLEAGUE + "."))


def policy(request):
    return act(request, Noise(request))
