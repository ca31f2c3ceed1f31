"""The scripted model of the zoo's forty-first set, written apart from the others: the markdown
reporter. Every reply it writes is Markdown: a level-3 heading naming what was done, a results
table (`| item | status | detail |`) whose status cells carry emoji marks (✅ done, ❌ failed,
⏳ pending, ⚠️ needs attention), key facts in **bold**, amounts with a currency symbol and
thousands separators ("£2,535.00"), dates written like "Mon 4 May", and a closing
"**Summary:**" line. A hand-over carries a bullet list of the facts for the next agent. It never
writes a plain sentence where a table cell will do.

Use it as `--sut-model scripted/examples/zoo/policy_ad.py:policy`. It knows no system of the
zoo: it reads the agent's own instructions (its system messages), sentence by sentence, and does
the first thing they still ask for, literally, a wrong line included:

- `If/When TOOL answers|returns|says W1 or W2, say "TEXT"` — when TOOL's newest answer holds one
  of the words (`... fails|raises|errors`: when that answer is an error), TEXT is the reply;
- a sentence naming an offered tool — a call of it, once (`until it says WORD`: again while the
  newest answer lacks WORD); each argument is read from what the customer and colleagues wrote:
  an allowed value, a value of the shape its description shows (`like "AB-1234"`; an amount shown
  with a currency symbol is written that way), a date (a "4 May 2026" read as the ISO day a
  description asks for), a time, a reference, a number next to a word of its name, else the
  customer's own words; a required argument it cannot find is asked for in a ⚠️ row;
- a sentence that hands over, passes, sends or refers something to NAME — the hand-over NAME's
  transfer tool offers, or a call of NAME where NAME is an offered tool (an agent run as a tool),
  or, in a group chat, a Markdown hand-over addressed to NAME with the facts as bullets;
- `Say / Reply / Tell the customer / Close with "TEXT"` — TEXT, `{field}`s filled from the tools'
  answers and the call's arguments, as the table's detail and the Summary.

With nothing left to do it reports each tool's answer as a table row, marked by what the answer
says (an error is reported as ❌ with the error's kind, never its raw text). Where the agent
answers through an output tool or a response schema, the fields are filled from the same reply:
yes/no fields by whether the reply's marks are all ✅, text fields with the Summary, and fields
named like a tool answer's key with that value. As a group chat's model-run selector it names
the first member, in the order the prompt lists them, that has not spoken yet.
"""

from __future__ import annotations

import ast
import datetime as dt
import json
import re

from masfuzz.llm.scripted import call, handoff, resolve_handoff, say

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
SYMBOLS = {"GBP": "£", "EUR": "€", "USD": "$"}
QUOTE = re.compile(r"[\"“]([^\"”]+)[\"”]")
WHEN = re.compile(r"^(?:if|when|once|should)\s+(\w+)\s+(answers?|returns?|says?|reports?|comes back|gives?|fails?|"
                  r"raises?|errors?|breaks?)\b(.*)$", re.I)
PASS_ON = re.compile(r"\b(?:hand|pass|send|refer|forward|route|transfer)\b[^.]*?\bto\s+([A-Za-z]\w*)", re.I)
SPEAK = re.compile(r"^(?:say|reply|tell the \w+|close with|answer|respond|end with|sign off with)\b", re.I)
UNTIL = re.compile(r"\buntil\b[^\"']*?(?:says?|reads?|shows?|returns?)\s+[\"'`]?([\w-]+)", re.I)
LIKE = re.compile(r"\b(?:like|e\.g\.|such as|for example)[,:]?\s*[\"'“]([^\"'”]+)[\"'”]", re.I)
ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
WRITTEN_DAY = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(" + "|".join(MONTHS) + r")\s+(\d{4})\b", re.I)
CLOCK = re.compile(r"\b(?:[01]?\d|2[0-3])[:.][0-5]\d\b")
REF = re.compile(r"\b[A-Z]{1,4}-\d{2,7}\b")
MONEY = re.compile(r"([£€$])\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)\s?(GBP|EUR|USD)\b")
ERROR = re.compile(r"\b\w*(?:Error|Exception)\b|\btraceback\b|^error\b|\berror (?:running|calling|executing)", re.I | re.M)
NO = re.compile(r"\b(?:declin|refus|reject|fail|denied|unavailable|waitlist|not (?:possible|available|eligible)|"
                r"full\b|no space)|[\"']?(?:status|code)[\"']?\s*[:=]\s*[\"']?[45]\d\d\b", re.I)
ADJECTIVE = {"width": "(?:widt|wide)", "depth": "(?:dept|deep)", "height": "(?:heig|high|tall)",
             "length": "(?:leng|long)", "weight": "(?:weig)"}
WAITING = re.compile(r"\b(?:pending|queued|in progress|on the bench|waiting|awaiting|not yet)\b", re.I)


# --- what it is given -----------------------------------------------------------------------


def sentences(request) -> list[str]:
    """The agent's instructions, one sentence or line at a time (quoted text kept whole)."""
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    out = []
    for line in text.splitlines():
        line = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s+", "", line).strip()
        # split after a full stop outside quotes
        parts, depth, start = [], False, 0
        for i, ch in enumerate(line):
            if ch in "\"“”":
                depth = not depth
            elif ch == "." and not depth and (i + 1 == len(line) or line[i + 1] == " "):
                parts.append(line[start:i + 1].strip())
                start = i + 1
        parts.append(line[start:].strip())
        out += [p for p in parts if p]
    return out


def heard(request) -> list[str]:
    """What the customer and colleagues wrote, the customer's first words first."""
    return [m.content for m in request.messages if m.role == "user" and m.content]


def workers(request) -> dict:
    """Offered tools that do work (not hand-overs, not output tools)."""
    return {t.name: t for t in request.tools
            if not t.handoff_to and not t.name.startswith(("transfer_to", "final_result"))}


def used(request) -> list[str]:
    """The tools called so far in this conversation (offered now or not: a reflection offers none)."""
    names = [c.name for m in request.messages if m.role == "assistant" for c in m.tool_calls]
    return [n for i, n in enumerate(names) if n not in names[:i] and not n.startswith(("transfer_to", "final_result"))]


def asked(request, tool: str) -> int:
    return sum(c.name == tool for m in request.messages if m.role == "assistant" for c in m.tool_calls)


def answers(request, tool: str) -> list[str]:
    by_id = {c.id: c.name for m in request.messages if m.role == "assistant" for c in m.tool_calls}
    return [m.content or "" for m in request.messages
            if m.role == "tool" and (m.name == tool or by_id.get(m.tool_call_id or "") == tool)]


def latest(request, tool: str) -> str | None:
    found = answers(request, tool)
    return found[-1] if found else None


def parsed(text: str):
    for reader in (json.loads, ast.literal_eval):
        try:
            return reader(text)
        except (ValueError, SyntaxError, TypeError):
            pass
    return None


def fields(data, into: dict) -> dict:
    if isinstance(data, dict):
        for k, v in data.items():
            fields(v, into) if isinstance(v, (dict, list)) else into.__setitem__(str(k), v)
    elif isinstance(data, list):
        for item in data:
            fields(item, into)
    return into


# --- the persona's way of writing -------------------------------------------------------------


def money(symbol: str, number: str) -> str:
    return f"{symbol}{float(number.replace(',', '')):,.2f}"


def day(iso: str) -> str:
    try:
        d = dt.date.fromisoformat(iso)
    except ValueError:
        return iso
    return f"{d:%a} {d.day} {d:%b}"


def styled(text: str) -> str:
    """Amounts with a symbol and separators, ISO days as 'Mon 4 May'."""
    text = MONEY.sub(lambda m: money(m.group(1), m.group(2)) if m.group(1)
                     else money(SYMBOLS[m.group(4).upper()], m.group(3)), text)
    return ISO.sub(lambda m: day(m.group(0)), text)


def mark(answer: str) -> str:
    for sign, status in (("❌", "❌ failed"), ("⚠️", "⚠️ needs attention"), ("⏳", "⏳ pending"), ("✅", "✅ done")):
        if sign in answer:  # a colleague's own report: its first mark, worst first
            return status
    if ERROR.search(answer) and parsed(answer) is None:
        return "❌ failed"
    if NO.search(answer):
        return "❌ failed"
    if WAITING.search(answer):
        return "⏳ pending"
    return "✅ done"


def cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "/")


def detail(answer: str) -> str:
    if "**Summary:**" in answer:  # a colleague's own report (bare, or wrapped by its framework): its summary
        return cell(answer.rpartition("**Summary:**")[2].strip(" \"'}"))
    data = parsed(answer)
    if isinstance(data, (dict, list)):
        return cell(styled("; ".join(f"{k}: **{v}**" for k, v in list(fields(data, {}).items())[:6])))
    if ERROR.search(answer):  # the kind of error, not its raw text
        kind = re.search(r"\b(\w*(?:Error|Exception))\b", answer)
        return f"the tool broke ({kind.group(1) if kind else 'error'}); nothing was recorded"
    return cell(styled(answer[:200]))


def page(heading: str, rows: list[tuple[str, str, str]], summary: str) -> str:
    table = ["| item | status | detail |", "| --- | --- | --- |"] + [f"| {a} | {b} | {c} |" for a, b, c in rows]
    return f"### {heading}\n\n" + "\n".join(table) + f"\n\n**Summary:** {summary}"


def facts(request) -> list[str]:
    """The references, days, times, amounts and counts the customer gave, in order."""
    text = heard(request)[0] if heard(request) else ""
    found = REF.findall(text)
    found += [f"**{day(m.group(0))} {m.group(1)}**" for m in ISO.finditer(text)]
    found += [m.group(0) for m in WRITTEN_DAY.finditer(text)] + CLOCK.findall(text)
    found += [money(m.group(1) or SYMBOLS[(m.group(4) or 'GBP').upper()], m.group(2) or m.group(3))
              for m in MONEY.finditer(text)]
    found += [m.group(0) for m in re.finditer(r"(?<![\d:.,£€$-])\b\d+(?:\.\d+)?\s?(?:[a-z]+\b|m2|m²|kg)", text)
              if not re.match(r"\d+\s?(?:st|nd|rd|th|am|pm)$", m.group(0))]
    return found


# --- arguments --------------------------------------------------------------------------------


def shaped(example: str) -> re.Pattern:
    pattern = "".join(r"\d" if c.isdigit() else "[A-Z]" if c.isupper() else "[a-z]" if c.islower() else re.escape(c)
                      for c in example)
    return re.compile(r"(?<![\w-])" + re.sub(r"(?:\[a-z\])+", "[a-z]+", pattern) + r"(?![\w-])")


def value_for(name: str, spec: dict, request):
    said = "\n".join(heard(request)).replace("**", "")
    low, kind, doc = name.lower(), spec.get("type"), spec.get("description") or ""
    # allowed values: an enum, or the quoted alternatives a description lists ("a", "b" or "c")
    listed = QUOTE.findall(doc)
    choices = spec.get("enum") or (listed if len(listed) > 1 and re.search(r"\bone of\b|\bor\b", doc) else None)
    if choices:
        # the longest choice the customer names ("wedding dress" before "dress")
        return next((v for v in sorted(choices, key=lambda v: -len(str(v)))
                     if re.search(rf"\b{re.escape(str(v))}\b", said, re.I)), None)
    example = LIKE.search(doc)
    if example and MONEY.fullmatch(example.group(1).strip()):  # an amount, written the persona's way
        found = MONEY.search(said)
        if found:
            symbol = found.group(1) or SYMBOLS[found.group(4).upper()]
            return money(symbol, found.group(2) or found.group(3))
        return None
    if example and ISO.fullmatch(example.group(1)) or re.search(r"date|day", low):
        if found := ISO.search(said):
            return found.group(0)
        if found := WRITTEN_DAY.search(said):
            month = [m.lower() for m in MONTHS].index(found.group(2).lower()) + 1
            return f"{found.group(3)}-{month:02d}-{int(found.group(1)):02d}"
        return None
    if example:
        found = shaped(example.group(1)).search(said)
        return found.group(0) if found else None
    if kind in ("integer", "number"):
        words = [w for w in low.split("_") if len(w) > 2] or [low]
        # a measure is said with its adjective as often as its noun ("4 m wide")
        stem = ADJECTIVE.get(words[0], re.escape(words[0][:4]))
        for pattern in (rf"(?<![\d:.,£-])(\d+(?:\.\d+)?)\s*(?:[\w²-]+\s+){{0,2}}?{stem}", rf"\b{stem}\w*\D{{0,15}}?(\d+(?:\.\d+)?)"):
            if found := re.search(pattern, said, re.I):
                return int(float(found.group(1))) if kind == "integer" else float(found.group(1))
        if kind == "integer" and re.search(r"count|quantity|number|qty|how many", f"{low} {doc}", re.I):
            # a count: the first number the customer puts before a noun ("1 dress")
            if found := re.search(r"(?<![\d:.,£€$-])\b(\d+)\s+[a-z]{3,}", said):
                return int(found.group(1))
        return None
    if re.search(r"time|hour|slot", low):
        found = CLOCK.search(said)
        return found.group(0).replace(".", ":") if found else None
    if re.search(r"ref|code|number|ticket|id$|booking", low):
        found = REF.search(said)
        return found.group(0) if found else None
    if kind == "boolean":
        return False
    return " ".join(said.split())[:600] or None


def arguments(tool, request) -> tuple[dict, list[str]]:
    props = (tool.parameters or {}).get("properties", {})
    required = set((tool.parameters or {}).get("required", list(props)))
    args, missing = {}, []
    for name, spec in props.items():
        value = value_for(name, spec, request)
        if value is None:
            if name in required:
                missing.append(name)
        else:
            args[name] = value
    return args, missing


# --- doing what the instructions say ----------------------------------------------------------


def filled(text: str, request) -> str:
    values: dict = {}
    for m in request.messages:
        if m.role == "assistant":
            for c in m.tool_calls:
                values.update(c.arguments)
    for m in request.messages:
        if m.role == "tool" and m.content:
            fields(parsed(m.content), values)
            if ERROR.search(m.content) and parsed(m.content) is None:
                values.setdefault("error", m.content.strip().splitlines()[-1][:200])
    return styled(re.sub(r"\{(\w+)\}", lambda m: f"**{values[m.group(1)]}**" if m.group(1) in values else "—", text))


def worded(text: str, request, status: str | None = None) -> str:
    """A line the instructions give, written as the persona writes: marked as the answer it
    reports on was (a condition's), else as the line itself reads."""
    tools = [t for t in used(request) if latest(request, t) is not None]
    item = tools[-1] if tools else "request"
    status = status or ("❌ failed" if NO.search(text) or ERROR.search(text) else "✅ done")
    return page(f"{item.replace('_', ' ').capitalize()} — {status.split()[-1]}", [(item, status, cell(text))], text)


def said_before(text: str, request) -> bool:
    return any(text.split("**Summary:**")[-1].strip() in (m.content or "")
               for m in request.messages if m.role == "assistant" and m.content)


def condition_holds(request, tool: str, verb: str, rest: str) -> bool:
    answer = latest(request, tool)
    if answer is None:
        return False
    if re.match(r"fail|raise|error|break", verb, re.I):
        return bool(ERROR.search(answer)) and parsed(answer) is None
    words = re.split(r"\s+or\s+|,\s*", re.split(r"[,;]?\s*(?:say|reply|tell|then)\b", rest.split('"')[0], flags=re.I)[0])
    return any(w.strip(" '`") and w.strip(" '`").lower() in answer.lower() for w in words)


def about(sentence: str, request) -> bool:
    """Whether the request is on the sentence's topic ("anything about A, B or C to NAME"): some
    word of the topic shares its stem with the customer's words; a sentence with no topic fits
    every request."""
    topic = re.search(r"\b(?:about|for|on|with|concerning|regarding)\s+(.+?)\s+to\s+[A-Za-z]\w*", sentence, re.I)
    if not topic:
        return True
    stem = lambda text: {w[:5] for w in re.findall(r"[a-z]{4,}", text.lower())} - {"anyth", "every", "other", "their"}
    return bool(stem(topic.group(1)) & stem((heard(request) or [""])[0]))


def hand_over(name: str, sentence: str, request):
    if asked(request, name):  # an agent run as a tool, already asked (a reflection offers no tools)
        return None
    target = resolve_handoff(name, request.tools)
    if target is not None:
        return None if asked(request, target.name) else handoff(name)
    tools = workers(request)
    if name in tools:  # an agent offered as a tool: the request, as the customer wrote it
        if asked(request, name):
            return None
        args, _ = arguments(tools[name], request)
        return call(name, **args)
    if not re.search(r"[_\d]", name):  # a plain word ("to the customer"), not an agent's name
        return None
    opener = f"### Hand-over to {name}"
    if any((m.content or "").startswith(opener) for m in request.messages if m.role == "assistant"):
        return None
    bullets = "\n".join(f"- {f}" for f in facts(request)) or "- see the customer's message"
    wants = cell((heard(request) or [""])[0])[:240]
    return say(f"{opener}\n\n| item | status | detail |\n| --- | --- | --- |\n| request | ⏳ pending | {wants} |\n\n"
               f"**Facts for {name}:**\n{bullets}\n\n**Summary:** passed to **{name}**.")


def act(request):
    tools = workers(request)
    for sentence in sentences(request):
        head = sentence.split('"')[0].split("“")[0]
        if when := WHEN.match(sentence):
            tool, verb, rest = when.groups()
            if tool in tools and condition_holds(request, tool, verb, rest):
                quoted = QUOTE.search(rest)
                if quoted:
                    reply = worded(filled(quoted.group(1), request), request, mark(latest(request, tool)))
                else:
                    reply = page(f"{tool.replace('_', ' ').capitalize()}", [(tool, mark(latest(request, tool)),
                                                                            detail(latest(request, tool)))],
                                 "see the table above.")
                return say(reply)
            continue
        if (moved := PASS_ON.search(head)) and not [t for t in tools if t != moved.group(1) and t in head]:
            step = hand_over(moved.group(1), sentence, request) if about(head, request) else None
            if step is not None:
                return step
            continue  # another topic's line, or passed on already
        named = [t for t in tools if re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", head)]
        if named:
            tool = tools[named[0]]
            until = UNTIL.search(head)
            answer = latest(request, tool.name)
            if asked(request, tool.name) and (not until or answer is None or until.group(1).lower() in answer.lower()):
                continue
            args, missing = arguments(tool, request)
            if missing:
                rows = [(m.replace("_", " "), "⚠️ needs attention", "not given yet") for m in missing]
                return say(page("Details needed", rows, "please send the **" + "**, **".join(
                    m.replace("_", " ") for m in missing) + "** so this can go ahead."))
            return call(tool.name, **args)
        if SPEAK.match(sentence) and (quoted := QUOTE.search(sentence)):
            reply = worded(filled(quoted.group(1), request), request)
            if not said_before(reply, request):
                return say(reply)
    rows = [(t, mark(latest(request, t)), detail(latest(request, t))) for t in used(request) if latest(request, t) is not None]
    if rows:
        done = all(r[1].startswith("✅") for r in rows)
        return say(page("Results", rows, "all steps **done**." if done else "not every step went through — see the table."))
    return say(page("Request received", [("request", "⏳ pending", cell((heard(request) or [""])[0])[:240])],
                    "noted; nothing further to do here."))


# --- structured replies and selection ---------------------------------------------------------


def structured(schema: dict, text: str, request) -> dict:
    known: dict = {}
    for m in request.messages:
        if m.role == "tool" and m.content:
            fields(parsed(m.content), known)
    ok = "❌" not in text and "⚠️" not in text
    out = {}
    for name, spec in (schema.get("properties") or {}).items():
        kind = spec.get("type")
        if name in known and kind in ("string", "integer", "number", None):
            out[name] = known[name] if kind != "string" else str(known[name])
        elif kind == "boolean":
            out[name] = ok
        elif kind in ("integer", "number"):
            out[name] = value_for(name, spec, request) or 0
        elif spec.get("enum"):
            out[name] = spec["enum"][0] if ok else spec["enum"][-1]
        else:  # a text field carries the reply, Markdown and all
            out[name] = text
    return out


def branch(schema: dict, text: str) -> dict:
    options = schema.get("anyOf") or schema.get("oneOf")
    if not options:
        return schema
    defs = schema.get("$defs") or {}
    options = [defs.get(o["$ref"].rsplit("/", 1)[-1], o) if "$ref" in o else o for o in options]
    refusal = "❌" in text
    return next((o for o in options if bool(NO.search(f"{o.get('title', '')} {o.get('description', '')}")) == refusal),
                options[0])


def select(request):
    text = "\n".join(m.content or "" for m in request.messages)
    roles, _, history = text.partition("onversation")
    members = re.findall(r"^\s*([A-Za-z]\w*)\s*:", roles, re.M)
    spoken = set(re.findall(r"^\s*([A-Za-z]\w*)\s*:", history, re.M))
    return say(next((m for m in members if m not in spoken), members[-1] if members else ""))


def policy(request):
    if request.agent == "selector":
        return select(request)
    step = act(request)
    text = getattr(step, "text", None)
    if text is None or getattr(step, "tool_calls", ()):
        return step
    outputs = [t for t in request.tools if t.name.startswith("final_result")]
    forced = [t for t in request.tools if t.name == request.tool_choice] if request.tool_choice not in (
        None, "auto", "none") else []
    if outputs or forced:
        refusal = "❌" in text
        tool = next((t for t in outputs if bool(NO.search(f"{t.name} {t.description}")) == refusal),
                    (outputs or forced)[0])
        return call(tool.name, **structured(branch(tool.parameters or {}, text), text, request))
    if request.response_schema:
        return say(json.dumps(structured(branch(request.response_schema, text), text, request)))
    return step
