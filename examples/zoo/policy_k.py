"""A scripted model for the zoo, written apart from the others: a structured, tool-heavy assistant.

Use it as `--sut-model scripted/examples/zoo/policy_k.py:policy`. Like the other policies it
knows no system of the zoo: a seeded twin and its fixed twin differ only through what their
instructions, tools and wiring give it. Its character:

- tool-heavy: every tool line of its instructions that is due is called in the same turn
  (parallel calls), its arguments found in the conversation by the shape of the example each
  parameter's description gives (`e.g. "AB-1192"`, `like "Sat 14 Jun 2026"`), an enum by the
  words used, a count by the number before a word of the parameter's description;
- little prose: it reports as a short lead line plus a markdown table (`| Item | Result |`), one
  row per call it made, the status word of each tool's answer copied into the cell in its own
  capitalisation (`SOLD_OUT` -> `Sold out`), then `Reference — X` when an answer holds one;
- it asks for what it cannot find in one line, `Missing: date, party size`;
- it hands over with the transfer tool and no words;
- literal: it reads its instructions one line at a time and the first line that applies answers,
  a wrong line included. A line may be:
  - a transfer naming a colleague it can hand over to (`Transfer to NAME for A, B or C`): applies
    when the customer's words touch a topic (or at once when the line names none);
  - a tool line naming a tool it is offered: applies while the tool has not answered (a line
    with `only when asked about A, B` only when those words were used);
  - an outcome line, `If TOOL returns/says/answers W1 or W2, report "TEXT" ...`: the row of
    TOOL reads TEXT (with the answer's note) when the newest answer holds one of the words;
  - a report line naming a tool and a quoted word (`Report TOOL as "TEXT"`): the row reads TEXT;
  - `Say "TEXT"`: TEXT is its lead line.
- a tool that broke (the framework's error text) gets the row `Error` and no error text.
"""

from __future__ import annotations

import ast
import json
import re

from masfuzz.llm.scripted import handoff, say, tool_results
from masfuzz.llm.types import ToolCallRequest

NUMBERS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
STATUS_KEYS = ("status", "state", "result", "outcome", "esito", "ok", "accepted", "booked", "code", "http")
NOTE_KEYS = ("note", "reason", "detail", "message", "error", "grund", "raison", "text")
REF_KEYS = ("ref", "reference", "booking", "confirmation", "consignment", "invoice", "order", "id")
BROKEN = re.compile(r"\b(error|exception|traceback)\b", re.I)
FREE_TEXT = {"question", "request", "query", "message", "task", "details", "enquiry"}
TABLE_ROW = re.compile(r"^\|\s*(?!Item\b)[^|\s-][^|]*\|\s*([^|]+?)\s*\|", re.M)
QUOTED = re.compile(r'"([^"]+)"')
STOP = {"a", "s", "in", "of", "to", "on", "at", "by", "is", "it", "the", "and", "for", "with", "about", "any", "anything", "asked", "only", "when", "customer", "their"}


# --- reading the request ---------------------------------------------------------------------


def instructions(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "system")


def lines(request) -> list[str]:
    out = []
    for raw in instructions(request).splitlines():
        line = re.sub(r"^\s*(?:[-*]|\d+[.)])\s*", "", raw).strip()
        if line:
            out.append(line)
    return out


def customer(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "user")


def last_customer(request) -> str:
    return next((m.content for m in reversed(request.messages) if m.role == "user" and m.content), "")


def stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]{3,}", text.lower())}


def handoffs(request) -> dict[str, str]:
    """Colleague name -> the tool that transfers to it."""
    found = {}
    for t in request.tools:
        target = t.handoff_to or (t.name.removeprefix("transfer_to_") if t.name.startswith("transfer_to_") else None)
        if target:
            found[target] = t.name
    return found


def own_tools(request) -> dict:
    transfers = set(handoffs(request).values())
    return {t.name: t for t in request.tools if t.name not in transfers}


def named(line: str, name: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", line, re.I) is not None


def data(answer: str):
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(answer)
        except (ValueError, SyntaxError, TypeError):
            pass
    pairs = re.findall(r"(\w+)=(?:'([^']*)'|\"([^\"]*)\"|([\w.-]+))", answer)  # a dataclass's repr
    fields = {k: a or b or c for k, a, b, c in pairs}
    return fields or answer


def leaves(value, key: str = "") -> list[tuple[str, str]]:
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in leaves(v, str(k))]
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in leaves(v, key)]
    return [(key.lower(), str(value))]


def capitalised(word: str) -> str:
    word = word.replace("_", " ").strip()
    return word[:1].upper() + word[1:].lower() if word else word


def status_of(answer: str) -> str:
    if BROKEN.search(answer) and not answer.lstrip().startswith(("{", "(", "[")):
        return "Error"
    parsed = data(answer)
    if isinstance(parsed, str):
        row = TABLE_ROW.search(parsed)  # a colleague's own table: its first row's result
        return row.group(1) if row else capitalised(parsed.split(":")[0].split(".")[0][:40])
    found = leaves(parsed)
    if any(k == "error" for k, _ in found) and not any(k in STATUS_KEYS for k, _ in found):
        return "Failed"  # an error envelope: the tool refused the call
    textual = [v for k, v in found if k in STATUS_KEYS and not v.isdigit()]
    coded = [v for k, v in found if k in STATUS_KEYS]
    if isinstance(parsed, (list, tuple)) and found and not textual:
        coded = coded or [found[0][1]]
    return capitalised((textual or coded or ["Done"])[0])


def note_of(answer: str) -> str | None:
    parsed = data(answer)
    if isinstance(parsed, str):
        return None
    notes = [v for k, v in leaves(parsed) if k in NOTE_KEYS and not v.isdigit()]
    if isinstance(parsed, (list, tuple)) and not notes:
        notes = [v for k, v in leaves(parsed) if len(v.split()) > 2]
    return notes[0] if notes else None


def reference_of(answer: str) -> str | None:
    parsed = data(answer)
    if isinstance(parsed, str):
        return None
    for k, v in leaves(parsed):
        if k in REF_KEYS and re.fullmatch(r"[A-Za-z]{1,4}-?[A-Za-z0-9]*\d{2,}", v):
            return v
    return None


# --- arguments -------------------------------------------------------------------------------


def example_of(description: str) -> str | None:
    m = re.search(r"""(?:e\.g\.|like|for example|such as)[,:]?\s*["']([^"']+)["']""", description or "")
    return m.group(1) if m else None


def shape(example: str) -> re.Pattern:
    parts = []
    for ch in example:
        parts.append(r"\d" if ch.isdigit() else "[A-Za-z]" if ch.isalpha() else re.escape(ch))
    return re.compile(r"(?<![\w])" + "".join(parts) + r"(?![\w])")


def count_for(text: str, name: str, description: str) -> int | None:
    given = re.search(rf"\b{re.escape(name.replace('_', ' '))}\s*[:=]\s*(\d+)\b", text.replace("_", " "), re.I)
    if given:  # "length cm: 2", a form filled in
        return int(given.group(1))
    words = {w for w in re.findall(r"[a-z]+", f"{name} {description}".lower().replace("_", " ")) if w not in STOP}
    for m in re.finditer(r"\b(\d+|" + "|".join(NUMBERS) + r")\s+([a-z]+)", text.lower()):
        noun = m.group(2)
        if any(noun[:4] == w[:4] for w in words):
            return int(m.group(1)) if m.group(1).isdigit() else NUMBERS[m.group(1)]
    return None


def arguments(request, tool) -> tuple[dict, list[str]]:
    sources = [customer(request)] + [m.content or "" for m in request.messages if m.role in ("assistant", "tool")]
    text = "\n".join(sources)
    props = (tool.parameters or {}).get("properties", {})
    required = set((tool.parameters or {}).get("required", props))
    args, missing, used = {}, [], set()
    for name, spec in props.items():
        description = spec.get("description", "") or spec.get("title", "")
        kind = spec.get("type")
        enum = spec.get("enum") or next((a.get("enum") for a in spec.get("anyOf", []) if a.get("enum")), None)
        value = None
        if enum:
            value = next((e for e in enum if re.search(rf"\b{re.escape(str(e))}\b", text, re.I)), None)
        elif kind == "integer":
            value = count_for(text, name, description)
        elif kind == "boolean":
            value = True
        elif kind == "string" and not example_of(description) and FREE_TEXT & set(re.findall(r"[a-z]+", f"{name} {description}".lower())):
            value = last_customer(request)  # a colleague or a search is given the customer's own words
        elif example_of(description):
            example = example_of(description)  # the documentation's own example is nobody's value
            hits = [h for source in sources for h in shape(example).findall(source) if h not in used]
            hits = [h for h in hits if h != example] or hits  # the example only when it is all there is
            value = hits[0] if hits else None
            if value:
                used.add(value)
        if value is None:
            if name in required:
                missing.append(name.replace("_", " "))
            continue
        args[name] = value
    return args, missing


# --- acting ----------------------------------------------------------------------------------


def answered(request, tool: str) -> list[str]:
    return [r.content for r in tool_results(request, tool)]


def called_here(request) -> list[str]:
    """The tools this agent's model asked for in this conversation, in order."""
    names = []
    offered = own_tools(request)  # none on a reflection call: then every call but a transfer counts
    for m in request.messages:
        if m.role == "assistant":
            for c in m.tool_calls:
                mine = c.name in offered if request.tools else not c.name.startswith("transfer_to_")
                if mine and c.name not in names and answered(request, c.name):
                    names.append(c.name)
    return names


def gated(line: str, request) -> bool:
    """False for a line kept for topics the customer did not touch."""
    m = re.search(r"\bonly (?:when|if|for)(?: asked)?(?: about)?\s+(.*)$", line, re.I)
    if not m:
        return True
    topics = {w for w in re.findall(r"[a-z]{3,}", m.group(1).lower()) if w not in STOP | {"or"}}
    return bool({t[:5] for t in topics} & stems(customer(request)))


def transfer_target(line: str, request) -> str | None:
    if not re.search(r"\b(transfer|hand (?:over|off)|route|pass|send)\b", line, re.I):
        return None
    for name in handoffs(request):
        if named(line, name):
            m = re.search(rf"{re.escape(name)}\W+(?:for|about|when (?:asked|it is) about)\s+(.*)$", line, re.I)
            if not m:
                return name
            topics = {w for w in re.findall(r"[a-z]{3,}", m.group(1).lower()) if w not in STOP | {"or"}}
            return name if {t[:5] for t in topics} & stems(customer(request)) else None
    return None


def outcome(line: str, request, tool: str) -> str | None:
    m = re.match(rf"if {re.escape(tool)} (?:returns|says|answers|gives|comes back with)\s+(.*?),\s*(.*)$", line, re.I)
    if not m or not answered(request, tool):
        return None
    words = [w.strip(" \"'") for w in re.split(r"\s+or\s+|,", m.group(1)) if w.strip(" \"'")]
    last = answered(request, tool)[-1]
    if not any(w.lower() in last.lower() for w in words):
        return None
    quoted = QUOTED.search(m.group(2))
    return quoted.group(1) if quoted else capitalised(words[0])


def report(request, tools: list[str]) -> str:
    rows, refs, cells = [], [], {}
    for line in lines(request):
        for tool in tools:
            if tool in cells or not named(line, tool):
                continue
            if line.lower().startswith("if "):
                text = outcome(line, request, tool)
                if text:
                    cells[tool] = (text, True)
            elif re.match(r"(report|mark|show|list)\b", line, re.I) and QUOTED.search(line):
                cells[tool] = (QUOTED.search(line).group(1), False)
    for tool in tools:
        last = answered(request, tool)[-1]
        text, with_note = cells.get(tool, (status_of(last), True))
        if status_of(last) == "Error":
            text, with_note = "Error", False
        note = note_of(last) if with_note else None
        item = capitalised(tool)
        rows.append(f"| {item} | {text} |" + (f" {note} |" if note else " |"))
        ref = reference_of(last)
        if ref and ref not in refs and text not in ("Error",):
            refs.append(ref)
    lead = next((QUOTED.search(l).group(1) for l in lines(request)
                 if re.match(r"say\b", l, re.I) and QUOTED.search(l)), "Summary:")
    table = "\n".join(["| Item | Result | Note |", "| --- | --- | --- |", *rows])
    tail = "".join(f"\nReference — {r}" for r in refs)
    return f"{lead}\n\n{table}{tail}"


def act(request):
    offered = own_tools(request)
    ls = lines(request)
    for i, line in enumerate(ls):
        target = transfer_target(line, request)
        if target:
            if any(c.name == handoffs(request)[target] for m in request.messages if m.role == "assistant"
                   for c in m.tool_calls):
                break  # the first routing line that applies decided; the request was routed once
            return handoff(target)
        if line.lower().startswith(("if ", "report", "mark", "say", "show", "list")):
            continue
        due = [t for t in offered if named(line, t) and not answered(request, t)]
        if not due or not gated(line, request):
            continue
        # every tool line due from here on goes out in the same turn
        for later in ls[i + 1:]:
            if later.lower().startswith(("if ", "report", "mark", "say", "show", "list")) or transfer_target(later, request):
                continue
            if gated(later, request):
                due += [t for t in offered if named(later, t) and not answered(request, t) and t not in due]
        calls, missing = [], []
        for name in due:
            args, lacking = arguments(request, offered[name])
            if lacking:
                missing += [m for m in lacking if m not in missing]
            else:
                calls.append(ToolCallRequest(name=name, arguments=args))
        if missing and not calls:
            return say("Missing: " + ", ".join(missing))
        return calls
    done = called_here(request)
    if done:
        return say(report(request, done))
    lead = next((QUOTED.search(l).group(1) for l in ls if re.match(r"say\b", l, re.I) and QUOTED.search(l)), None)
    return say(lead or "Noted — nothing to action.")


def policy(request):
    return act(request)
