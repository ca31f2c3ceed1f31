"""An eighth scripted model for the zoo, written apart from the others: a careful, procedural
enterprise assistant.

Use it as `--sut-model scripted/examples/zoo/policy_h.py:policy`. Like the other policies it
knows no system of the zoo: a seeded twin and its fixed twin differ only through what their
instructions, tools and wiring give it. Its character:

- it restates what it is asked as a ticket (`Request: ... / Customer: ... / Ref: ...`), and
  hands work over with such a ticket as its note;
- it reports in a status line and a detail: `Outcome: completed — ...`, `Outcome: not possible —
  ...`, `Outcome: pending — ...`, in British spelling and formal verbs (arranged, actioned,
  lodged, processed, declined);
- it follows an agent's instructions literally, a wrong instruction included. It reads them one
  step a line (long lines cut at sentence ends, quotes kept whole); the first step that applies
  answers. A step may be:
  - a delegation: `Delegate / Refer / Pass / Escalate ... to NAME`, NAME a colleague it can hand
    over to (a handoff) or one offered as a tool: once, with the ticket as its note; a scope
    (`for matters of A, B or C`, `concerning A or B`) limits it to customers whose messages
    touch one of the words;
  - a tool step: any other step naming an offered tool (`Record the loss via record_loss`): the
    tool is called when it has no call since the customer's newest message (or the values found
    now differ from the last call's, as after a correction), its arguments found by the shape of
    the example each parameter's description quotes (`e.g. "PK-0000"`, `like "03.06.2025"`),
    newest customer message first, a value the customer says is *not* the one left out; an
    enum by the words it shares with the conversation; a free-text note, the ticket. A value it
    cannot find, it asks for, and stops. `... until it reports WORD` calls again while the
    newest answer lacks WORD. Scopes limit it as a delegation's do;
  - an outcome step: `Where TOOL reports / returns / shows A or B, ...`, `Where TOOL is declined
    / fails, ...` (an answer that reads as a refusal: a false flag, a 4xx code, a refusal word),
    `Where TOOL raises an error, ...` (the framework's error text); what follows is a quoted
    reply, said as written, or else the outcome is reported;
  - a closing step: `State / Reply / Close with "TEXT"` says TEXT; `Confirm ...` confirms the
    last call's particulars as actioned (whatever the answer said: a literal reading);
    `Report the outcome of TOOL` reports its newest answer, `not possible` when it reads as a
    refusal, `pending` when it says the work awaits a further step (awaiting, queued, on hold);
- a tool that broke with no step for it gets a formal notice, never the raw error; an agent with
  nothing left to do says so in one status line;
- as a group chat's speaker selector it follows the sequence the selection prompt states
  (`a -> b -> c`, `a, then b, then c`), else the role whose description shares most words with
  the request, among those not yet heard;
- asked for a response schema, it fills each field from the conversation.
"""

from __future__ import annotations

import json
import re

from masfuzz.llm.scripted import call, say
from masfuzz.llm.types import ChatReply, ChatRequest, ToolCallRequest, ToolDef

DELEGATE = re.compile(r"\b(delegate|refer|pass|escalate|transfer|hand)\b.*?\bto\s+`?([A-Za-z][\w ]*?)`?(?=[\s.,;:]|$)",
                      re.I)
SCOPE = re.compile(r"\b(?:for matters (?:of|concerning)|concerning|in matters of|for requests about)\s+(.+?)"
                   r"(?:[.;:)]|$)", re.I)
QUOTED = re.compile(r'"([^"]+)"')
EXAMPLE = re.compile(r"""(?:e\.g\.|like|for example|such as|format|as in)[:,]?\s*["'`]([^"'`]+)["'`]""", re.I)
NEGATED = re.compile(r"(?:\bnot|\binstead of|\bold|\bprevious|\bformer)\W*(?:\w+\W+){0,2}$", re.I)
REFUSALS = ("declin", "reject", "refus", "fail", "denied", "unable", "cannot", "invalid", "void",
            "not permitted", "not possible", "abgelehnt", "rechaz", "geweigerd", "refusé")
PENDING = ("awaiting", "pending", "queued", "in progress", "on hold", "in_review", "under review")
ERROR = re.compile(r"\b(error|exception|traceback)\b", re.I)
WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")


# --- reading the request ----------------------------------------------------------------------

def instructions(request: ChatRequest) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "system")


def steps(text: str) -> list[str]:
    """One step a line; a long line cut at its sentence ends, never inside a quote."""
    out = []
    for line in text.splitlines():
        line = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", line).strip()
        current, quoted = "", False
        for i, ch in enumerate(line):
            current += ch
            quoted ^= ch == '"'
            if not quoted and ch in ".!?" and line[i + 1:i + 2] in (" ", "") and \
                    re.match(r"\s+[A-Z]", line[i + 1:i + 3] or " ") is not None:
                out.append(current.strip())
                current = ""
        if current.strip():
            out.append(current.strip())
    return [s for s in out if s]


def customer_messages(request: ChatRequest) -> list[str]:
    """What the customer wrote, oldest first (a group chat's colleagues speak under their names)."""
    return [m.content for m in request.messages
            if m.role == "user" and m.content and (m.name in (None, "user", "customer"))]


def conversation(request: ChatRequest) -> list[str]:
    """Every text an argument may be found in, newest customer message first."""
    said = list(reversed(customer_messages(request)))
    others = [m.content for m in reversed(request.messages)
              if m.content and m.role in ("user", "assistant") and m.content not in said]
    return said + others


def newest_customer_index(request: ChatRequest) -> int:
    found = [i for i, m in enumerate(request.messages)
             if m.role == "user" and m.content and m.name in (None, "user", "customer")]
    return found[-1] if found else 0


def tool_calls_of(request: ChatRequest, tool: str, since: int = 0) -> list[tuple[int, dict]]:
    return [(i, c.arguments) for i, m in enumerate(request.messages) if i >= since and m.role == "assistant"
            for c in m.tool_calls if c.name == tool]


def results_of(request: ChatRequest, tool: str) -> list[tuple[int, str]]:
    ids = {c.id: c.name for m in request.messages if m.role == "assistant" for c in m.tool_calls}
    return [(i, m.content or "") for i, m in enumerate(request.messages)
            if m.role == "tool" and (m.name == tool or ids.get(m.tool_call_id or "") == tool)]


def newest_result(request: ChatRequest, tool: str) -> str | None:
    found = results_of(request, tool)
    return found[-1][1] if found else None


def answered_since(request: ChatRequest, index: int) -> bool:
    """This agent already wrote a reply after message `index`."""
    return any(m.role == "assistant" and m.content and not m.tool_calls and m.name in (None, request.agent)
               for m in request.messages[index + 1:])


def stem(word: str) -> str:
    return word.lower()[:5]


def in_scope(step: str, request: ChatRequest) -> bool:
    found = SCOPE.search(step)
    if not found:
        return True
    topics = {stem(w) for w in WORD.findall(found.group(1)) if w.lower() not in ("or", "and", "the")}
    said = {stem(w) for text in customer_messages(request) for w in WORD.findall(text)}
    return bool(topics & said)


# --- tools and their arguments ----------------------------------------------------------------

def shape(example: str) -> re.Pattern:
    if "@" in example:
        return re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
    pattern = ""
    for run in re.findall(r"[A-Z]+|[a-z]+|\d+|\s+|.", example):
        if run.isdigit():
            pattern += r"\d{%d,%d}" % (max(1, len(run) - 1), len(run) + 2) if len(run) > 1 else r"\d+"
        elif run.isupper():
            pattern += "[A-Z]{%d}" % len(run) if len(run) <= 4 else "[A-Z]+"
        elif run.isalpha():
            pattern += "[A-Za-z]+"
        elif run.isspace():
            pattern += r"\s?"
        else:
            pattern += re.escape(run)
    return re.compile(r"(?<![\w])" + pattern + r"(?![\w])")


def find_value(example: str, request: ChatRequest) -> str | None:
    if not re.search(r"\d|@", example):  # a plain word: only itself
        return next((example for text in conversation(request) if example.lower() in text.lower()), None)
    pattern = shape(example)
    for text in conversation(request):
        for match in pattern.finditer(text):
            if not NEGATED.search(text[:match.start()][-40:]):
                return match.group(0)
    return None


def ticket(request: ChatRequest) -> str:
    said = customer_messages(request) or conversation(request)[:1]
    newest = said[-1] if said else ""
    name = re.search(r"\b(?:I'm|I am|my name is|this is)\s+([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)", " ".join(said))
    refs = list(dict.fromkeys(re.findall(r"\b[A-Z]{1,4}[-/]?\d[\w-]*\b", " ".join(said))))
    first = re.split(r"(?<=[.!?])\s", newest.strip())[0] if newest else "as per thread"
    return (f"Request: {first}\nCustomer: {name.group(1) if name else 'as per thread'}\n"
            f"Ref: {', '.join(refs) or 'none quoted'}\nDetail: {' / '.join(said)}")


def arguments(tool: ToolDef, request: ChatRequest) -> tuple[dict, str | None]:
    """The call's arguments, or the description of the first one it cannot find."""
    schema = tool.parameters or {}
    props = schema.get("properties") or {}
    required = set(schema.get("required") or props)
    args: dict = {}
    words = {stem(w) for text in conversation(request) for w in WORD.findall(text)}
    for name, prop in props.items():
        desc = prop.get("description") or prop.get("title") or name
        kind = prop.get("type") or next((p.get("type") for p in prop.get("anyOf", []) if p.get("type") != "null"), "string")
        example = EXAMPLE.search(desc)
        if prop.get("enum"):
            args[name] = max(prop["enum"], key=lambda v: len({stem(w) for w in WORD.findall(str(v))} & words))
        elif example:
            value = find_value(example.group(1), request)
            if value is None:
                if name in required:
                    return args, desc
                continue
            args[name] = float(value) if kind == "number" else int(value) if kind == "integer" else value
        elif kind == "boolean":
            args[name] = True
        elif kind == "string":
            args[name] = ticket(request)
        elif name in required:
            return args, desc
    return args, None


def reads_refused(answer: str) -> bool:
    """An answer that says the tool did not do it: a false flag, a 4xx/5xx code, a refusal word."""
    low = answer.lower()
    if re.search(r"""["']?(ok|success|accepted|approved|done|confirmed|lodged|booked)["']?\s*[:=]\s*["']?(false|0|no)\b""",
                  low):
        return True
    if re.search(r"""["']?(status|code|http_status|status_code)["']?\s*[:=]\s*["']?([45]\d\d)\b""", low) or \
            re.match(r"^\(?\s*[45]\d\d\b", low.strip()):
        return True
    return any(word in low for word in REFUSALS)


def broke(answer: str) -> bool:
    return bool(ERROR.search(answer)) and not answer.lstrip().startswith(("{", "["))


def outcome(tool: str, answer: str) -> str:
    detail = answer.strip()
    try:
        data = json.loads(detail)
        if isinstance(data, dict):
            detail = "; ".join(f"{k}: {v}" for k, v in data.items())
    except ValueError:
        pass
    if reads_refused(answer):
        return f"Outcome: not possible — {tool} declined the request.\nDetail: {detail}"
    if any(word in answer.lower() for word in PENDING):
        return f"Outcome: pending — {tool} has lodged the request; it awaits a further step.\nDetail: {detail}"
    return f"Outcome: completed — actioned via {tool}.\nDetail: {detail}"


def offered_tool(step: str, request: ChatRequest) -> ToolDef | None:
    """The tool a step names: one offered, or one already called (a framework that asks for the
    reply to a tool's answer offers no tools then)."""
    called = [ToolDef(name=c.name) for m in request.messages if m.role == "assistant" for c in m.tool_calls]
    for tool in [*request.tools, *called]:
        if not tool.handoff_to and re.search(r"(?<![\w])`?" + re.escape(tool.name) + r"`?(?![\w])", step):
            return tool
    return None


def colleague(name: str, request: ChatRequest) -> ToolDef | None:
    name = name.strip().lower()
    for tool in request.tools:
        target = (tool.handoff_to or "").lower()
        if target == name or tool.name.lower() in (name, f"transfer_to_{name}", f"ask_{name}"):
            return tool
    return None


# --- acting ---------------------------------------------------------------------------------

def act(request: ChatRequest):
    since = newest_customer_index(request)
    for step in steps(instructions(request)):
        reply = apply(step, request, since)
        if reply is not None:
            return reply
    return say("Outcome: completed — no further action is required from this desk.")


def apply(step: str, request: ChatRequest, since: int):
    low = step.lower()
    tool = offered_tool(step, request)
    quoted = QUOTED.search(step)
    if low.startswith(("where ", "should ", "if ", "when ")) and tool is not None:
        return outcome_step(step, tool.name, request, quoted)
    if not in_scope(step, request):
        return None
    delegated = DELEGATE.search(step)
    if delegated and tool is None:
        mate = colleague(delegated.group(2), request)
        if mate is None or tool_calls_of(request, mate.name):
            return None
        if mate.handoff_to:  # the handoff, with the ticket as the turn's text
            return ChatReply(text=f"Handing over to {mate.handoff_to}.\n{ticket(request)}",
                             tool_calls=(ToolCallRequest(name=mate.name),), finish_reason="tool_calls")
        args, missing = arguments(mate, request)
        return ask(missing) if missing else call(mate.name, **args)
    if tool is not None:
        return tool_step(step, tool, request, since)
    if quoted and re.match(r"(state|reply|close with|conclude with|say|respond)\b", low):
        return say(quoted.group(1))
    if low.startswith("confirm"):
        return confirm(request)
    return None


def tool_step(step: str, tool: ToolDef, request: ChatRequest, since: int):
    low = step.lower()
    if re.match(r"(report|relay|set out|restate)\b", low):
        answer = newest_result(request, tool.name)
        if answer is None or answered_since(request, results_of(request, tool.name)[-1][0]):
            return None
        return say(outcome(tool.name, answer))
    if not any(t.name == tool.name for t in request.tools):  # named, but not offered now
        return None
    until = re.search(r"until it (?:reports|shows|returns|says)\s+[\"'`]?([\w-]+)", step, re.I)
    args, missing = arguments(tool, request)
    calls = tool_calls_of(request, tool.name)
    if until:
        answer = newest_result(request, tool.name)
        if answer is not None and until.group(1).lower() in answer.lower():
            return None
        if calls and answer is None:
            return None
    elif calls and (calls[-1][0] > since or calls[-1][1] == args):
        return None
    if missing:
        return ask(missing)
    return call(tool.name, **args)


def outcome_step(step: str, tool: str, request: ChatRequest, quoted):
    found = results_of(request, tool)
    if not found or answered_since(request, found[-1][0]):
        return None
    answer = found[-1][1]
    low = step.lower()
    if re.search(r"raises an error|errors|is unavailable|breaks", low):
        applies = broke(answer)
    elif re.search(r"is declined|fails|is refused|is not accepted|does not go through", low):
        applies = reads_refused(answer)
    else:
        words = re.search(r"(?:reports|returns|shows|answers|says)\s+(.+?)(?:,|$)", step, re.I)
        options = [w.strip(" \"'`") for w in re.split(r"\bor\b|,", words.group(1))] if words else []
        applies = any(o and o.lower() in answer.lower() for o in options)
    if not applies:
        return None
    after = step.split(",", 1)[1] if "," in step else ""
    quote = QUOTED.search(after) or quoted
    return say(quote.group(1)) if quote else say(outcome(tool, answer))


def confirm(request: ChatRequest):
    made = [(i, c) for i, m in enumerate(request.messages) if m.role == "assistant" for c in m.tool_calls
            if not c.name.startswith("transfer_to")]
    if not made:
        return None
    i, last = made[-1]
    if answered_since(request, i + 1):
        return None
    particulars = ", ".join(f"{k} {v}" for k, v in last.arguments.items() if len(str(v)) < 60)
    return say(f"Outcome: completed — your request has been actioned and lodged ({particulars}). "
               "Kind regards.")


def ask(description: str):
    return say(f"Outcome: pending — before this can be actioned I require the following: {description}. "
               "Could you please provide it?")


# --- selector and structured replies ----------------------------------------------------------

def select(request: ChatRequest) -> str:
    text = instructions(request) + "\n" + "\n".join(m.content or "" for m in request.messages if m.role == "user")
    heard = {m.name for m in request.messages if m.name}
    heard |= set(re.findall(r"^(\w+):", "\n".join(m.content or "" for m in request.messages), re.M))
    order = re.search(r"(\w+(?:\s*(?:->|→|, then)\s*\w+)+)", text)
    if order:
        names = re.split(r"\s*(?:->|→|, then)\s*", order.group(1))
        for name in names:
            if name not in heard:
                return name
        return names[-1]
    roles = re.findall(r"^(\w+):\s*(.+)$", text, re.M)
    said = {stem(w) for t in customer_messages(request) for w in WORD.findall(t)}
    fresh = [r for r in roles if r[0] not in heard] or roles
    return max(fresh, key=lambda r: len({stem(w) for w in WORD.findall(r[1])} & said))[0] if fresh else ""


def structured(request: ChatRequest) -> str:
    props = (request.response_schema or {}).get("properties") or {}
    words = {stem(w) for text in conversation(request) for w in WORD.findall(text)}
    out = {}
    for name, prop in props.items():
        example = EXAMPLE.search(prop.get("description") or "")
        if prop.get("enum"):
            out[name] = max(prop["enum"], key=lambda v: len({stem(w) for w in WORD.findall(str(v))} & words))
        elif prop.get("type") == "boolean":
            out[name] = True
        elif prop.get("type") in ("integer", "number"):
            number = next((n for t in conversation(request) for n in re.findall(r"\d+", t)), "0")
            out[name] = int(number)
        else:
            out[name] = (find_value(example.group(1), request) if example else None) or ticket(request)
    return json.dumps(out)


def policy(request: ChatRequest):
    if request.agent == "selector":
        return say(select(request))
    if request.response_schema and not request.tools:
        return say(structured(request))
    return act(request)
