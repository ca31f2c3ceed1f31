"""A scripted model for the zoo's twenty-seventh set: a planner that narrates.

Use it as `--sut-model scripted/examples/zoo/policy_p.py:policy`. It knows no system of the zoo;
it reads the agent's instructions (the system messages), the tools it is offered with their
schemas, the tool results and the conversation, and nothing else, so a seeded twin and its fixed
twin differ only through what their instructions, tools and wiring give it.

Its character:

- on a new request it writes a short numbered plan of the steps its instructions name ("Plan:
  1) check slot 2) hold marquee 3) confirm"), then works step by step, each call with a progress
  line ("Step 2/3 - hold marquee..."), and ends with a summary whose lines carry a mark per step
  (✅ went through, ❌ did not, ⚠️ the tool broke, → what it came to, • a note);
- it follows each instruction line literally, a wrong one included: `mark every step ✅` marks
  every step done whatever came back; `mark a step ✅ only ...` marks by the result;
- a line naming an offered tool is a step: the tool is called once, its arguments taken from
  the conversation in the shape the parameter's description shows (`e.g. "MH-1234"`, `like
  "14.08.2026"`; dates are re-written in the documented shape), an enum from the words used;
  `... until it says WORD` calls it again while the newest answer lacks WORD; `When TOOL says
  WORD, call OTHER` calls OTHER then (an `exit_loop`, say);
- a tool that takes a whole task (an agent run as a tool: a lone `input`, `task`, `brief` or
  `request` parameter) gets a rewritten task description, normalised: dates in ISO form, amounts
  without currency signs, people by first name; a line saying what the brief or hand-over note
  gives (`... giving the date and the headcount`) limits the facts to those kinds;
- a line saying what to write when handing on (`Write the hand-over note ...`) is answered with
  such a rewritten description as its whole reply;
- a detail it cannot find it asks for, as a numbered list of questions;
- `If TOOL fails / answers WORD / raises an error, say "TEXT"` says TEXT in that case;
  `finish with "TEXT"` / `sign off with "TEXT"` puts TEXT at the end of its summary.
"""

from __future__ import annotations

import ast
import json
import re
from datetime import datetime

from masfuzz.llm.scripted import resolve_handoff
from masfuzz.llm.types import ChatReply, ToolCallRequest

WHOLE_TASK = {"input", "task", "brief", "instructions"}  # an agent run as a tool takes a brief
MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                      "nov", "dec"), 1)}
DATE_ISO = re.compile(r"\b(20\d\d)-(\d\d)-(\d\d)\b")
DATE_DMY = re.compile(r"\b(\d{1,2})[./](\d{1,2})[./](20\d\d)\b")
DATE_WORDS = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([A-Za-z]{3})[a-z]*\.?,?\s+(20\d\d)\b")
REF = re.compile(r"\b[A-Z]{1,4}-?\d{3,6}(?:-\d+)?\b")
TIME = re.compile(r"\b([01]?\d|2[0-3])[:.]([0-5]\d)\b")
MONEY = re.compile(r"[£€$]\s?(\d[\d,]*(?:\.\d\d)?)|(\d[\d,]*(?:\.\d\d)?)\s?(?:EUR|GBP|pounds|euros)\b")
COUNT = re.compile(r"\b(\d{1,4})\s+(?:copies of the \w+ \w+|)(people|guests|adults|children|kids|climbers|players|copies|parts|singers"
                   r"|riders|pupils|of us|persons|seats|covers|places|learners|tickets|nights)\b", re.I)
FAIL_WORDS = re.compile(r"\b(?:unavailable|not available|declin|refus|reject|denied|fail|could not|cannot|can't"
                        r"|unable|invalid|no such|not found|full|conflict|nicht|abgelehnt|besetzt|complet)", re.I)
BROKE = ("traceback", "error:", "exception", "raised", "timed out")
KINDS = {"date": "date", "day": "date", "time": "time", "hour": "time", "amount": "amount", "price": "amount",
         "fee": "amount", "deposit": "amount", "sum": "amount", "budget": "amount", "reference": "ref",
         "number": "ref", "card": "ref", "booking": "ref", "account": "ref", "membership": "ref", "ref": "ref",
         "headcount": "count", "party": "count", "guests": "count", "copies": "count", "people": "count",
         "count": "count", "size": "count"}


# --- reading the request ---------------------------------------------------------------------------


def instructions(request) -> list[str]:
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    return [re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", ln).strip() for ln in text.splitlines() if ln.strip()]


def talk(request) -> list:
    return [m for m in request.messages if m.role != "system"]


def words_of(request) -> str:
    """Everything said to this agent: user messages and what colleagues wrote."""
    return "\n".join(m.content or "" for m in talk(request) if m.role in ("user", "assistant") and m.content)


def own_calls(request) -> list[ToolCallRequest]:
    return [c for m in request.messages if m.role == "assistant" for c in m.tool_calls]


def answers(request, tool: str) -> list[str]:
    ids = {c.id for c in own_calls(request) if c.name == tool}
    return [m.content or "" for m in request.messages
            if m.role == "tool" and (m.tool_call_id in ids or m.name == tool)]


def tool_map(request) -> dict:
    return {t.name: t for t in request.tools}


def named(line: str, names) -> list[str]:
    found = [(line.find(n), n) for n in names if re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", line)]
    return [n for _, n in sorted(found)]


def quoted(line: str) -> str | None:
    m = re.search(r"[\"“]([^\"”]+)[\"”]", line)
    return m.group(1) if m else None


def broke(answer: str) -> bool:
    low = answer.strip().lower()
    return not low or low in ("none", "null") or any(w in low for w in BROKE)


def as_data(answer: str):
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(answer)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return None


def went_wrong(answer: str) -> bool:
    """Did nothing happen? A false flag, a 4xx/5xx code, a refusal word."""
    low = answer.lower()
    if "❌" in answer or "not done" in low:  # a colleague's own report of a failed step
        return True
    if re.search(r"[\"']?\b(?:ok|success|held|booked|reserved|saved|accepted|confirmed|done)[\"']?\s*[:=]\s*(?:false|0|none)\b", low):
        return True
    if re.search(r"\b(?:status|code|http|status_code)[\"']?\s*[:=]\s*[45]\d\d\b", low) or re.match(r"\s*\(?\s*[45]\d\d\b", low):
        return True
    return bool(FAIL_WORDS.search(low))


def why(answer: str) -> str:
    data = as_data(answer)
    bits: list[str] = []

    def walk(x, key=""):
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, str(k))
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v, key)
        elif isinstance(x, str) and (not key or re.search(r"reason|detail|message|note|state|status|error|why|grund|fout|erreur|fehler|motivo", key, re.I)):
            bits.append(x)
        elif isinstance(x, int) and re.search(r"code|status|http", key, re.I):
            bits.append(str(x))
    walk(data)
    return " / ".join(bits) if data is not None and bits else answer.strip()[:220]


# --- facts and their normal forms ---------------------------------------------------------------------


def iso_dates(text: str) -> list[str]:
    found = [m.group(0) for m in DATE_ISO.finditer(text)]
    found += [f"{int(y):04d}-{int(mo):02d}-{int(d):02d}" for d, mo, y in DATE_DMY.findall(text)]
    found += [f"{int(y):04d}-{MONTHS[mo.lower()]:02d}-{int(d):02d}" for d, mo, y in DATE_WORDS.findall(text)
              if mo.lower() in MONTHS]
    return list(dict.fromkeys(found))


def facts(text: str) -> dict[str, list[str]]:
    """The facts a brief carries, each kind in its normal form."""
    return {
        "ref": list(dict.fromkeys(m for m in REF.findall(text) if not DATE_ISO.search(m))),
        "date": iso_dates(text),
        "time": list(dict.fromkeys(f"{int(h):02d}:{mi}" for h, mi in TIME.findall(text))),
        "amount": list(dict.fromkeys((a or b).replace(",", "") for a, b in MONEY.findall(text))),
        "count": list(dict.fromkeys(f"{n} {w.lower()}" for n, w in COUNT.findall(text))),
    }


def gist(text: str) -> str:
    """The ask itself, in a few words: the customer's sentence that asks for something."""
    sentences = re.split(r"(?<=[.!?])\s+", text.strip())
    ask = next((s for s in sentences if re.search(r"\b(?:like|want|need|could|can|please|book|hire|reserve|borrow"
                                                  r"|looking for|hoping)\b", s, re.I)), sentences[0] if sentences else "")
    ask = re.sub(r"^(?:hi|hello|hey|good \w+)(?: there)?\s*[-,.!:]+\s*", "", ask, flags=re.I)
    ask = MONEY.sub(lambda m: m.group(1) or m.group(2), ask)
    ask = DATE_WORDS.sub(lambda m: iso_dates(m.group(0))[0] if iso_dates(m.group(0)) else m.group(0), ask)
    ask = DATE_DMY.sub(lambda m: iso_dates(m.group(0))[0], ask)
    return ask.strip().rstrip(".!?")[:240]


def brief(request, kinds: set[str] | None) -> str:
    """A rewritten task description: the ask, then the facts of the kinds wanted, normalised."""
    source = customer(request)
    got = facts(source)
    lines = [f"Task: {gist(source)}"]
    for kind, values in got.items():
        if values and (kinds is None or kind in kinds):
            lines.append(f"• {kind}: {', '.join(values)}")
    return "\n".join(lines)


def customer(request) -> str:
    users = [m.content or "" for m in talk(request) if m.role == "user" and m.content]
    return users[0] if users else words_of(request)


def kinds_in(line: str) -> set[str] | None:
    """The fact kinds a line says a brief or note gives (`giving the date and the headcount`)."""
    m = re.search(r"\b(?:giving|with|stating|naming|carrying|listing)\b(.*)", line, re.I)
    if not m:
        return None
    found = {KINDS[w] for w in re.findall(r"[a-z]+", m.group(1).lower()) if w in KINDS}
    if re.search(r"\bhow many\b", m.group(1), re.I):
        found.add("count")
    return found or None


# --- tool arguments ---------------------------------------------------------------------------------


def example(description: str) -> str | None:
    m = re.search(r"(?:e\.g\.|like|such as|for example|as in)\s*[\"“'`]([^\"”'`]+)[\"”'`]", description, re.I)
    return m.group(1) if m else None


def date_in_shape(iso: str, ex: str) -> str:
    d = datetime.strptime(iso, "%Y-%m-%d")
    if DATE_ISO.fullmatch(ex.strip()):
        return iso
    if m := re.fullmatch(r"(\d{1,2})([./])(\d{1,2})\2(\d{4})", ex.strip()):
        return d.strftime(f"%d{m.group(2)}%m{m.group(2)}%Y")
    if re.fullmatch(r"\d{1,2} [A-Z][a-z]{2} \d{4}", ex.strip()):
        return d.strftime("%d %b %Y")
    return iso


def shape_of(ex: str) -> re.Pattern:
    parts = []
    toks = re.findall(r"\d+|[A-Za-z]+|\s+|.", ex)
    for i, tok in enumerate(toks):
        if tok.isdigit():
            parts.append(r"\d+")
        elif tok.isalpha() and tok.isupper() and len(tok) <= 4:
            # a prefix before a dash names the kind of number ("SM-" cards); other capitals are any
            parts.append(re.escape(tok) if toks[i + 1:i + 2] == ["-"] else rf"[A-Z]{{{len(tok)}}}")
        elif tok.isalpha() and tok[0].isupper():
            parts.append(r"(?!Task\b)[A-Z][a-z']+")
        elif tok.isalpha():
            parts.append(r"[a-z]+")
        elif tok.isspace():
            parts.append(r"\s?")
        else:
            parts.append(re.escape(tok))
    return re.compile(r"(?<![\w-])" + "".join(parts) + r"(?![\w-])")


def value_for(request, name: str, spec: dict):
    # the conversation first, then what tools answered (a number a look-up found)
    text = words_of(request) + "\n" + "\n".join(m.content or "" for m in talk(request) if m.role == "tool")
    description = f"{spec.get('title', '')} {spec.get('description', '')}"
    kind = spec.get("type")
    if "enum" in spec:
        return next((v for v in spec["enum"] if str(v).lower() in text.lower()), None)
    ex = example(description)
    if ex and (DATE_ISO.fullmatch(ex.strip()) or DATE_DMY.fullmatch(ex.strip())
               or re.fullmatch(r"\d{1,2} [A-Z][a-z]{2} \d{4}", ex.strip())):
        dates = iso_dates(text)
        return date_in_shape(dates[0], ex) if dates else None
    if ex and re.fullmatch(r"[a-z]+", ex):
        return ex if re.search(rf"\b{ex}\b", text, re.I) else None  # a word of the trade, as written
    if ex:
        m = shape_of(ex).search(text)
        return m.group(0) if m else None
    if kind in ("integer", "number"):
        # a number beside a word of the parameter's own name or description ("85 guests", "8 years")
        hint = {h.rstrip("s") for h in re.findall(r"[a-z]{3,}", (name + " " + description).lower())} - {"how", "many", "the"}
        # a figure a colleague reported under a field that shares a word with the parameter ("total_m2: 24.6")
        for key, n in re.findall(r"\b([a-z][a-z0-9_]*)\W{1,3}\s*(\d+(?:\.\d+)?)\b", text.lower()):
            if set(key.split("_")) & (set(name.lower().split("_")) - {"the"}) and key != name.lower():
                return int(float(n)) if kind == "integer" else float(n)
        for n, first, second in re.findall(r"\b(\d{1,4})\s+([a-z]+)(?:\s+([a-z]+))?", text.lower()):
            if first.rstrip("s") in hint or second.rstrip("s") in hint:
                return int(n) if kind == "integer" else float(n)
        for n, noun in COUNT.findall(text):
            if {"how", "many"} <= set(description.lower().split()):
                return int(n) if kind == "integer" else float(n)
        return None
    if re.search(r"message|request|question|details|notes?|words", name + description, re.I):
        return customer(request).strip()
    return None


def arguments(request, tool) -> tuple[dict, list[str]]:
    props = tool.parameters.get("properties", {})
    required = tool.parameters.get("required", list(props))
    args, missing = {}, []
    for name, spec in props.items():
        value = value_for(request, name, spec)
        if value is None:
            if name in required:
                missing.append((spec.get("description") or name.replace("_", " ")).split(",")[0].split(" e.g.")[0])
            continue
        args[name] = value
    return args, missing


def whole_task(tool) -> str | None:
    props = list(tool.parameters.get("properties", {}))
    return props[0] if len(props) == 1 and props[0] in WHOLE_TASK else None


# --- narration -------------------------------------------------------------------------------------


def step_name(tool: str) -> str:
    return tool.replace("_", " ").removeprefix("ask ").strip()


def plan_of(steps: list[str]) -> str:
    items = [step_name(s) for s in steps] + ["confirm"]
    return "Plan: " + " ".join(f"{i}) {s}" for i, s in enumerate(items, 1))


def questions(missing: list[str]) -> str:
    def as_question(m: str) -> str:
        m = m.strip().rstrip(".")
        if re.match(r"(?:how|when|what|which|who|where)\b", m, re.I):
            return m[0].upper() + m[1:] + "?"
        return f"What is {m[0].lower() + m[1:]}?"
    asks = "\n".join(f"{i}. {as_question(m)}" for i, m in enumerate(missing, 1))
    return f"Before I can go on I need a few details:\n{asks}"


def reply(text: str | None, *calls: ToolCallRequest) -> ChatReply:
    return ChatReply(text=text, tool_calls=tuple(calls), finish_reason="tool_calls" if calls else "stop")


def summary(request, steps: list[str], every_ok: bool, closing: str | None) -> str:
    lines = ["Summary:"]
    for i, tool in enumerate(steps, 1):
        got = answers(request, tool)
        if not got:
            continue
        last = got[-1]
        done = [c for c in own_calls(request) if c.name == tool][-1]
        detail = ", ".join(str(v) for v in done.arguments.values() if len(str(v)) < 40)
        if last.strip().endswith("?"):
            lines.append(f"• {i}. {step_name(tool)} → asks: {last.strip().splitlines()[-1]}")
        elif every_ok:
            lines.append(f"✅ {i}. {step_name(tool)} → done" + (f" ({detail})" if detail else ""))
        elif broke(last):
            lines.append(f"⚠️ {i}. {step_name(tool)} → the system did not answer; nothing changed")
        elif went_wrong(last):
            lines.append(f"❌ {i}. {step_name(tool)} → not done: {why(last)}")
        else:
            lines.append(f"✅ {i}. {step_name(tool)} → {why(last) if whole_task_answer(request, tool) else 'done'}"
                         + (f" ({detail})" if detail and not whole_task_answer(request, tool) else ""))
            if figures := key_figures(last):
                lines.append(f"   • {figures}")
    if len(lines) == 1:
        lines.append("• nothing needed doing on my side")
    if closing:
        lines.append(closing)
    return "\n".join(lines)


def key_figures(answer: str) -> str:
    """A result's top-level figures and words, as `field: value` pairs, for the summary."""
    data = as_data(answer)
    if not isinstance(data, dict):
        return ""
    return ", ".join(f"{k}: {v}" for k, v in data.items() if isinstance(v, (int, float, str)) and len(str(v)) < 40)


def whole_task_answer(request, tool: str) -> bool:
    t = tool_map(request).get(tool)
    return t is not None and whole_task(t) is not None


# --- acting ----------------------------------------------------------------------------------------


def outcome_hit(line: str, tool: str, last: str) -> bool:
    low = line.lower()
    if re.search(r"raises|errors? out|breaks|is down", low):
        return broke(last)
    if m := re.search(r"\b(?:says|answers|returns|shows|reports|comes back with)\s+[\"'`]?([\w-]+)", line, re.I):
        if m.group(1).lower() not in ("an", "a", "the"):
            return m.group(1).lower() in last.lower()
    if re.search(r"\b(?:fails|does not go through|is refused|did not work)\b", low):
        return not broke(last) and went_wrong(last)
    return False


def act(request):
    lines = instructions(request)
    tools = tool_map(request)
    # hand-over tools by the colleague they lead to (AG2 numbers its `transfer_to_x_1`)
    handoffs = {t.handoff_to or re.sub(r"_\d+$", "", t.name.removeprefix("transfer_to_")): t for t in request.tools
                if t.handoff_to or t.name.startswith("transfer_to_")}
    plain = [n for n in tools if n not in {t.name for t in handoffs.values()}]
    called = {c.name for c in own_calls(request)}
    fresh = not own_calls(request)
    steps = [n for ln in lines if not re.match(r"\s*(?:if|when|should)\b", ln, re.I)
             for n in named(ln, plain) if n != "exit_loop"]
    steps = list(dict.fromkeys(steps))  # the steps its own instructions name, in their order
    every_ok = any(re.search(r"\bmark (?:every|each|all)\b.*✅", ln) and not re.search(r"\bonly\b", ln)
                   for ln in lines)
    closing = None
    for ln in lines:
        low = ln.lower()
        names = named(ln, plain)
        targets = named(ln, list(handoffs))
        # an outcome line: applies to a tool's newest answer
        if re.match(r"\s*(?:if|when|should)\b", ln, re.I) and names:
            tool = names[0]
            got = answers(request, tool)
            if got and outcome_hit(ln, tool, got[-1]):
                then = [n for n in names[1:] if n in tools and n not in called]
                if then:
                    args, _ = arguments(request, tools[then[0]])
                    return reply(f"→ {step_name(tool)} is through; closing this round.",
                                 ToolCallRequest(name=then[0], arguments=args))
                if (text := quoted(ln)) and not any(text in (m.content or "") for m in talk(request)
                                                    if m.role == "assistant"):
                    return reply(text)
            continue
        # a hand-over line: hand the conversation on once
        if targets and not names and re.search(r"\b(hand|transfer|pass|send|route)\b", low):
            target = targets[0]
            if handoffs[target].name not in called:
                return reply(f"→ handing over to {target}.\n{brief(request, kinds_in(ln))}",
                             ToolCallRequest(name=handoffs[target].name, arguments={}))
            continue
        # a note or brief written as the whole reply
        if not names and re.search(r"\b(?:write|put|pass|hand)\b.*\b(?:note|brief|task description|hand-over)\b", low):
            if not own_calls(request) and not any(m.role == "assistant" and m.name == request.agent for m in talk(request)):
                return reply(brief(request, kinds_in(ln)))
            continue
        if names:
            tool = names[0]
            got = answers(request, tool)
            until = re.search(r"\buntil\b.*?\b(?:says|shows|reads|reports|is)\s+[\"'`]?([\w-]+)", ln, re.I)
            if tool in called and not (until and got and until.group(1).lower() not in got[-1].lower()):
                if got and broke(got[-1]) and not any(re.search(rf"if {re.escape(tool)} raises", x, re.I) for x in lines):
                    return reply(f"⚠️ {step_name(tool)} did not answer properly, so nothing has been changed yet. "
                                 "Please try again a little later.")
                continue
            if tool not in tools:
                continue
            if (param := whole_task(tools[tool])) is not None:
                args = {param: brief(request, kinds_in(ln))}
                missing = []
            else:
                args, missing = arguments(request, tools[tool])
            if missing:
                return reply(questions(missing))
            n = steps.index(tool) + 1 if tool in steps else len(steps) + 1
            head = (plan_of(steps) + "\n") if fresh else ""
            progress = f"Step {n}/{len(steps) + 1} — {step_name(tool)}…"
            return reply(head + progress, ToolCallRequest(name=tool, arguments=args))
        if (text := quoted(ln)) and re.search(r"\b(?:finish|sign off|end|close)\b", low):
            closing = text
    return reply(summary(request, steps, every_ok, closing))


def policy(request):
    result = act(request)
    # a handoff named by its agent resolves against the tools offered, as the framework names them
    if result.tool_calls and result.tool_calls[0].name not in tool_map(request):
        tool = resolve_handoff(result.tool_calls[0].name, request.tools)
        if tool is not None:
            return reply(result.text, ToolCallRequest(name=tool.name, arguments={}))
    return result
