"""A seventh scripted model for the zoo, written apart from the others: a casual, normalising
texter.

Use it as `--sut-model scripted/examples/zoo/policy_g.py:policy`. Like the other policies it
knows no system of the zoo: a seeded twin and its fixed twin differ only through what their
instructions, tools and wiring give it. Its character:

- it texts: lower case, short, abbreviations ("pls", "thx", "appt", "conf #"), an emoji now and
  then, slang of its own for the usual moves ("yep that's locked", "no dice", "handing u to ...",
  "need ur ...");
- it re-formats every fact it passes on, the way real models do: in its own messages a date
  becomes "Mar 3", a reference is upper-cased with its dashes taken out, a sum loses its ".00",
  a name is title-cased; in a tool's arguments each value takes the shape of the example the
  parameter's description gives (`e.g. "14/03/2026"`, `like "LP-00000"`), else a date goes ISO
  and a reference upper case;
- it follows an agent's instructions literally, line by line (a wrong line included), and the
  first line that applies answers:
  - a line naming a colleague it is offered a hand-over to hands over (once) when the customer's
    words touch the line's subject (`for A, B or C ... hand over to X`; a line with no subject at
    once); a line that says to hand each request to the colleague whose description fits picks
    the hand-over whose description shares most words with the customer's message;
  - a line naming a tool (offered or not: an instruction is an instruction) calls it once with
    its arguments found in the conversation, asking for what it cannot find; a subject limits it
    as it limits a hand-over;
  - `if/when TOOL says/returns/comes back W1 or W2 ...` applies when the tool's newest answer
    holds one of the words: a quoted reply is said as written, else a "no dice" with the answer;
  - `confirm ...` confirms what the newest call did, from the call's own arguments;
  - `pass on / leave a note with the A, B and C` writes a one-line note of those facts;
  - `pass/relay TOOL's answer` relays the newest answer; `say "TEXT"` says it;
- a tool that broke (an error or exception in its answer, a call refused as not available) with
  no line for it gets "ugh TOOL isn't working for me rn", never the raw error;
- with nothing left to do it relays the newest tool answer, else says it can't help here;
- as a group chat's speaker selector (`request.agent == "selector"`) it picks the first listed
  member who has not spoken; asked for a response schema it fills the fields from the chat.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from datetime import date

from masfuzz.llm.scripted import call, handoff, say

MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
MONTH = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|" \
        r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
NUMBERS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
FILLER = set("the a an of to for and or in on at by is are be with from as that this it its any all each "
             "their your our my if when then use using call run via hand over pass send handing goes go "
             "anything stuff things request requests question questions customer customers them they "
             "about re regarding asks ask wants want please".split())
FREE_TEXT = {"question", "request", "details", "message", "query", "task", "note", "notes", "summary", "text",
             "input", "brief"}
REF = re.compile(r"\b([A-Za-z]{1,4})-?(\d{3,})\b")
AMOUNT = re.compile(r"([$€£])\s?(\d+(?:[.,]\d{1,2})?)|(\d+(?:[.,]\d{1,2})?)\s?(eur|euros?|usd|gbp|bucks|quid)\b",
                    re.I)
OUTCOME = re.compile(r"\b(?:if|when|whenever|should)\b.*?\b(says|returns|comes back(?: with)?|answers|gives|"
                     r"reports|replies)\b\s*(.+)", re.I)
QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")
BROKEN = re.compile(r"\b(?:error|exception|traceback|not available|timed out|unavailable)\b", re.I)
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def pick(options: tuple[str, ...], *salt: str) -> str:
    """One of its ways of saying a thing, the same each time for the same conversation."""
    digest = hashlib.sha256("|".join(salt).encode()).digest()
    return options[digest[0] % len(options)]


# --- reading the request ------------------------------------------------------------------


def instructions(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "system")


def customer(request) -> str:
    return next((m.content for m in request.messages if m.role == "user" and m.content), "")


def chat_text(request) -> str:
    """Where facts are looked for: everything said and answered, not the instructions."""
    return "\n".join(m.content for m in request.messages if m.role != "system" and m.content)


def stems(text: str) -> set[str]:
    words = re.findall(r"[a-z]+", text.lower())
    return {w[:5] for w in words if len(w) > 2 and w not in FILLER}


def lines(request) -> list[str]:
    out = []
    for raw in instructions(request).splitlines():
        raw = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", raw).strip()
        out += [s for s in re.split(r"(?<=[.!])\s+(?=[A-Z])", raw) if s]
    return out


def handoffs(request) -> dict[str, object]:
    """Colleague name -> the offered tool that hands over to them."""
    found = {}
    for t in request.tools:
        target = t.handoff_to or (t.name[len("transfer_to_"):] if t.name.startswith("transfer_to_") else None)
        if target:
            found[target] = t
    return found


def own_tools(request) -> dict[str, object]:
    names = {t.name for t in handoffs(request).values()}
    return {t.name: t for t in request.tools if t.name not in names}


def own_calls(request) -> list:
    """The calls this agent made of tools (not hand-overs), oldest first: a reply written after a
    tool ran may be asked for with no tools offered at all."""
    passing = {t.name for t in handoffs(request).values()}
    return [c for m in request.messages if m.role == "assistant" for c in m.tool_calls
            if c.name not in passing and not c.name.startswith("transfer_to")]


def calls_made(request, tool: str) -> list[dict]:
    return [c.arguments for m in request.messages if m.role == "assistant" for c in m.tool_calls if c.name == tool]


def answers(request, tool: str) -> list[str]:
    ids = {c.id for m in request.messages if m.role == "assistant" for c in m.tool_calls if c.name == tool}
    return [m.content or "" for m in request.messages
            if m.role == "tool" and (m.tool_call_id in ids or (m.name == tool and not m.tool_call_id))]


def handed_over(request) -> bool:
    targets = {t.name for t in handoffs(request).values()}
    return any(c.name in targets for m in request.messages if m.role == "assistant" for c in m.tool_calls)


def subject_of(line: str, name: str) -> set[str]:
    """What a line is about, said before the tool or colleague it names: `for A or B, ...`."""
    head = line.lower().split(name.lower())[0]
    m = re.search(r"\b(?:for|about|re|regarding|with|on)\b\s+(.+)", head)
    return stems(m.group(1)) if m else set()


def applies(line: str, name: str, request) -> bool:
    subject = subject_of(line, name)
    return not subject or bool(subject & stems(customer(request)))


# --- finding and re-formatting facts ------------------------------------------------------


def year_of(text: str) -> int:
    m = re.search(r"\b(20\d\d)\b", text)
    return int(m.group(1)) if m else 2026


def dates(text: str) -> list[tuple[int, date]]:
    """Every date the text gives, with where it stands, whatever way it is written."""
    found, year = [], year_of(text)
    for m in re.finditer(r"\b(20\d\d)-(\d\d)-(\d\d)\b", text):
        found.append((m.start(), (int(m.group(1)), int(m.group(2)), int(m.group(3)))))
    for m in re.finditer(r"\b(\d{1,2})[/.](\d{1,2})(?:[/.](20\d\d))?\b", text):
        found.append((m.start(), (int(m.group(3) or year), int(m.group(2)), int(m.group(1)))))
    for m in re.finditer(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH}\b(?:,?\s+(20\d\d))?", text, re.I):
        found.append((m.start(), (int(m.group(3) or year), MONTHS.index(m.group(2)[:3].lower()) + 1,
                                  int(m.group(1)))))
    for m in re.finditer(rf"\b{MONTH}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(20\d\d))?", text, re.I):
        found.append((m.start(), (int(m.group(3) or year), MONTHS.index(m.group(1)[:3].lower()) + 1,
                                  int(m.group(2)))))
    out = []
    for at, (y, mo, d) in found:
        try:
            out.append((at, date(y, mo, d)))
        except ValueError:
            continue
    return sorted(out, key=lambda x: x[0])


def amounts(text: str) -> list[tuple[int, tuple[str, float]]]:
    out = []
    for m in AMOUNT.finditer(text):
        sym = m.group(1) or {"eur": "€", "euro": "€", "euros": "€", "gbp": "£", "quid": "£"}.get(
            (m.group(4) or "").lower(), "$")
        out.append((m.start(), (sym, float((m.group(2) or m.group(3)).replace(",", ".")))))
    return out


def refs(text: str, prefix: str | None = None) -> list[tuple[int, tuple[str, str]]]:
    return [(m.start(), (m.group(1).upper(), m.group(2))) for m in REF.finditer(text)
            if prefix is None or m.group(1).upper() == prefix.upper()]


def nearest(found: list, text: str, keys: set[str]):
    """The occurrence standing nearest a word of the parameter's own name, else the first."""
    if not found:
        return None
    spots = [m.start() for m in re.finditer(r"[a-z]+", text.lower()) if m.group()[:5] in keys]
    if not spots:
        return found[0][1]
    return min(found, key=lambda f: min(abs(f[0] - s) for s in spots))[1]


def as_date(d: date, example: str | None) -> str:
    if example and re.fullmatch(r"\d\d/\d\d/\d{4}", example):
        return d.strftime("%d/%m/%Y")
    if example and re.fullmatch(r"\d\d\.\d\d\.\d{4}", example):
        return d.strftime("%d.%m.%Y")
    if example and re.fullmatch(r"\d{1,2} [A-Z][a-z]{2} \d{4}", example):
        return f"{d.day} {d.strftime('%b')} {d.year}"
    if example and re.fullmatch(r"[A-Z][a-z]{2} \d{1,2}", example):
        return f"{d.strftime('%b')} {d.day}"
    return d.isoformat()


def chatty_date(d: date) -> str:
    return f"{d.strftime('%b')} {d.day}"


def as_amount(sym: str, value: float, example: str | None) -> str:
    plain = f"{value:.2f}"
    if example:
        if "," in example and "." not in example:
            plain = plain.replace(".", ",")
        if example[0] in "$€£":
            return sym + plain
        tail = re.search(r"\s([A-Z]{3})$", example)
        if tail:
            return f"{plain} {dict(zip('$€£', ('USD', 'EUR', 'GBP'))).get(sym, tail.group(1))}"
    return plain


def chatty_amount(sym: str, value: float) -> str:
    return f"{sym}{value:g}" if value == int(value) else f"{sym}{value:.2f}"


def as_ref(letters: str, digits: str, example: str | None) -> str:
    if example and "-" in example:
        return f"{letters}-{digits}"
    if example and " " in example:
        return f"{letters} {digits}"
    return f"{letters}{digits}"


def example_of(description: str) -> str | None:
    m = re.search(r"(?:e\.g\.|like|such as|for example|format)[:,]?\s*[\"'“]([^\"'”]+)[\"'”]", description or "")
    return m.group(1) if m else None


def name_in(text: str) -> str | None:
    m = re.search(r"(?:my name is|i'm|i am|this is|name's|under|signed,?|cheers,?|thanks,?|thx,?)\s+"
                  r"([a-z][a-z'\-]+(?:\s+[a-z][a-z'\-]+)?)\b", text, re.I)
    if not m:
        return None
    words = [w for w in m.group(1).split() if w.lower() not in FILLER]
    return " ".join(w[:1].upper() + w[1:].lower() for w in words) or None


def count_of(text: str, keys: set[str]) -> int | None:
    """`3 bags`, `three big bags`: a number standing just before a word the parameter names."""
    for m in re.finditer(r"\b(\d+|" + "|".join(NUMBERS) + r")\s+(?:[a-z\-]+\s+){0,2}?([a-z]+)", text.lower()):
        if any(len(k) >= 3 and (m.group(2).startswith(k) or k.startswith(m.group(2))) for k in keys):
            return int(m.group(1)) if m.group(1).isdigit() else NUMBERS[m.group(1)]
    return None


def value_for(request, name: str, spec: dict):
    """A parameter's value from the conversation, in the shape the parameter asks for."""
    text = chat_text(request)
    words = set(re.findall(r"[a-z]+", name.lower()))
    keys = {w[:5] for w in words} - {"date", "day", "numbe", "ref", "code", "id", "amoun", "time"}
    description = spec.get("description", "") or spec.get("title", "")
    example = example_of(description)
    if "enum" in spec:
        want = stems(customer(request))
        scored = [(len(stems(str(v)) & want), -i, v) for i, v in enumerate(spec["enum"])]
        best = max(scored)
        return best[2] if best[0] else None
    if spec.get("type") in ("integer", "number"):
        return count_of(text, keys | {w[:5] for w in re.findall(r"[a-z]+", description.lower())} - FILLER)
    if words & FREE_TEXT:
        return customer(request)
    if (example and (re.search(r"\d{4}-\d\d-\d\d|\d\d[/.]\d\d[/.]\d{4}", example)
                     or re.search(MONTH, example, re.I))) or words & {"date", "day", "when"}:
        d = nearest(dates(text), text, keys)
        return as_date(d, example) if d else None
    if (example and re.search(r"[$€£]|\d[.,]\d\d\b", example)) or words & {"amount", "price", "fee", "total", "sum"}:
        a = nearest(amounts(text), text, keys)
        return as_amount(*a, example) if a else None
    if example and REF.search(example) or words & {"ref", "reference", "number", "id", "code", "ticket", "booking",
                                                   "order", "conf", "confirmation"}:
        prefix = REF.search(example).group(1) if example and REF.search(example) else None
        r = nearest(refs(text, prefix), text, keys)
        return as_ref(*r, example) if r else None
    if "name" in words:
        return name_in(customer(request))
    return None


def arguments(request, tool) -> tuple[dict, list[str]]:
    props = tool.parameters.get("properties", {})
    required = tool.parameters.get("required", list(props))
    args, missing = {}, []
    for name, spec in props.items():
        value = value_for(request, name, spec)
        if value is not None:
            args[name] = value
        elif name in required:
            missing.append(name)
    return args, missing


def chatty(key: str, value) -> str:
    """A fact as it texts it."""
    text = str(value)
    if re.fullmatch(r"\d{4}-\d\d-\d\d", text):
        return chatty_date(date.fromisoformat(text))
    d = dates(text)
    if d and d[0][0] == 0:
        return chatty_date(d[0][1])
    r = REF.fullmatch(text.strip())
    if r:
        return r.group(1).upper() + r.group(2)
    a = amounts(text)
    if a:
        return chatty_amount(*a[0][1])
    if "name" in key:
        return text.title()
    return text.lower() if len(text) < 40 else text[:40].lower() + "…"


# --- what it says -------------------------------------------------------------------------


def ask(missing: list[str], request) -> str:
    bits = [m.replace("_", " ").replace("number", "#").replace("reference", "ref") for m in missing]
    opener = pick(("need ur", "can u send ur", "quick one, need ur"), customer(request), *missing)
    return f"{opener} {' + '.join(bits)} pls?"


def confirm(request) -> str | None:
    made = own_calls(request)
    if not made:
        return None
    last = made[-1]
    facts = [f"{v} {k.replace('_', ' ')}" if isinstance(v, int) else chatty(k, v)
             for k, v in last.arguments.items() if len(str(v)) < 60]
    ref = ["".join(r) for _, r in refs(" ".join(answers(request, last.name)[-1:]))]
    new_refs = [r for r in ref if r not in facts]
    tail = f" conf # {new_refs[-1]}" if new_refs else ""
    money = amounts(" ".join(answers(request, last.name)[-1:]))
    tail += f" total {chatty_amount(*money[-1][1])}" if money else ""
    facts = ", ".join(facts)
    opener = pick(("yep that's locked 🔒", "done ✅ all sorted", "ok ur all set 👍"), customer(request), last.name)
    return f"{opener} {last.name.replace('_', ' ')}: {facts}.{tail} thx!"


def words_after(verb_tail: str) -> list[str]:
    head = re.split(r",|\bthen\b|\btell\b|\bsay\b|:|;", verb_tail, maxsplit=1)[0]
    return [w.strip(" '\"`.").lower() for w in re.split(r"\bor\b|/|\band\b", head) if w.strip(" '\"`.")]


def no_dice(tool: str, answer: str) -> str:
    return f"no dice 😕 {tool.replace('_', ' ')} came back: {short(answer)}"


def parsed(answer: str):
    """A tool's answer as data: JSON, or the repr of a Python value (some frameworks send that)."""
    for read in (json.loads, ast.literal_eval):
        try:
            return read(answer)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            continue
    return None


def short(answer: str) -> str:
    """A tool's answer as it texts it: the leaves of a JSON answer, `key value`, in one line."""
    data = parsed(answer)
    if data is None:
        return answer.strip()[:160]
    flat: list[str] = []

    def walk(value, key=""):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        else:
            flat.append(f"{key} {value}".strip())
    walk(data)
    return ", ".join(flat)[:160]


def note(line: str, request) -> str:
    """`pass on / note the A, B and C`: those facts, re-formatted."""
    text = chat_text(request)
    items = re.split(r",|\band\b", line.lower().split(" the ", 1)[-1] if " the " in line.lower() else line.lower())
    bits = []
    for item in items:
        words = set(re.findall(r"[a-z]+", item))
        value = None
        if words & {"ticket", "ref", "reference", "number", "order", "booking", "conf", "id", "code"}:
            r = refs(text)
            value = r[0][1][0] + r[0][1][1] if r else None
        elif words & {"day", "date", "when"}:
            d = dates(text)
            value = chatty_date(d[0][1]) if d else None
        elif words & {"amount", "price", "fee", "total", "rate", "cost"}:
            a = amounts(text)
            value = chatty_amount(*a[0][1]) if a else None
        elif "name" in words:
            value = name_in(customer(request))
        elif words - FILLER:
            n = count_of(text, {w[:5] for w in words - FILLER})
            if n is not None:
                unit = next(w for w in re.findall(r"[a-z]+", item) if w not in FILLER)
                bits.append(f"{n} {unit}{'' if unit.endswith('s') else 's'}")
            continue
        if value:
            label = next(w for w in re.findall(r"[a-z]+", item) if w not in FILLER)
            bits.append(f"{label} {value}")
    return "📝 " + ", ".join(bits) if bits else "📝 nothing to pass on"


# --- acting -------------------------------------------------------------------------------


def routed_by_description(request):
    want = stems(customer(request))
    scored = [(len(stems(t.description) & want), -i, name) for i, (name, t) in enumerate(handoffs(request).items())]
    return max(scored)[2] if scored and max(scored)[0] else None


def handled(request, tool: str, answer: str) -> bool:
    """Whether a later `if TOOL says ...` line of the instructions speaks to this answer."""
    for line in lines(request):
        outcome = OUTCOME.search(line)
        if outcome and tool in line and any(w and w in answer.lower() for w in words_after(outcome.group(2))):
            return True
    return False


def act(request):
    colleagues = handoffs(request)
    tools = own_tools(request)
    said_before = [m.content for m in request.messages if m.role == "assistant" and m.content]
    for line in lines(request):
        low = line.lower()
        named_tools = [t for t in SNAKE.findall(line) if t not in colleagues and not t.startswith("transfer_to")]
        named_tools = [t for t in named_tools if t in tools or re.search(rf"\b(?:use|call|run|via|with|using)\b[^.]*\b{t}\b", low)]
        outcome = OUTCOME.search(line)
        if outcome and named_tools:
            tool = named_tools[0]
            got = answers(request, tool)
            if got and any(w and w in got[-1].lower() for w in words_after(outcome.group(2))):
                quoted = QUOTED.search(line)
                if quoted:
                    return say(quoted.group(1))
                if BROKEN.search(got[-1]):  # the tool itself broke: no raw error text for the customer
                    return say(f"ugh {tool.replace('_', ' ')} isn't working for me rn 😬 someone will get back to u")
                return say(no_dice(tool, got[-1]))
            continue
        if re.search(r"\b(?:relay|pass|forward|tell)\b.*\banswer\b", low) and named_tools:
            got = answers(request, named_tools[0])
            if got:
                return say(pick(("ok so:", "update:", "heads up:"), customer(request)) + " " + got[-1].strip())
            # not asked yet: the line names the tool to ask
        if named_tools:
            tool = named_tools[0]
            if calls_made(request, tool):
                got = answers(request, tool)
                if got and BROKEN.search(got[-1]) and not handled(request, tool, got[-1]):
                    return say(f"ugh {tool.replace('_', ' ')} isn't working for me rn 😬 someone will get back to u")
                continue
            if not applies(line, tool, request):
                continue
            spec = tools.get(tool)
            if spec is None:  # named but not offered: a literal reader calls it all the same
                return call(tool, **guess_arguments(request))
            args, missing = arguments(request, spec)
            return say(ask(missing, request)) if missing else call(tool, **args)
        if re.search(r"\bdescription\b", low) and re.search(r"\b(?:hand|pass|send|route)\b", low) and colleagues:
            if handed_over(request):
                continue
            target = routed_by_description(request)
            if target:
                return handoff(target)
            continue
        targets = [c for c in colleagues if re.search(rf"\b{re.escape(c)}\b", line, re.I)]
        if targets and re.search(r"\b(?:hand|hands|pass|send|refer|route|forward)\b", low):
            if handed_over(request) or not applies(line, targets[0], request):
                continue
            return handoff(targets[0])
        if re.match(r"(?:pass on|leave|write|jot|note)\b", low) and not said_before:
            return say(note(line, request))
        if re.match(r"confirm\b", low):
            text = confirm(request)
            if text:
                return say(text)
            continue
        quoted = QUOTED.search(line)
        if quoted and re.match(r"(?:otherwise\s*,?\s*)?(?:say|reply|answer)\b", low):
            return say(quoted.group(1))
    results = [a for c in own_calls(request) for a in answers(request, c.name) if a]  # not a hand-over's
    if results:
        return say("fyi: " + short(results[-1]))
    return say(pick(("hmm can't sort that one here sry 🤷", "no dice, that's not something i can do from here 🙈"),
                    customer(request)))


def guess_arguments(request) -> dict:
    """For a tool it was told to use but not given: what the chat has that looks like a value."""
    text = chat_text(request)
    out = {}
    r = refs(text)
    if r:
        out["reference"] = r[0][1][0] + "-" + r[0][1][1]
    a = amounts(text)
    if a:
        out["amount"] = a[0][1][1]
    return out


def select(request) -> str:
    text = "\n".join(m.content or "" for m in request.messages)
    listed = re.search(r"from \[?([\w, ']+)\]?\s+to play", text)
    names = [n.strip(" '") for n in listed.group(1).split(",")] if listed else []
    spoke = {m.name for m in request.messages if m.name}
    return next((n for n in names if n not in spoke), names[-1] if names else "")


def structured(request) -> str:
    props = (request.response_schema or {}).get("properties", {})
    return json.dumps({name: value_for(request, name, spec) or "" for name, spec in props.items()})


def policy(request):
    if request.agent == "selector":
        return say(select(request))
    if request.response_schema and not request.tools:
        return say(structured(request))
    return act(request)
