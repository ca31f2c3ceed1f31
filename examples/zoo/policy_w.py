"""The scripted model of the zoo's thirty-fourth set, written apart from the others: a status-board
model that delegates. It answers with one line per item, an emoji marker and a bold label
("✅ **Pitch** — locked in (ref CN-7)", "❌ **Deposit** — bounced: card declined", "⏳ **Invoice** —
on its way", "⚠️ **Parking** — n/a on Sundays"), in slang for outcomes (secured, locked in, sorted,
nailed down; no-go, bounced, fell through, on ice). Where its instructions name a specialist it
calls that specialist (an agent offered as a tool, or a transfer) and sums up what came back in
status lines of its own; a transfer is announced with "🔀 Routing you to NAME"; what it lacks it
asks for in "❓ ..." lines. It follows each agent's instructions literally, a wrong one included.

Use it as `--sut-model scripted/examples/zoo/policy_w.py:policy`. It knows no system of the zoo:
it reads the agent's instructions a line (or sentence) at a time and the first line that applies
acts:

- `If TOOL says WORD: "TEXT"` (or `... says WORD, ...` without a quote), when TOOL's newest answer
  holds WORD: TEXT, or an honest ❌ line quoting the answer's reason;
- a routing line, `Route / send / transfer ... to NAME` with an optional topic (`for WORDS`,
  `about WORDS`, `when ... asks about WORDS`), when an offered tool transfers to NAME and the
  customer's words touch the topic: "🔀 Routing you to NAME" and the transfer, once;
- a line naming an offered tool (in any words: "use", "book with", "ask", "check with"): the call,
  once (`until it says WORD`: again while its newest answer lacks WORD), each argument from an
  allowed value the conversation names, the shape of the example in its description
  (`e.g. "AB-12"`), a number beside a word of the argument's name, or the customer's own words for
  free text; what it cannot find it asks for;
- `Mark / show / tick ... as WORD` after a tool has answered: a ✅ line per tool answered, saying
  WORD whatever the answer was (the instruction is taken literally);
- `Relay TOOL's answer ...`, once TOOL has answered: its newest answer, word for word;
- `Say "TEXT"` / `Sign off with "TEXT"`: TEXT.

With nothing left to do it writes its board: a line per tool answered in its own part of the
conversation, honest about each (a specialist's ❌ lines stay ❌), or, with no tool answered, a
line that says what it has noted.
As a group chat's speaker selector it picks the first listed role that has not spoken yet in an
order the prompt states ("Order of play: a, b, c"), else the role whose description shares most
words with the newest message.
"""

from __future__ import annotations

import ast
import json
import re

from masfuzz.llm.scripted import resolve_handoff, say, tool_results
from masfuzz.llm.types import ChatReply, ToolCallRequest

SPLIT = re.compile(r"\n+|(?<=[.!])\s+(?=[A-Z`])")
QUOTE = re.compile(r"[\"“]([^\"”]+)[\"”]")
IF_SAYS = re.compile(r"^\s*(?:if|when|whenever)\s+`?(\w+)`?\s+(?:says|returns|answers|comes back with|reports)\s+"
                     r"[\"'`]?([\w-]+)", re.I)
ROUTE = re.compile(r"\b(?:route|send|transfer|pass|hand)\b[^.]*?\bto\s+`?([\w-]+)`?", re.I)
TOPIC = re.compile(r"\b(?:for|about|asks? about|mentions?|concerning)\s+(.+?)\.?$", re.I)
UNTIL = re.compile(r"\buntil (?:it|the answer) (?:says|shows|returns|reads)\s+[\"'`]?([\w-]+)", re.I)
MARK = re.compile(r"^\s*(?:mark|show|tick|list|flag)\b.*?\bas\s+[\"'`]?([\w ]+?)[\"'`]?(?:\s+on\b.*|\s+once\b.*|\s+when\b.*)?\.?$",
                  re.I)
RELAY = re.compile(r"^\s*(?:relay|pass on|forward|repeat)\b.*?`?(\w+)`?'s (?:answer|reply|words)", re.I)
SAY = re.compile(r"^\s*(?:say|sign off with|reply|end with|close with)\s*:?\s*[\"“]([^\"”]+)[\"”]", re.I)
EXAMPLE = re.compile(r"(?:e\.g\.|eg|like|for example)[:,]?\s*[\"'`]([^\"'`]+)[\"'`]", re.I)
BAD = re.compile(r"\b(?:fail\w*|refus\w*|reject\w*|declin\w*|denied|no[-_ ]go|bounced|fell through|full|"
                 r"unavailable|not available|cannot|can't|unable|false|closed|taken|error|exception|invalid|"
                 r"not found|unknown|voll|complet|agotad\w*|ausgebucht)\b|❌|\b(?:code|status|http)\W{0,4}[45]\d\d\b",
                 re.I)
PENDING = re.compile(r"\b(?:pending|queued|processing|in progress|waiting|not yet|later|tbc)\b|⏳", re.I)
REF = re.compile(r"\b[A-Z]{1,4}-?\d{2,6}\b")
FREE_TEXT = {"input", "task", "request", "message", "details", "note", "notes", "query", "question", "text", "summary", "brief"}
FILLER = {"the", "a", "an", "and", "or", "of", "to", "for", "any", "with", "their", "your", "is", "it", "on", "in",
          "that", "this", "request", "requests", "anything", "about", "asks", "ask", "customer", "who"}
VERBS = {"book", "reserve", "check", "get", "make", "start", "log", "hold", "place", "quote", "ask", "lend",
         "issue", "send", "take", "set", "find", "order", "schedule", "confirm", "price", "read", "watch"}
OK_WORDS = ("locked in", "secured", "nailed down", "sorted")
NO_WORDS = ("bounced", "no-go", "fell through", "on ice")


def lines(request) -> list[str]:
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    held: list[str] = []

    def hold(m: re.Match) -> str:  # a quoted reply with full stops in it stays on its line
        held.append(m.group(0))
        return f"\x01{len(held) - 1}\x01"

    masked = re.sub(r"[\"“][^\"”\n]*[\"”]", hold, text)
    out = [re.sub(r"\x01(\d+)\x01", lambda m: held[int(m.group(1))], s) for s in SPLIT.split(masked)]
    return [s.strip(" -*•\t") for s in out if s.strip(" -*•\t")]


def customer(request) -> str:
    return next((m.content for m in request.messages if m.role == "user" and m.content), "")


def talk(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role in ("user", "assistant"))


def transfers(request) -> dict[str, str]:
    """The agents an offered tool transfers to, by lower-case name."""
    found = {}
    for t in request.tools:
        target = t.handoff_to or (t.name.removeprefix("transfer_to_") if t.name.startswith("transfer_to_") else None)
        if target:
            found[target.lower()] = target
    return found


def own_tools(request) -> dict:
    return {t.name: t for t in request.tools if not t.handoff_to and not t.name.startswith("transfer_to_")}


def own_part(request) -> list:
    """The messages since the newest transfer: what this agent has done itself."""
    messages = list(request.messages)
    moved = {c.id for m in messages for c in m.tool_calls if c.name.startswith("transfer_to")
             or any(t.handoff_to and t.name == c.name for t in request.tools)}
    start = max((i + 1 for i, m in enumerate(messages) if m.role == "tool" and m.tool_call_id in moved), default=0)
    return messages[start:]


def asked(request, tool: str) -> int:
    return sum(c.name == tool for m in own_part(request) if m.role == "assistant" for c in m.tool_calls)


def answers(request) -> list[tuple[str, str]]:
    """(tool, answer) for each tool answered in this agent's own part, oldest first."""
    ids = {c.id: c.name for m in own_part(request) if m.role == "assistant" for c in m.tool_calls}
    named = {r.call_id: r.name for r in tool_results(request)}
    # a transfer that brought the conversation here is not this agent's work (a reply written
    # after the tools ran, offered none, reads them all)
    mine = own_tools(request) if request.tools else {n for n in ids.values()} | {m.name for m in own_part(request)}
    found = [(ids.get(m.tool_call_id) or m.name or named.get(m.tool_call_id) or "tool", m.content or "")
             for m in own_part(request) if m.role == "tool"]
    return [(t, a) for t, a in found if t in mine]


def newest(request, tool: str) -> str | None:
    found = [a for t, a in answers(request) if t == tool]
    return found[-1] if found else None


def words(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]+", text.lower()) if w not in FILLER and len(w) > 2}


def label(tool: str) -> str:
    """A tool's board label: its name without the verb ("book_wall_slot" -> "Wall slot")."""
    parts = [p for p in tool.split("_") if p]
    if len(parts) > 1 and parts[0] in VERBS:
        parts = parts[1:]
    return " ".join(parts).capitalize() or "Request"


def shape(example: str) -> re.Pattern:
    body = "".join(r"\d" if c.isdigit() else "[A-Za-z]" if c.isalpha() else re.escape(c) for c in example)
    return re.compile(rf"(?<!\w){body}(?!\w)")


def value(request, name: str, schema: dict):
    text, said = talk(request), customer(request)
    if schema.get("enum"):
        for where in (said, text):
            hit = next((v for v in schema["enum"] if re.search(rf"\b{re.escape(str(v))}\b", where, re.I)), None)
            if hit is not None:
                return hit
        return None
    kind = schema.get("type")
    stems = [w[:4] for w in name.lower().split("_") if w not in FILLER and len(w) > 2]
    if kind in ("integer", "number"):
        for s in stems:
            m = re.search(rf"(\d+(?:\.\d+)?)\s+(?:\w+\s+){{0,2}}{s}\w*", text, re.I) or \
                re.search(rf"\b{s}\w*\D{{0,12}}?(\d+(?:\.\d+)?)", text, re.I)
            if m:
                return int(float(m.group(1))) if kind == "integer" else float(m.group(1))
        return None
    if kind == "boolean":
        return True
    example = EXAMPLE.search(schema.get("description", "") or "")
    if example:
        m = shape(example.group(1)).search(text)
        return m.group(0) if m else None
    if name.lower() in FREE_TEXT or name.lower().split("_")[-1] in FREE_TEXT:
        return said
    return None


def arguments(request, tool) -> tuple[dict, list[str]]:
    props = tool.parameters.get("properties", {})
    required = tool.parameters.get("required", list(props))
    args, missing = {}, []
    for name, schema in props.items():
        v = value(request, name, schema)
        if v is not None:
            args[name] = v
        elif name in required:
            missing.append(" ".join(w for w in name.split("_") if len(w) > 2) or name)
    return args, missing


def reason(answer: str) -> str:
    """The part of a tool's answer that says why: a note/reason field, else the answer itself."""
    try:
        data = json.loads(answer)
    except ValueError:
        data = None

    def find(d):
        if isinstance(d, dict):
            for k in ("reason", "note", "detail", "message", "msg", "text", "error"):
                if isinstance(d.get(k), str):
                    return d[k]
            for v in d.values():
                r = find(v)
                if r:
                    return r
        if isinstance(d, list):
            return next((r for r in map(find, d) if r), None)
        return None

    found = find(data) or next(iter(re.findall(r"\b(?:note|reason|detail|message)\s*[=:]\s*['\"]([^'\"]+)", answer)), None)
    if found:
        return found
    bad = [s.strip() for s in re.split(r"\n|(?<=\.)\s", answer) if BAD.search(s)]
    return (bad[0] if bad else answer.strip())[:160]


def facts(answer: str) -> str:
    """The answer's plain facts, `key value`, for the status line (a tool's data travels with it)."""
    try:
        data = json.loads(answer)
    except ValueError:
        try:
            data = ast.literal_eval(answer)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return ""
    found: list[str] = []

    def walk(d, key=""):
        if isinstance(d, dict):
            for k, v in d.items():
                walk(v, str(k))
        elif isinstance(d, (list, tuple)):
            for v in d:
                walk(v, key)
        elif key and isinstance(d, (int, float, str)) and not isinstance(d, bool) and len(str(d)) < 40:
            found.append(f"{key.replace('_', ' ')} {d}")

    walk(data)
    return "; ".join(found[:4])


def board_line(tool: str, answer: str, n: int) -> str:
    """One honest status line for a tool's answer (a specialist's own board is summed up)."""
    name = label(tool)
    if "**" in answer:  # a specialist's board: carry its worst line over in our own words
        items = re.findall(r"(✅|❌|⏳|⚠️)\s*\*\*(.+?)\*\*\s*[—-]\s*(.+)", answer)
        bad = [i for i in items if i[0] == "❌"]
        if bad:
            return f"❌ **{name}** — {NO_WORDS[n % 4]}: {bad[0][1]} ({bad[0][2].strip()})"
        waiting = [i for i in items if i[0] == "⏳"]
        if waiting:
            return f"⏳ **{name}** — on its way: {waiting[0][1]}"
        refs = REF.findall(answer)
        return f"✅ **{name}** — {OK_WORDS[n % 4]}" + (f" (ref {refs[0]})" if refs else "")
    if BAD.search(answer):
        return f"❌ **{name}** — {NO_WORDS[n % 4]}: {reason(answer)}"
    if PENDING.search(answer):
        return f"⏳ **{name}** — on its way"
    refs, known = REF.findall(answer), facts(answer)
    return f"✅ **{name}** — {OK_WORDS[n % 4]}" + (f" (ref {refs[0]})" if refs else "") + (f": {known}" if known else "")


def board(request) -> str:
    done = answers(request)
    if not done:
        return "⚠️ **Request** — noted, nothing for me to sort on this one\n❓ Anything else I can line up for you?"
    return "\n".join(board_line(t, a, i) for i, (t, a) in enumerate(done))


def topic_fits(request, line: str) -> bool:
    m = TOPIC.search(line)
    return not m or bool(words(m.group(1)) & words(customer(request)))


def act(request):
    tools, moves = own_tools(request), transfers(request)
    for line in lines(request):
        m = IF_SAYS.match(line)
        if m:
            tool, word = m.group(1), m.group(2)
            answer = newest(request, tool)
            if answer is not None and word.lower() in answer.lower():
                quoted = QUOTE.search(line[m.end():])
                return say(quoted.group(1) if quoted else f"❌ **{label(tool)}** — {NO_WORDS[0]}: {reason(answer)}")
            continue
        m = ROUTE.search(line)
        if m and m.group(1).lower() in moves:
            target = moves[m.group(1).lower()]
            if topic_fits(request, line) and not any(c.name.startswith("transfer_to") or c.name == target
                                                     for msg in own_part(request) for c in msg.tool_calls):
                tool = resolve_handoff(target, request.tools)
                return ChatReply(text=f"🔀 Routing you to {target}",
                                 tool_calls=(ToolCallRequest(name=tool.name, arguments={}),))
            continue
        m = MARK.match(line)
        if m and answers(request):
            word = m.group(1).strip()
            return say("\n".join(f"✅ **{label(t)}** — {word}" for t, _ in answers(request)))
        m = RELAY.match(line)
        if m and newest(request, m.group(1)) is not None:
            return say(newest(request, m.group(1)))
        named = [t for t in tools if re.search(rf"(?<!\w){re.escape(t)}(?!\w)", line)]
        if named:
            tool = tools[named[0]]
            until = UNTIL.search(line)
            last = newest(request, tool.name)
            again = until and last is not None and until.group(1).lower() not in last.lower()
            if asked(request, tool.name) and not again:
                continue
            args, missing = arguments(request, tool)
            if missing:
                return say("\n".join(f"❓ Need your {m} to get this moving: what should I put?" for m in missing))
            return ToolCallRequest(name=tool.name, arguments=args)
        m = SAY.match(line)
        if m:
            return say(m.group(1))
    return say(board(request))


def select(request):
    """The next speaker of a group chat, from the selection prompt."""
    text = "\n".join(m.content or "" for m in request.messages if m.role != "assistant")
    head, _, history = text.partition("Conversation so far")
    roles = dict(re.findall(r"^(\w+): (.+)$", head, re.M))
    offered_now = re.findall(r"\[([^\]]+)\]", text)
    allowed = re.findall(r"\w+", offered_now[-1]) if offered_now else list(roles)
    spoke = set(re.findall(r"^(\w+)\s*:", history, re.M))
    order = re.search(r"Order of play:\s*(.+)", head)
    if order:
        for name in (n.strip(" .") for n in re.split(r",|\bthen\b|→|->", order.group(1))):
            if name and name not in spoke and name in allowed:
                return say(name)
    lines_said = [ln for ln in history.strip().splitlines() if ln.strip()]
    want = words(lines_said[-1] if lines_said else "")
    pool = [r for r in roles if r in allowed] or allowed
    return say(max(pool, key=lambda r: (len(want & words(roles.get(r, ""))), r), default=""))


def policy(request):
    if request.agent == "selector":
        return select(request)
    result = act(request)
    if request.response_schema and not request.tools:
        text = result.text if isinstance(result, ChatReply) else str(result)
        props = request.response_schema.get("properties", {})
        return say(json.dumps({k: (not BAD.search(text)) if s.get("type") == "boolean" else text
                               for k, s in props.items()}))
    return result
