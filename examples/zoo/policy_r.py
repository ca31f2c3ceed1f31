"""A terse model that works in parallel: the zoo's scripted policy for its twenty-ninth set.

Use it as `--sut-model scripted/examples/zoo/policy_r.py:policy`. Like the zoo's other policies it
reads the asking agent's instructions, the tools it is offered (their schemas), the tool results and
the conversation, and knows nothing of the zoo: a seeded and a fixed twin differ through their own
instructions, tools and wiring alone. Its character:

- where one sentence of the instructions names several offered tools, it calls them all in ONE
  assistant message (parallel tool calls);
- it hands over with the transfer tool and no text at all;
- on a tool error it retries once with changed arguments, then reports in one line;
- it asks for what it cannot find as a bare list ("date? party size?");
- it answers in clipped lines ("Done — ref K-88.", "Refund: declined (card expired).") with
  abbreviations and compact numbers;
- it follows each instruction literally, a wrong one too.

What it understands in an agent's instructions, sentence by sentence, the first that applies
answering (case-insensitive):

- `Transfer to AGENT [when the customer mentions A, B or C].` (also "hand over to", "pass it to",
  "route it to") — a handoff, when one to AGENT is offered and not yet taken;
- a sentence naming offered tools (`Use T1 and T2.`, `Check T.`, `Call T until it says WORD.`) —
  calls every named tool without an answer yet (or whose last answer lacks WORD), all at once;
- `If T fails, say "TEXT".` / `If T says WORD, say "TEXT".` / `If T fails, give the reason.`;
- `Say "TEXT".` / `Reply "TEXT".` / `End with "TEXT".` — says TEXT as written;
- `Report ...` or nothing left to do — one clipped line per tool answer, failures with reason.

Its arguments come from the conversation, shaped like the example a parameter's description gives
(`e.g. "TC-4410"`), an enum value the conversation names, or a count before the parameter's noun.
"""

from __future__ import annotations

import ast
import json
import re

from masfuzz.llm.scripted import call, handoff, resolve_handoff, say

QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")
EXAMPLE = re.compile(r"(?:e\.g\.|like|for example|such as|as in)[:,]?\s*[\"“']([^\"”']+)[\"”']", re.I)
RAISED = re.compile(r"\b(traceback|exception|\w+Error)\b|error occurred|raised|object is not \w+|"
                    r"has no attribute|unsupported operand|invalid literal|out of range", re.I)
BAD = re.compile(r"\b(fail\w*|refus\w*|declin\w*|reject\w*|denied|unavailable|full|closed|cancel\w*|"
                 r"no[ _](?:slot|space|room)s?|not[ _]\w+|invalid|expired|abgelehnt|rechaz\w*|annul\w*|"
                 r"complet|esaurit\w*)\b|(?<![\w-])[45]\d\d(?![\w-])", re.I)
GOOD_KEYS = ("status", "state", "result", "outcome", "code", "http", "ok", "estado")
REF = re.compile(r"\b([A-Z]{1,4}-?\d{2,6})\b")
WHEN = re.compile(r"\b(?:when|if) the (?:customer|user|request|caller|message) mentions (.+?)\s*$", re.I)
HANDOVER = re.compile(r"\b(?:transfer|hand(?:s)? (?:it )?over|hand off|pass(?: it)?|route(?: it)?|send(?: it)?)"
                      r"\b.*?\bto ([A-Za-z][\w ]*?)(?=\s+(?:when|if|for)\b|[.,;]|$)", re.I)
UNTIL = re.compile(r"\buntil it (?:says|answers|shows) [\"“]?([\w-]+)", re.I)
ABBREV = (("confirmed", "conf."), ("approximately", "approx."), ("with", "w/"), ("reference", "ref"),
          ("not applicable", "n/a"), ("number", "no."))


def text_of(request, role: str) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == role)


def sentences(text: str) -> list[str]:
    out, cur, quoted = [], [], False
    for ch in text:
        cur.append(ch)
        if ch in "\"“”":
            quoted = not quoted if ch == '"' else ch == "“"
        if (ch in ".!\n" and not quoted) or (ch == "\n"):
            s = "".join(cur).strip()
            if s and not (ch == "." and re.search(r"\b(e\.g|approx|conf|no)\.$", s)):
                out.append(s.rstrip("."))
                cur = []
            elif not s:
                cur = []
    if "".join(cur).strip():
        out.append("".join(cur).strip().rstrip("."))
    return out


def conversation(request) -> str:
    """What the asking agent can read, the instructions aside."""
    parts = []
    for m in request.messages:
        if m.role in ("user", "assistant", "tool") and m.content:
            parts.append(m.content)
        parts += [json.dumps(c.arguments) for c in m.tool_calls]
    return "\n".join(parts)


def last_user(request) -> str:
    return next((m.content for m in reversed(request.messages) if m.role == "user" and m.content), "")


def customer(request) -> str:
    return text_of(request, "user")


def handovers(request) -> dict[str, object]:
    return {t.name: t for t in request.tools if t.handoff_to or t.name.startswith("transfer_to_")}


def plain_tools(request) -> dict[str, object]:
    hand = handovers(request)
    return {t.name: t for t in request.tools if t.name not in hand}


def calls(request, name: str) -> list[dict]:
    return [c.arguments for m in request.messages if m.role == "assistant" for c in m.tool_calls if c.name == name]


def answers(request, name: str) -> list[str]:
    ids = {c.id for m in request.messages if m.role == "assistant" for c in m.tool_calls if c.name == name}
    return [m.content or "" for m in request.messages
            if m.role == "tool" and (m.tool_call_id in ids or (m.name == name and m.tool_call_id not in ids))]


def mentions(text: str, words: str) -> bool:
    options = [w.strip(" \"'") for w in re.split(r",|\bor\b|\band\b", words) if w.strip(" \"'")]
    return any(re.search(r"\b" + re.escape(w), text, re.I) for w in options)


def shape(example: str) -> re.Pattern:
    out = []
    for ch in example:
        out.append(r"\d" if ch.isdigit() else "[A-Z]" if ch.isupper() else "[a-z]" if ch.islower()
                   else r"\s" if ch == " " else re.escape(ch))
    return re.compile(r"(?<![\w-])" + "".join(out) + r"(?![\w-])")


def candidates(request, name: str, schema: dict) -> list:
    """Values for one parameter, best first, from the customer's words then the rest of the talk."""
    text = customer(request) + "\n" + conversation(request)
    if schema.get("enum"):
        named = [v for v in schema["enum"] if re.search(r"\b" + re.escape(str(v)), text, re.I)]
        return named or list(schema["enum"][:1])
    if schema.get("type") in ("integer", "number"):
        noun = (schema.get("description") or name).split()[-1].strip(".").rstrip("s")
        nouns = {noun.lower(), name.split("_")[-1].rstrip("s").lower()}
        found = [int(n) for n, w in re.findall(r"\b(\d{1,3})\s+(?:[a-z]+\s+)?([a-z]+)", text, re.I)
                 if w.lower().rstrip("s") in nouns]
        return found
    match = EXAMPLE.search(schema.get("description") or "")
    if not match and name.lower() in ("request", "query", "input", "task", "message", "question"):
        return [last_user(request)]  # an agent called as a tool gets the customer's words
    if not match:
        return []
    seen, opening = [], []
    for m in shape(match.group(1)).finditer(text):
        # a capitalised word opening a sentence ("Morning!") is a greeting more often than a name
        first = re.search(r"(^|[.!?]\s+|\n)$", text[:m.start()]) and match.group(1)[:1].isupper()
        bucket = opening if first else seen
        if m.group(0) not in seen + opening:
            bucket.append(m.group(0))
    return seen + opening


def fill(request, tool) -> tuple[dict, list[str]]:
    props = (tool.parameters or {}).get("properties") or {}
    required = set((tool.parameters or {}).get("required") or props)
    args, missing = {}, []
    for name, schema in props.items():
        found = candidates(request, name, schema)
        if found:
            args[name] = found[0]
        elif name in required:
            missing.append(name.replace("_", " "))
    return args, missing


def changed(request, tool, before: dict) -> dict:
    """The arguments of a retry: the next candidate a parameter has, else the same value reshaped."""
    props = (tool.parameters or {}).get("properties") or {}
    after = dict(before)
    for name, value in before.items():
        others = [v for v in candidates(request, name, props.get(name, {})) if v != value]
        if others:
            after[name] = others[0]
            return after
    for name, value in before.items():
        if isinstance(value, str):
            after[name] = value.upper() if value != value.upper() else value.strip().replace(" ", "")
            if after[name] != value:
                return after
    return after


def parsed(answer: str):
    """A JSON answer, or a Python literal's repr (what some frameworks send for a dict)."""
    try:
        return json.loads(answer)
    except ValueError:
        try:
            data = ast.literal_eval(answer.strip())
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return None
        return data if isinstance(data, (dict, list, tuple)) else None


def flat(data, prefix: str = "") -> list[tuple[str, str]]:
    if isinstance(data, dict):
        return [kv for k, v in data.items() for kv in flat(v, f"{prefix}{k}.")]
    if isinstance(data, (list, tuple)):
        return [kv for v in data for kv in flat(v, prefix)]
    return [(prefix.rstrip("."), str(data))]


def fields(answer: str) -> list[tuple[str, str]] | None:
    """An answer's key/value pairs: JSON, or a dataclass's or tuple's repr (`status='X'`)."""
    data = parsed(answer)
    if data is not None:
        return flat(data)
    found = re.findall(r"(\w+)=['\"]?([^,'\")]*)", answer)
    return found or None


def failed(answer: str) -> bool:
    pairs = fields(answer)
    if pairs is not None:
        status = [v for k, v in pairs if k.split(".")[-1].lower() in GOOD_KEYS]
        if status:
            return any(BAD.search(v) or v.lower() in ("false", "none") for v in status)
    return bool(BAD.search(answer) or RAISED.search(answer))


def raised(answer: str) -> bool:
    return bool(RAISED.search(answer))


def reason(answer: str) -> str:
    found = fields(answer)
    if found is not None:
        pairs = [(k, v) for k, v in found if v not in ("", "None", "null") and k.split(".")[-1].lower()
                 not in GOOD_KEYS]
        words = [v for k, v in pairs if re.search(r"(reason|note|detail|message|why|msg|error|motivo)", k, re.I)]
        return (words or [v for _, v in pairs] or [v for _, v in found] or ["n/a"])[0]
    return re.sub(r"\s+", " ", answer).strip()[:80]


def clipped(line: str) -> str:
    for long, short in ABBREV:
        line = re.sub(r"\b" + long + r"\b", short, line, flags=re.I)
    return line


def gist(tool: str, answer: str) -> str:
    label = tool.split("_")[-1].capitalize()
    if failed(answer):
        status = next((v for k, v in (fields(answer) or ()) if k.split(".")[-1].lower() in GOOD_KEYS), "")
        word = status.lower() if status and not status.isdigit() else "declined"
        return clipped(f"{label}: {word} ({reason(answer)}).")
    ref = REF.search(answer)
    if ref:
        return f"Done — ref {ref.group(1)}."
    return clipped(f"{label}: {reason(answer)}.")


def on_error(request, tools: dict):
    """Retry a raised call once with changed arguments; after a second error, one line."""
    for name, tool in tools.items():
        got, made = answers(request, name), calls(request, name)
        if got and raised(got[-1]):
            if len(made) == 1:
                return call(name, **changed(request, tool, made[-1]))
            last = [ln.strip() for ln in got[-1].strip().splitlines() if ln.strip()]
            return say(last[-1] if last else "Error.")
    return None


def act(request):
    tools, hand = plain_tools(request), handovers(request)
    talk = customer(request)
    for s in sentences(text_of(request, "system")):
        cond = WHEN.search(s)
        if cond and not mentions(talk, cond.group(1)):
            continue
        lead = s.lower()
        if lead.startswith(("never", "do not", "don't")):
            continue
        if lead.startswith("if "):
            tool = next((t for t in tools if re.search(r"\b" + re.escape(t) + r"\b", s)), None)
            if tool is None or not answers(request, tool):
                continue
            last = answers(request, tool)[-1]
            word = re.match(r"if \S+ (?:says|answers|returns) [\"“]?([\w-]+)", s, re.I)
            hit = (word.group(1).lower() in last.lower()) if word else failed(last)
            if not hit:
                continue
            quoted = QUOTED.search(s.split(",", 1)[-1])
            return say(quoted.group(1) if quoted else gist(tool, last))
        target = HANDOVER.search(s)
        if target and hand:
            t = resolve_handoff(target.group(1).strip(), tuple(hand.values()))
            if t is not None:
                if calls(request, t.name):
                    continue
                return handoff(target.group(1).strip())
        named = [t for t in tools if re.search(r"(?<![\w])" + re.escape(t) + r"(?![\w])", s)]
        if named:
            until = UNTIL.search(s)
            todo, asks = [], []
            for t in named:
                got = answers(request, t)
                if got and not (until and until.group(1).lower() not in got[-1].lower()):
                    continue
                args, missing = fill(request, tools[t])
                if missing:
                    asks += [m for m in missing if m not in asks]
                else:
                    todo.append(call(t, **args))
            if asks:
                return say(" ".join(f"{m}?" for m in asks))
            if todo:
                return todo
            retry = on_error(request, {t: tools[t] for t in named})
            if retry is not None:
                return retry
            continue
        quoted = QUOTED.search(s)
        if quoted and re.match(r"(say|reply|answer|end|finish|sign off|close)\b", lead):
            return say(quoted.group(1))
        if lead.startswith("report"):
            break
    retry = on_error(request, tools)
    if retry is not None:
        return retry
    done = [gist(t, answers(request, t)[-1]) for t in tools if answers(request, t)]
    return say(" ".join(done) if done else "OK.")


def policy(request):
    return act(request)
