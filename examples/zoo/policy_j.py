"""A scripted model for the zoo, written apart from the others: a voice assistant on a phone line.

Use it as `--sut-model scripted/examples/zoo/policy_j.py:policy`. Like the other policies it
knows no system of the zoo: a seeded twin and its fixed twin differ only through what their
instructions, tools and wiring give it. Its character:

- spoken style: no markdown, short sentences, the way a voice on a phone line talks ("All right.",
  "One moment.", "Sorry, what was the order reference again?");
- numbers, dates, times and references said as one speaks them ("four", "the twenty-third of May",
  "half past six", "reference K L nine nine two"), while the tools get the exact values;
- literal: it reads an agent's instructions one line at a time (long lines cut at sentence
  ends), and the first line that applies answers, a wrong line included. A line may be:
  - a transfer naming a colleague (`Put the caller through to NAME for A, B or C`, `transfer
    ... to NAME`): hands over once, when the caller's words touch one of the topics (or at once
    when the line names none); with no hand-over tool on offer it says it puts the caller through;
  - a tool line naming an offered tool (`Book it with TOOL`, `Use TOOL to ...`): calls it once,
    its arguments found in the conversation by the shape of the example each parameter's
    description gives (`e.g. "PZ-00000"`), an enum by the words the caller used; a value it
    cannot find it asks for again in its own words;
  - an outcome line, `If/When TOOL says/answers/returns W1 or W2, ...` (`If TOOL fails`: an
    answer that reads as a refusal): applies when the tool's newest answer holds one of the
    words; a quoted reply is said as written, anything else is explained in its own words with
    the reason the answer gives;
  - a closing line: `Say "TEXT"` says TEXT; `Confirm ...` confirms what the last call asked for,
    spoken, with the reference the answer holds; `Read out what TOOL said` speaks the answer's
    fields;
- a tool that broke (the framework's error text) gets a plain spoken apology, never the raw
  error; an agent with nothing left to do says a short goodbye.
"""

from __future__ import annotations

import ast
import json
import re

from masfuzz.llm.scripted import call, say, tool_results
from masfuzz.llm.types import ChatReply, ToolCallRequest

UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
         "sixteen seventeen eighteen nineteen").split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
ORDINAL = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth",
           "nine": "ninth", "twelve": "twelfth"}
MONTHS = ("January February March April May June July August September October November "
          "December").split()
REFUSAL = re.compile(r"\b(refused|rejected|declined|denied|unavailable|not (?:possible|booked|accepted)|"
                     r"false|failed|invalid|full)\b|\b[45]\d\d\b", re.I)
BROKEN = re.compile(r"\b(error|exception|traceback)\b", re.I)


# --- speaking -------------------------------------------------------------------------------


def number(n: int) -> str:
    if n < 20:
        return UNITS[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else "-" + UNITS[n % 10])
    if n < 1000:
        rest = n % 100
        return UNITS[n // 100] + " hundred" + (" and " + number(rest) if rest else "")
    return " ".join(UNITS[int(d)] for d in str(n))


def ordinal(n: int) -> str:
    words = number(n)
    head, _, last = words.rpartition("-")
    last = ORDINAL.get(last, last[:-1] + "ieth" if last.endswith("y") else last + "th")
    return f"{head}-{last}" if head else last


def clock(hours: int, minutes: int) -> str:
    h12 = hours % 12 or 12
    nxt = (hours + 1) % 12 or 12
    if minutes == 0:
        return f"{number(h12)} o'clock"
    if minutes == 30:
        return f"half past {number(h12)}"
    if minutes == 15:
        return f"quarter past {number(h12)}"
    if minutes == 45:
        return f"quarter to {number(nxt)}"
    if minutes % 5 == 0:
        return f"{number(minutes)} past {number(h12)}" if minutes < 30 else f"{number(60 - minutes)} to {number(nxt)}"
    return f"{number(h12)} {number(minutes)}" if minutes >= 10 else f"{number(h12)} oh {number(minutes)}"


def spoken(value) -> str:
    """A value the way one says it on the phone."""
    text = str(value).strip()
    if m := re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text):
        return f"the {ordinal(int(m[3]))} of {MONTHS[int(m[2]) - 1]}"
    if m := re.fullmatch(r"(\d{4}-\d{2}-\d{2})[ T](\d{1,2}:\d{2})", text):
        return f"{spoken(m[1])} at {spoken(m[2])}"
    if m := re.fullmatch(r"(\d{1,2})[:.](\d{2})", text):
        return clock(int(m[1]), int(m[2]))
    if re.fullmatch(r"\d{1,3}", text):
        return number(int(text))
    if re.search(r"\d", text) and re.search(r"[A-Za-z]", text) and " " not in text.strip() or \
            re.fullmatch(r"[A-Z0-9]{2,5}(?: [A-Z0-9]{2,5})+", text):
        return " ".join(UNITS[int(c)] if c.isdigit() else c.upper() for c in text if c.isalnum())
    return text


# --- reading the request ----------------------------------------------------------------------


def instructions(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "system")


def caller(request) -> str:
    """What the caller said: the first user message (whoever opened the call)."""
    return next((m.content or "" for m in request.messages if m.role == "user" and m.content), "")


def lines(request) -> list[str]:
    out = []
    for raw in instructions(request).splitlines():
        raw = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", raw).strip()
        out += [s.strip() for s in re.split(r'(?<=[.!?])\s+(?=[A-Z])(?=(?:[^"]*"[^"]*")*[^"]*$)', raw) if s.strip()]
    return out


def stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]{3,}", text.lower())}


def topics(line: str) -> set[str]:
    """The topic words a line is limited to: what follows `for`, `about` or `mention`."""
    m = re.search(r"\b(?:for|about|mentions?|asks? about|concerning)\b\s+(.+)$", line, re.I)
    if not m:
        return set()
    return stems(re.sub(r"\b(?:or|and|the|a|an|any|caller|callers|calls|requests?)\b", " ", m[1], flags=re.I))


def touches(request, line: str) -> bool:
    words = topics(line)
    return not words or bool(words & stems(caller(request)))


def answers(request, tool: str) -> list[str]:
    return [r.content for r in tool_results(request, tool)]


def asked(request) -> list[ToolCallRequest]:
    return [c for m in request.messages if m.role == "assistant" for c in m.tool_calls]


def said_before(request, text: str) -> bool:
    return any(m.role == "assistant" and (m.content or "").strip() == text.strip() for m in request.messages)


def data(answer: str):
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(answer)
        except (ValueError, SyntaxError, TypeError):
            pass
    try:  # a dataclass's repr, Name(field=value, ...)
        node = ast.parse(answer.strip(), mode="eval").body
        if isinstance(node, ast.Call) and node.keywords:
            return {k.arg: ast.literal_eval(k.value) for k in node.keywords}
    except (ValueError, SyntaxError, TypeError):
        pass
    return None


def leaves(value) -> list[tuple[str, str]]:
    if isinstance(value, dict):
        return [(k2 or k, v2) for k, v in value.items() for k2, v2 in leaves(v)]
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in leaves(v)]
    return [("", str(value))]


def reason(answer: str) -> str:
    """The part of an answer that says why, as plain words."""
    found = data(answer)
    if found is None:
        return answer.strip()
    fields = leaves(found)
    why = [v for k, v in fields if re.search(r"reason|message|detail|note|why|text|error|info", k, re.I)]
    status = [v for k, v in fields if re.search(r"status|state|code|result|outcome", k, re.I)]
    words = [v for k, v in fields if not k and not re.fullmatch(r"[\d.]+", v)]
    parts = list(dict.fromkeys(status + why + words))
    worded = [p for p in parts if not re.fullmatch(r"[\d.]+", p)]  # a bare status code is not said aloud
    return ". ".join(worded or parts) or answer.strip()


def broken(answer: str) -> bool:
    """The framework's report of a tool that raised: error text, not data the tool answered (a
    field named "error" in a tool's own answer is what the tool said)."""
    return data(answer) is None and bool(BROKEN.search(answer))


def reference(answer: str) -> str | None:
    found = data(answer)
    for key, value in leaves(found) if found is not None else ():
        if re.search(r"ref|confirm|booking|job|ticket|member|hold|order", key, re.I) and \
                re.search(r"\d", value) and re.search(r"[A-Za-z]", value):
            return value
    m = re.search(r"\b[A-Z]{1,4}-?\d{2,}[A-Z0-9-]*\b", answer)
    return m[0] if m else None


# --- acting ---------------------------------------------------------------------------------


def example_of(description: str) -> str | None:
    m = re.search(r"""(?:e\.g\.|for example|like|such as)[:,]?\s*["“']([^"”']+)["”']""", description or "", re.I)
    return m[1] if m else None


def shape(example: str) -> re.Pattern:
    parts = []
    for run in re.findall(r"\d+|[A-Z]+|[a-z]+|.", example):
        if run.isdigit():
            parts.append(rf"\d{{{len(run)}}}")
        elif run.isupper():
            parts.append(rf"[A-Z]{{{len(run)}}}")
        elif run.isalpha():
            parts.append("[a-z]+")
        else:
            parts.append(re.escape(run))
    return re.compile(r"(?<![\w-])" + "".join(parts) + r"(?![\w-])")


def texts(request) -> list[str]:
    """Where a value may be found: what was said (the caller first), then tool answers."""
    spoken_ = [m.content or "" for m in request.messages if m.role in ("user", "assistant") and m.content]
    heard = [m.content or "" for m in request.messages if m.role == "tool"]
    return spoken_ + heard


def counted(said: str, description: str) -> int | None:
    """A count the caller said, in digits or words, before a noun the parameter speaks of
    ("three tickets" for "How many tickets (seats) to hold")."""
    nouns = stems(description)
    words = re.findall(r"\d{1,3}|[a-z]+", said.lower())
    for i, word in enumerate(words):
        value = int(word) if word.isdigit() else UNITS.index(word) if word in UNITS[1:] else None
        if value is not None and any(w[:5] in nouns for w in words[i + 1:i + 3]):
            return value
    return None


def ask(missing: str) -> str:
    missing = re.sub(r"\s*\([^)]*\)", "", missing)
    if missing.lower().startswith("how many"):
        return f"Sorry, {missing.lower()}, again?"
    return f"Sorry, what was {missing} again?"


def what(description: str, name: str) -> str:
    base = re.split(r",?\s*(?:e\.g\.|for example\b|like\b|such as\b)", description or "", flags=re.I)[0].strip(" .")
    base = base or name.replace("_", " ")
    return base[0].lower() + base[1:]


def arguments(request, tool) -> tuple[dict, str | None]:
    schema = tool.parameters or {}
    props = schema.get("properties") or {}
    found, missing = {}, None
    said = caller(request)
    for name, spec in props.items():
        spec = spec.get("anyOf", [spec])[0] if "anyOf" in spec and "enum" not in spec else spec
        desc = spec.get("description", "")
        if "enum" in spec:
            options = [o for o in spec["enum"] if stems(str(o)) & stems(said)]
            if options:
                found[name] = options[0]
                continue
        elif example := example_of(desc):
            pattern = shape(example)
            hit = next((m[0] for t in texts(request) for m in [pattern.search(t)] if m), None)
            if hit is not None:
                found[name] = int(hit) if spec.get("type") == "integer" else hit
                continue
        elif spec.get("type") == "integer" and (count := counted(said, desc or name)) is not None:
            found[name] = count
            continue
        if name in (schema.get("required") or props):
            missing = missing or what(desc, name)
    return found, missing


def colleagues(request) -> dict[str, str]:
    return {t.handoff_to.lower(): t.handoff_to for t in request.tools if t.handoff_to}


def own_tools(request) -> dict:
    return {t.name: t for t in request.tools if not t.handoff_to}


OUTCOME = re.compile(r"^(?:if|when|should)\s+(\w+)\s+(says|answers|returns|comes back with|reports|fails|"
                     r"breaks|errors)\b(.*)$", re.I)
TRANSFER = re.compile(r"\b(?:put|transfer|pass|send)\b.*?\b(?:through )?to\s+((?:the\s+)?(\w+)[\w' -]*?)"
                      r"\s*(?:\bfor\b|\babout\b|\bwhen\b|\bif\b|[.,;]|$)", re.I)


def outcome(line: str, request) -> str | None:
    m = OUTCOME.match(line)
    tool, verb, rest = m[1], m[2].lower(), m[3]
    got = answers(request, tool)
    if not got:
        return None
    newest = got[-1]
    if verb == "fails":
        hit = bool(REFUSAL.search(newest)) and not broken(newest)
    elif verb in ("breaks", "errors"):
        hit = broken(newest)
    else:
        words, _, rest = rest.partition(",")
        hit = any(w.strip().lower() in newest.lower()
                  for w in re.split(r"\bor\b|/", re.sub(r"['\"`]", "", words)) if w.strip())
    if not hit:
        return None
    if quoted := re.search(r'"([^"]+)"', rest):
        return quoted[1]
    return f"I'm sorry, that didn't go through. The system says: {reason(newest)}. Is there anything else I can do?"


def confirm(request) -> str:
    calls = [c for c in asked(request) if c.name in own_tools(request) or tool_results(request, c.name)]
    if not calls:
        return "All right, that's all noted."
    last = calls[-1]
    values = ", ".join(spoken(v) for v in last.arguments.values())
    ref = reference((answers(request, last.name) or [""])[-1])
    tail = f" Your reference is {spoken(ref)}." if ref and ref not in last.arguments.values() else ""
    return f"Lovely, that's done. I've got you down for {values}.{tail} Anything else?"


def relay(request, tool: str) -> str:
    got = answers(request, tool)
    if not got:
        return ""
    found = data(got[-1])
    if found is None:
        return f"The system says {got[-1].strip()}."
    fields = [(k, v) for k, v in leaves(found) if k or not re.fullmatch(r"[1-5]\d\d", v)]  # not the bare status
    return " ".join(f"{k.replace('_', ' ').capitalize()}, {spoken(v)}." if k else f"{spoken(v)}." for k, v in fields)


def act(request):
    tools = own_tools(request)
    people = colleagues(request)
    last_call = next((c for c in reversed(asked(request)) if c.name in tools), None)
    if last_call is not None:
        got = answers(request, last_call.name)
        planned = any(OUTCOME.match(line) and re.search(r"break|error", line, re.I) for line in lines(request))
        if got and broken(got[-1]) and not planned:
            text = "Sorry, the system isn't answering just now. Could you try again in a few minutes?"
            if not said_before(request, text):
                return say(text)
    for line in lines(request):
        low = line.lower()
        if OUTCOME.match(line):
            text = outcome(line, request)
            if text and not said_before(request, text):
                return say(text)
            continue
        named = [t for t in tools if re.search(rf"\b{re.escape(t)}\b", line)]
        if named and not re.match(r"(?:confirm|read|say)\b", low):
            tool = named[0]
            if tool_results(request, tool) or any(c.name == tool for c in asked(request)):
                continue
            if not touches(request, line):
                continue
            args, missing = arguments(request, tools[tool])
            if missing:
                return say(ask(missing))
            return call(tool, **args)
        if m := TRANSFER.search(line):
            target = m[2].lower()
            if not touches(request, line):
                continue
            if target in people:
                done = {c.name for c in asked(request)}
                tool = next(t.name for t in request.tools if t.handoff_to == people[target])
                if tool in done:
                    continue
                return ChatReply(text=f"One moment, I'll put you through to {people[target]}.",
                                 tool_calls=(ToolCallRequest(name=tool, arguments={}),), finish_reason="tool_calls")
            text = f"One moment, I'll put you through to {m[1]}."
            if not said_before(request, text):
                return say(text)
            continue
        if quoted := re.match(r'(?:say|tell the caller|answer)\s*:?\s*"([^"]+)"', line, re.I):
            if not said_before(request, quoted[1]):
                return say(quoted[1])
            continue
        if low.startswith("read out") or low.startswith("read back"):
            heard = set(tools) | {c.name for c in asked(request)}  # a reflection is asked without tools
            tool = next((t for t in heard if re.search(rf"\b{re.escape(t)}\b", line)), None)
            text = relay(request, tool) if tool else ""
            if text and not said_before(request, text):
                return say(text)
            continue
        if low.startswith("confirm"):
            text = confirm(request)
            if not said_before(request, text):
                return say(text)
            continue
    return say("Okay. Thanks for calling, bye now.")


def policy(request):
    return act(request)
