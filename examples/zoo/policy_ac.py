"""The scripted model of the zoo's fortieth set, written apart from the others: the attributing
delegator. It reports in the third person and the passive voice, naming each fact's source ("The
refund was declined by the payments system (code 402).", "Per billing_b, the invoice has been
reissued."), quotes colleagues' and tools' words in quotation marks, reads a request back before
acting where its instructions ask for that ("To confirm: 4 guests on 2026-06-14 — proceeding."),
prefers delegating to a named colleague whenever its instructions name one, and closes every
reply of its own with a numbered "Next steps" list (which may list things still to do even after
a success).

Use it as `--sut-model scripted/examples/zoo/policy_ac.py:policy`. It knows no system of the
zoo: it reads the agent's instructions one line (or bullet) at a time, top to bottom, and acts on
the first line that still asks for something:

- `If TOOL answers / says / returns / reports W1 or W2, say "TEXT".` — TEXT, when TOOL's newest
  answer holds one of the words; `If TOOL fails / breaks / raises ...` — when that answer is an
  error the framework reported;
- a delegation line (`Pass / hand / send / refer / route ... to NAME`, optionally `for A, B or C`
  / `about A or B`): where a hand-over to NAME is offered, the hand-over, once, when the topic
  fits; where NAME is an offered tool (an agent run as a tool), a call with the customer's
  request; where neither (a group chat), a message that says the request has been passed to
  NAME;
- a read-back line (`Read ... back`, `Confirm the details ...`): "To confirm: FACTS — proceeding.",
  once, FACTS the references, dates, times and counts the customer gave;
- a line naming an offered tool: the call, once (`... until it says WORD`: again while its newest
  answer lacks WORD), each argument from an allowed value the conversation names, the shape of
  the example its description gives (`like "AB-1234"`), a number next to a word of its name, a
  date or time for a name about days or times, or the customer's own words for free text;
  where nothing fits it asks for it;
- `Say / Reply / Report / Tell the customer / Close with "TEXT"` — TEXT as written, `{field}`
  filled from the tools' answers and a `{request}` from the customer's words.

With nothing left it reports each tool's answer in its own attributing voice. Where the agent has
an output type (a response schema, or a `final_result` output tool) the same reply fills its
fields: text fields get the reply, yes/no fields whether the tools said no, and fields named like
an answer's key get that value. As a group chat's selector it names the first member, in the
order the prompt lists them, that has not spoken yet.
"""

from __future__ import annotations

import ast
import json
import re

from masfuzz.llm.scripted import call, handoff, resolve_handoff, say

QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")
BULLETED = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
CONDITION = re.compile(r"^\s*(?:if|when|should)\s+(\w+)\s+(answers?|says?|returns?|reports?|gives?|shows?|fails?|"
                       r"breaks?|raises?(?: an error)?|errors?)\b\s*(.*)$", re.I)
DELEGATE = re.compile(r"\b(?:pass|hand|send|refer|route|forward|transfer|delegate)\b.*?\bto\s+([A-Za-z][\w-]*)", re.I)
TOPIC = re.compile(r"\b(?:for|about|on)\s+(?:any\s+|all\s+)?([^.;\"]+?)(?:\s+to\s+[A-Za-z][\w-]*|[.;]|$)", re.I)
READ_BACK = re.compile(r"^\s*(?:read\b.*\bback|confirm the (?:details|booking|request|order)|repeat\b.*\bback)", re.I)
SPEAK = re.compile(r"^\s*(?:say|reply|report|answer|tell the (?:customer|guest|passenger|caller)|close with|"
                   r"finish with|sign off with|end with|respond)\b", re.I)
UNTIL = re.compile(r"\buntil\b.*?\b(?:says?|shows?|reads?|returns?|answers?)\s+[\"'`]?([\w-]+)", re.I)
ERRORED = re.compile(r"^\s*(?:error\b|traceback)|\bexception\b|\btraceback\b|\berror (?:occurred|running|calling)|"
                     r"\braised\b|\b\w+Error\b", re.I)
EXAMPLE = re.compile(r"(?:like|e\.g\.|for example|such as)[,:]?\s*[\"'“]([^\"'”]+)[\"'”]", re.I)
REFERENCE = re.compile(r"\b[A-Z]{1,5}-?\d{2,7}\b")
ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
CLOCK = re.compile(r"\b(?:[01]?\d|2[0-3])[:.][0-5]\d\b")
COUNTED = re.compile(r"(?<![\d:./-])\b(\d+)\s+([a-z]+)", re.I)  # a count, not a date's or time's tail
# a reply or answer that says no: its own words, or a 4xx/5xx status
REFUSED = re.compile(r"\b(?:declin|refus|reject|fail|denied|unable|cannot|not (?:eligible|possible|recogni)|full\b)"
                     r"|[\"']?(?:status|code|http)[\"']?\s*[:=]\s*[\"']?[45]\d\d\b", re.I)
SMALL = {"the", "and", "any", "all", "with", "from", "into", "that", "this", "your", "their", "other", "about"}


# --- reading the request -------------------------------------------------------------------


def instructions(request) -> list[str]:
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    return [BULLETED.sub("", ln).strip() for ln in text.splitlines() if ln.strip()]


def customer(request) -> str:
    """What the others said (customer and colleagues), oldest first."""
    return "\n".join(m.content or "" for m in request.messages if m.role == "user" and m.content)


def everything(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role != "system")


def own_words(request) -> list[str]:
    return [m.content or "" for m in request.messages if m.role == "assistant" and m.content]


def tools_of(request) -> dict:
    """The offered tools that do work (hand-overs and output tools aside)."""
    return {t.name: t for t in request.tools if not t.handoff_to and not t.name.startswith(("transfer_to", "final_result"))}


def calls_of(request, tool: str) -> int:
    return sum(c.name == tool for m in request.messages if m.role == "assistant" for c in m.tool_calls)


def answers_of(request, tool: str) -> list[str]:
    ids = {c.id: c.name for m in request.messages if m.role == "assistant" for c in m.tool_calls}
    return [m.content or "" for m in request.messages
            if m.role == "tool" and (m.name == tool or ids.get(m.tool_call_id or "") == tool)]


def newest(request, tool: str) -> str | None:
    found = answers_of(request, tool)
    return found[-1] if found else None


def as_data(text: str):
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(text)
        except (ValueError, SyntaxError, TypeError):
            continue
    return text


def flat(data, into: dict | None = None) -> dict[str, str]:
    """Every named scalar of an answer, nested ones included (the innermost wins)."""
    into = {} if into is None else into
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(v, (dict, list, tuple)):
                flat(v, into)
            else:
                into[str(k)] = str(v)
    elif isinstance(data, (list, tuple)):
        for item in data:
            flat(item, into)
    return into


def stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in SMALL}


# --- arguments ------------------------------------------------------------------------------


def shape_of(example: str) -> re.Pattern:
    out = "".join(r"\d" if ch.isdigit() else "[A-Z]" if ch.isupper() else "[a-z]" if ch.islower()
                  else re.escape(ch) for ch in example)
    out = re.sub(r"(?:\[a-z\])+", "[a-z]+", out)
    out = re.sub(r"(?:\[A-Z\]){2,}", lambda m: "[A-Z]{%d}" % (len(m.group(0)) // 5), out)
    return re.compile(r"(?<![\w-])" + out + r"(?![\w-])")


def argument(name: str, spec: dict, request):
    text, kind = customer(request), spec.get("type")
    low = name.lower()
    if spec.get("enum"):
        return next((v for v in spec["enum"] if str(v).lower() in text.lower()), None)
    example = EXAMPLE.search(spec.get("description") or "")
    if example:  # the value has a known shape: only something of that shape will do
        found = shape_of(example.group(1)).search(text)
        return found.group(0) if found else None
    if kind in ("integer", "number"):
        word = re.escape(low.split("_")[-1][:4])
        for pattern in (rf"(?<![\d:./-])(\d+(?:\.\d+)?)\s+(?:[\w-]+\s+){{0,2}}?\b{word}", rf"\b{word}\w*\D{{0,12}}?(\d+(?:\.\d+)?)"):
            found = re.search(pattern, text, re.I)
            if found:
                return int(float(found.group(1))) if kind == "integer" else float(found.group(1))
        return None
    if re.search(r"date|day", low) and ISO_DAY.search(text):
        return ISO_DAY.search(text).group(0)
    if re.search(r"time|hour|until|slot", low) and CLOCK.search(text):
        return CLOCK.search(text).group(0).replace(".", ":")
    if re.search(r"ref|code|number|id$|booking", low) and REFERENCE.search(text):
        return REFERENCE.search(text).group(0)
    if kind == "boolean":
        return False
    if re.search(r"date|day|time|ref|code|number|id$", low):
        return None
    return " ".join(text.split())[:800] or None


def filled(tool, request) -> tuple[dict, list[str]]:
    props = (tool.parameters or {}).get("properties", {})
    required = set((tool.parameters or {}).get("required", props))
    args, missing = {}, []
    for name, spec in props.items():
        value = argument(name, spec, request)
        if value is None:
            if name in required:
                missing.append(name.replace("_", " "))
            continue
        args[name] = value
    return args, missing


# --- the persona's words --------------------------------------------------------------------


def facts(request) -> str:
    """The customer's own references, dates, times and counts, in the order given."""
    text = customer(request).split("\n")[0] if request.messages else ""
    found = [m.group(0) for m in REFERENCE.finditer(text)] + ISO_DAY.findall(text) + CLOCK.findall(text)
    found += [f"{n} {w}" for n, w in COUNTED.findall(text) if not re.match(r"\d", w)]
    seen: list[str] = []
    for f in found:
        if not any(f in s or s in f for s in seen):
            seen.append(f)
    return ", ".join(seen[:5]) or "the request as written"


def attributed(tool: str, answer: str) -> str:
    """A tool's answer said in the third person, its source named, its words quoted."""
    data = flat(as_data(answer))
    if ERRORED.search(answer) and not data:
        return f'An error was reported by {tool}: "{answer.strip()[:300]}".'
    if data:
        shown = "; ".join(f'{k} "{v}"' for k, v in list(data.items())[:6])
        return f"Per {tool}, the following was recorded: {shown}."
    return f'Per {tool}: "{answer.strip()[:300]}".'


def next_steps(request) -> str:
    steps = []
    for tool in tools_of(request):
        answer = newest(request, tool)
        if answer is None:
            continue
        if ERRORED.search(answer):
            steps.append(f"The request can be tried again once {tool} is reachable.")
        elif REFUSED.search(answer):
            steps.append(f"A new request can be made once the reason given by {tool} has been dealt with.")
        else:
            steps.append(f"The details given by {tool} should be kept for reference.")
    steps.append("Any change can be requested by replying to this message.")
    return "Next steps:\n" + "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1))


def with_steps(text: str, request) -> str:
    return f"{text}\n\n{next_steps(request)}"


def fill(text: str, request) -> str:
    values: dict[str, str] = {"request": " ".join(customer(request).split())[:300]}
    for m in request.messages:  # what it asked for, then what the tools answered (which wins)
        for c in m.tool_calls if m.role == "assistant" else ():
            values.update({k: str(v) for k, v in c.arguments.items()})
    for m in request.messages:
        if m.role == "tool" and m.content:
            flat(as_data(m.content), values)
            values.setdefault("error", m.content.strip()[:200])
            if ERRORED.search(m.content):
                values["error"] = m.content.strip()[:200]
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), text)


def already_said(text: str, request) -> bool:
    return any(text in said for said in own_words(request))


# --- acting on the instructions -------------------------------------------------------------


def holds(request, tool: str, verb: str, rest: str) -> bool:
    answer = newest(request, tool)
    if answer is None:
        return False
    if re.match(r"fail|break|raise|error", verb, re.I):
        return bool(ERRORED.search(answer))
    head = rest.split('"')[0].split("“")[0]
    words = [w.strip(" ,'`") for w in re.split(r"\s+or\s+|,\s*", re.sub(r",?\s*(?:say|reply|tell|report)\b.*$", "", head,
                                                                         flags=re.I)) if w.strip(" ,'`")]
    return any(w.lower() in answer.lower() for w in words)


def topic_fits(line: str, request) -> bool:
    topic = TOPIC.search(line)
    return not topic or bool(stems(topic.group(1)) & stems(customer(request)))


def delegate(name: str, request):
    """Hand the request over to NAME the way this framework offers: a hand-over, an agent run
    as a tool, or (a group chat) words that pass it on."""
    target = resolve_handoff(name, request.tools)
    if target is not None:
        return None if calls_of(request, target.name) else handoff(name)
    tools = tools_of(request)
    if name in tools:
        if calls_of(request, name):
            return None
        args, _ = filled(tools[name], request)
        return call(name, **args)
    passed = f"This request has been passed to {name}"
    if any(passed in said for said in own_words(request)):
        return None
    return say(f'{passed}: "{" ".join(customer(request).split())[:240]}" ({facts(request)}).')


def act(request):
    tools = tools_of(request)
    for line in instructions(request):
        head = line.split('"')[0].split("“")[0]
        if cond := CONDITION.match(line):
            tool, verb, rest = cond.groups()
            if tool in tools and holds(request, tool, verb, rest):
                text = QUOTED.search(rest)
                reply = fill(text.group(1), request) if text else attributed(tool, newest(request, tool) or "")
                if already_said(reply, request):
                    return say(with_steps("Nothing further was added since the last report.", request))
                return say(with_steps(reply, request))
            continue
        if (moved := DELEGATE.search(head)) and topic_fits(head, request):
            name = moved.group(1)
            # a colleague's name: an offered hand-over or agent tool, else a name written like an
            # agent's (`desk_h`), never a plain word ("send it to the guest")
            if name in tools or resolve_handoff(name, request.tools) is not None or (
                    re.search(r"[_\d]", name) and not tools_named(head, tools)):
                step = delegate(name, request)
                if step is not None:
                    return step
                continue
        if READ_BACK.match(line):
            opener = "To confirm:"
            if not any(said.startswith(opener) for said in own_words(request)):
                return say(f"{opener} {facts(request)} — proceeding.")
            continue
        named = tools_named(head, tools)
        if named:
            tool = tools[named[0]]
            until = UNTIL.search(head)
            answer = newest(request, tool.name)
            if calls_of(request, tool.name) and (not until or answer is None or until.group(1).lower() in answer.lower()):
                continue
            args, missing = filled(tool, request)
            if missing:
                return say(with_steps("The request cannot be processed until the following is provided: "
                                      + ", ".join(missing) + ". Could it be sent?", request))
            return call(tool.name, **args)
        if SPEAK.match(line) and (text := QUOTED.search(line)):
            reply = fill(text.group(1), request)
            if not already_said(reply, request):
                return say(with_steps(reply, request))
            continue
    return say(with_steps(report(request), request))


def tools_named(head: str, tools: dict) -> list[str]:
    return [n for n in tools if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", head)]


def report(request) -> str:
    told = [attributed(t, newest(request, t)) for t in tools_of(request) if newest(request, t) is not None]
    if told:
        return " ".join(told)
    return f'The message was received and noted: "{" ".join(customer(request).split())[:200]}".'


# --- structured replies and selection -------------------------------------------------------


def structured(schema: dict, text: str, request) -> dict:
    values: dict[str, str] = {}
    for m in request.messages:
        if m.role == "tool" and m.content:
            flat(as_data(m.content), values)
    refused = bool(REFUSED.search(text) or ERRORED.search(text))
    out = {}
    for name, spec in (schema.get("properties") or {}).items():
        kind = spec.get("type")
        if name in values:
            raw = values[name]
            try:
                out[name] = int(raw) if kind == "integer" else float(raw) if kind == "number" else raw
                continue
            except ValueError:
                pass
        if kind == "boolean":
            out[name] = not refused
            continue
        # a fact (a number, a choice, a date, a reference, a value of a known shape) is read as a
        # tool's argument would be; any other text field carries the reply itself
        factual = kind in ("integer", "number") or spec.get("enum") or EXAMPLE.search(spec.get("description") or "") \
            or re.search(r"date|day|time|ref|code|number|id$", name.lower())
        value = argument(name, spec, request) if factual else None
        if value is not None:
            out[name] = value
        elif kind in ("integer", "number"):
            out[name] = 0
        elif spec.get("enum"):
            out[name] = spec["enum"][-1] if refused else spec["enum"][0]
        else:
            out[name] = text
    return out


def says_no(title: str) -> bool:
    return bool(re.search(r"refus|declin|reject|fail|error|unavailable", title, re.I))


def branch(schema: dict, text: str) -> dict:
    """The one object schema a reply fills: of a union (`anyOf` / `oneOf`), the branch whose
    title or description fits a refusal when the reply says no, else the first other."""
    options = schema.get("anyOf") or schema.get("oneOf")
    if not options:
        return schema
    defs = schema.get("$defs") or schema.get("definitions") or {}
    options = [defs.get(o["$ref"].rsplit("/", 1)[-1], o) if "$ref" in o else o for o in options]
    refused = bool(REFUSED.search(text) or ERRORED.search(text))
    return next((o for o in options if says_no(f"{o.get('title', '')} {o.get('description', '')}") == refused),
                options[0])


def output_tool(request, text: str):
    """The output tool a reply goes through: where there are several (a union of output types),
    the one whose name or description fits a refusal when the reply says no, else the first other."""
    outputs = [t for t in request.tools if t.name.startswith("final_result")]
    refused = bool(REFUSED.search(text) or ERRORED.search(text))
    return next((t for t in outputs if says_no(f"{t.name} {t.description}") == refused), outputs[0] if outputs else None)


def forced_tool(request):
    """The tool the request obliges the model to call (a structured output asked of a chat model),
    when there is one."""
    if request.tool_choice in ("auto", "none") or not request.tools:
        return None
    named = [t for t in request.tools if t.name == request.tool_choice]
    # "required": the app bound the tool it wants filled first (a harness may offer more after it)
    return named[0] if named else request.tools[0]


def select(request):
    text = "\n".join(m.content or "" for m in request.messages)
    prompt, _, history = text.partition("onversation")
    members = re.findall(r"^\s*([A-Za-z]\w*)\s*:", prompt, re.M)
    spoke = set(re.findall(r"^\s*([A-Za-z]\w*)\s*:", history, re.M))
    return say(next((m for m in members if m not in spoke), members[-1] if members else ""))


def policy(request):
    if request.agent == "selector":
        return select(request)
    forced = forced_tool(request)
    step = act(request)
    text = getattr(step, "text", None)
    if text is not None and not getattr(step, "tool_calls", ()):
        output = output_tool(request, text) or forced
        if output is not None:
            return call(output.name, **structured(output.parameters or {}, text, request))
    if request.response_schema and text is not None:
        return say(json.dumps(structured(branch(request.response_schema, text), text, request)))
    return step
