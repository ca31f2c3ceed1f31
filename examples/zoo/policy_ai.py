"""The scripted model of the zoo's forty-sixth set, written apart from the others: the quoting sceptic.

Use it as `--sut-model scripted/examples/zoo/policy_ai.py:policy`. It knows no system of the zoo:
it reads each agent's own instructions, the tools it is offered (names, schemas, docstrings), the
tools' answers and the conversation, and does what the instructions say, literally, a wrong line
included. Its character:

- before it comments on a tool's answer it quotes the part it relies on, verbatim, in a Markdown
  blockquote ("> "status": "declined""): the status-like fields when the answer is a JSON object,
  else the answer's first line;
- it phrases outcomes through negation and understatement: "No errors came back", "Not confirmed
  yet", "Nothing stands in the way of ...", "It did not go through";
- it states numbers with their units, and takes the narrowest reading of an ambiguous request: a
  parameter's value is the shortest stretch of the conversation that fits the example the
  parameter's description shows (`like "12.5 m²"`), else the value a tool already answered under
  the parameter's name, else a date/time/email/count by the parameter's name;
- it follows its lines top to bottom, doing the first one that still asks for something:
  `If TOOL fails, say "TEXT"`; `If TOOL answers/says W, say "TEXT"`; a line naming an offered
  tool (called once, or, with `until it says W`, again while its newest answer lacks W); `Hand
  over / pass / transfer ... to NAME` (a hand-off where one is offered, else a message "Over to
  NAME: ..." in a group chat); `Say "TEXT"`; `Tell the customer what TOOL answered` (or any line
  that starts with report/tell/give). A tool that broke and no line plans for gets "It did not go
  through: TOOL gave an error, so nothing was done." with only the error's kind quoted;
- where the agent has an output type (a `final_result` output tool, a forced tool, a response
  schema) it fills the fields from its reply and the tools' answers: yes/no fields say whether
  nothing was refused, fields named like an answer's key get that value.
"""

from __future__ import annotations

import ast
import json
import re

from masfuzz.llm.scripted import call, handoff, resolve_handoff, say, tool_results

REFUSAL = re.compile(r"\b(?:declined|refused|rejected|denied|unavailable|full|failed|invalid|"
                     r"not[ _]\w+|no[ _]\w+|waitlist\w*|[45]\d\d)\b", re.I)
SAID_NO = re.compile(r"\b(?:declined|refused|rejected|denied|unavailable|did not go through|not confirmed|"
                     r"was not|could not|cannot|can't|sorry|nothing was done|nothing is \w+ yet|not enough)\b", re.I)
STATUSY = re.compile(r"status|state|result|reason|detail|error|^ok$|success|accepted", re.I)
ERRORISH = re.compile(r"\b\w*(?:error|exception)\b|traceback", re.I)
QUOTED = r"[\"“]([^\"”]+)[\"”]"
ON_FAILURE = re.compile(rf"^if\s+(\w+)\s+(?:fails|breaks|errors|raises)\b.*?{QUOTED}", re.I)
ON_ANSWER = re.compile(rf"^if\s+(\w+)\s+(?:answers|says|returns|reports)\s+(.+?),\s*say\s*:?\s*{QUOTED}", re.I)
UNTIL = re.compile(r"\buntil\s+it\s+(?:says|answers|reads|shows)\s+[\"'`]?([\w-]+)", re.I)
PASS_TO = re.compile(r"\b(?:hand\s+(?:it\s+)?over|hand\s+off|pass\s+(?:it|this|the request)?|transfer|"
                     r"send\s+(?:it|this)?)\s*(?:on\s+)?to\s+([A-Za-z]\w*)", re.I)
SAY_LINE = re.compile(rf"^(?:say|reply|answer)\s*:?\s*{QUOTED}", re.I)
TELL_LINE = re.compile(r"^(?:tell|report|give|pass on)\b", re.I)
EXAMPLE = re.compile(r"""\b(?:like|e\.g\.|such as|for example)[,:]?\s*["'“]([^"'”]+)["'”]""", re.I)


# --- what it is given ------------------------------------------------------------------------


def lines_of(request) -> list[str]:
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    return [re.sub(r"^[-*\d.)\s]+", "", raw).strip() for raw in text.splitlines() if raw.strip()]


def heard(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "user")


def spoken(request) -> list[str]:
    return [m.content for m in request.messages if m.role in ("user", "assistant") and m.content]


def own_tools(request) -> dict:
    return {t.name: t for t in request.tools if not t.handoff_to
            and not t.name.startswith(("transfer_to", "final_result"))}


def asked_for(request) -> set[str]:
    return {c.name for m in request.messages if m.role == "assistant" for c in m.tool_calls}


def said_before(request, text: str) -> bool:
    return any(m.role == "assistant" and text in (m.content or "") for m in request.messages)


def parsed(answer: str):
    try:
        return json.loads(answer)
    except (ValueError, TypeError):
        pass
    try:
        return ast.literal_eval(answer)
    except (ValueError, SyntaxError, TypeError, MemoryError):
        return None


def broken(answer: str) -> bool:
    return parsed(answer) is None and bool(ERRORISH.search(answer))


def keys_of(value) -> dict:
    """Every key of an answer, nested ones too, lower-cased, to its value."""
    out: dict = {}
    if isinstance(value, dict):
        for k, v in value.items():
            out.setdefault(str(k).lower(), v)
            for kk, vv in keys_of(v).items():
                out.setdefault(kk, vv)
    elif isinstance(value, list):
        for v in value:
            for kk, vv in keys_of(v).items():
                out.setdefault(kk, vv)
    return out


# --- choosing values: the narrowest reading ---------------------------------------------------


def pattern_of(example: str) -> str:
    """A regex for values shaped like the description's example: digits for digits, the same
    letters' case, the example's punctuation and unit kept literally."""
    parts = []
    for run in re.findall(r"[0-9]+|[A-Z]+|[a-z]+|\s+|.", example):
        if run[0] in "0123456789":  # not str.isdigit(), which takes a unit's "²" for a digit
            parts.append(r"[0-9]+")
        elif run.isspace():
            parts.append(r"\s?")
        elif run.isalpha() and len(run) > 2:
            parts.append("[A-Za-z]+" if run.isupper() is False else "[A-Z]+")
        else:
            parts.append(re.escape(run))
    return r"(?<![\w.-])" + "".join(parts) + r"(?![\w-])"


def by_name(name: str) -> str | None:
    n = name.lower()
    if "mail" in n:
        return r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    if "date" in n or n.endswith("day"):
        return r"\b\d{4}-\d{2}-\d{2}\b"
    if "time" in n:
        return r"\b\d{1,2}:\d{2}\b"
    if re.search(r"ref|_id$|^id$|number|code", n):
        return r"\b[A-Z]{1,4}-\d{2,6}\b"
    return None


def value_for(request, name: str, spec: dict, documented: str = ""):
    spec = next((s for s in spec.get("anyOf", []) if s.get("type") != "null"), spec)
    if not EXAMPLE.search(spec.get("description") or "") and documented:
        # a framework that leaves the parameter undescribed (or describes it by its own name)
        # keeps its docstring's "Args:" line in the tool's description
        if m := re.search(rf"^\s*{re.escape(name)}\s*(?:\([^)]*\))?:\s*(.+)$", documented, re.M):
            spec = {**spec, "description": m[1]}
    kind = spec.get("type", "string")
    for answer in reversed(tool_results(request)):
        found = keys_of(parsed(answer.content))
        if name.lower() in found and not isinstance(found[name.lower()], (dict, list)) and found[name.lower()] is not None:
            return found[name.lower()]
    texts = list(reversed(spoken(request)))
    if "enum" in spec:  # the option the customer wrote as a word of its own, their case first
        words = heard(request)
        for flags in (0, re.I):
            if hit := next((o for o in spec["enum"] if re.search(rf"(?<![\w'’]){re.escape(str(o))}(?![\w'’])", words, flags)), None):
                return hit
        return None
    if kind in ("integer", "number"):
        stem = re.escape(name.lower().split("_")[-1].rstrip("s")[:5])
        for text in texts:
            if m := (re.search(rf"\b(\d+(?:\.\d+)?)\s+(?:\w+\s+)?{stem}", text, re.I)
                     or re.search(rf"\b{stem}\w*\s*(?:of|:|for)?\s*(\d+(?:\.\d+)?)\b", text, re.I)):
                return int(float(m[1])) if kind == "integer" else float(m[1])
        return None
    if kind == "boolean":
        return False  # the narrowest reading: nothing extra was asked for
    example = EXAMPLE.search(spec.get("description") or "")
    regex = pattern_of(example[1]) if example else by_name(name)
    if regex is None:
        if re.search(r"request|note|details|message|question|summary|brief", name, re.I):
            return heard(request).strip()
        return None
    for text in texts:
        if m := re.search(regex, text):
            return m[0].strip()
    return None


def use(request, tool):
    props = (tool.parameters or {}).get("properties") or {}
    args = {}
    for name in (tool.parameters or {}).get("required") or []:
        value = value_for(request, name, props.get(name, {}), tool.description or "")
        if value is None:
            return say(f"Not enough to go on yet: could you give me the {name.replace('_', ' ')}?")
        args[name] = value
    return call(tool.name, **args)


# --- speaking: quote first, then understate ---------------------------------------------------


def quote(answer: str) -> str:
    """The part of an answer it relies on, verbatim: the status-like fields of a JSON object as
    they were written, else the first line."""
    if broken(answer):
        kind = ERRORISH.search(answer)
        return f"> {kind[0]}"
    data = parsed(answer)
    if isinstance(data, dict):
        keys = [k for k in data if STATUSY.search(str(k))] or list(data)[:3]
        bits = []
        for k in keys:
            if m := re.search(rf"[\"']{re.escape(str(k))}[\"']\s*:\s*(?:\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|[^,}}]+)", answer):
                bits.append(m[0])
        if bits:
            return "\n".join(f"> {b}" for b in bits)
    return "> " + answer.strip().splitlines()[0][:240]


def status_part(answer: str) -> str:
    """What an answer says of its outcome: its status-like fields' values when it is an object,
    else the whole text (an identifier elsewhere in it is no verdict)."""
    data = parsed(answer)
    if isinstance(data, dict):
        picked = [f"{k}={v}" for k, v in data.items() if STATUSY.search(str(k))]
        if picked:
            return " ".join(picked)
    return answer


def refused(answer: str) -> bool:
    part = status_part(answer)
    return bool(REFUSAL.search(part) or re.search(r"(?:ok|success|accepted)=False", part, re.I))


def with_units(data) -> str:
    """The rest of the answer, field by field, each value as the tool gave it (units and all)."""
    if not isinstance(data, dict):
        return ""
    return "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in data.items()
                     if not isinstance(v, (dict, list)) and v not in (None, ""))


def comment(request, tool: str | None) -> str:
    answers = tool_results(request, tool) if tool else tool_results(request)
    if not answers:
        return "Not confirmed yet: no system has answered on this so far."
    answer = answers[-1]
    name = answer.name or "the system"
    if broken(answer.content):
        return f"{quote(answer.content)}\n\nIt did not go through: {name} gave an error, so nothing was done."
    data = parsed(answer.content)
    fields = with_units(data)
    if refused(answer.content):
        verdict = f"It did not go through. {name} did not say yes"
    else:
        verdict = f"No errors came back from {name}, so nothing stands in the way"
    return f"{quote(answer.content)}\n\n{verdict}" + (f" ({fields})." if fields else ".")


def handed_on(request, name: str) -> bool:
    return said_before(request, f"Over to {name}")


def answered_since_last_tool(request) -> bool:
    roles = [m.role for m in request.messages if m.role == "tool" or (m.role == "assistant" and m.content)]
    return bool(roles) and roles[-1] != "tool"


def next_move(request):
    tools = own_tools(request)
    made = asked_for(request) | {r.name for r in tool_results(request)}
    results = tool_results(request)
    newest = results[-1] if results else None
    planned = {m[1] for line in lines_of(request) if (m := ON_FAILURE.match(line))}
    for line in lines_of(request):
        if m := ON_FAILURE.match(line):
            got = tool_results(request, m[1])
            if got and broken(got[-1].content) and not said_before(request, m[2]):
                return say(m[2])
            continue
        if m := ON_ANSWER.match(line):
            got = tool_results(request, m[1])
            words = [w.strip(" '\"`.") for w in re.split(r"\bor\b|,|/", m[2])]
            if got and any(w and re.search(rf"\b{re.escape(w)}\b", got[-1].content, re.I) for w in words) \
                    and not said_before(request, m[3]):
                return say(f"{quote(got[-1].content)}\n\n{m[3]}")
            continue
        if newest is not None and broken(newest.content) and newest.name not in planned:
            if answered_since_last_tool(request):
                return None
            return say(f"> {ERRORISH.search(newest.content)[0]}\n\nIt did not go through: "
                       f"{newest.name or 'the system'} gave an error, so nothing was done.")
        if m := SAY_LINE.match(line):
            if not said_before(request, m[1]):
                return say(m[1])
            continue
        if TELL_LINE.match(line):
            named = next((t for t in made if t and re.search(rf"\b{re.escape(t)}\b", line)), None)
            if newest is not None and not answered_since_last_tool(request):
                return say(comment(request, named))
            continue
        named = [t for t in tools if re.search(rf"\b{re.escape(t)}\b", line)]
        if named and not re.match(r"if\b", line, re.I):
            tool = named[0]
            again = UNTIL.search(line)
            got = tool_results(request, tool)
            if tool in made and not (again and got and not re.search(rf"\b{re.escape(again[1])}\b", got[-1].content, re.I)):
                continue
            return use(request, tools[tool])
        if m := PASS_TO.search(line):
            target = resolve_handoff(m[1], request.tools)
            if target is not None:
                if target.name in made:
                    continue
                return handoff(m[1])
            if handed_on(request, m[1]):
                continue
            return say(f"Over to {m[1]}: nothing has been done on this yet. The customer wrote:\n\n> "
                       + " ".join(heard(request).split()))
    if newest is not None and not answered_since_last_tool(request):
        return say(comment(request, None))
    return None


# --- structured outputs and group chats -------------------------------------------------------


def says_no(text: str) -> bool:
    """Whether its own reply, outside what it quoted, says something did not happen: a yes/no
    field mirrors what the reply says."""
    own = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(">"))
    return bool(SAID_NO.search(own)) or own.rstrip().endswith("?")  # a question: nothing done yet


def filled(schema: dict, text: str, request) -> dict:
    defs = schema.get("$defs") or {}
    options = schema.get("anyOf") or schema.get("oneOf")
    refused_ = says_no(text)
    if options:
        options = [defs.get(o["$ref"].rsplit("/", 1)[-1], o) if "$ref" in o else o for o in options]
        schema = next((o for o in options if bool(re.search(r"refus|declin|reject|fail|unable|not",
                                                            f"{o.get('title', '')} {o.get('description', '')}", re.I)) == refused_),
                      options[0])
    answers: dict = {}
    for r in tool_results(request):
        for k, v in keys_of(parsed(r.content)).items():
            answers[k] = v
    out = {}
    for name, spec in (schema.get("properties") or {}).items():
        if "$ref" in spec:
            spec = defs.get(spec["$ref"].rsplit("/", 1)[-1], spec)
        kind = spec.get("type") or next((s.get("type") for s in spec.get("anyOf", []) if s.get("type") != "null"), "string")
        if name.lower() in answers and not isinstance(answers[name.lower()], (dict, list)) and answers[name.lower()] is not None:
            out[name] = answers[name.lower()]
        elif kind == "boolean":
            out[name] = not refused_
        elif kind in ("integer", "number"):
            got = value_for(request, name, spec)
            out[name] = got if got is not None else 0
        elif "enum" in spec:
            out[name] = next((o for o in spec["enum"] if str(o).lower() in text.lower()), spec["enum"][0])
        elif kind == "array":
            out[name] = []
        else:
            out[name] = text
    return out


def choose_speaker(request):
    """A group chat's selector: the first member its prompt lists who has not spoken yet."""
    text = "\n".join(m.content or "" for m in request.messages)
    listing, _, history = text.partition("onversation")
    members = re.findall(r"^\s*([A-Za-z]\w*)\s*:", listing, re.M)
    done = set(re.findall(r"^\s*([A-Za-z]\w*)\s*:", history, re.M))
    return say(next((m for m in members if m not in done), members[-1] if members else ""))


def policy(request):
    if request.agent == "selector":
        return choose_speaker(request)
    move = next_move(request)
    if move is None:
        move = say("Nothing further from me: no step is left on my side.")
    text = getattr(move, "text", None)
    if text is not None and not getattr(move, "tool_calls", ()):
        outputs = [t for t in request.tools if t.name.startswith("final_result")]
        if outputs:
            no = says_no(text)
            tool = next((t for t in outputs if bool(re.search(r"refus|declin|reject|fail|unable",
                                                                 f"{t.name} {t.description}", re.I)) == no),
                        outputs[0])
            return call(tool.name, **filled(tool.parameters or {}, text, request))
        if request.tool_choice not in ("auto", "none") and request.tools:
            forced = next((t for t in request.tools if t.name == request.tool_choice), request.tools[0])
            return call(forced.name, **filled(forced.parameters or {}, text, request))
        if request.response_schema:
            return say(json.dumps(filled(request.response_schema, text, request)))
    return move
