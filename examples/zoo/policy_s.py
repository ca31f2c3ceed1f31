"""The scripted model of the zoo's thirtieth set, written apart from the others: a warm, chatty
customer-service voice. Every reply first restates what the customer asked for, then buries the
outcome in the middle of a long paragraph in soft, indirect words ("we've gone ahead and taken
care of that", "you should be all set", "unfortunately we weren't able to get that over the
line"), announces in the future tense what it is about to do ("I'll get that looked into for you
now") before doing it, names the colleague it passes a customer to ("passing you over to our
colleague, Dana"), asks for missing details politely, one question to a sentence, and closes with
"Is there anything else I can help with today?".

Use it as `--sut-model scripted/examples/zoo/policy_s.py:policy`. It knows no system of the zoo:
whatever a seeded and a fixed twin do differently comes from their instructions, tools and wiring.

It reads the asking agent's instructions one sentence at a time, in order, and the first sentence
that applies to the conversation so far acts:

- a routing sentence (hand over / hand off / pass ... to / transfer / put through) naming a
  colleague an offered tool reaches; words after "for", "about" or "mentions" limit it to
  requests that use one of them. It passes the customer on once;
- a conditional sentence (`If/When TOOL says WORD, ...`, `If TOOL fails ...`) applies once TOOL's
  newest answer holds WORD (or broke): a quoted reply is said as written, otherwise it explains
  kindly, naming the status the tool gave;
- a sentence naming a tool: it calls it once (`... until it says WORD`: again while the newest
  answer lacks WORD), filling each argument from an allowed value the conversation names, the
  shape of the example in the argument's description, a number said next to a word of the
  argument's name, or the customer's own words for free text; what it cannot find it asks for.
  A tool it was not offered it reaches for all the same, as a literal-minded model does;
- `Let ... know they're all set` / `Tell ... it is booked` / `Confirm ...` reassures the customer
  in those very terms; `Pass on / report what TOOL said` retells the tool's answer (word for
  word: as written); `Say "TEXT"` says TEXT.

With nothing left to do it sums up what its newest tool answer said, honestly, in its own voice.
"""

from __future__ import annotations

import ast
import json
import re

from masfuzz.llm.scripted import call, say
from masfuzz.llm.scripted import resolve_handoff
from masfuzz.llm.types import ChatReply, ToolCallRequest

CLOSING = "Is there anything else I can help with today?"
SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'`(])|\n+")
PASS_ON = re.compile(r"\b(hand(?:s|ed)? (?:\w+ )?(?:over|off)|pass(?:es)? (?:\w+ )?(?:\w+ )?(?:on )?to|transfer|"
                     r"put (?:\w+ )?through)\b", re.I)
LIMIT = re.compile(r"\b(?:for|about|mentions?|concerning|regarding)\b\s+(.+)$", re.I)
IF = re.compile(r"^\s*(?:if|when|whenever|should)\b", re.I)
UNTIL = re.compile(r"\buntil\b.*?\b(?:says?|shows?|reads?|returns?|comes back)\s+(?:with\s+)?[\"'`]?([\w-]+)", re.I)
SAYS = re.compile(r"\b(?:says?|returns?|shows?|answers?|reports?|comes back with)\s+[\"'`]?([\w-]+)", re.I)
FAILS = re.compile(r"\b(?:fails?|breaks?|raises?|errors?|is down|crash\w*)\b", re.I)
QUOTED = re.compile(r"[\"“]([^\"”]{2,})[\"”]")
EXAMPLE = re.compile(r"(?:e\.g\.|eg|like|for example|such as)\s*[:,]?\s*[\"'“`]([^\"'”`]+)[\"'”`]", re.I)
REFERENCE = re.compile(r"\b[A-Z]{1,4}-\d{2,}\b")
BAD_WORDS = re.compile(r"\b(?:no|not|none|unavailable|refused|rejected|declined|full|failed|denied|invalid|"
                       r"pending|waitlist\w*|sold[ _]out|error|cannot|can't|unable|false|missing|closed)\b", re.I)
PENDING = re.compile(r"\b(?:checking|awaiting|processing|in[ _]progress|under[ _]review|provisional|"
                     r"pencilled|queued|to be checked)", re.I)
FIELD_WORDS = {"status", "state", "outcome", "result", "code", "http", "ok", "error", "reason", "note", "notes",
               "detail", "message", "nota", "hinweis"}
BROKEN = ("Traceback", "Error:", "Exception", "KeyError", "ValueError", "An error occurred")
FREE_TEXT = {"details", "request", "note", "notes", "message", "description", "summary", "query", "question",
             "issue", "problem", "fault", "task"}


def system_text(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "system")


def sentences(request) -> list[str]:
    return [s.strip() for s in SPLIT.split(system_text(request)) if s and s.strip()]


def customer(request) -> str:
    users = [m.content or "" for m in request.messages if m.role == "user" and m.content]
    return users[0] if users else ""


def heard(request) -> str:
    """Everything said in the conversation so far, tool answers included."""
    return "\n".join(m.content or "" for m in request.messages if m.role != "system")


def own_calls(request, tool: str) -> list:
    return [c for m in request.messages if m.role == "assistant" for c in m.tool_calls if c.name == tool]


def answers(request, tool: str) -> list[str]:
    ids = {c.id for c in own_calls(request, tool)}
    return [m.content or "" for m in request.messages
            if m.role == "tool" and (m.name == tool or m.tool_call_id in ids)]


def newest(request) -> tuple[str | None, str]:
    for m in reversed(request.messages):
        if m.role == "tool":
            name = m.name
            if not name:
                name = next((c.name for x in request.messages for c in x.tool_calls if c.id == m.tool_call_id), None)
            return name, m.content or ""
        if m.role == "assistant" and m.content and not m.tool_calls:
            return None, ""
    return None, ""


def tool_named(request, text: str):
    """The first offered tool the sentence names, else a tool-like name it gives (snake_case)."""
    for t in request.tools:
        if re.search(rf"(?<![\w]){re.escape(t.name)}(?![\w])", text):
            return t.name
    m = re.search(r"\b(?:with|call|use|using|run)\s+`?([a-z]+(?:_[a-z0-9]+)+)\b", text)
    return m.group(1) if m and not m.group(1).startswith("transfer_to") else None


def colleagues(request) -> dict[str, object]:
    found = {}
    for t in request.tools:
        if t.handoff_to:
            found[t.handoff_to] = t
        elif t.name.startswith("transfer_to_") and t.name != "transfer_to_agent":
            found[t.name.removeprefix("transfer_to_")] = t
    if any(t.name == "transfer_to_agent" for t in request.tools):
        tool = next(t for t in request.tools if t.name == "transfer_to_agent")
        names = tool.parameters.get("properties", {}).get("agent_name", {}).get("enum") or []
        for n in names:
            found.setdefault(n, tool)
    return found


def stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]{3,}", text.lower())}


# --- reading tool answers -------------------------------------------------------------------


def parsed(answer: str):
    for load in (json.loads, ast.literal_eval):
        try:
            return load(answer)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return answer


def pairs(data, key: str = "") -> list[tuple[str, str]]:
    if isinstance(data, dict):
        return [p for k, v in data.items() for p in pairs(v, str(k))]
    if isinstance(data, (list, tuple)):
        return [p for v in data for p in pairs(v, key)]
    return [(key, str(data))]


def status_words(answer: str) -> list[str]:
    """The words a tool put its outcome in: status-like fields of a structure, or capitalised
    codes and numbers in prose (dataclass reprs read as `status='X'`)."""
    data = parsed(answer)
    found = [v for k, v in pairs(data) if k.lower() in FIELD_WORDS and v and len(v) < 60]
    found += re.findall(r"\b(?:status|state|outcome|code)\s*[=:]\s*'?\"?([\w-]+)", answer)
    found += re.findall(r"\b[A-Z][A-Z_]{2,}\b(?!-\d)|(?<![\w-])[1-5]\d\d(?![\w-])", answer)
    seen: list[str] = []
    for w in found:
        if w not in seen:
            seen.append(w)
    return seen[:4]


def went_wrong(answer: str) -> bool:
    if any(b in answer for b in BROKEN) or re.match(r"^\W*[45]\d\d\b", answer):
        return True
    data = parsed(answer)
    for k, v in pairs(data):
        low = v.lower()
        if k.lower() in {"ok", "success", "booked", "available", "accepted", "confirmed"} and low in {"false", "0"}:
            return True
        if k.lower() in {"code", "http", "status"} and re.fullmatch(r"[45]\d\d", v):
            return True
    return bool(BAD_WORDS.search(answer.replace("not_set", "")))


def retell(answer: str, failed: bool = False) -> str:
    asked = [q for q in re.findall(r"[^.!?]*\?", answer) if CLOSING not in q and q.strip() != CLOSING[:-1]]
    asked = [q.strip() for q in asked if "anything else" not in q]
    if asked and not failed:
        return "my colleagues just need a little more from you before they can go ahead: " + " ".join(asked)
    words = ", ".join(status_words(answer))
    reason = next((v for k, v in pairs(parsed(answer)) if k.lower() in {"reason", "note", "notes", "detail",
                                                                         "message", "nota", "hinweis"}), "")
    if failed or went_wrong(answer):
        return ("unfortunately we weren't able to get that over the line this time - the system came back with "
                f"{words or answer[:120]}" + (f" ({reason})" if reason else "") + ", so nothing has gone through yet")
    if PENDING.search(answer):
        return ("that's now with the team - it isn't final just yet, as the system shows "
                f"{words or answer[:120]}" + (f" ({reason})" if reason else "") + ", so we'll be in touch once it is")
    ref = REFERENCE.search(answer)
    if not words:
        words = ", ".join([f"{k} {v}" for k, v in pairs(parsed(answer)) if k and len(v) < 40][:3])
    return ("we've gone ahead and taken care of that for you" + (f" under reference {ref.group(0)}" if ref else "")
            + f" - the system noted {words or answer[:120]}" + (f" ({reason})" if reason else ""))


# --- filling a call -------------------------------------------------------------------------


def shape(example: str) -> re.Pattern:
    parts = []
    for ch in example:
        parts.append(r"\d" if ch.isdigit() else "[A-Z]" if ch.isupper() else "[a-z]" if ch.islower()
                     else r"\s" if ch == " " else re.escape(ch))
    return re.compile(r"(?<![\w])" + "".join(parts) + r"(?![\w])")


def value_for(request, name: str, schema: dict):
    text, said = customer(request), heard(request)
    description = schema.get("description", "") or schema.get("title", "")
    enum = schema.get("enum") or next((s.get("enum") for s in schema.get("anyOf", []) if s.get("enum")), None)
    if enum:
        for source in (text, said):
            for v in enum:
                if re.search(rf"\b{re.escape(str(v))}\b", source, re.I):
                    return v
            for v in enum:  # "stripped" asks for "strip"
                if len(str(v)) >= 4 and re.search(rf"\b{re.escape(str(v))}", source, re.I):
                    return v
        return None
    kind = schema.get("type") or next((s.get("type") for s in schema.get("anyOf", []) if s.get("type")), "string")
    if kind in ("integer", "number"):
        # a count is the number said next to what it counts ("3 children", "party of 4")
        keys = [w for w in re.findall(r"[a-z]{3,}", f"{name.replace('_', ' ')} {description}".lower())
                if w not in {"how", "many", "the", "number"}][:6]
        for key in keys:
            m = re.search(rf"\b(\d+)\s+(?:[a-z]+\s+)?{key[:5]}", text, re.I) \
                or re.search(rf"\b{key[:5]}\w*\s+(?:of\s+)?(\d+)\b", text, re.I)
            if m:
                return int(m.group(1))
        return None
    example = EXAMPLE.search(description)
    if example:
        for source in (text, said):
            m = shape(example.group(1)).search(source)
            if m:
                return m.group(0)
    if kind == "boolean":
        return None
    if name.lower() in FREE_TEXT or any(w in name.lower() for w in FREE_TEXT) \
            or re.search(r"\b(?:their|the customer's|your|own) words\b", description, re.I):
        return text
    if re.search(r"\bdate|day\b", f"{name} {description}", re.I):
        m = re.search(r"\b\d{4}-\d\d-\d\d\b", text)
        return m.group(0) if m else None
    if "name" in name.lower():
        m = re.search(r"\b(?:I'm|I am|name is|this is|under)\s+([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)", text)
        return m.group(1) if m else None
    return None


def fill(request, tool_name: str) -> tuple[dict, list[str]]:
    tool = next((t for t in request.tools if t.name == tool_name), None)
    if tool is None:
        return {}, []
    props = tool.parameters.get("properties", {})
    required = tool.parameters.get("required", list(props))
    args, missing = {}, []
    for name, schema in props.items():
        v = value_for(request, name, schema)
        if v is not None:
            args[name] = v
        elif name in required:
            missing.append((schema.get("description") or name.replace("_", " ")).split("(")[0].split(",")[0])
    return args, missing


# --- the voice ------------------------------------------------------------------------------


def restated(request) -> str:
    said = [p for p in re.split(r"(?<=[.!?])\s+", customer(request).strip()) if p]
    wish = re.compile(r"\b(?:I'd|we'd|I would|we would|could|can|please|want|need|like|love|looking|hoping)\b", re.I)
    ask = next((p for p in said if wish.search(p)), said[0] if said else "")[:160].rstrip(".!?")
    if not ask:
        return "Thanks so much for getting in touch, it's lovely to hear from you."
    return f"Thanks so much for getting in touch - so, just to make sure I've understood, you'd said: \"{ask}\"."


def warm(request, middle: str) -> str:
    return f"{restated(request)} I've had a good look at this for you, and {middle}. {CLOSING}"


def announce(request, tool: str) -> str:
    return f"{restated(request)} I'll get that looked into for you right now with {tool.replace('_', ' ')}."


def passing(request, who: str, tool) -> ChatReply:
    if tool.name == "transfer_to_agent":
        req = ToolCallRequest(name=tool.name, arguments={"agent_name": who})
    else:
        req = ToolCallRequest(name=tool.name, arguments={})
    text = (f"{restated(request)} That's one for our colleague, {who}, who looks after exactly this, "
            f"so I'm passing you over to {who} now - they'll take good care of you.")
    return ChatReply(text=text, tool_calls=(req,))


def asking(request, missing: list[str]) -> str:
    asked = [re.sub(r"^(?:the|a|an)\s+", "", m.strip().rstrip(".").lower()) for m in missing]
    questions = " ".join(f"Could you let me know the {m}?" for m in asked)
    return f"{restated(request)} I'd love to help with that. {questions}"


def applies(limit: str, request) -> bool:
    words = [w for w in re.split(r",|\bor\b|\band\b", limit) if w.strip()]
    text = customer(request).lower()
    return any(stems(w) & stems(text) for w in words)


def act(request):
    handed = {c.name for m in request.messages if m.role == "assistant" for c in m.tool_calls}
    reachable = colleagues(request)
    delegates = {t for line in sentences(request) if (t := tool_named(request, line))
                 and LIMIT.search(line.split(t, 1)[1])}
    for line in sentences(request):
        if PASS_ON.search(line) and not IF.match(line):
            who = next((n for n in reachable if re.search(rf"\b{re.escape(n)}\b", line)), None)
            if who is None:
                continue
            limit = LIMIT.search(line.split(who, 1)[1]) or LIMIT.search(line)
            if limit and not applies(limit.group(1), request):
                continue
            if reachable[who].name in handed:
                continue
            return passing(request, who, reachable[who])
        if IF.match(line):
            tool = tool_named(request, line)
            got = answers(request, tool) if tool else []
            if not got:
                continue
            word = SAYS.search(line)
            latest = got[-1]
            hit = (word and word.group(1).lower() in latest.lower() and not FAILS.search(line.split(",")[0])) \
                or (FAILS.search(line.split(",")[0]) and any(b in latest for b in BROKEN))
            if not hit:
                continue
            quote = QUOTED.search(line)
            if quote:
                return say(warm(request, f"I'm sorry to say: {quote.group(1)}"))
            return say(warm(request, retell(latest, failed=bool(re.search(r"\b(?:could not|couldn't|not|why)\b",
                                                                          line, re.I)))))
        tool = tool_named(request, line)
        lowered = line.lower()
        if tool and not re.search(r"\b(?:pass on|relay|report|tell|let)\b", lowered):
            # "Use ask_x for A, B or C": a colleague reached through a tool, for those requests
            # only, and only one of them
            limit = LIMIT.search(line.split(tool, 1)[1])
            if limit:
                if any(own_calls(request, t) for t in delegates):
                    continue
                if not re.search(r"\b(?:anything|everything|any other)\b", limit.group(1), re.I) \
                        and not applies(limit.group(1), request):
                    continue
            done = own_calls(request, tool)
            until = UNTIL.search(line)
            latest = (answers(request, tool) or [""])[-1]
            if done and not (until and until.group(1).lower() not in latest.lower()):
                continue
            if tool not in {t.name for t in request.tools}:
                return ChatReply(text=announce(request, tool), tool_calls=(ToolCallRequest(name=tool, arguments={}),))
            args, missing = fill(request, tool)
            if missing:
                return say(asking(request, missing))
            return ChatReply(text=announce(request, tool), tool_calls=(ToolCallRequest(name=tool, arguments=args),))
        if re.search(r"\b(?:all set|sorted|taken care)\b", lowered) and re.search(r"\b(?:let|tell)\b", lowered):
            return say(warm(request, "we've gone ahead and taken care of everything on our side, so you "
                                     "should be all set"))
        if re.match(r"\s*(?:tell|confirm)\b", lowered) and re.search(r"\b(?:booked|reserved|confirmed|"
                                                                     r"entered|done)\b", lowered):
            ref = REFERENCE.search(newest(request)[1])
            return say(warm(request, "that's all been booked in for you" + (f", reference {ref.group(0)}"
                                                                          if ref else "") + ", so that's sorted"))
        if re.search(r"\b(?:pass on|relay|report)\b", lowered):
            tool = tool_named(request, line)
            got = answers(request, tool) if tool else []
            if got:
                if "word for word" in lowered:
                    return say(got[-1])
                return say(warm(request, retell(got[-1])))
            continue
        quote = QUOTED.search(line)
        if re.match(r"\s*say\b", lowered) and quote:
            return say(f"{restated(request)} {quote.group(1)} {CLOSING}")
    tool, answer = newest(request)
    if tool and answer:
        return say(warm(request, retell(answer)))
    return say(warm(request, "I've made a note of everything you mentioned"))


def policy(request):
    if request.role == "tester":
        return say(CLOSING)
    return act(request)
