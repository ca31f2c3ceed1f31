"""A second scripted model for the zoo, written apart from `policy.py`: a careful assistant that
works through an agent's prompt the way a person works through a runbook.

Use it as `--sut-model scripted/examples/zoo/policy_b.py:policy`. Like the first policy it knows
no system of the zoo; unlike it, it reads prompts written as ordinary runbooks (markdown
headings, bullets, numbered steps, tools and colleagues named in backticks) and writes most of
its replies in its own words. Each step of a prompt is one line; the first step that applies
answers, so a seeded twin and its fixed twin differ only through what their prompts, tools and
wiring give it.

What it reads in a line (case-insensitive; `name` is a tool offered to the agent, or a colleague
it can hand over to):

- routing: `Transfer / pass / route / send ... to `colleague` ... about A, B or C` — hands the
  conversation over when the customer's message touches one of the topics (word stems), once;
- a tool step: any other line naming an offered tool (`Use `tool` to ...`, `Look the booking up
  with `tool``) — calls it once, its arguments found in the conversation from the shape of the
  example its parameter description gives (`e.g. "WC-1234"`, `like "12 Mar 2026"`), or the
  customer's own words for a free-text parameter; a value it cannot find, it asks for in its own
  words. `... until it shows WORD` calls it again while its newest answer lacks WORD; a trailing
  `(only for A, B or C)` / `if the message is about A or B` limits the step to those topics;
- an outcome step: `If / When / Should `tool` comes back with / reports / says / returns A or B,
  ...` — applies when the tool's newest answer holds one of those words; `If `tool` fails / does
  not go through` — when the answer reads as a failure (a false flag, a 4xx/5xx code, a refusal
  word). What follows is either a quoted reply, said as written, or an instruction to explain,
  which it does in its own words, quoting the tool's reason;
- a closing step: `Confirm ...`/`Let the customer know it is done` — its own confirmation, built
  from the arguments of the last call made; `Relay / pass on / sum up what `tool` said` — the
  answer's fields in its own words (a reply an agent run as a tool wrote, as it is); `Reply / say / finish with / sign off with "TEXT"` — TEXT.

A tool that breaks (the framework's error or exception text) gets its own plain apology, never
the raw error. An agent with nothing left to do signs off in a few words. It plays no speaker
selector: the systems it drives order their speakers themselves.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from dataclasses import dataclass, field

from masfuzz.llm.scripted import call, handoff, say

TICK = re.compile(r"`([^`]+)`")
QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")
BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)]|#+)\s*")
TOPICS = re.compile(r"\b(?:about|mentions?|concern(?:s|ing)?|involv(?:es|ing)|regarding|to do with)\s+(.+?)(?:[.;)]|$)", re.I)
ROUTE = re.compile(r"\b(transfer|pass|route|send|forward|hand)\b", re.I)
OUTCOME = re.compile(r"^\s*(?:if|when|should|whenever)\b", re.I)
UNTIL = re.compile(r"\buntil\b.*?\b(?:shows?|says?|reads?|reports?|returns?)\s+[\"'`]?([\w-]+)", re.I)
ONLY = re.compile(r"\((?:only\s+)?(?:for|when|if)\b([^)]*)\)|\bif the (?:message|request|customer|guest)\b[^.]*?\b(?:is about|mentions|asks about)\s+([^.]+)", re.I)

# words an answer uses when nothing happened (English, with a few the apps' European tools use)
REFUSALS = re.compile(r"\b(?:declin|refus|reject|denied|unavailable|not available|full\b|waitlist|failed|failure"
                      r"|cannot|can't|could not|unable|invalid|no slot|abgelehnt|refusé|rechazad|geweigerd)")
BROKEN = ("traceback", "exception", "error:", "raised", "timed out", "timeout")

OPENERS = ("Lovely -", "Good news:", "Right,", "All sorted:", "Perfect -")
SORRY = ("I'm sorry,", "Unfortunately", "Apologies -", "I'm afraid")
ASKS = ("Could you tell me {what}?", "What is {what}, please?", "Before I go on, I need {what} - could you send it?",
        "Would you let me have {what}?")
OTHER = ("Would another {what} suit you?", "Shall I look at another {what} for you?")
CLOSES = ("That's everything from me.", "Nothing more needed on my side.", "All done here.", "I've nothing to add.")
PAST = {"book": "booked", "reserve": "reserved", "schedule": "scheduled", "enter": "entered", "place": "placed",
        "log": "logged", "register": "registered", "order": "ordered", "cancel": "cancelled", "hold": "held",
        "add": "added", "move": "moved", "renew": "renewed", "submit": "submitted", "issue": "issued",
        "create": "created", "confirm": "confirmed", "allocate": "allocated", "assign": "assigned",
        "request": "requested", "file": "filed", "expedite": "expedited", "set": "set", "pencil": "pencilled in",
        "leave": "left", "send": "sent", "put": "put", "pay": "paid", "make": "made", "take": "taken"}


@dataclass
class Line:
    text: str
    tools: list[str] = field(default_factory=list)  # offered tools it names
    colleagues: list[str] = field(default_factory=list)  # agents it can hand over to


def pick(options: tuple[str, ...], *salt: str) -> str:
    """A deterministic choice that varies with the conversation, so replies differ in shape."""
    digest = hashlib.sha256("|".join(salt).encode()).digest()
    return options[digest[0] % len(options)]


def prompt_of(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "system")


def spoken(request) -> list:
    return [m for m in request.messages if m.role != "system"]


def customer_text(request) -> str:
    """What the customer (or whoever opened the task) wrote: the first user message, plus later
    ones that are no colleague's note."""
    users = [m.content or "" for m in request.messages if m.role == "user" and m.content]
    return " ".join(users)


def handoff_targets(request) -> dict[str, str]:
    """Colleague name (as written, lower-case) -> the agent a handoff tool leads to."""
    found = {}
    for t in request.tools:
        if t.handoff_to or t.name.startswith("transfer_to_"):
            agent = t.handoff_to or t.name.removeprefix("transfer_to_")
            found[agent.lower()] = agent
            found[t.name.removeprefix("transfer_to_").lower()] = agent
    return found


def lines(request) -> list[Line]:
    # the agent's tools: those offered, and those it called before (a framework may ask for the
    # reply to a tool's answer with no tools offered, as AgentChat's reflection does)
    offered = {t.name for t in request.tools if not t.handoff_to and not t.name.startswith("transfer_")}
    offered |= {c.name for m in request.messages if m.role == "assistant" for c in m.tool_calls}
    targets = handoff_targets(request)
    out = []
    for raw in prompt_of(request).splitlines():
        text = BULLET.sub("", raw).strip()
        if not text:
            continue
        names = TICK.findall(text)
        out.append(Line(text, [n for n in names if n in offered],
                        [targets[n.lower()] for n in names if n.lower() in targets]))
    return out


FILLER = {"the", "and", "any", "our", "your", "their", "with", "from", "that", "this", "some"}


def stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-zà-ÿ]{3,}", text.lower()) if w not in FILLER}


def topic_words(fragment: str) -> set[str]:
    parts = re.split(r",|\bor\b|\band\b|/", TICK.sub("", fragment))
    return {p.strip(" '\"").lower() for p in parts if p.strip(" '\"")}


def touches(request, words: set[str]) -> bool:
    said = customer_text(request).lower()
    return any(all(s in stems(said) for s in stems(w)) and stems(w) for w in words)


def results(request, tool: str) -> list[str]:
    """The answers `tool` gave in this conversation, oldest first."""
    ids = {c.id for m in request.messages if m.role == "assistant" for c in m.tool_calls if c.name == tool}
    return [m.content or "" for m in request.messages
            if m.role == "tool" and (m.tool_call_id in ids or m.name == tool)]


def calls(request, tool: str) -> list:
    return [c for m in request.messages if m.role == "assistant" for c in m.tool_calls if c.name == tool]


def handed(request, agent: str) -> bool:
    tools = {t.name for t in request.tools if t.handoff_to == agent}
    return any(c.name in tools or c.name.endswith(agent.lower()) for m in request.messages
               if m.role == "assistant" for c in m.tool_calls)


def broken(answer: str) -> bool:
    """A tool that answered nothing, or the framework's report of one that raised."""
    low = answer.lower()
    if not low.strip() or low.strip() in ("none", "null", "{}", "[]"):
        return True
    return any(w in low for w in BROKEN)


def failed(answer: str) -> bool:
    """Does a tool's answer read as "nothing happened"? A false flag, a 4xx/5xx status, a
    refusal word."""
    low = answer.lower()
    if re.search(r"\b(?:ok|success|accepted|confirmed|booked|saved|done)\W{1,3}\s*(?:false|0|no)\b", low):
        return True
    if re.search(r"\b(?:status|code|http)\W{1,3}\s*[45]\d\d\b", low) or re.match(r"\s*\(?\s*[45]\d\d\b", low):
        return True
    return bool(REFUSALS.search(low))


def parsed(answer: str):
    """A tool's answer as data: JSON, a Python literal (a dict's or tuple's repr), or the
    `field=value` pairs of a dataclass's repr; None for prose."""
    try:
        return json.loads(answer)
    except ValueError:
        pass
    try:
        return ast.literal_eval(answer.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        pass
    pairs = re.findall(r"(\w+)=(?:'([^']*)'|\"([^\"]*)\"|([\w.-]+))", answer)
    return {k: a or b or c for k, a, b, c in pairs} or None


def reason(answer: str) -> str:
    """The part of an answer that says why: its reason/message/detail/note fields, the text items
    of a tuple, else the answer itself."""
    data = parsed(answer)
    found = []

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if isinstance(v, str) and re.search(r"reason|message|detail|note|why|error|status|outcome|state", str(k), re.I):
                    found.append(v)
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                found.append(v) if isinstance(v, str) else walk(v)
    walk(data)
    return "; ".join(found) or answer.strip()[:200]


# --- arguments ------------------------------------------------------------------------------


def example_of(description: str) -> str | None:
    m = re.search(r"(?:like|e\.g\.,?|such as|for example|for instance)\s*[\"“`']([^\"”`']+)[\"”`']", description, re.I)
    return m.group(1) if m else None


def shape(example: str) -> re.Pattern:
    """A pattern for values of the example's shape: digits for digits, capitals for capitals."""
    out = []
    tokens = re.findall(r"\d+|[A-Z]{2,}|[A-Z][a-z]+|[a-z]+|[A-Z]|\s+|.", example)
    for i, token in enumerate(tokens):
        if token.isupper() and token.isalpha() and tokens[i + 1:i + 2] == ["-"]:
            out.append(re.escape(token))  # a prefix, like the "WC" of "WC-1234": part of the kind
        elif token.isdigit():
            out.append(r"\d{1,2}" if len(token) <= 2 else rf"\d{{{len(token)}}}")
        elif token.isupper() and len(token) > 1:
            out.append(rf"[A-Z]{{{len(token)}}}")
        elif token[0].isupper() and len(token) > 1:
            out.append(r"[A-Z][a-z]+")
        elif token.isalpha() and token.islower():
            out.append(re.escape(token) if len(token) > 3 else r"[a-z]+")
        elif token.isupper():
            out.append(r"[A-Z]")
        elif token.isspace():
            out.append(r"\s")
        else:
            out.append(re.escape(token))
    return re.compile(r"(?<![\w-])" + "".join(out) + r"(?![\w])")


FREE_TEXT = re.compile(r"message|request|enquiry|query|question|details|note|text|summary|brief|words", re.I)


def visible(request) -> list[str]:
    """Texts to look for a value in, newest first: messages, then tool answers."""
    texts = [m.content or "" for m in spoken(request) if m.role in ("user", "assistant")]
    texts += [m.content or "" for m in spoken(request) if m.role == "tool"]
    return list(reversed(texts))


def fill(request, tool) -> tuple[dict, str | None]:
    """The tool's arguments from the conversation, and the first one it could not find."""
    props = tool.parameters.get("properties", {})
    required = tool.parameters.get("required", list(props))
    args = {}
    for name, spec in props.items():
        description = f"{spec.get('title', '')} {spec.get('description', '')}"
        value = None
        if "enum" in spec:
            value = next((v for v in spec["enum"] if str(v).lower() in customer_text(request).lower()), None)
        elif (example := example_of(description)) is not None:
            pattern = shape(example)
            value = next((m.group(0) for t in visible(request) for m in [pattern.search(t)] if m), None)
        elif FREE_TEXT.search(name) or FREE_TEXT.search(description):
            value = customer_text(request) or None
        if value is not None and spec.get("type") in ("integer", "number"):
            value = float(value) if spec["type"] == "number" else int(re.sub(r"\D", "", value) or 0)
        if value is None:
            if name in required:
                return args, (spec.get("description") or name.replace("_", " ")).split(",")[0].rstrip(".")
            continue
        args[name] = value
    return args, None


def ask(what: str, request) -> str:
    what = re.sub(r"^(?:the|a|an)\s+", "the ", what[0].lower() + what[1:]) if what else "a detail"
    return pick(ASKS, what, customer_text(request)).format(what=what)


# --- replies in its own words ----------------------------------------------------------------


def past(verb: str) -> str:
    if verb in PAST:
        return PAST[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


def done_phrase(tool: str) -> str:
    verb, _, rest = tool.partition("_")
    thing = rest.replace("_", " ") or "request"
    return f"your {thing} is {past(verb)}"


def confirm(request) -> str | None:
    last = next((c for m in reversed(request.messages) if m.role == "assistant"
                 for c in m.tool_calls if not c.name.startswith("transfer_to")), None)
    if last is None:
        return None  # nothing was done to confirm
    details = ", ".join(str(v) for v in last.arguments.values() if len(str(v)) < 40)
    opener = pick(OPENERS, last.name, details)
    return f"{opener} {done_phrase(last.name)}" + (f" ({details})." if details else ".")


def explain(tool: str, answer: str, request) -> str:
    why = reason(answer).rstrip()
    return f"{pick(SORRY, tool, why)} that didn't go through - the system answered: {why}" + ("" if why.endswith((".", "!", "?")) else ".")


RELAYS = ("Here is what came back:", "The system says:", "From the record:", "What I have:")


def leaves(data, key: str = "") -> list[str]:
    """A nested answer's values, each with the name of the field that holds it."""
    if isinstance(data, dict):
        return [part for k, v in data.items() for part in leaves(v, str(k))]
    if isinstance(data, (list, tuple)):
        return [part for v in data for part in leaves(v, key)]
    return [f"{key.replace('_', ' ')} {data}".strip()]


def relay(tool: str, answer: str) -> str:
    data = parsed(answer)
    if data is None and re.match(r"[A-Z].*[.?!]$", answer.strip(), re.S):
        return answer.strip()  # a reply someone wrote (an agent run as a tool): passed on as it is
    body = "; ".join(leaves(data)) + "." if isinstance(data, (dict, list, tuple)) else answer.strip()
    return f"{pick(RELAYS, tool, answer)} {body}"


# --- working through the prompt --------------------------------------------------------------


def applies(request, line: Line) -> bool:
    m = ONLY.search(line.text)
    if not m:
        return True
    return touches(request, topic_words(m.group(1) or m.group(2) or ""))


def quoted(text: str) -> str | None:
    m = QUOTED.search(text)
    return m.group(1) if m else None


def already_said(request, text: str) -> bool:
    return any(m.role == "assistant" and text.strip() and text.strip() in (m.content or "")
               for m in request.messages)


def outcome(request, line: Line) -> str | None:
    """The reply an outcome step gives, when the named tool's newest answer matches it."""
    tool = line.tools[0]
    answers = results(request, tool)
    if not answers or broken(answers[-1]):
        return None
    answer = answers[-1]
    condition = TICK.sub("", QUOTED.split(line.text)[0]).split(",")[0]  # "If `tool` comes back X or Y"
    if re.search(r"\bfail|not go through|doesn't go through|does not work|is refused", condition, re.I):
        hit = failed(answer)
    else:
        m = re.search(r"\b(?:comes? back(?: with)?|reports?|says?|returns?|answers?|shows?|gives?)\s+(.+)$",
                      condition, re.I)
        hit = bool(m) and any(w and w in answer.lower() for w in topic_words(m.group(1)))
    if not hit:
        return None
    if (text := quoted(line.text)) is not None:
        return text
    reply = explain(tool, answer, request)
    if other := re.search(r"\b(?:ask for|suggest|offer)\b.*?\banother (\w+)", line.text, re.I):
        reply += " " + pick(OTHER, answer).format(what=other.group(1))
    return reply


def act(request):
    steps = lines(request)
    for line in steps:
        low = line.text.lower()
        if line.colleagues and ROUTE.search(low) and not line.tools:
            target = line.colleagues[0]
            m = TOPICS.search(TICK.sub("", line.text))
            if not handed(request, target) and (m is None or touches(request, topic_words(m.group(1)))):
                return handoff(target)
            continue
        if line.tools and OUTCOME.match(line.text):
            if (reply := outcome(request, line)) is not None:
                return say(reply)
            continue
        if line.tools:
            tool_name = line.tools[0]
            if re.search(r"\b(relay|pass on|sum up|summari[sz]e|report)\b", low) and calls(request, tool_name):
                answers = results(request, tool_name)
                if answers and not broken(answers[-1]):
                    return say(relay(tool_name, answers[-1]))
                continue
            if not applies(request, line):
                continue
            answers = results(request, tool_name)
            if answers and broken(answers[-1]):
                return say(f"{pick(SORRY, tool_name)} our system isn't answering properly right now, so nothing "
                           "has been changed yet. Please try again a little later.")
            until = UNTIL.search(line.text)
            if not calls(request, tool_name) or (until and answers and until.group(1).lower() not in answers[-1].lower()):
                tool = next((t for t in request.tools if t.name == tool_name), None)
                if tool is None:
                    continue  # not offered this time round
                args, missing = fill(request, tool)
                if missing is not None:
                    return say(ask(missing, request))
                return call(tool_name, **args)
            continue
        if OUTCOME.match(line.text):
            continue  # a condition on a tool this agent has not got or not used
        text = quoted(line.text)
        if text and re.search(r"\b(reply|say|answer|finish|close|sign off|end|post|write|open)\b", low):
            if not already_said(request, text):
                return say(text)
            continue
        if re.search(r"^(confirm|let the \w+ know|tell the \w+ (?:it|that))", low):
            reply = confirm(request)
            if reply is not None and not already_said(request, reply):
                return say(reply)
    return say(pick(CLOSES, prompt_of(request), str(len(request.messages))))


def policy(request):
    return act(request)
