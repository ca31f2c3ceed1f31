"""The scripted model of the zoo's thirty-fifth set, written apart from the others: an apologetic,
reassuring model. It wraps every answer, good or bad, in apologies, thanks and reassurance ("So
sorry for the wait — good news, it's all booked: ref T-4!", "Thank you for your patience.
Unfortunately I wasn't able to ...", "No problem at all, nothing to worry about — ..."), says
success with negations ("no issues at all", "nothing stopping it", "it didn't fail this time")
and failure with them too ("it didn't go through", "no luck with that one", "not possible today,
I'm afraid"), asks with "Would you mind telling me ...?", writes hand-over notes that open "Hi
NAME, sorry to pass this on — ...", and ends with "Is there anything else I can do for you?".

Use it as `--sut-model scripted/examples/zoo/policy_x.py:policy`. It knows no system of the zoo:
it reads the agent's instructions a line (or sentence) at a time, and the first line that applies
acts:

- `If TOOL says WORD, reply "TEXT".` — TEXT, when TOOL's newest answer holds WORD;
- `If TOOL fails, ...` / `If TOOL breaks, ...` — when TOOL's newest answer reads as a refusal
  (a false flag, a 4xx/5xx code, a refusal word) or, for "breaks", as an error the framework
  reported: what follows says what to do — `apologise` (an apology and nothing more), `try
  again` (the same call once more), `hand over to NAME`, `ask ...`, or `tell the customer`
  (an honest account quoting the answer's reason); a quoted TEXT is said as written;
- a routing line, `Send / pass / transfer / hand ... to NAME` with an optional topic (`for A, B or
  C`, `about A or B`), when an offered tool leads to NAME: the transfer, once, its arguments (a
  structured hand-over) filled like a tool's, a note field with a hand-over note;
- `Write NAME a note with the A, B and C.` — the hand-over note, carrying the customer's words
  about each item named, and nothing else;
- a line naming an offered tool: the call, once (`until it says WORD`: again while its newest
  answer lacks WORD), each argument from an allowed value the conversation names, the shape of the
  example its description gives (`e.g. "SP-1234"`), a number beside a word of its name, or the
  customer's own words for free text; what it cannot find it asks for;
- `Tell the customer "TEXT"` / `Sign off with "TEXT"` / `Reply "TEXT"` — TEXT, wrapped in thanks;
- `Pass on TOOL's answer word for word` — its newest answer, as it came.

With nothing left to do it sums up, honestly, each answer its own tools gave, or thanks the
customer for a message it had nothing to do about. A structured reply (a response schema and no
tools) gets its fields filled from that text.
"""

from __future__ import annotations

import ast
import json
import re

from masfuzz.llm.scripted import call, resolve_handoff, say, tool_results

CLOSE = "Is there anything else I can do for you?"
ITEMS_SPLIT = re.compile(r",\s*(?:and\s+)?|\s+and\s+")
FILLER = {"the", "and", "for", "with", "that", "this", "your", "their", "from", "into", "about",
          "customer", "number", "name", "when", "what", "which", "have", "has", "will", "them"}
REFUSAL = re.compile(r"\b(declin\w*|refus\w*|reject\w*|fail\w*|denied|unavailable|not available|full|"
                     r"no_seats|sold out|cancel\w*|invalid|blocked|not possible|unable|nicht|abgelehnt)\b", re.I)
FALSE_FLAG = re.compile(r"[\"']?(ok|success|\w+ed|paid|done|held|available)[\"']?\s*[:=]\s*(false|0|no|none)\b", re.I)
CODE = re.compile(r"\b(?:status|code|http)[\"']?\s*[:=]\s*[\"']?([45]\d\d)\b", re.I)
BROKEN = re.compile(r"^\s*(error\b|traceback)|exception|raised|\berror:", re.I)
SPLIT = re.compile(r"\n+|(?<=[.!?])\s+(?=[A-Z])")


# --- reading the request ------------------------------------------------------------------------


def lines(request) -> list[str]:
    """The instructions, a line or sentence each (quoted replies kept whole)."""
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    held: list[str] = []
    masked = re.sub(r"[\"“][^\"”\n]*[\"”]", lambda m: held.append(m.group(0)) or f"\x01{len(held) - 1}\x01", text)
    out = [re.sub(r"\x01(\d+)\x01", lambda m: held[int(m.group(1))], s) for s in SPLIT.split(masked)]
    return [s.strip(" -*•\t") for s in out if s.strip(" -*•\t")]


def customer(request) -> str:
    return next((m.content for m in request.messages if m.role == "user" and m.content), "")


def talk(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role in ("user", "assistant"))


def targets(request) -> dict[str, object]:
    """Offered tools that lead to another agent, by the agent's lower-case name."""
    found = {}
    for t in request.tools:
        name = t.handoff_to or (t.name.removeprefix("transfer_to_") if t.name.startswith("transfer_to_") else None)
        if name:
            found[name.lower()] = t
    return found


def own_tools(request) -> dict:
    moves = {id(t) for t in targets(request).values()}
    return {t.name: t for t in request.tools if id(t) not in moves}


def answers(request, tool: str | None = None) -> list[tuple[str, str]]:
    """(tool, answer) for each tool answer in the conversation, oldest first."""
    return [(r.name or "tool", r.content) for r in tool_results(request) if tool is None or r.name == tool]


def newest(request, tool: str) -> str | None:
    found = answers(request, tool)
    return found[-1][1] if found else None


def asked(request, tool: str) -> int:
    return sum(c.name == tool for m in request.messages if m.role == "assistant" for c in m.tool_calls)


def stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 2 and w not in FILLER}


def broken(answer: str) -> bool:
    return bool(BROKEN.search(answer))


def failed(answer: str) -> bool:
    return bool(FALSE_FLAG.search(answer) or CODE.search(answer) or REFUSAL.search(answer)) or broken(answer)


def parsed(answer: str):
    """A tool's answer as data (JSON, or the repr of a dict, list or tuple); None for prose."""
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(answer)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return None


def reason(answer: str) -> str:
    """The part of an answer that says why: a reason/detail/message field, else the answer."""
    data = parsed(answer)
    found: list[str] = []

    def walk(d):
        if isinstance(d, dict):
            for k, v in d.items():
                if isinstance(v, str) and re.search(r"reason|detail|message|note|why|error|status", str(k), re.I):
                    found.append(v)
                walk(v)
        elif isinstance(d, (list, tuple)):
            for v in d:
                walk(v)

    walk(data)
    m = re.search(r"(?:reason|detail|note|message)=['\"]([^'\"]+)['\"]", answer)  # a dataclass's repr
    return found[0] if found else m.group(1) if m else answer.strip()


# --- finding arguments --------------------------------------------------------------------------


def shape(example: str) -> re.Pattern:
    body = "".join(r"\d" if c.isdigit() else "[A-Z]" if c.isupper() else "[a-z]" if c.isalpha() else re.escape(c)
                   for c in example)
    return re.compile(rf"(?<![\w/-]){body}(?![\w/-])")


def value(request, name: str, schema: dict, note_for: str):
    said, text = customer(request), talk(request)
    if schema.get("enum"):
        return next((v for where in (said, text) for v in schema["enum"]
                     if re.search(rf"\b{re.escape(str(v))}(?:s|es)?\b", where, re.I)), None)
    desc = schema.get("description", "") or ""
    example = re.search(r"(?:e\.g\.|like|such as|for example)\s*[\"“']([^\"”']+)[\"”']", desc)
    kind = schema.get("type")
    if example:
        pattern = shape(example.group(1))
        hit = pattern.search(said) or pattern.search(text)
        number = re.search(r"\d+(?:\.\d+)?", hit.group(0)) if hit else None
        if number and kind in ("integer", "number"):  # the example's shape found, the schema's type sent
            return int(float(number.group(0))) if kind == "integer" else float(number.group(0))
        return hit.group(0) if hit else None
    if kind in ("integer", "number"):
        # the number beside a word of the argument's name, else of its description
        tries = ["|".join(re.escape(w[:4]) for w in re.split(r"[_\s]+", part.lower()) if len(w) > 3)
                 for part in (name, desc)]
        for words, where in ((w, where) for w in tries for where in (said, text)):
            if words:
                m = re.search(rf"\b(\d+)\s+(?:\w+\s+)?(?:{words})", where, re.I) or \
                    re.search(rf"(?:{words})\w*(?:\W+[a-z]+){{0,2}}?\W+(?:of\s+)?(\d+)\b(?![-/:])", where, re.I)
                if m:
                    return int(m.group(1)) if kind == "integer" else float(m.group(1))
        if re.search(r"how many|number of|party|people|guests", name + " " + desc, re.I):
            m = re.search(r"\b(\d{1,2}) of us\b|\bparty of (\d{1,2})\b|\bwe(?:'re| are) (\d{1,2})\b", said, re.I)
            if m:
                return int(next(g for g in m.groups() if g))
        return None
    if kind == "boolean":
        return True
    if re.search(r"note|summary|brief|message|request|input", name, re.I):
        return f"Hi {note_for}, sorry to pass this on — {said.strip()}"
    return said.strip() or None


def arguments(request, tool, note_for: str = "team") -> tuple[dict, list[str]]:
    props = tool.parameters.get("properties", {})
    required = tool.parameters.get("required", list(props))
    args, missing = {}, []
    for name, schema in props.items():
        v = value(request, name, schema, note_for)
        if v is not None:
            args[name] = v
        elif name in required:
            missing.append(" ".join(w for w in name.split("_") if w) or name)
    return args, missing


# --- what it says -------------------------------------------------------------------------------


def warm(text: str) -> str:
    """Any reply of its own, wrapped in thanks and the closing offer."""
    return f"Thank you so much for your patience — {text.strip()} {CLOSE}"


def ask(missing: list[str]) -> str:
    what = " and ".join(missing)
    return f"So sorry to trouble you, but would you mind telling me the {what}? {CLOSE}"


VERBS = {"book", "take", "check", "charge", "get", "find", "make", "reserve", "hold", "ask", "look", "read", "send",
         "issue", "add", "set", "lend", "place", "log", "pay", "confirm", "arrange", "order", "join", "clear", "refund"}


def label(tool: str) -> str:
    """A tool's name as a thing: "take_deposit" -> "the deposit"."""
    parts = [p for p in tool.split("_") if p]
    if len(parts) > 1 and parts[0] in VERBS:
        parts = parts[1:]
    return "the " + " ".join(parts)


def facts(answer: str) -> str:
    """A structured answer's leaves as `key value` pairs; prose as it is."""
    data = parsed(answer)
    if data is None or isinstance(data, (str, int, float)):
        return answer.strip().rstrip(".")
    out: list[str] = []

    def walk(d, key=""):
        if isinstance(d, dict):
            for k, v in d.items():
                walk(v, str(k))
        elif isinstance(d, (list, tuple)):
            for v in d:
                walk(v, key)
        elif d not in (None, ""):
            out.append(f"{key.replace('_', ' ')} {d}".strip())

    walk(data)
    return ", ".join(out)


def account(tool: str, answer: str) -> str:
    """An honest line about one tool answer."""
    thing = label(tool)
    if CLOSE in answer:  # a colleague's reply (an agent run as a tool): passed on in its own words
        said = re.sub(r"^Thank you so much for (?:your patience|waiting!?)\s*(?:—\s*)?", "", answer.replace(CLOSE, "")).strip()
        return f"here is what {thing} came back with: {said}"
    if broken(answer):
        return f"I'm so sorry, {thing} didn't work on our side just now, not possible today, I'm afraid."
    if failed(answer):
        return f"Unfortunately no luck with {thing}, it didn't go through, I'm afraid: {reason(answer).rstrip('.')}."
    return f"Good news, no issues at all with {thing}, nothing stopping it: {facts(answer)}."


def summary(request) -> str:
    mine = set(own_tools(request)) or {t for t, _ in answers(request)}
    done = [(t, a) for t, a in answers(request) if t in mine]
    if not done:
        return warm("I've noted everything you told me, nothing to worry about.")
    latest = {t: a for t, a in done}
    return warm(" ".join(account(t, a) for t, a in latest.items()))


def note(request, target: str, items: str) -> str:
    """A hand-over note with the customer's words about each item named, and nothing else."""
    said = customer(request)
    clauses = [re.sub(r"^(?:and|but|so|because)\s+", "", c.strip()) for c in
               re.split(r"(?<=[.!?])\s+|,\s*|\s+(?:and|but|because)\s+", said) if c.strip()]
    kept: list[str] = []

    def ranked(found: list[str]) -> str | None:  # a clause with a code or a number in it first
        return next((c for c in found if re.search(r"\b[A-Z]{2,}-?\d", c)), None) \
            or next((c for c in found if re.search(r"\d", c)), None) or next(iter(found), None)

    for item in (i for i in ITEMS_SPLIT.split(re.sub(r"^\s*the\s+", "", items)) if i.strip()):
        want = stems(item)
        near = [n for n, c in enumerate(clauses) if want & stems(c)]
        # "a gift voucher, code GV-1": the value may follow the clause that names it
        hit = ranked([clauses[k] for n in near for k in (n, n + 1) if k < len(clauses)])
        if hit is None and re.search(r"\b(day|date|when)\b", item):
            hit = next((c for pattern in (r"\d{4}-\d\d-\d\d", r"\b\d{1,2}/\d{1,2}", r"\b\d{1,2}(st|nd|rd|th)\b")
                        for c in clauses if re.search(pattern, c)), None)
        if hit is None and re.search(r"\b(size|people|party|how many|guests)\b", item):
            hit = next((c for c in clauses if re.search(r"(?<![-/:\w])\d{1,2}(?![-/:\w])", c)), None)
        if hit and hit.rstrip(".!?") not in kept:
            kept.append(hit.rstrip(".!?"))
    return f"Hi {target}, sorry to pass this on — " + "; ".join(kept) + ". Thank you so much!"


def wrap_quoted(text: str) -> str:
    return f"Thank you so much for waiting! {text.strip()} {CLOSE}"


# --- acting on a line ---------------------------------------------------------------------------

IF_SAYS = re.compile(r"^if (\w+) (?:says|answers|comes back with) [\"“']?([\w-]+)[\"”']?,?\s*(.*)$", re.I)
IF_FAILS = re.compile(r"^if (\w+) (fails|does not go through|is refused|breaks|raises an error|errors)\b,?\s*(.*)$", re.I)
ROUTE = re.compile(r"\b(?:send|pass|transfer|hand|route|refer)\b.*?\bto (\w+)\b(.*)$", re.I)
TOPIC = re.compile(r"\b(?:for|about|when .*? mentions?|if .*? is about)\s+(.+?)\.?$", re.I)
NOTE = re.compile(r"^write (\w+) a note with (.+?)\.?$", re.I)
QUOTE = re.compile(r"[\"“]([^\"”]+)[\"”]")
UNTIL = re.compile(r"until it says [\"“']?([\w-]+)", re.I)


def react(request, tool: str, what: str, answer: str):
    """What an `If TOOL fails/breaks, ...` line says to do."""
    quoted = QUOTE.search(what)
    low = what.lower()
    if quoted:
        return say(wrap_quoted(quoted.group(1)))
    if re.search(r"\btry (?:it )?again|retry", low) and asked(request, tool) < 2:
        spec = own_tools(request).get(tool)
        last = [c for m in request.messages if m.role == "assistant" for c in m.tool_calls if c.name == tool][-1]
        return call(spec.name if spec else tool, **last.arguments)
    if m := re.search(r"hand (?:it )?over to (\w+)|pass (?:it )?(?:on )?to (\w+)", low):
        target = m.group(1) or m.group(2)
        move = targets(request).get(target.lower()) or resolve_handoff(target, request.tools)
        if move is not None and not asked(request, move.name):
            args, _ = arguments(request, move, target)
            return call(move.name, **args)
    if re.search(r"\bask\b", low):
        return say(f"I'm so sorry, that didn't work on our side. Would you mind telling me another day that suits? {CLOSE}")
    if re.search(r"apologi[sz]e", low) and not re.search(r"explain|tell|say why", low):
        return say(f"I'm so sorry about this, and thank you for bearing with me — I do apologise. {CLOSE}")
    return say(warm(account(tool, answer)))


GATE = re.compile(r"^(?:for|about|on) (.+),", re.I)


def routed(request, tools: dict) -> set[str]:
    """The tools the agent's routing lines (`For A or B, pass ... with TOOL.`) delegate through:
    it routes a request once."""
    return {t for line in lines(request) if GATE.match(line) for t in tools if re.search(rf"\b{re.escape(t)}\b", line)}


def applies_topic(request, rest: str) -> bool:
    m = TOPIC.search(rest)
    return not m or bool(stems(m.group(1)) & stems(customer(request)))


def act(request):
    tools, moves = own_tools(request), targets(request)
    for line in lines(request):
        if m := IF_SAYS.match(line):
            answer = newest(request, m.group(1))
            if answer is not None and m.group(2).lower() in answer.lower():
                then = [t for t in tools if re.search(rf"\b{re.escape(t)}\b", m.group(3))]
                if then and not asked(request, then[0]):  # "..., call exit_loop."
                    args, _ = arguments(request, tools[then[0]])
                    return call(then[0], **args)
                if then:
                    continue
                q = QUOTE.search(m.group(3))
                return say(wrap_quoted(q.group(1)) if q else warm(account(m.group(1), answer)))
            continue
        if m := IF_FAILS.match(line):
            answer = newest(request, m.group(1))
            errored = m.group(2).lower() in ("breaks", "raises an error", "errors")
            if answer is not None and (broken(answer) if errored else failed(answer)):
                return react(request, m.group(1), m.group(3), answer)
            continue
        if m := NOTE.match(line):
            if not any(m.role == "assistant" and (m.content or "").startswith("Hi ") for m in request.messages):
                return say(note(request, m.group(1), m.group(2)))
            continue
        named = [t for t in tools if re.search(rf"\b{re.escape(t)}\b", line)]
        if (m := ROUTE.search(line)) and m.group(1).lower() in moves and not named:
            move = moves[m.group(1).lower()]
            if not asked(request, move.name) and applies_topic(request, m.group(2)):
                args, _ = arguments(request, move, m.group(1))
                return call(move.name, **args)
            continue
        if re.match(r"^pass on (\w+)'s answer", line, re.I):
            tool = re.match(r"^pass on (\w+)", line, re.I).group(1)
            answer = newest(request, tool)
            if answer is not None and not any(m.role == "assistant" and m.content == answer.strip()
                                              for m in request.messages):
                return say(answer.strip())
            continue
        if named and (gate := GATE.match(line)):  # a routing line that delegates through a tool
            if any(asked(request, t) for t in routed(request, tools)) or not (stems(gate.group(1)) & stems(customer(request))):
                continue
        if named:
            tool = tools[named[0]]
            until = UNTIL.search(line)
            done = asked(request, tool.name)
            answer = newest(request, tool.name)
            if done and (not until or answer is None or until.group(1).lower() in answer.lower()):
                continue
            args, missing = arguments(request, tool)
            if missing:
                return say(ask(missing))
            return call(tool.name, **args)
        if (q := QUOTE.search(line)) and re.match(r"^(?:then )?(?:tell the customer|sign off with|reply|say|end with)\b",
                                                  line, re.I):
            if not any(q.group(1) in (m.content or "") for m in request.messages if m.role == "assistant"):
                return say(wrap_quoted(q.group(1)))
            continue
    return say(summary(request))


def policy(request):
    result = act(request)
    if request.response_schema and not result.tool_calls:  # a typed answer is JSON, tools offered or not
        text = result.text or ""
        props = request.response_schema.get("properties", {})
        bad = bool(re.search(r"didn't|unfortunately|no luck|not possible", text))
        return say(json.dumps({k: (not bad) if s.get("type") == "boolean" else text for k, s in props.items()}))
    return result
