"""The scripted model of the zoo's forty-second set, written apart from the others: the batcher.
It reads every request as a list of items, even when there is only one, and works item by item:
one tool call per item (a reference, a size, a choice the customer names more than once), all of
them issued together in one turn, then one report with a numbered line per item and the outcomes
side by side ("1. R-12 — done: reserved; 2. R-40 — could not: out of stock"), closed by a count
("1 of 2 done.") and the items it could not do. Where its instructions tell it to hand a request
over or ask a colleague, it passes a numbered list of the items with their facts.

Use it as `--sut-model scripted/examples/zoo/policy_ae.py:policy`. It knows no system of the zoo:
it reads the agent's instructions line by line, top to bottom, and does what they say, literally,
a wrong line included:

- a line that hands over (`Hand / pass / send / transfer / refer ... to NAME`, optionally `anything
  about A, B or C`): when the topic fits the customer's words, once — a hand-over where one to
  NAME is offered, a call where NAME is an offered tool (an agent run as a tool), else (a group
  chat) a message "For NAME: 1. ...; 2. ...";
- a line naming an offered tool: one call per item not yet done (`... until it says WORD`: again
  for an item whose newest answer lacks WORD), arguments found in the conversation by the example
  a parameter's description gives (`like "AB-12"`: every text of that shape is an item), its
  allowed values, a date or time for a parameter about days or times, a number for a count, or
  the customer's words for free text; what it cannot find, it asks for;
- `If TOOL answers / says / returns W1 or W2, say "TEXT"` — that item's line is TEXT and the item
  counts as not done; `..., call TOOL2` — the call; `If TOOL fails / raises an error, say "TEXT"`
  — the same for an error the framework reported (without such a line, the error as it came);
- `Say / Reply / Report / Confirm ... "TEXT"` — each done item's line, `{field}` filled from that
  item's answer; with no tool work, TEXT itself.

Where the agent has an output type (a response schema or an output tool) the same report fills
it. As a group chat's selector it names the first member the prompt lists who has not spoken.
"""

from __future__ import annotations

import ast
import json
import re

from masfuzz.llm.scripted import call, handoff, resolve_handoff, say

HANDS = re.compile(r"\b(?:hand|pass|send|transfer|refer|give)\b.*?\bto\s+([A-Za-z][\w-]*)", re.I)
ABOUT = re.compile(r"\babout\s+([^.;\"]+?)(?:\s+to\s+[A-Za-z][\w-]*|[.;]|$)", re.I)
IF_LINE = re.compile(r"^\s*(?:if|when|once)\s+(\w+)\s+(answers?|says?|returns?|reports?|fails?|raises?(?: an error)?)"
                     r"\s*(.*)$", re.I)
SPEAKS = re.compile(r"^\s*(?:say|reply|report|confirm|write|answer|tell)\b", re.I)
QUOTE = re.compile(r"[\"“]([^\"”]+)[\"”]")
UNTIL = re.compile(r"\buntil it (?:says|answers|shows|reads)\s+[\"'`]?([\w-]+)", re.I)
EXAMPLE = re.compile(r"(?:like|e\.g\.|for example|such as)[,:]?\s*[\"'“]([^\"'”]+)[\"'”]", re.I)
BROKE = re.compile(r"\btraceback\b|\bexception\b|\b\w+Error\b|^\s*error\b|\berror (?:occurred|running|calling)", re.I)
ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
CLOCK = re.compile(r"\b(?:[01]?\d|2[0-3]):[0-5]\d\b")
ROW = re.compile(r"^\d+\. (.+? — (?:done|could not): .*)$", re.M)  # a line of a per-item report
SHORT = {"the", "and", "any", "all", "for", "with", "from", "that", "this", "your", "other", "about", "anything"}


# --- what the request holds -----------------------------------------------------------------


def lines(request) -> list[str]:
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    return [ln.strip(" -*•\t") for ln in text.splitlines() if ln.strip(" -*•\t")]


def customer(request) -> str:
    """What the others said: the customer and any colleague, oldest first."""
    return "\n".join(m.content for m in request.messages if m.role == "user" and m.content)


def heard(request) -> str:
    """Everything said and answered so far (not the instructions): where an item's facts are
    looked for, a colleague's findings and the tools' answers included."""
    return "\n".join(m.content for m in request.messages if m.role != "system" and m.content)


def working_tools(request) -> dict:
    return {t.name: t for t in request.tools
            if not t.handoff_to and not t.name.startswith(("transfer_to", "final_result"))}


def since_handed(request) -> list:
    """The messages since the request was last handed over: what came before was another
    agent's work, not this one's."""
    messages = list(request.messages)
    passed = {c.id for m in messages for c in m.tool_calls if c.name.startswith("transfer_to")}
    start = max((i + 1 for i, m in enumerate(messages) if m.role == "tool" and m.tool_call_id in passed), default=0)
    return messages[start:]


def done_calls(request, tool: str) -> list[tuple[dict, str | None]]:
    """Each call of `tool` by this agent with its answer (None while unanswered)."""
    own = since_handed(request)
    answers = {m.tool_call_id: m.content or "" for m in own if m.role == "tool" and m.tool_call_id}
    named = [m.content or "" for m in own if m.role == "tool" and not m.tool_call_id and m.name == tool]
    out = []
    for m in own:
        if m.role != "assistant":
            continue
        for c in m.tool_calls:
            if c.name == tool:
                out.append((dict(c.arguments), answers.get(c.id) if c.id in answers else (named.pop(0) if named else None)))
    return out


def decoded(answer: str):
    for reader in (json.loads, ast.literal_eval):
        try:
            return reader(answer)
        except (ValueError, SyntaxError, TypeError):
            continue
    return answer


def fields(answer) -> dict[str, str]:
    """Every named scalar in an answer, nested ones too."""
    found: dict[str, str] = {}

    def walk(data):
        if isinstance(data, dict):
            for k, v in data.items():
                walk(v) if isinstance(v, (dict, list, tuple)) else found.__setitem__(str(k), str(v))
        elif isinstance(data, (list, tuple)):
            for v in data:
                walk(v)
    walk(decoded(answer) if isinstance(answer, str) else answer)
    return found


def words(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in SHORT}


# --- items and arguments --------------------------------------------------------------------


def shape(example: str) -> re.Pattern:
    out = "".join(r"\d" if ch.isdigit() else "[A-Z]" if ch.isupper() else "[a-z]" if ch.islower() else re.escape(ch)
                  for ch in example)
    out = re.sub(r"(?:\\d)+", r"\\d+", out)
    out = re.sub(r"(?:\[a-z\])+", "[a-z]+", out)
    return re.compile(r"(?<![\w-])" + out + r"(?![\w-])")


def candidates(name: str, spec: dict, text: str) -> list:
    """Every value the conversation offers for a parameter, in order, each once."""
    low, kind = name.lower(), spec.get("type")
    if spec.get("enum"):
        found = [v for v in spec["enum"] if re.search(rf"\b{re.escape(str(v))}\b", text, re.I)]
    elif example := EXAMPLE.search(spec.get("description") or ""):
        found = [m.group(0) for m in shape(example.group(1)).finditer(text)]
    elif kind in ("integer", "number"):
        stem = re.escape(low.split("_")[-1][:4])
        near = re.findall(rf"\b{re.escape(name)}\W{{0,4}}(\d+(?:\.\d+)?)", text, re.I) \
            or re.findall(rf"(\d+(?:\.\d+)?)\s+(?:[\w-]+\s+){{0,2}}?{stem}", text, re.I)
        # a number is taken only where it is said what it counts or measures: a house number is
        # no width
        found = [int(float(v)) if kind == "integer" else float(v) for v in near]
    elif re.search(r"date|day", low):
        found = ISO.findall(text)[:1]
    elif re.search(r"time|hour|slot", low):
        found = CLOCK.findall(text)[:1]
    elif kind == "boolean":
        found = [False]
    elif re.search(r"ref|code|number|_id$", low):
        found = []
    else:
        found = [" ".join(text.split())[:600]] if text.strip() else []
    return list(dict.fromkeys(found))


def batch(tool, request) -> tuple[list[dict], list[str]]:
    """The calls one per item: the parameter the customer gives several values of is the item,
    the others are shared. Returns the calls and what is missing."""
    props = (tool.parameters or {}).get("properties", {})
    required = set((tool.parameters or {}).get("required", props))
    # a count or a measure may come from a colleague's tool; everything else from what was said
    values = {name: candidates(name, spec, heard(request) if spec.get("type") in ("integer", "number")
                                 and not spec.get("enum") else customer(request)) for name, spec in props.items()}
    missing = [n.replace("_", " ") for n in props if n in required and not values[n]]
    most = max((len(v) for v in values.values()), default=0)
    # the items: the parameters given most often, side by side (a window and its width)
    items = [n for n in props if most > 1 and len(values[n]) == most]
    shared = {n: v[0] for n, v in values.items() if v and n not in items}
    if not items:
        return [shared], missing
    return [{**shared, **{n: values[n][i] for n in items}} for i in range(most)], missing


def numbered(request) -> str:
    """The customer's request as a numbered list: each sentence that carries a fact is an item."""
    text = customer(request).split("\n")[0]
    parts = [p.strip() for p in re.split(r"(?<=[.!?])\s+", text) if p.strip()]
    items = [p for p in parts if re.search(r"\d", p)] or parts
    return "\n".join(f"{i}. {p}" for i, p in enumerate(items, 1))


# --- acting on the lines --------------------------------------------------------------------


def holds(verb: str, rest: str, answer: str | None) -> bool:
    if answer is None:
        return False
    if re.match(r"fail|raise", verb, re.I):
        return bool(BROKE.search(answer))
    head = re.split(r",?\s*(?:say|reply|report|write|call)\b", rest.split('"')[0], flags=re.I)[0]
    wanted = [w.strip(" ,'`") for w in re.split(r"\s+or\s+|,", head) if w.strip(" ,'`")]
    return any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", answer, re.I) for w in wanted)


def pass_on(name: str, line: str, request):
    """Hand the items to NAME the way the framework offers, once; None when it is done."""
    target = resolve_handoff(name, request.tools)
    if target is not None:
        taken = any(c.name == target.name for m in request.messages for c in m.tool_calls)
        return None if taken else handoff(name)
    tools = working_tools(request)
    if name in tools:
        if done_calls(request, name):
            return None
        props = (tools[name].parameters or {}).get("properties", {})
        return call(name, **{p: f"For {name}:\n{numbered(request)}" for p in props})
    opener = f"For {name}:"
    if any((m.content or "").startswith(opener) for m in request.messages if m.role == "assistant"):
        return None
    return say(f"{opener}\n{numbered(request)}")


def covered(request, tool: str, answer: str) -> bool:
    """Whether one of the lines says what to do on this answer of the tool (an outcome its
    instructions foresee settles the item: it is not asked again)."""
    return any((c := IF_LINE.match(ln)) and c.group(1) == tool and holds(c.group(2), c.group(3), answer)
               for ln in lines(request))


def reported(request) -> bool:
    """Whether this agent's newest words came after the newest tool answer (its report is out)."""
    own = since_handed(request)
    last_answer = max((i for i, m in enumerate(own) if m.role == "tool"), default=-1)
    return any(m.role == "assistant" and m.content and not m.tool_calls for m in own[last_answer + 1:])


def act(request):
    tools = working_tools(request)
    for line in lines(request):
        head = line.split('"')[0].split("“")[0]
        if cond := IF_LINE.match(line):
            tool, verb, rest = cond.groups()
            follow = re.search(r"\bcall (\w+)", rest, re.I)
            if tool in tools and follow and follow.group(1) in tools:
                answers = [a for _, a in done_calls(request, tool)]
                after = done_calls(request, follow.group(1))
                # the items are reported first; the follow-up call comes on the next turn
                if answers and holds(verb, rest, answers[-1]) and len(after) < len(answers) and reported(request):
                    return call(follow.group(1))
            continue
        to, about = HANDS.search(head), ABOUT.search(head)
        if to and (about is None or words(about.group(1)) & words(customer(request))):
            name = to.group(1)
            if name in tools or resolve_handoff(name, request.tools) or re.search(r"[_\d]", name):
                step = pass_on(name, line, request)
                if step is not None:
                    return step
                continue
        named = [n for n in tools if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", head)]
        if named:
            tool = tools[named[0]]
            wanted, missing = batch(tool, request)
            if missing:
                asks = "\n".join(f"{i}. {m}" for i, m in enumerate(missing, 1))
                return say(f"To go on I need {len(missing)} thing(s):\n{asks}\nCould you send them?")
            until = UNTIL.search(head)
            past = done_calls(request, tool.name)
            todo = []
            for args in wanted:
                mine = [a for given, a in past if given == args]
                # an item is asked again only while its answer lacks the word waited for; one
                # that broke is reported, not retried
                if not mine or (until and mine[-1] is not None and not BROKE.search(mine[-1])
                                and until.group(1).lower() not in mine[-1].lower()
                                and not covered(request, tool.name, mine[-1])):
                    todo.append(call(tool.name, **args))
            if todo:
                return todo
    return say(report(request))


def tools_worked(request) -> list[str]:
    """The tools whose answers this reply reports: the offered ones, or, where none is offered
    (a reply written after the calls, on their answers alone), the ones this agent called."""
    offered = list(working_tools(request))
    if offered:
        return offered
    called = [c.name for m in since_handed(request) if m.role == "assistant" for c in m.tool_calls]
    return [n for n in dict.fromkeys(called) if not n.startswith(("transfer_to", "final_result"))]


def labels(calls: list[dict]) -> list[str]:
    """Each item's name: the arguments that differ from item to item (the first short one when
    there is a single item)."""
    varying = [k for k in calls[0] if len({json.dumps(c.get(k), default=str) for c in calls}) > 1] if calls else []
    out = []
    for args in calls:
        keys = varying or [k for k in args if len(str(args[k])) < 40][:1]
        out.append(", ".join(str(args[k]) for k in keys if k in args) or "the request")
    return out


def report(request) -> str:
    """The numbered per-item report and the count."""
    rules = [(IF_LINE.match(ln), ln) for ln in lines(request)]
    speak = next((QUOTE.search(ln).group(1) for ln in lines(request) if SPEAKS.match(ln) and QUOTE.search(ln)), None)
    rows, failed = [], []
    for name in tools_worked(request):
        latest: dict[str, tuple[dict, str]] = {}
        for args, answer in done_calls(request, name):
            if answer is not None:
                latest[json.dumps(args, sort_keys=True, default=str)] = (args, answer)
        items = list(latest.values())
        for label, (args, answer) in zip(labels([a for a, _ in items]), items):
            relayed = ROW.findall(answer)
            if relayed:  # a colleague's own per-item report: its items are passed on as they are
                rows += relayed
                failed += [r.split(" — ")[0] for r in relayed if " — could not:" in r]
                continue
            values = {**{k: str(v) for k, v in args.items()}, **fields(answer)}
            line = None
            for cond, ln in rules:
                if cond and cond.group(1) == name and not re.search(r"\bcall \w+", cond.group(3), re.I) \
                        and holds(cond.group(2), cond.group(3), answer):
                    text = QUOTE.search(ln)
                    line = fill(text.group(1), values) if text else answer.strip()
                    break
            if line is None and BROKE.search(answer):
                line = answer.strip()
            if line is not None:
                failed.append(label)
                rows.append(f"{label} — could not: {line}")
            else:
                rows.append(f"{label} — done: {fill(speak, values) if speak else compact(answer)}")
    if not rows:
        return speak or f"Noted, item by item:\n{numbered(request)}"
    body = "\n".join(f"{i}. {r}" for i, r in enumerate(rows, 1))
    count = f"{len(rows) - len(failed)} of {len(rows)} done."
    return f"{body}\n{count}" + (f" Could not do: {'; '.join(failed)}." if failed else "")


def fill(text: str, values: dict) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), text)


def compact(answer: str) -> str:
    found = fields(answer)
    return ", ".join(f"{k} {v}" for k, v in list(found.items())[:5]) if found else " ".join(answer.split())[:200]


# --- output types and selection -------------------------------------------------------------


def filled_schema(schema: dict, text: str) -> dict:
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        defs = schema.get("$defs") or {}
        options = [defs.get(o["$ref"].rsplit("/", 1)[-1], o) if "$ref" in o else o for o in options]
        schema = options[0]
    failed = "could not" in text
    counted = re.search(r"(\d+) of (\d+) done", text)
    out = {}
    for name, spec in (schema.get("properties") or {}).items():
        kind = spec.get("type")
        if kind == "boolean":
            out[name] = not failed
        elif kind in ("integer", "number"):
            out[name] = int(counted.group(1)) if counted else 0
        elif kind == "array":
            out[name] = [ln for ln in text.splitlines() if re.match(r"\d+\. ", ln)]
        elif spec.get("enum"):
            out[name] = spec["enum"][-1] if failed else spec["enum"][0]
        else:
            out[name] = text
    return out


def select(request):
    """A group chat's next speaker: the member the newest list was handed to ("For NAME:"), else
    the first member the prompt lists who has not spoken yet."""
    text = "\n".join(m.content or "" for m in request.messages)
    prompt, _, history = text.partition("onversation")
    members = list(dict.fromkeys(re.findall(r"^\s*([A-Za-z]\w*)\s*:", prompt, re.M)))
    handed = re.findall(r"\bFor (\w+):", history)
    if handed and handed[-1] in members:
        return say(handed[-1])
    spoke = set(re.findall(r"^\s*([A-Za-z]\w*)\s*:", history, re.M))
    return say(next((m for m in members if m not in spoke), members[-1] if members else ""))


def policy(request):
    if request.agent == "selector":
        return select(request)
    step = act(request)
    text = getattr(step, "text", None)
    if text is not None and not getattr(step, "tool_calls", ()):
        outputs = [t for t in request.tools if t.name.startswith("final_result")]
        if outputs:
            return call(outputs[0].name, **filled_schema(outputs[0].parameters or {}, text))
        if request.tool_choice not in ("auto", "none") and request.tools:
            forced = next((t for t in request.tools if t.name == request.tool_choice), request.tools[0])
            return call(forced.name, **filled_schema(forced.parameters or {}, text))
        if request.response_schema:
            return say(json.dumps(filled_schema(request.response_schema, text)))
    return step
