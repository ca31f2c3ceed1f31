"""The scripted model of the zoo's forty-third set, written apart from the others: the chain-worker.

Use it as `--sut-model scripted/examples/zoo/policy_af.py:policy`. It knows no system of the zoo:
it reads each agent's own instructions, the tools it is offered (names, schemas, docstrings), the
tools' answers and the conversation, and does what the instructions say, literally, a wrong line
included. Its character:

- it looks things up before it acts: when a line asks it to act with a tool and its lines also
  name a look-up tool (a name that starts with look/search/get/check/find/fetch/list/verify) it
  has not called yet, it calls the look-up first, whatever order the lines give, then the acting
  tool;
- an acting tool's arguments are copied from the look-up's answer first (a key of the same name,
  or a value of the shape the parameter's description shows, `like "AB-1234"`), and only then from
  the conversation: a brief's labelled field ("Voice part: tenor"), a count the customer put next
  to its noun ("3 tiers"), an email, date, time or reference by the parameter's name, a person's
  name where they introduced themselves, the customer's own words for free text;
- when a required argument is in neither, it asks the customer one question ("Could you tell me
  the booking reference?") rather than guess;
- it restates the customer's intent in its own paraphrase, numbers and ordinals in words ("two
  guests", "the third"), an ISO date with its weekday beside it ("Tuesday 2026-06-02");
- it closes a report with one sentence citing the identifiers the tools returned ("For your
  records: KB-2231, SL-77.");
- instructions it follows, one line (or sentence) at a time, the first that still asks for
  something: `If TOOL says/returns/answers W1 or W2, say "TEXT"`; `If TOOL fails/raises/errors,
  say "TEXT"`; `Hand off / pass / transfer / send ... to NAME [when the request mentions A, B or
  C]` (a hand-over where one is offered, an agent-as-tool call where NAME is a tool, else a
  message "Passing this to NAME: ..." in a group chat); a line naming an offered tool (called once;
  `... until it says W`: again while its newest answer lacks W); `Say / Reply "TEXT"`; `Report
  the result of TOOL`;
- a tool that broke gets "Sorry, TOOL is not working at the moment, so nothing was done." unless
  a line plans for it. Where the agent has an output type (a response schema, or a `final_result`
  output tool) it fills the fields from its reply: text fields get the reply, yes/no fields
  whether the tools said no, fields named like an answer's key get that value.
"""

from __future__ import annotations

import ast
import datetime as dt
import json
import re

from masfuzz.llm.scripted import call, handoff, resolve_handoff, say, tool_results

LOOKUP = re.compile(r"^(?:look|search|get|check|find|fetch|list|verify|read)", re.I)
NEGATIVE = re.compile(r"\b(?:no|not|declined|refused|rejected|denied|unavailable|full|failed|false|"
                      r"invalid|expired|closed|[45]\d\d)\b", re.I)
BROKE = re.compile(r"\b(?:error|exception|traceback|raised)\b|\b\w+Error\b", re.I)
IF_SAYS = re.compile(r"^(?:if|when)\s+(\w+)\s+(?:says?|returns?|answers?|reports?|shows?)\s+(.+?)[,:]\s*"
                     r"(?:say|reply|tell[^\"]*)\s*[\"“]([^\"”]+)[\"”]", re.I)
IF_BREAKS = re.compile(r"^(?:if|when)\s+(\w+)\s+(?:fails?|raises?|errors?|breaks?)\b.*?[\"“]([^\"”]+)[\"”]", re.I)
PASS = re.compile(r"\b(?:hand(?:\s+off)?|pass|transfer|send|route|refer)\b.*?\bto\s+([A-Za-z][\w-]*)"
                  r"(?:.*?\b(?:mentions?|is about|asks? for|for)\s+(.+?))?\W*$", re.I)
SAY = re.compile(r"^(?:say|reply|answer|close with)\s*:?\s*[\"“]([^\"”]+)[\"”]", re.I)
REPORT = re.compile(r"^report\b.*?\b(\w+)\W*$", re.I)
UNTIL = re.compile(r"\buntil\b.*?\b(?:says?|shows?|reads?|returns?)\s+[\"'`]?([\w-]+)", re.I)
SHAPE = re.compile(r"""(?:like|e\.g\.|such as|for example)[,:]?\s*["'“]([^"'”]+)["'”]""", re.I)
IDENT = re.compile(r"\b[A-Z]{1,5}-?\d{2,7}[A-Z]?\b")
NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve".split()
ORDINALS = {"1st": "first", "2nd": "second", "3rd": "third", "4th": "fourth", "5th": "fifth"}


# --- reading the request ---------------------------------------------------------------------


def instructions(request) -> list[str]:
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    out = []
    for raw in text.splitlines():
        raw = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s+", "", raw).strip()
        # sentences, not splitting inside a quotation
        out += [s.strip() for s in re.split(r'(?<=[.!?])\s+(?=[A-Z])(?=(?:[^"]*"[^"]*")*[^"]*$)', raw) if s.strip()]
    return out


def customer_words(request) -> str:
    return " ".join(m.content or "" for m in request.messages if m.role == "user")


def conversation(request) -> list[str]:
    return [m.content or "" for m in request.messages if m.role in ("user", "assistant") and m.content]


def my_calls(request) -> list:
    return [c for m in request.messages if m.role == "assistant" for c in m.tool_calls]


def already_said(request, text: str) -> bool:
    return any(m.role == "assistant" and text in (m.content or "") for m in request.messages)


def decode(answer: str):
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(answer)
        except (ValueError, SyntaxError, TypeError, MemoryError):
            pass
    return None


def broke(answer: str) -> bool:
    return decode(answer) is None and bool(BROKE.search(answer))


def flat(value, prefix="") -> dict:
    """An answer's keys, nested ones too, to their values."""
    out = {}
    if isinstance(value, dict):
        for k, v in value.items():
            out[str(k).lower()] = v
            out.update(flat(v))
    elif isinstance(value, list):
        for v in value:
            for k, x in flat(v).items():
                out.setdefault(k, x)
    return out


def offered_tools(request) -> dict:
    return {t.name: t for t in request.tools
            if not t.handoff_to and not t.name.startswith(("transfer_to", "final_result"))}


# --- acting ----------------------------------------------------------------------------------


def shape_of(sample: str) -> str:
    out = ""
    for run in re.findall(r"\d+|[A-Z]+|[a-z]+|\s+|.", sample):
        out += (rf"\d{{{len(run)}}}" if run.isdigit() else r"[A-Z]+" if run.isupper()
                else r"[A-Za-z]+" if run.isalpha() else r"\s?" if run.isspace() else re.escape(run))
    return rf"(?<![\w-]){out}(?![\w-])"


def by_name(name: str) -> str | None:
    if re.search(r"e-?mail", name, re.I):
        return r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    if re.search(r"date|day", name, re.I):
        return r"\b\d{4}-\d{2}-\d{2}\b"
    if re.search(r"time|hour", name, re.I):
        return r"\b\d{1,2}:\d{2}\b"
    if re.search(r"ref|id$|_id|number|code|booking|order", name, re.I):
        return IDENT.pattern
    if re.search(r"count|guests|people|qty|quantity|seats|nights|size", name, re.I):
        return r"\b\d{1,3}\b"
    return None


def argument(request, name: str, spec: dict):
    """A value for one parameter: the look-up's answer first, then the conversation."""
    spec = next((s for s in spec.get("anyOf", []) if s.get("type") != "null"), spec)
    found = [flat(decode(r.content)) for r in tool_results(request) if not broke(r.content)]
    for keys in reversed(found):
        if name.lower() in keys and not isinstance(keys[name.lower()], (dict, list)):
            return keys[name.lower()]
    label = re.escape(name.replace("_", " "))
    for text in reversed(conversation(request)):  # a brief's "Voice part: tenor." line
        if m := re.search(rf"\b{label}\s*:\s*([^.;,\n]+)", text, re.I):
            value = m[1].strip().strip("\"'`")
            if spec.get("type") == "integer" and value.isdigit():
                return int(value)
            if value and spec.get("type") in (None, "string") and ("enum" not in spec or value in spec["enum"]) \
                    and value != name:  # a field left as its own name is a blank, not a value
                return value
    if re.search(r"name|singer|customer|guest|owner|person|who", name, re.I):
        if m := re.search(r"\b(?:I'm|I am|my name is|this is)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)+)", customer_words(request)):
            return m[1]
    if spec.get("type") == "integer":  # a count: the number the customer put next to its noun
        stem = re.escape(name.lower().split("_")[-1][:4])
        heard = customer_words(request)
        if m := (re.search(rf"\b(\d{{1,3}})[\s-]+(?:[a-z]+[\s-]+)?{stem}", heard, re.I)
                 or re.search(rf"\b{stem}\w*\s*(?:of|:|for)?\s*(\d{{1,3}})\b", heard, re.I)):
            return int(m[1])
    if "enum" in spec:
        heard = customer_words(request).lower()
        return next((o for o in spec["enum"] if str(o).lower() in heard), None)
    sample = SHAPE.search(spec.get("description") or "")
    regex = shape_of(sample[1]) if sample else by_name(name)
    texts = [r.content for r in reversed(tool_results(request))] + list(reversed(conversation(request)))
    if regex is None:
        if spec.get("type", "string") == "string" and re.search(r"request|message|question|note|details|task|query|text", name):
            return customer_words(request)
        return None
    for text in texts:
        if m := re.search(regex, text):
            hit = m[0]
            if spec.get("type") == "integer":
                return int(re.sub(r"\D", "", hit) or 0)
            if spec.get("type") == "number":
                return float(re.sub(r"[^\d.]", "", hit) or 0)
            return hit
    return None


def act_with(request, tool):
    props = (tool.parameters or {}).get("properties") or {}
    args = {}
    for name in (tool.parameters or {}).get("required") or []:
        value = argument(request, name, props.get(name, {}))
        if value is None:
            return say(f"Could you tell me the {name.replace('_', ' ')}?")
        args[name] = value
    return call(tool.name, **args)


def in_words(text: str) -> str:
    """The customer's request in its own paraphrase: small numbers and ordinals in words, a date
    with its weekday beside it."""
    def date(m):
        try:
            day = f"{dt.date.fromisoformat(m[0]):%A}"
            return m[0] if text[:m.start()].rstrip().endswith(day) else f"{day} {m[0]}"
        except ValueError:
            return m[0]
    text = re.sub(r"\b\d{4}-\d{2}-\d{2}\b", date, text)
    text = re.sub(r"\b(1st|2nd|3rd|4th|5th)\b", lambda m: ORDINALS[m[1]], text)
    return re.sub(r"(?<![\w:./-])(\d{1,2})(?![\w:./-])",
                  lambda m: NUMBERS[int(m[1])] if int(m[1]) < len(NUMBERS) else m[1], text)


def identifiers(request) -> list[str]:
    given = {str(v) for c in my_calls(request) for v in c.arguments.values()}
    seen = []
    for r in tool_results(request):
        for ident in IDENT.findall(r.content):
            if ident not in seen and ident not in given:
                seen.append(ident)
    return seen


def report(request, tool: str | None) -> str:
    answers = tool_results(request, tool) if tool else tool_results(request)
    asked = in_words(" ".join(customer_words(request).split())[:160])
    if not answers:
        return f"I understand you would like this: {asked}"
    answer = answers[-1]
    data = decode(answer.content)
    body = ", ".join(f"{k} {v}" for k, v in data.items()) if isinstance(data, dict) else answer.content.strip()
    idents = identifiers(request)
    close = f" For your records: {', '.join(idents)}." if idents else ""
    return f"You asked for this: {asked} {answer.name or 'The system'} came back with: {body}.{close}"


def topic_fits(request, topics: str | None) -> bool:
    if not topics:
        return True
    heard = customer_words(request).lower()
    wanted = [w.strip(" .'\"").lower() for w in re.split(r",|\bor\b|\band\b", topics)]
    return any(w and re.search(r"\b" + re.escape(w), heard) for w in wanted)


def next_step(request):
    tools = offered_tools(request)
    made = {c.name for c in my_calls(request)} | {r.name for r in tool_results(request)}
    results = tool_results(request)
    newest = results[-1] if results else None
    planned = {m[1] for line in instructions(request) if (m := IF_BREAKS.match(line))}
    for line in instructions(request):
        if m := IF_BREAKS.match(line):
            got = tool_results(request, m[1])
            if got and broke(got[-1].content) and not already_said(request, m[2]):
                return say(m[2])
            continue
        if m := IF_SAYS.match(line):
            got = tool_results(request, m[1])
            words = [w.strip(" '\"`.") for w in re.split(r"/|\bor\b|,", m[2])]
            if got and any(w and w.lower() in got[-1].content.lower() for w in words) and not already_said(request, m[3]):
                return say(m[3])
            continue
        if newest is not None and broke(newest.content) and newest.name not in planned:
            text = f"Sorry, {newest.name or 'the system'} is not working at the moment, so nothing was done."
            return None if already_said(request, text) else say(text)
        named = [t for t in tools if re.search(rf"\b{re.escape(t)}\b", line)]
        if named and not re.match(r"(?:if|when|report|say|reply)\b", line, re.I):
            tool = named[0]
            until = UNTIL.search(line)
            got = tool_results(request, tool)
            if tool in made and not (until and got and until[1].lower() not in got[-1].content.lower()):
                continue
            m = PASS.search(line)
            if m and not topic_fits(request, m[2]):
                continue
            if not LOOKUP.match(tool):  # the chain-worker looks things up before it acts
                # only a look-up its own lines name: a framework may offer every tool of the
                # team to every agent (a restricted-tool probe), and those are not its own
                lines = "\n".join(instructions(request))
                lookup = next((t for t in tools if LOOKUP.match(t) and t not in made
                               and re.search(rf"\b{re.escape(t)}\b", lines)), None)
                if lookup is not None:
                    return act_with(request, tools[lookup])
            return act_with(request, tools[tool])
        if m := PASS.search(line):
            if not topic_fits(request, m[2]):
                continue
            target = resolve_handoff(m[1], request.tools)
            if target is not None:
                if target.name in made:
                    continue
                return handoff(m[1])
            text = f"Passing this to {m[1]}: {in_words(customer_words(request)[:200])}"
            if already_said(request, f"Passing this to {m[1]}"):
                continue
            return say(text)
        if m := SAY.match(line):
            if not already_said(request, m[1]):
                return say(m[1])
            continue
        if m := REPORT.match(line):
            if newest is not None and not answered_since(request):
                return say(report(request, m[1] if m[1] in made else None))
            continue
    if newest is not None and not answered_since(request):
        return say(report(request, None))
    return None


def answered_since(request) -> bool:
    """Something was said after the newest tool answer."""
    roles = [m.role for m in request.messages if m.role == "tool" or (m.role == "assistant" and m.content)]
    return "tool" in roles and roles[-1] != "tool"


# --- structured outputs and speaker selection ------------------------------------------------


def fill(schema: dict, text: str, request) -> dict:
    defs = schema.get("$defs") or {}
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        options = [defs.get(o["$ref"].rsplit("/", 1)[-1], o) if "$ref" in o else o for o in options]
        no = bool(NEGATIVE.search(text))
        schema = next((o for o in options
                       if bool(re.search(r"refus|declin|reject|fail|unable", f"{o.get('title', '')} {o.get('description', '')}", re.I)) == no),
                      options[0])
    answers = {}
    for r in tool_results(request):
        answers.update(flat(decode(r.content)))
    out = {}
    for name, spec in (schema.get("properties") or {}).items():
        if "$ref" in spec:
            spec = defs.get(spec["$ref"].rsplit("/", 1)[-1], spec)
        kind = spec.get("type") or next((s.get("type") for s in spec.get("anyOf", []) if s.get("type") != "null"), "string")
        if name.lower() in answers and not isinstance(answers[name.lower()], (dict, list)):
            out[name] = answers[name.lower()]
        elif kind == "boolean":
            out[name] = not NEGATIVE.search(" ".join(r.content for r in tool_results(request)) or text)
        elif kind in ("integer", "number"):
            n = re.search(r"\b\d+\b", customer_words(request))
            out[name] = int(n[0]) if n else 0
        elif "enum" in spec:
            out[name] = next((o for o in spec["enum"] if str(o).lower() in text.lower()), spec["enum"][0])
        elif kind == "array":
            out[name] = identifiers(request)
        else:
            value = argument(request, name, spec) if by_name(name) or SHAPE.search(spec.get("description") or "") else None
            out[name] = value if value is not None else text
    return out


def pick_speaker(request):
    """A group chat asks which member speaks next: the first, in the order the prompt lists them,
    who has not spoken yet."""
    text = "\n".join(m.content or "" for m in request.messages)
    prompt, _, history = text.partition("onversation")
    members = re.findall(r"^\s*([A-Za-z]\w*)\s*:", prompt, re.M)
    spoke = set(re.findall(r"^\s*([A-Za-z]\w*)\s*:", history, re.M))
    return say(next((m for m in members if m not in spoke), members[-1] if members else ""))


def policy(request):
    if request.agent == "selector":
        return pick_speaker(request)
    step = next_step(request)
    if step is None:
        step = say("Nothing more is needed from me.")
    text = getattr(step, "text", None)
    if text is not None and not getattr(step, "tool_calls", ()):
        outputs = [t for t in request.tools if t.name.startswith("final_result")]
        if outputs:
            no = bool(NEGATIVE.search(text))
            tool = next((t for t in outputs
                         if bool(re.search(r"refus|declin|reject|fail|unable", f"{t.name} {t.description}", re.I)) == no),
                        outputs[0])
            return call(tool.name, **fill(tool.parameters or {}, text, request))
        if request.tool_choice not in ("auto", "none") and request.tools:
            forced = next((t for t in request.tools if t.name == request.tool_choice), request.tools[0])
            return call(forced.name, **fill(forced.parameters or {}, text, request))
        if request.response_schema:
            return say(json.dumps(fill(request.response_schema, text, request)))
    return step
