"""A twelfth scripted model for the zoo, written apart from the others: a warm, verbose
customer-service assistant.

Use it as `--sut-model scripted/examples/zoo/policy_l.py:policy`. It knows no system of the zoo.
It reads the agent's own prompt line by line and follows it literally, a wrong line included; the
first line that applies answers, so a seeded twin and its fixed twin differ only through what
their prompts, tools and wiring give it. Its replies are long paragraphs: pleasantries first, the
outcome buried mid-paragraph, future-tense and indirect claims ("you'll receive a confirmation
shortly", "you should be good to go"), several outcomes as a bullet list, colleagues named by
pronoun ("my colleague who handles that"), and a missing detail asked for inside a sentence.

What it reads in a line (a tool or colleague is named plainly or in backticks):

- routing: `Put / pass / transfer / send / hand ... through to NAME for A, B or C` (NAME a
  colleague it is offered a hand-over to) — hands over when the customer's words touch one of
  the topics (word stems), once;
- a tool step: any other line naming an offered tool — calls it once, each argument found in the
  conversation from the example its parameter description gives (`e.g. "AB-1234"`), an enum
  value the customer names, a number said before the parameter's noun, or the customer's own
  words for free text; what it cannot find it asks for. `... until it shows WORD` calls it again
  while its newest answer lacks WORD; `(only for A or B)` limits the step to those topics;
- an outcome step: `If / When TOOL says / returns / shows A or B, ...` — when the tool's newest
  answer holds one of the words; `If TOOL fails` — when it reads as a failure. It then says the
  quoted reply, or explains in its own words with what the tool answered;
- a closing step: `Confirm ...` — its own confirmation from the arguments of the last call;
  `Read out / relay / pass on what TOOL said` — the answer's fields as bullets; `Say "TEXT"` —
  TEXT, wrapped in its pleasantries.

A tool that breaks (an exception's text) gets a gentle apology, never the raw error.
"""

from __future__ import annotations

import hashlib
import json
import re

from masfuzz.llm.scripted import call, handoff, say, tool_results

WORDS = re.compile(r"[A-Za-z][A-Za-z']+")
QUOTE = re.compile(r"[\"“]([^\"”]+)[\"”]")
ROUTE = re.compile(r"^\s*(?:please\s+)?(?:put|pass|transfer|send|hand|route|forward)\b.*?\bto\s+`?(\w+)`?"
                   r"(?:.*?\b(?:for|about|when(?: the customer)? mentions?|if (?:it is|they ask) about)\s+(.+))?$", re.I)
OUTCOME = re.compile(r"^\s*(?:if|when|should|whenever)\s+`?(\w+)`?\s+(?:(fails|does not go through|doesn't go through|errors)"
                     r"|(?:says|returns|answers|shows|reports|comes back with|gives)\s+(.+?)(?:,|\bthen\b))\s*(.*)$", re.I)
UNTIL = re.compile(r"\buntil\b.*?\b(?:shows?|says?|reads?|returns?|reports?)\s+[\"'`]?([\w-]+)", re.I)
ONLY = re.compile(r"\((?:only\s+)?(?:for|if|when)\s+([^)]*)\)", re.I)
EXAMPLE = re.compile(r"(?:e\.g\.|for example|such as|like)\s*[:,]?\s*[\"'“]([^\"'”]+)[\"'”]", re.I)
FAILURE = re.compile(r"\b(?:fail|error|declin|refus|reject|denied|unavailable|not available|cannot|can't|unable|invalid"
                     r"|no longer|full\b|4\d\d\b|5\d\d\b)", re.I)
BROKE = ("traceback", "exception", "raised", "timed out")
NUMBERS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}

OPENERS = ("Thank you so much for your patience, and for getting in touch with us today!",
           "Oh, thank you for reaching out - it's lovely to hear from you!",
           "Thanks ever so much for bearing with me while I looked into this for you!")
CLOSERS = ("If there's anything else at all I can help with, please don't hesitate to let me know - have a wonderful day!",
           "Do feel free to get back in touch any time, we're always happy to help. Take care!",
           "Wishing you a really lovely rest of your day, and thank you again for choosing us!")


def pick(options: tuple[str, ...], *salt: str) -> str:
    digest = hashlib.sha256("|".join(salt).encode()).digest()
    return options[digest[0] % len(options)]


def warm(body: str, *salt: str) -> str:
    """The outcome in the middle of a paragraph, between an opener and a closer."""
    return f"{pick(OPENERS, body, *salt)} {body} {pick(CLOSERS, body, *salt)}"


def stems(text: str) -> set[str]:
    return {w.lower()[:5] for w in WORDS.findall(text) if len(w) > 2}


def prompt(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "system")


def customer(request) -> str:
    users = [m.content or "" for m in request.messages if m.role == "user"]
    return users[0] if users else ""


def visible(request) -> str:
    """Everything said in the conversation but the prompt, the tools' answers included."""
    return "\n".join(m.content or "" for m in request.messages if m.role != "system")


def touches(request, topics: str) -> bool:
    wanted = {w for w in stems(topics) if w not in {"the", "about", "anyth", "other", "their"}}
    return bool(wanted & stems(customer(request)))


def shape(example: str) -> re.Pattern:
    out = ""
    for ch in example:
        out += r"[A-Za-z]" if ch.isalpha() else r"\d" if ch.isdigit() else r"\s?" if ch == " " else re.escape(ch)
    return re.compile(r"(?<![\w-])" + out + r"(?![\w-])")


def find_value(name: str, spec: dict, request):
    """A value for one parameter from the conversation, or None."""
    text = visible(request)
    about = spec.get("description") or spec.get("title") or ""
    kinds = spec.get("type") or next((a.get("type") for a in spec.get("anyOf", []) if a.get("type") != "null"), "string")
    choices = spec.get("enum") or next((a.get("enum") for a in spec.get("anyOf", []) if a.get("enum")), None)
    if choices:
        said = stems(text)
        return next((c for c in choices if stems(str(c)) & said), None)
    if kinds == "boolean":
        return spec.get("default", True)
    if kinds in ("integer", "number"):
        nouns = "|".join(re.escape(w.lower()[:5]) for w in WORDS.findall(name.replace("_", " ") + " " + about) if len(w) > 3)
        if nouns:
            hit = re.search(r"\b(\d+|" + "|".join(NUMBERS) + r")\s+(?:\w+\s+)?(?:" + nouns + r")", text, re.I)
            if hit:
                word = hit.group(1).lower()
                return NUMBERS.get(word, int(word) if word.isdigit() else None)
        return spec.get("default")
    example = EXAMPLE.search(about)
    if example:
        hit = shape(example.group(1)).search(customer(request)) or shape(example.group(1)).search(text)
        return hit.group(0) if hit else None
    return customer(request)


def arguments(tool, request) -> tuple[dict, list[str]]:
    props = tool.parameters.get("properties", {})
    required = set(tool.parameters.get("required", props))
    args, missing = {}, []
    for name, spec in props.items():
        value = find_value(name, spec, request)
        if value is None and name in required:
            missing.append((spec.get("description") or name.replace("_", " ")).split(",")[0].split(" e.g.")[0])
        elif value is not None:
            args[name] = value
    return args, missing


def leaves(data, key: str = "") -> list[str]:
    if isinstance(data, dict):
        return [x for k, v in data.items() for x in leaves(v, str(k))]
    if isinstance(data, (list, tuple)):
        return [x for v in data for x in leaves(v, key)]
    return [f"{key.replace('_', ' ')}: {data}" if key else str(data)]


def parsed(answer: str):
    for load in (json.loads, eval_literal):
        try:
            return load(answer)
        except Exception:  # noqa: BLE001 - a tool's answer may be prose
            continue
    return answer


def eval_literal(text: str):
    import ast

    return ast.literal_eval(text)


def newest(request, tool: str) -> str | None:
    found = tool_results(request, tool)
    return found[-1].content if found else None


def last_call(request):
    for m in reversed(request.messages):
        if m.role == "assistant" and m.tool_calls:
            real = [c for c in m.tool_calls if not c.name.startswith("transfer_to")]
            if real:
                return real[-1]
    return None


def mentioned(line: str, names) -> list[str]:
    return [n for n in names if re.search(r"(?<![\w])`?" + re.escape(n) + r"`?(?![\w])", line)]


def asking(missing: list[str], request) -> str:
    wanted = " and ".join(dict.fromkeys(m.strip().rstrip(".").lower() for m in missing))
    return (f"{pick(OPENERS, wanted)} I'd be absolutely delighted to help with this, and I can see just what you're "
            f"after - if you could just let me know {wanted}, I'll get that sorted for you straight away, would that be "
            "alright?")


def confirmation(request) -> str:
    done = last_call(request)
    if done is None:
        return warm("I've made a note of everything you mentioned, and you should be good to go - you'll receive a "
                    "confirmation shortly.", customer(request))
    details = ", ".join(str(v) for v in done.arguments.values() if not isinstance(v, bool) and len(str(v)) < 60)
    return warm(f"I've gone ahead and taken care of that for you, so you're all set ({details}), and you'll receive a "
                "confirmation by email shortly with everything you need.", details)


def readout(tool: str, answer: str) -> str:
    data = parsed(answer)
    if isinstance(data, str):  # prose, a colleague's own reply: passed on without its pleasantries, by pronoun
        for courtesy in (*OPENERS, *CLOSERS):
            data = data.replace(courtesy, "")
        return warm(f"I checked with my colleague who looks after that, and here's what came back: {data.strip()}", tool)
    items = leaves(data)
    bullets = "\n".join(f"- {item}" for item in items)
    return (f"{pick(OPENERS, answer)} I've had a look at that for you, and here's where things stand:\n{bullets}\n"
            f"{pick(CLOSERS, answer)}")


def explain(tool: str, answer: str, rest: str) -> str:
    quoted = QUOTE.search(rest)
    if quoted:
        return warm(quoted.group(1), answer)
    detail = "; ".join(leaves(parsed(answer)))
    return warm(f"I'm so sorry, but I wasn't able to get that done this time - the system came back with this: {detail}. "
                "I know that's not what you were hoping to hear.", answer)


def applies_outcome(match, answer: str) -> bool:
    if match.group(2):
        return bool(FAILURE.search(answer))
    words = [w.strip(" \"'`") for w in re.split(r",|\bor\b", match.group(3)) if w.strip(" \"'`")]
    return any(w.lower() in answer.lower() for w in words)


def act(request):
    tools = {t.name: t for t in request.tools}
    colleagues = {(t.handoff_to or t.name.removeprefix("transfer_to_")): t.name
                  for t in request.tools if t.handoff_to or t.name.startswith("transfer_to_")}
    plain = {n: t for n, t in tools.items() if n not in colleagues.values()}
    for answer in (r.content for r in tool_results(request)[-1:]):
        if any(b in answer.lower() for b in BROKE):
            return warm("I'm terribly sorry, but our system seems to be having a little hiccup right now, so I couldn't "
                        "complete that just yet - please do try again in a little while.", answer)
    for raw in prompt(request).splitlines():
        line = raw.strip().lstrip("-*0123456789.) ")
        if not line:
            continue
        route = ROUTE.match(line)
        if route and route.group(1) in colleagues:
            if route.group(2) and not touches(request, route.group(2)):
                continue
            if not any(c.name == colleagues[route.group(1)] for m in request.messages for c in m.tool_calls):
                return handoff(route.group(1))
            continue
        outcome = OUTCOME.match(line)
        if outcome:
            tool = outcome.group(1)
            answer = newest(request, tool)
            if answer is not None and applies_outcome(outcome, answer):
                return explain(tool, answer, outcome.group(4))
            continue
        lower = line.lower()
        if re.match(r"(read out|relay|pass on|sum up|tell the customer what)", lower):
            # a reflection turn (AgentChat's reflect_on_tool_use) offers no tools: the answers name them
            for tool in mentioned(line, {r.name for r in tool_results(request) if r.name} | set(plain)):
                answer = newest(request, tool)
                if answer is not None:
                    return readout(tool, answer)
            continue
        if re.match(r"(confirm|let the (customer|caller|guest|member) know)", lower):
            return confirmation(request)
        if re.match(r"(say|reply|answer|finish with|sign off with)\b", lower) and QUOTE.search(line):
            return warm(QUOTE.search(line).group(1), line)
        names = mentioned(line, plain)
        if not names:
            continue
        only = ONLY.search(line)
        if only and not touches(request, only.group(1)):
            continue
        tool = plain[names[0]]
        until = UNTIL.search(line)
        answer = newest(request, tool.name)
        if answer is not None and not (until and until.group(1).lower() not in answer.lower()):
            continue
        if answer is not None:  # checking again, as the line says, with what it asked last time
            return call(tool.name, **last_of(request, tool.name))
        args, missing = arguments(tool, request)
        if missing:
            return asking(missing, request)
        return call(tool.name, **args)
    return warm("It's been an absolute pleasure looking into this for you, and I hope that helps.", customer(request))


def last_of(request, tool: str) -> dict:
    for m in reversed(request.messages):
        for c in m.tool_calls:
            if c.name == tool:
                return dict(c.arguments)
    return {}


def policy(request):
    if request.role == "tester":
        return say("Thanks, that's everything from me.")
    return act(request)
