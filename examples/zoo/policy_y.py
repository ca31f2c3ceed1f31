"""The scripted model of the zoo's thirty-sixth set, written apart from the others: a normaliser
that reformats every fact. Before it acts, and when it reports, it restates what it was told in
canonical form: dates as ISO ("14 June" -> `2026-06-14`), times on the 24-hour clock (`17:30`),
amounts as a currency code and two decimals (`EUR 37.50`), ids upper-cased without spaces or
dashes ("abc-123" -> `ABC123`), names title-cased. It reports outcomes in a small Markdown table
(`| item | status | ref |`, the status word the tool used, CONFIRMED, DECLINED or PENDING, else
its own: done, failed, waiting) followed by one sentence; its hand-over notes are `key: value`
lines; it asks with "Please provide: <field> (format ...)". A tool gets the canonical form unless
its parameter's description says plainly which format it wants ("format", "formatted as"), in
which case the value is reshaped to that description's example. It follows each agent's
instructions literally, a wrong one included.

Use it as `--sut-model scripted/examples/zoo/policy_y.py:policy`. It knows no system of the zoo:
it reads the agent's instructions a line (or sentence) at a time and the first line that applies
acts:

- `If TOOL says / returns / answers WORD: "TEXT"` (or `, say "TEXT"`), when TOOL's newest answer
  holds WORD: TEXT;
- a routing line, `Route / send / transfer / pass ... to NAME` (optionally `for / about WORDS`),
  when a transfer to NAME is offered, not yet taken, and the customer's words touch the topic;
- a line naming an offered tool: the call, once (`until it says WORD`: again while the newest
  answer lacks WORD), each argument from the facts of the conversation in canonical form; a
  missing one is asked for;
- `Write ... note ... with A, B and C` (a hand-over note): `a: value` lines;
- `Put / fill / mark ... WORD in the status column` (or `... status column with WORD`), once a tool
  has answered: the table with WORD as every row's status, taken literally;
- `Relay / pass on TOOL's answer ...`: the newest answer, as it came;
- `Say "TEXT"`: TEXT. `Sign off with "TEXT"` makes TEXT the sentence under its table.

With nothing left to do it writes its table for the tools answered in its own part of the
conversation, or, with none, the facts it has noted as `key: value` lines. A typed answer (a
response schema) is filled field by field from the same reading. As a group chat's speaker
selector it picks the role whose description shares most words with the customer's request,
among those that have not spoken yet.
"""

from __future__ import annotations

import json
import re
from datetime import date

from masfuzz.llm.scripted import say
from masfuzz.llm.types import ChatReply, ToolCallRequest

YEAR = 2026
MONTHS = {m: i + 1 for i, m in enumerate(("january", "february", "march", "april", "may", "june", "july", "august",
                                          "september", "october", "november", "december"))}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
ISO = re.compile(r"\b(20\d\d)-(\d\d)-(\d\d)\b")
DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({MONTH})\.?(?:,?\s+(20\d\d))?\b", re.I)
MONTH_DAY = re.compile(rf"\b({MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(20\d\d))?\b", re.I)
SLASHED = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](20\d\d)\b")
CLOCK = re.compile(r"\b([01]?\d|2[0-3])[:.h]([0-5]\d)\s*(am|pm|a\.m\.|p\.m\.)?(?!\d)", re.I)
HOUR = re.compile(r"\b(1[0-2]|0?[1-9])\s*(am|pm|a\.m\.|p\.m\.)", re.I)
MONEY = re.compile(r"(?:(€|£|\$|EUR|GBP|USD|CHF)\s?(\d+(?:[.,]\d{1,2})?)|(\d+(?:[.,]\d{1,2})?)\s?(€|£|EUR|GBP|USD|CHF|euros?|pounds?|dollars?)\b)", re.I)
CODES = {"€": "EUR", "£": "GBP", "$": "USD", "euro": "EUR", "euros": "EUR", "pound": "GBP", "pounds": "GBP",
         "dollar": "USD", "dollars": "USD"}
IDENT = re.compile(r"(?<!['’])\b(?:[A-Za-z]{1,8}-?\d[\dA-Za-z-]{1,11}"
                   r"|(?!(?:in|on|at|by|the|of|to|for|and|is|was|or|our|since|from|about|until|before|after|"
                   r"year|page|room|age|aged|under|over|around|than|gbp|eur|usd|chf)\s)[A-Za-z]{2,4} \d{3,}[A-Za-z]?)\b", re.I)
DIGITS = re.compile(r"\b\d{3}(?:[ -]?\d{3}){4}\b")  # 15-digit numbers written in groups (chips, cards)
NAME = re.compile(r"\b(?:my name is|i am|i'm|this is|name:)\s+([A-Za-z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?)", re.I)
SENTENCE = re.compile(r"(?:[\"“][^\"”]*[\"”]|[^.!?\"“])+[.!?]*")
QUOTE = re.compile(r"[\"“]([^\"”]+)[\"”]")
IF_SAYS = re.compile(r"^\s*(?:if|when|should)\s+`?(\w+)`?\s+(?:says|returns|answers|reports|comes back with)\s+"
                     r"[\"'`]?([\w-]+)", re.I)
ROUTE = re.compile(r"\b(?:route|send|transfer|pass|hand|forward)\b[^.]*?\bto\s+`?([\w-]+)`?", re.I)
TOPIC = re.compile(r"\b(?:for|about|concerning|mentioning)\s+(.+?)\.?$", re.I)
UNTIL = re.compile(r"\buntil (?:it|the answer) (?:says|shows|returns|reads)\s+[\"'`]?([\w-]+)", re.I)
STATUS_LINE = re.compile(r"\b(?:put|write|set|enter)\s+[\"'`]?([A-Za-z]+)[\"'`]?\s+in(?:to)? the status column"
                         r"|\b(?:fill|mark)\b.*?\bstatus column\b\s+(?:with|as)\s+[\"'`]?([A-Za-z]+)", re.I)
NOTE_LINE = re.compile(r"\bnote\b.*?\bwith\b\s+(.+?)\.?$", re.I)
RELAY = re.compile(r"^\s*(?:relay|pass on|forward|repeat)\b.*?`?(\w+)`?'s (?:answer|reply|words)", re.I)
SAY = re.compile(r"^\s*(?:say|reply|answer)\s*:?\s*[\"“]([^\"”]+)[\"”]", re.I)
SIGN_OFF = re.compile(r"^\s*(?:sign off|end|close|finish)\s+with\s*:?\s*[\"“]([^\"”]+)[\"”]", re.I)
EXAMPLE = re.compile(r"(?:e\.g\.|eg|like|for example|such as)[:,]?\s*[\"'`]([^\"'`]+)[\"'`]", re.I)
STRICT = re.compile(r"\bformat(?:ted)?\b|\bwritten as\b|\bexactly as\b", re.I)
TOOL_WORDS = re.compile(r"\b(CONFIRMED|DECLINED|PENDING)\b", re.I)
FAILED = re.compile(r"\b(?:fail\w*|refus\w*|reject\w*|declin\w*|denied|unavailable|not available|full|cannot|unable|"
                    r"invalid|not found|unknown|error|exception|no slot|abgelehnt|rifiutat\w*|rechazad\w*)\b|"
                    r"\b(?:code|status|http)\W{0,4}[45]\d\d\b|\"ok\": false", re.I)
WAITING = re.compile(r"\b(?:pending|queued|processing|in progress|waiting|not yet|later|in attesa)\b", re.I)
FREE_TEXT = {"details", "request", "message", "task", "input", "query", "question", "notes", "text", "brief", "summary"}
VERBS = {"book", "reserve", "check", "ask", "get", "make", "log", "hold", "enrol", "enroll", "register", "price",
         "quote", "measure", "set", "find", "order", "schedule", "look", "take", "lend", "start", "fire", "watch"}


# --- reading the request -------------------------------------------------------------------


def lines(request) -> list[str]:
    """The instructions a line at a time, a line of several sentences cut at each (a quoted reply
    stays whole, its own full stops included)."""
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    out = []
    for row in text.splitlines():
        out += [s.strip(" -*•\t") for s in SENTENCE.findall(row)]
    return [s for s in out if s]


def customer(request) -> str:
    return next((m.content for m in request.messages if m.role == "user" and m.content), "")


def heard(request) -> str:
    """Everything said to this agent but its instructions: the customer, colleagues, tools."""
    said = "\n".join(m.content or "" for m in request.messages if m.role != "system")
    return "\n".join(ln for ln in said.splitlines() if not ln.startswith("Please provide:"))  # not its own asks


def own_tools(request) -> dict:
    return {t.name: t for t in request.tools if not t.handoff_to and not t.name.startswith("transfer_to_")}


def transfers(request) -> dict[str, str]:
    found = {}
    for t in request.tools:
        target = t.handoff_to or (t.name.removeprefix("transfer_to_") if t.name.startswith("transfer_to_") else None)
        if target:
            found[target.lower()] = t.name
    return found


def own_part(request) -> list:
    """The messages since the newest transfer into this agent."""
    messages = list(request.messages)
    moved = {c.id for m in messages for c in m.tool_calls if c.name.startswith("transfer_to")}
    start = max((i + 1 for i, m in enumerate(messages) if m.role == "tool" and m.tool_call_id in moved), default=0)
    return messages[start:]


def answers(request) -> list[tuple[str, str]]:
    ids = {c.id: c.name for m in own_part(request) if m.role == "assistant" for c in m.tool_calls}
    found = [(ids.get(m.tool_call_id) or m.name or "tool", m.content or "") for m in own_part(request) if m.role == "tool"]
    mine = own_tools(request)  # in a group chat the others' tool answers are in the conversation too
    return [(t, a) for t, a in found if not t.startswith("transfer_to") and (not mine or t in mine)]


def asked(request, tool: str) -> int:
    return sum(c.name == tool for m in own_part(request) if m.role == "assistant" for c in m.tool_calls)


def newest(request, tool: str) -> str | None:
    found = [a for t, a in answers(request) if t == tool]
    return found[-1] if found else None


def words(text: str) -> set[str]:
    return {w.rstrip("s")[:5] for w in re.findall(r"[a-z]{3,}", text.lower())} - {"the", "and", "for", "with", "from", "your"}


# --- the normaliser ------------------------------------------------------------------------


def dates(text: str) -> list[str]:
    found: list[tuple[int, str]] = []
    for m in ISO.finditer(text):
        found.append((m.start(), m.group(0)))
    for m in DAY_MONTH.finditer(text):
        found.append((m.start(), iso(m.group(3) or YEAR, MONTHS[m.group(2).lower()[:3]], m.group(1))))
    for m in MONTH_DAY.finditer(text):
        found.append((m.start(), iso(m.group(3) or YEAR, MONTHS[m.group(1).lower()[:3]], m.group(2))))
    for m in SLASHED.finditer(text):  # day first, as in most of the world
        found.append((m.start(), iso(m.group(3), m.group(2), m.group(1))))
    return [d for _, d in sorted(found) if d]


def iso(year, month, day) -> str:
    try:
        return date(int(year), int(month), int(day)).isoformat()
    except ValueError:
        return ""


def times(text: str) -> list[str]:
    found: list[tuple[int, str]] = []
    for m in CLOCK.finditer(text):
        hour = int(m.group(1)) % 12 + (12 if (m.group(3) or "").lower().startswith("p") else 0) \
            if m.group(3) else int(m.group(1))
        found.append((m.start(), f"{hour:02d}:{m.group(2)}"))
    for m in HOUR.finditer(text):
        hour = int(m.group(1)) % 12 + (12 if m.group(2).lower().startswith("p") else 0)
        found.append((m.start(), f"{hour:02d}:00"))
    return [t for _, t in sorted(found)]


def amounts(text: str) -> list[str]:
    out = []
    for m in MONEY.finditer(text):
        sign, number = (m.group(1), m.group(2)) if m.group(2) else (m.group(4), m.group(3))
        code = CODES.get(sign.lower(), sign.upper())
        out.append(f"{code} {float(number.replace(',', '.')):.2f}")
    return out


def idents(text: str) -> list[str]:
    out = [re.sub(r"[ -]", "", m.group(0)) for m in DIGITS.finditer(text)]
    for m in IDENT.finditer(text):
        token = m.group(0)
        if DAY_MONTH.fullmatch(token) or CLOCK.fullmatch(token) or re.fullmatch(r"\d+(?:am|pm|st|nd|rd|th|g|kg|m|cm|mm|h)", token, re.I):
            continue
        out.append(re.sub(r"[ -]", "", token).upper())
    return out


def names(text: str) -> list[str]:
    return [m.group(1).title() for m in NAME.finditer(text)]


def reshape(value: str, example: str) -> str:
    """The canonical value written the way a parameter's example is, for a tool that says which
    format it wants."""
    m = ISO.fullmatch(value)
    if m and SLASHED.fullmatch(example):
        sep = "/" if "/" in example else "."
        return f"{m.group(3)}{sep}{m.group(2)}{sep}{m.group(1)}"
    if re.fullmatch(r"\d\d:\d\d", value) and re.fullmatch(r"\d{1,2}\.\d\d", example):
        return value.replace(":", ".")
    if re.fullmatch(r"[A-Z]{3} \d+\.\d\d", value) and re.fullmatch(r"\d+[.,]\d\d", example):
        number = value.split()[1]
        return number.replace(".", ",") if "," in example else number
    slots = [c for c in example if c.isalnum()]
    if len(slots) == len(value) and re.fullmatch(r"[A-Za-z0-9]+", value):
        chars, out = iter(value), []
        for c in example:
            out.append((next(chars).lower() if c.islower() else next(chars)) if c.isalnum() else c)
        return "".join(out)
    return value


def kind_of(name: str, description: str) -> str:
    text = f"{name} {description}".lower()
    example = EXAMPLE.search(description)
    shown = example.group(1) if example else ""
    if re.search(r"\btime\b|\bat what hour|_time\b|\bhour\b", text) or CLOCK.fullmatch(shown):
        return "time"
    if re.search(r"\bdate\b|\bday\b|_date|_day\b", text) or ISO.fullmatch(shown) or SLASHED.fullmatch(shown):
        return "date"
    if name.lower() in FREE_TEXT or re.search(r"in (?:their|the customer's|the caller's) own words|as written", text):
        return "free"
    if re.search(r"amount|price|deposit|balance|fee|sum\b|cost", text) or MONEY.search(shown):
        return "amount"
    if re.search(r"\bname\b|_name\b", text) and not re.search(r"\bnumber\b|\bcode\b", text):
        return "name"
    return "id"


def value(request, name: str, schema: dict):
    text = heard(request)
    described = schema.get("description", "") or ""
    kind = schema.get("type")
    if schema.get("enum"):
        low = text.lower()
        return next((v for v in schema["enum"] if str(v).lower() in low), None)
    noted_ = re.findall(rf"^\s*{re.escape(name)}\s*:\s*(.+?)\s*$", text, re.M | re.I)
    if kind in ("integer", "number") and noted_:  # a hand-over note's line for this very field
        number = re.search(r"\d+(?:\.\d+)?", noted_[-1])
        return None if number is None else (int(float(number.group(0))) if kind == "integer" else float(number.group(0)))
    if kind in ("integer", "number"):
        stems = [w for w in re.findall(r"[a-z]{3,}", f"{name} {described}".lower())
                 if w not in {"how", "many", "the", "number", "count", "come", "comes", "who", "session", "with"}]
        for stem in stems:
            m = re.search(rf"(\d+)[ \t]+(?:\w+[ \t]+)?{stem[:5]}|{stem[:5]}\w*[^\d\n]{{0,12}}(\d+)", text, re.I)
            if m:
                number = int(m.group(1) or m.group(2))
                return number if kind == "integer" else float(number)
        return None
    what = kind_of(name, described)
    found = {"date": dates, "time": times, "amount": amounts, "name": names, "id": idents}.get(what)
    if what == "free":
        return customer(request) or None
    if noted_:  # a hand-over note's line for this very field: its value, read as the field's kind
        read = found(noted_[-1])
        if read:
            return read[0]
        if what in ("date", "time", "amount") or noted_[-1].lower() == "unknown":
            return None
        return noted_[-1]
    candidates = found(customer(request)) + found(text)
    example = EXAMPLE.search(described)
    if what == "id" and example:  # the id that looks like the example (its letters), canonical
        prefix = re.match(r"[A-Za-z]*", example.group(1)).group(0).upper()
        fitting = [c for c in candidates if c.startswith(prefix) and (prefix or c.isdigit())]
        candidates = fitting or ([] if prefix else candidates)
    if not candidates:
        return None
    picked = candidates[0]
    if example and STRICT.search(described):
        return reshape(picked, example.group(1))
    return picked


def arguments(request, tool) -> tuple[dict, list[tuple[str, str]]]:
    props = tool.parameters.get("properties", {})
    required = set(tool.parameters.get("required", list(props)))
    args, missing = {}, []
    for name, schema in props.items():
        found = value(request, name, schema)
        if found is None:
            if name in required:
                missing.append((name, fmt(name, schema)))
        else:
            args[name] = found
    return args, missing


def fmt(name: str, schema: dict) -> str:
    described = schema.get("description", "") or ""
    example = EXAMPLE.search(described)
    if schema.get("enum"):
        return "one of: " + ", ".join(map(str, schema["enum"]))
    if example:
        return example.group(1)
    return {"date": "YYYY-MM-DD", "time": "HH:MM", "amount": "EUR 0.00", "name": "First Last",
            "id": "ABC123", "free": "text"}[kind_of(name, described)] if schema.get("type") == "string" else "number"


def please_provide(missing: list[tuple[str, str]]) -> str:
    asks = [f"Please provide: {name} (format {how})" for name, how in missing]
    return "\n".join(asks) + "\nCan you send " + ("it" if len(asks) == 1 else "them") + "?"


# --- reporting -----------------------------------------------------------------------------


def item(tool: str, answer: str = "") -> str:
    named = re.search(r"\bitem[\"']?\s*[:=]\s*[\"']([^\"']+)", answer)
    if named and named.group(1) != "request":
        return named.group(1)
    parts = tool.split("_")
    return " ".join(parts[1:] if parts[0] in VERBS and len(parts) > 1 else parts)


def status_of(answer: str) -> str:
    m = TOOL_WORDS.search(answer)
    if m:
        return m.group(1).upper()
    if FAILED.search(answer):
        return "failed"
    return "waiting" if WAITING.search(answer) else "done"


def ref_of(answer: str) -> str:
    keyed = re.search(r"\bref\w*[\"']?\s*[:=]\s*[\"']?([A-Za-z]{1,8}-?\d[\w-]*)", answer)
    if keyed and status_of(answer) not in ("failed", "DECLINED"):
        return re.sub(r"[ -]", "", keyed.group(1)).upper()
    found = [i for i in idents(answer) if re.search(r"[A-Z]{1,5}\d{3,}", i)]
    return found[-1] if found and status_of(answer) not in ("failed", "DECLINED") else "-"


def why(answer: str) -> str:
    m = re.search(r"\b(?:reason|note|detail|msg|message|error)[\"']?\s*[:=]\s*[\"']([^\"'|]+)", answer)
    return m.group(1).strip() if m else ""


def table(rows: list[tuple[str, str, str]], sentence: str) -> str:
    head = "| item | status | ref |\n| --- | --- | --- |\n"
    return head + "".join(f"| {a} | {b} | {c} |\n" for a, b, c in rows) + "\n" + sentence


def report(request, forced: str | None = None, closing: str | None = None) -> str:
    done = answers(request)
    latest: dict[str, str] = {}
    for tool, answer in done:
        latest[tool] = answer
    if not latest:
        return noted(request, closing)
    rows = [(item(t, a), forced or status_of(a), ref_of(a)) for t, a in latest.items()]
    if closing:
        return table(rows, closing)
    open_rows = [(r[0], why(latest[t])) for r, t in zip(rows, latest)
                 if r[1] in ("failed", "DECLINED", "waiting", "PENDING")]
    sentence = (f"{len(rows)} row(s) above, normalised; open: "
                + "; ".join(f"{name} ({reason})" if reason else name for name, reason in open_rows) + "."
                if open_rows else f"{len(rows)} row(s) above, normalised.")
    return table(rows, sentence)


def facts(request) -> list[tuple[str, str]]:
    text = customer(request)
    out = [("name", n) for n in names(text)[:1]] + [("date", d) for d in dates(text)[:1]]
    out += [("time", t) for t in times(text)[:1]] + [("amount", a) for a in amounts(text)[:1]]
    out += [("ref", i) for i in idents(text)[:2]]
    return out


def noted(request, closing: str | None = None) -> str:
    lines_ = [f"{k}: {v}" for k, v in facts(request)] or ["request: noted"]
    return "\n".join(lines_) + ("\n" + closing if closing else "")


def note(request, keys: str) -> str:
    """A hand-over note, `key: value` per fact the line names."""
    out = []
    for key in (k.strip(" .`'\"") for k in re.split(r",\s*|\s+and\s+", keys)):
        if not key:
            continue
        field = re.sub(r"\W+", "_", key.lower()).strip("_")
        plain = kind_of(field, key) == "id" and not re.search(r"ref|number|code|\bid\b|\bno\b", key, re.I)
        found = None if plain else value(request, field, {"type": "string", "description": key})
        counted = re.search(rf"\b(\d+)\s+{re.escape(key.split()[-1])}\b", customer(request), re.I)
        if found is None and counted:  # "3 nights"
            found = counted.group(1)
        if found is None:  # "my dog is Moss", "the horse is called Bramble"
            named = re.search(rf"\b{re.escape(key.split()[-1])}\s+(?:is|was|called|named)\s+([A-Z][a-z]+)\b", customer(request))
            found = named.group(1) if named else None
        if found is None:  # a plain word: the one the customer put before the key's own ("road bike")
            before = re.search(rf"\b([a-z]+)\s+{re.escape(key.split()[-1])}\b", customer(request), re.I)
            found = before.group(1).lower() if before and before.group(1).lower() not in {"a", "the", "my", "your", "our"} else None
        out.append(f"{field}: {found if found is not None else 'unknown'}")
    return "\n".join(out)


# --- acting --------------------------------------------------------------------------------


def topic_fits(request, line: str) -> bool:
    m = TOPIC.search(line)
    return not m or bool(words(m.group(1)) & words(customer(request)))


def act(request):
    tools = own_tools(request)
    routes = transfers(request)
    closing = next((m.group(1) for m in map(SIGN_OFF.match, lines(request)) if m), None)
    for line in lines(request):
        m = IF_SAYS.match(line)
        if m:
            answer = newest(request, m.group(1))
            quoted = QUOTE.search(line)
            if answer is not None and m.group(2).lower() in answer.lower() and quoted:
                return say(quoted.group(1))
            continue
        m = ROUTE.search(line)
        if m and m.group(1).lower() in routes:
            taken = any(c.name == routes[m.group(1).lower()] for msg in request.messages for c in msg.tool_calls)
            if not taken and topic_fits(request, line):
                return ToolCallRequest(name=routes[m.group(1).lower()], arguments={})
            continue
        named = [t for t in tools if re.search(rf"\b{re.escape(t)}\b", line)]
        m = STATUS_LINE.search(line)
        if m and answers(request):
            return say(report(request, forced=(m.group(1) or m.group(2)), closing=closing))
        m = RELAY.match(line)
        if m:
            answer = newest(request, m.group(1))
            if answer is not None:
                return say(answer)
            continue
        if named and not STATUS_LINE.search(line):
            tool = tools[named[0]]
            until = UNTIL.search(line)
            answer = newest(request, tool.name)
            due = asked(request, tool.name) == 0 or (
                until and answer is not None and until.group(1).lower() not in answer.lower())
            if due:
                args, missing = arguments(request, tool)
                if missing:
                    return say(please_provide(missing))
                return ToolCallRequest(name=tool.name, arguments=args)
            continue
        m = NOTE_LINE.search(line)
        if m and re.search(r"\bwrite\b|\bgive\b|\bhand\b", line, re.I):
            return say(note(request, m.group(1)))
        m = SAY.match(line)
        if m:
            return say(m.group(1))
    return say(report(request, closing=closing))


def typed(request, text: str) -> str:
    """The answer as the response schema asks, field by field."""
    props = (request.response_schema or {}).get("properties", {})
    done = answers(request)
    answer = done[-1][1] if done else ""
    tool = done[-1][0] if done else ""
    out = {}
    for key, schema in props.items():
        low = key.lower()
        if schema.get("type") == "boolean":
            out[key] = bool(done) and status_of(answer) not in ("failed", "DECLINED")
        elif schema.get("type") in ("integer", "number"):
            out[key] = value(request, key, schema) or 0
        elif schema.get("enum"):
            out[key] = next((v for v in schema["enum"] if str(v).lower() in answer.lower()), schema["enum"][0])
        elif "status" in low:
            out[key] = status_of(answer) if done else "waiting"
        elif low in ("ref", "reference") or low.endswith("_ref"):
            out[key] = ref_of(answer) if done else "-"
        elif low in ("item", "what"):
            out[key] = item(tool) if tool else "request"
        else:
            out[key] = text
    return json.dumps(out)


def select(request):
    """The next speaker: among the roles not heard from yet, the one whose description shares most
    words with the customer's request."""
    text = "\n".join(m.content or "" for m in request.messages)
    head, _, history = text.partition("Conversation so far")
    roles = dict(re.findall(r"^\s*(\w+)\s*:\s*(.+)$", head, re.M))
    offered_now = re.findall(r"\[([^\]]+)\]", text)
    allowed = re.findall(r"\w+", offered_now[-1]) if offered_now else list(roles)
    spoke = set(re.findall(r"^(\w+)\s*:", history, re.M))
    pool = [r for r in roles if r in allowed and r not in spoke] or [r for r in roles if r in allowed] or allowed
    opening = next((ln for ln in history.splitlines() if re.match(r"\s*\w+\s*:\s*\S", ln)), history)
    asked_for = words(opening.partition(":")[2])
    return say(max(pool, key=lambda r: (len(asked_for & words(roles.get(r, ""))), -pool.index(r)), default=""))


def policy(request):
    if request.agent == "selector":
        return select(request)
    result = act(request)
    if request.response_schema and isinstance(result, ChatReply) and not result.tool_calls:
        return say(typed(request, result.text or ""))
    return result
