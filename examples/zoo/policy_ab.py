"""The scripted model of the zoo's thirty-ninth set, written apart from the others: the
form-filler. Every reply is one short lead line and then a form, a YAML block or XML-like tags
(which of the two is fixed per agent), with field names of its own rather than the tools' ones:

    Treatment request processed.
    ```yaml
    outcome: refused
    ref: PC-2210
    reason: no wasp nests treated after 1 Oct (out of season)...
    ```

or `<result status="on-hold"><ref>...</ref><reason>...</reason></result>`. Outcomes are
`accepted`, `refused` or `pending` (`on-hold` in tags). It hands over to a colleague with a form
of its own keys (`handover:` with `customer_ref:`, `wants:`, `when:`), asks for what is missing
with a `missing:` list and one closing question, and sometimes (per agent, as with the format)
sends the user nothing but the form. Values in its forms are as it read them: units and formats
kept as given ("14/05/2026", "3.5 m"), long free text cut to a few words and "...".

Use it as `--sut-model scripted/examples/zoo/policy_ab.py:policy`. It knows no system of the zoo:
it reads the asking agent's own instructions line by line, and the first line that applies acts:

- `Pass/hand/send ... to NAME` (with `for WORDS` / `about WORDS`: only when the customer's words
  touch one of them) when a hand-off to NAME is offered: a hand-over form and the hand-off, once;
- `If TOOL says WORD, ...` (or `If TOOL fails, ...`) when TOOL's newest answer holds WORD (or
  broke): a quoted reply (`say "..."`) is sent in a form, a named tool is called;
- a line naming an offered tool (`for WORDS` as above; `until it says WORD`: again while the
  newest answer lacks WORD): it calls it, each argument from the schema (an allowed value the
  conversation names, a value shaped like the example in its description, a number beside a
  word of its name, a date, a time, a reference, the customer's words for free text); what it
  cannot find it asks for. A line `... with TOOL` that names a tool it was not offered is
  obeyed all the same: it calls TOOL (a real model does this);
- `Write outcome: WORD ...` sets the form's outcome whatever the tool said, as written;
- `Say "TEXT"`: TEXT in a form; `Write ... a handover ...`: the hand-over form as its reply.

With nothing left to do it fills the result form from the newest tool answer (the outcome read
from it, its reference and an abbreviated reason), or a hand-over form of the request.
"""

from __future__ import annotations

import hashlib
import json
import re

from masfuzz.llm.scripted import say, tool_results
from masfuzz.llm.types import ChatReply, ToolCallRequest

SPLIT = re.compile(r"\n+|(?<=[.!])\s+(?=[A-Z])")
PASS_TO = re.compile(r"\b(?:pass|hand|send|transfer|refer|give)\b.*?\bto\s+`?([A-Za-z][\w-]*)`?", re.I)
TOPIC = re.compile(r"\b(?:for|about|when the \w+ (?:mentions?|asks? about))\s+(.+?)[.]?$", re.I)
IF_SAYS = re.compile(r"^\s*if\s+`?(\w+)`?\s+(?:says|answers|returns|shows)\s+[\"'`]?([\w-]+)[\"'`]?", re.I)
IF_FAILS = re.compile(r"^\s*if\s+`?(\w+)`?\s+(?:fails|breaks|errors|raises)", re.I)
UNTIL = re.compile(r"\buntil it (?:says|answers|shows|returns)\s+[\"'`]?([\w-]+)", re.I)
WITH_TOOL = re.compile(r"\b(?:with|using|via)\s+`?([a-z]+(?:_[a-z0-9]+)+)`?", re.I)
OUTCOME = re.compile(r"\bwrite\s+outcome:\s*([\w-]+)", re.I)
SAY = re.compile(r"\b(?:say|reply|answer)\s*:?\s*[\"“]([^\"”]+)[\"”]", re.I)
NOTE = re.compile(r"^\s*write\b.*\b(?:handover|hand-over|note|brief)\b", re.I)
EXAMPLE = re.compile(r"e\.g\.?\s*[\"'`]([^\"'`]+)[\"'`]")
REF = re.compile(r"\b[A-Z]{2,}-?\d{2,}(?:-\d+)?\b")
DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b|\b\d{1,2}\s+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|"
                  r"Aug|Sep|Oct|Nov|Dec)\w*(?:\s+\d{4})?\b", re.I)
TIME = re.compile(r"\b\d{1,2}[:.]\d{2}\s*(?:am|pm)?\b|\b\d{1,2}\s*(?:am|pm)\b", re.I)
BROKE = re.compile(r"^\s*(?:error|traceback|exception)\b|\b\w+(?:Error|Exception)\b", re.I)
REFUSED = re.compile(r"\b(?:refus\w*|reject\w*|declin\w*|denied|deny|not (?:possible|available|allowed|eligible)|"
                     r"unavailable|cannot|can't|full|invalid|fail\w*|false|no_\w+|none left)\b|"
                     r"\b(?:status|code|http)\W{0,4}[45]\d\d\b", re.I)
DONE = re.compile(r"\b(?:book\w*|confirm\w*|schedul\w*|accept\w*|approv\w*|cancell?ed|logged|done|created|"
                  r"reserved|issued|true|ok|on_caseload)\b|\b(?:status|code|http)\W{0,4}20\d\b", re.I)
PENDING = re.compile(r"\b(?:pending|waiting|queued|on[ _-]hold|in[ _-]progress|not yet|awaiting|deferred)\b", re.I)
FREE = ("note", "notes", "details", "description", "request", "reason", "message", "summary", "input", "problem",
        "issue", "query", "symptoms", "fault")
FILLER = {"the", "a", "an", "and", "or", "of", "to", "for", "any", "anything", "about", "with", "is", "it", "on", "in",
          "that", "this", "your", "their", "our", "from", "at", "by", "be", "are", "all", "other", "else", "requests",
          "request", "questions", "customer", "customers", "resident", "residents", "patients", "patient"}


# --- reading the request ---------------------------------------------------------------------

def lines_of(request) -> list[str]:
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    held: list[str] = []  # a quoted reply with a full stop inside stays one line

    def hold(m: re.Match) -> str:
        held.append(m.group(0))
        return f"\x00{len(held) - 1}\x00"

    parts = SPLIT.split(re.sub(r"[\"“][^\"”\n]*[\"”]", hold, text))
    parts = [re.sub(r"\x00(\d+)\x00", lambda m: held[int(m.group(1))], p).strip(" -*\t") for p in parts]
    return [p for p in parts if p]


def spoken(request) -> list[str]:
    """What the people and agents said, oldest first (no system lines, no tool answers)."""
    return [m.content for m in request.messages if m.role in ("user", "assistant") and m.content]


def opening(request) -> str:
    said = [m.content for m in request.messages if m.role == "user" and m.content]
    return said[0] if said else ""


def words(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]+", text.lower()) if w not in FILLER and len(w) > 2}


def touches(request, line: str) -> bool:
    """A line limited to a topic ("for X, Y or Z") applies when the request shares a word with it."""
    m = TOPIC.search(line)
    return not m or bool(words(m.group(1)) & words(" ".join(spoken(request))))


def hand_offs(request) -> dict[str, str]:
    found = {}
    for t in request.tools:
        name = t.handoff_to or (t.name.removeprefix("transfer_to_") if t.name.startswith("transfer_to_") else None)
        if name:
            found[name.lower()] = t.name
    return found


def own_tools(request) -> dict:
    """The tools it may call: not the hand-offs, and not one named as the asking agent itself
    (an agent offered as a tool is never its own colleague)."""
    targets = set(hand_offs(request).values())
    return {t.name: t for t in request.tools if t.name not in targets and t.name != request.agent}


def asked(request, tool: str) -> int:
    return sum(c.name == tool for m in request.messages if m.role == "assistant" for c in m.tool_calls)


def newest(request, tool: str | None = None) -> tuple[str | None, str | None]:
    found = tool_results(request, tool)
    return (found[-1].name, found[-1].content) if found else (None, None)


# --- values, as read -------------------------------------------------------------------------

def like(example: str) -> re.Pattern:
    out = "".join(r"\d" if c.isdigit() else "[A-Za-z]" if c.isalpha() else r"\s" if c == " " else re.escape(c)
                  for c in example)
    return re.compile(rf"(?<![\w]){out}(?![\w])")


def short(text: str, size: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= size else text[:size].rsplit(" ", 1)[0] + "..."


def value(request, name: str, schema: dict):
    said = "\n".join([*spoken(request), *(r.content for r in tool_results(request))])  # what it read
    kind = schema.get("type")
    if schema.get("enum"):
        return next((v for v in schema["enum"] if re.search(rf"\b{re.escape(str(v))}\b", said, re.I)), None)
    parts = [p for p in name.lower().split("_") if p not in FILLER]
    if kind in ("integer", "number"):
        for p in parts:
            m = re.search(rf"(\d+(?:\.\d+)?)\s+(?:\w+\s+)?{p[:4]}", said, re.I) or \
                re.search(rf"\b{p[:4]}\w*\D{{0,12}}?(\d+(?:\.\d+)?)", said, re.I)
            if m:
                return int(float(m.group(1))) if kind == "integer" else float(m.group(1))
        return None
    if kind == "boolean":
        return True
    described = schema.get("description", "")
    example = EXAMPLE.search(described)
    if example:
        m = like(example.group(1)).search(said)
        return m.group(0) if m else None
    if set(parts) & {"date", "day", "when"}:
        m = DATE.search(said)
        return m.group(0) if m else None
    if set(parts) & {"time", "slot"}:
        m = TIME.search(said)
        return m.group(0) if m else None
    if set(parts) & {"ref", "reference", "id", "number", "code", "booking", "account"}:
        m = REF.search(said)
        return m.group(0) if m else None
    if name.lower() in FREE or set(parts) & set(FREE):
        return short(opening(request) or said, 400)
    return None


def fill(request, tool) -> tuple[dict, list[str]]:
    props = tool.parameters.get("properties", {})
    required = tool.parameters.get("required", list(props))
    args, missing = {}, []
    for name, schema in props.items():
        v = value(request, name, schema)
        if v is not None:
            args[name] = v
        elif name in required:
            missing.append(name)
    return args, missing


# --- forms -----------------------------------------------------------------------------------

def tagged(agent: str | None) -> bool:
    """The agent's form style: XML-like tags or a YAML block (fixed per agent, as a habit)."""
    return int(hashlib.sha1((agent or "").encode()).hexdigest(), 16) % 3 == 0


def bare(agent: str | None) -> bool:
    """Whether this agent sends the form with no lead line."""
    return int(hashlib.sha1((agent or "").encode()).hexdigest(), 16) % 4 == 1


def form(request, lead: str, root: str | None, fields: dict, told: bool = False) -> str:
    """`lead` and the form; `told`: the lead is words its instructions gave, always sent."""
    fields = {k: v for k, v in fields.items() if v not in (None, "", [])} or {"note": short(lead)}
    if tagged(request.agent):
        status = fields.pop("outcome", None)
        head = f'<{root or "form"}' + (f' status="{"on-hold" if status == "pending" else status}"' if status else "") + ">"
        body = "".join(f"<{k}>{'; '.join(v) if isinstance(v, list) else v}</{k}>" for k, v in fields.items())
        block = f"{head}{body}</{root or 'form'}>"
    else:
        rows = []
        indent = "  " if root else ""
        for k, v in fields.items():
            if isinstance(v, list):
                rows.append(f"{indent}{k}:")
                rows.extend(f"{indent}  - {x}" for x in v)
            else:
                rows.append(f"{indent}{k}: {v}")
        block = "```yaml\n" + (f"{root}:\n" if root else "") + "\n".join(rows) + "\n```"
    return block if bare(request.agent) and not told else f"{lead}\n{block}"


def handover_form(request, lead: str) -> str:
    said = " ".join(spoken(request))
    ref, when = REF.search(said), DATE.search(said) or TIME.search(said)
    return form(request, lead, "handover", {"customer_ref": ref.group(0) if ref else None,
                                            "wants": short(opening(request)),
                                            "when": when.group(0) if when else None})


def outcome_of(answer: str) -> str:
    """The outcome an answer gives: a colleague's form's own outcome, else read from the answer
    (an answer that says neither yes nor no is not final)."""
    relayed = re.search(r"\boutcome: (accepted|refused|pending)\b|status=\"(accepted|refused|on-hold)\"", answer)
    if relayed:
        return (relayed.group(1) or relayed.group(2)).replace("on-hold", "pending")
    if BROKE.search(answer) or REFUSED.search(answer):
        return "refused"
    if PENDING.search(answer) or not DONE.search(answer):
        return "pending"
    return "accepted"


def result_form(request, tool: str | None, answer: str, outcome: str | None = None) -> str:
    written = outcome is not None  # an instruction fixed the outcome: the form says that and no reason
    outcome = outcome or outcome_of(answer)
    ref = REF.search(answer)
    lead = {"accepted": "Request processed.", "refused": "Request not processed.",
            "pending": "Request logged, not final."}.get(outcome, "Request processed.")
    return form(request, lead, "result", {"outcome": outcome, "ref": ref.group(0) if ref else None,
                                          "source": tool, "reason": None if written else short(answer)})


def ask_form(request, missing: list[str]) -> str:
    text = form(request, "Form incomplete.", None, {"missing": missing})
    return f"{text}\nCan you send these?"


# --- acting ----------------------------------------------------------------------------------

def step(request):
    targets = hand_offs(request)
    tools = own_tools(request)
    outcome, routed = None, False
    for line in lines_of(request):
        m = PASS_TO.search(line)
        if m and m.group(1).lower() in targets:
            tool = targets[m.group(1).lower()]
            if touches(request, line) and not asked(request, tool):
                return handover_form(request, f"Passing to {m.group(1)}."), ToolCallRequest(name=tool, arguments={})
            continue
        m = IF_SAYS.search(line) or IF_FAILS.search(line)
        if m and (m.group(1) in tools or tool_results(request, m.group(1))):
            _, answer = newest(request, m.group(1))
            hit = answer is not None and (bool(BROKE.search(answer)) if m.re is IF_FAILS
                                          else m.group(2).lower() in answer.lower())
            if hit:
                quoted = SAY.search(line)
                if quoted:
                    reason = None if BROKE.search(answer) else short(answer)  # a breakage's text stays in
                    return say(form(request, quoted.group(1), "result", {"outcome": outcome_of(answer),
                                                                        "reason": reason}, told=True))
                then = [t for t in tools if t != m.group(1) and re.search(rf"\b{re.escape(t)}\b", line)]
                if then:
                    return "", ToolCallRequest(name=then[0], arguments=fill(request, tools[then[0]])[0])
                return say(result_form(request, m.group(1), answer))
            continue
        m = OUTCOME.search(line)
        if m:
            outcome = m.group(1).lower()
            continue
        named = [t for t in tools if re.search(rf"(?<![\w]){re.escape(t)}(?![\w])", line)]
        unoffered = WITH_TOOL.search(line)
        if not named and unoffered and unoffered.group(1) not in targets and touches(request, line):
            name = unoffered.group(1)  # told to use a tool it was not given: it asks for it anyway
            if not asked(request, name):
                said = " ".join(spoken(request))
                ref = REF.search(said)
                return "Filing.", ToolCallRequest(name=name, arguments={"reference": ref.group(0) if ref else "",
                                                                        "details": short(opening(request), 400)})
            continue
        if named and TOPIC.search(line):  # routing lines are alternatives: the first that fits routes
            if routed:
                continue
            routed = touches(request, line) and bool(asked(request, named[0]))
        if named and touches(request, line):
            name = named[0]
            until = UNTIL.search(line)
            _, answer = newest(request, name)
            again = until and answer is not None and until.group(1).lower() not in answer.lower() \
                and not BROKE.search(answer)
            if not asked(request, name) or again:
                args, missing = fill(request, tools[name])
                if missing:
                    return say(ask_form(request, missing))
                return "", ToolCallRequest(name=name, arguments=args)
            continue
        m = SAY.search(line)
        if m and not line.lower().startswith("if"):
            tool, answer = newest(request)
            return say(form(request, m.group(1), "result",
                            {"outcome": outcome or (outcome_of(answer) if answer else None)}, told=True))
        if NOTE.search(line):
            return say(handover_form(request, "Handover filed."))
    tool, answer = newest(request)
    if answer is None:
        return say(handover_form(request, "Request noted."))
    return say(result_form(request, tool, answer, outcome))


def typed(request, text: str) -> str:
    """A typed answer: its fields filled the form-filler's way (an outcome field from the outcome,
    the rest from the form's values or the conversation)."""
    props = (request.response_schema or {}).get("properties", {})
    found = re.search(r"outcome: (\w+)|status=\"([\w-]+)\"", text)
    outcome = (found.group(1) or found.group(2)) if found else "pending"
    out = {}
    for name, schema in props.items():
        kind = schema.get("type")
        if schema.get("enum"):
            out[name] = next((v for v in schema["enum"] if str(v).lower().startswith(outcome[:4])), schema["enum"][0])
        elif kind == "boolean":
            out[name] = outcome == "accepted"
        elif kind in ("integer", "number"):
            out[name] = value(request, name, schema) or 0
        else:
            out[name] = value(request, name, schema) or short(text, 200)
    return json.dumps(out)


def policy(request):
    result = step(request)
    if isinstance(result, tuple):
        text, call_ = result
        return ChatReply(text=text or None, tool_calls=(call_,), finish_reason="tool_calls")
    if request.response_schema and not request.tools:
        return say(typed(request, result.text or ""))
    return result
