"""A ninth scripted model for the zoo, written apart from the others: a cautious checklist writer.

Use it as `--sut-model scripted/examples/zoo/policy_i.py:policy`. It knows no system of the zoo;
it reads an agent's instructions line by line and does what the first line that applies says,
literally (a wrong line included), so a seeded twin and its fixed twin differ only through their
instructions, tools and wiring. It answers under small headings (`### Summary`, `### What I did`,
`### Next steps`), lists outcomes as checklist lines (`- [x] seat moved to 14C`, `- [ ] refund -
not possible: ...`), quotes a tool's answer verbatim in a fenced block when it reports or explains
it, words a hand-over as "I am passing this to NAME because ...", and asks for what it lacks with
"Could you confirm ...?".

What it reads in a line of the instructions (case-insensitive; `name` is a tool offered to the
agent or named in backticks, or a colleague it can hand over to):

- a hand-over line: `Pass / hand / refer / send / route ... to NAME ... about A, B or C` -- hands
  the conversation to NAME (through the handoff tool when one is offered, else in words) when the
  customer's request mentions one of the topics (their stems), once;
- a tool step: any other line naming a tool (`Reserve the dock with `reserve_x``) -- calls it once,
  each argument found in the conversation from the shape of its description's example (`e.g.
  "SC-0000"`, `like "14/05/2026"`), an enumerated argument from the value the conversation names,
  a free-text one from the customer's words; `... until it shows WORD` calls again while the newest
  answer lacks WORD; `(only for A or B)` / `when the request mentions A or B` limits the step;
- an outcome line: `If `tool` reports / returns / answers / shows A or B, ...` (when the newest
  answer holds one of the words) or `If `tool` fails ...` (a false flag, a 4xx/5xx code, a refusal
  word); what follows is a quoted reply, said as written, or an instruction, which it carries out
  as an unticked checklist line with the tool's reason and its answer quoted;
- a closing line: `Tick off / Confirm / Mark ... done` -- a ticked checklist built from the last
  call's arguments; `Report / Quote / Relay ... `tool`` -- the answer quoted; `Say / Reply "TEXT"`.

Before it closes, it double-checks with a read-only look-up (a tool whose name says status,
lookup, find, check, get or show) that its instructions mention but no step has used. An agent
with nothing left to do writes a short summary that it has nothing to add, or, when the newest
tool answer it got reads as a failure, an unticked line for it with the answer quoted.
"""

from __future__ import annotations

import re

from masfuzz.llm.scripted import resolve_handoff, say
from masfuzz.llm.types import ChatReply, ToolCallRequest

HAND_VERBS = r"(?:pass|hand|refer|send|route|transfer|forward)"
READ_ONLY = re.compile(r"(status|lookup|look_up|find|check|get|show)", re.I)
FAILURE_WORDS = ("false", "error", "refus", "reject", "denied", "declin", "full", "unavailable", "invalid",
                 "not possible", "cannot", "failed", "unparseable", "unknown", "not recogn", "no such", "not found",
                 "sold out", "no reconoc", "ungültig", "onleesbaar", "illisible")
LISTED_PROBLEMS = re.compile(r"""['"](?:problems|errors|issues)['"]\s*:\s*\[\s*[^\]\s]""")
IDENT = re.compile(r"`([A-Za-z_][\w.-]*)`|\b([a-z][a-z0-9]*_[a-z0-9_]+)\b")


def _instructions(request) -> list[str]:
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    return [line.strip(" -*\t") for line in text.splitlines() if line.strip(" -*\t")]


def _request_text(request) -> str:
    """The customer's request: the conversation's first user message."""
    for m in request.messages:
        if m.role == "user" and m.content:
            return m.content
    return ""


def _conversation(request) -> list[str]:
    """Everything said so far but the instructions, newest first."""
    return [m.content for m in reversed(request.messages) if m.role != "system" and m.content]


def _results(request, tool: str) -> list[str]:
    names = {c.id: c.name for m in request.messages if m.role == "assistant" for c in m.tool_calls}
    return [m.content or "" for m in request.messages
            if m.role == "tool" and (m.name or names.get(m.tool_call_id or "")) == tool]


def _last_call(request) -> ToolCallRequest | None:
    """The newest call that did something (a look-up only double-checks it)."""
    calls = [c for m in request.messages if m.role == "assistant" for c in m.tool_calls]
    acting = [c for c in calls if not READ_ONLY.search(c.name)]
    return (acting or calls or [None])[-1]


def _handed(request, colleague: str) -> bool:
    for m in request.messages:
        if m.role == "assistant" and (f"passing this to {colleague}" in (m.content or "")
                                       or any(colleague in c.name for c in m.tool_calls)):
            return True
    return False


def _names(line: str) -> list[str]:
    return [a or b for a, b in IDENT.findall(line)]


def _topics(line: str) -> list[str] | None:
    """The topic words a line is limited to, or None when it applies to every request."""
    found = re.search(r"(?:about|concerning|only for|when the request mentions|if the request mentions"
                      r"|for requests about)\s+(.+?)(?:[.;)]|$)", line, re.I)
    if not found:
        return None
    words = [re.sub(r"^(an?|the)\s+", "", w.strip(" '\"`").lower()) for w in re.split(r",|\bor\b|\band\b", found.group(1))]
    return [w for w in words if w]


def _stem(word: str) -> str:
    """A topic word's stem, so "parts" finds "part" and "feet" stays "feet"."""
    return re.sub(r"(ies|es|s|ing|ed)$", "", word) if len(word) > 4 else word


def _mentions(request, topics: list[str] | None) -> bool:
    if topics is None:
        return True
    text = _request_text(request).lower()
    return any(_stem(t) in text for t in topics)


def shape(example: str) -> re.Pattern:
    """A pattern for text shaped like an example: letters stay letters of their case, digits digits."""
    parts = []
    for ch in example:
        if ch.isdigit():
            parts.append(r"\d")
        elif ch.isupper():
            parts.append("[A-Z]")
        elif ch.islower():
            parts.append("[a-z]")
        elif ch == " ":
            parts.append(" ")
        else:
            parts.append(re.escape(ch))
    return re.compile(r"(?<![\w/-])" + "".join(parts) + r"(?![\w/-])")


def _example(description: str) -> str | None:
    found = re.search(r"(?:e\.g\.|like|for example|such as)\s*[\"']([^\"']+)[\"']", description or "")
    return found.group(1) if found else None


def _arguments(request, tool: str) -> tuple[dict, str | None]:
    """The call's arguments from the conversation, or the description of the first one missing."""
    spec = next((t for t in request.tools if t.name == tool), None)
    if spec is None:
        return {}, None
    props = spec.parameters.get("properties", {})
    required = set(spec.parameters.get("required", props))
    said = _conversation(request)
    args: dict = {}
    for name, schema in props.items():
        schema = _resolved(schema, spec.parameters)
        description = schema.get("description", "") or name.replace("_", " ")
        value = None
        if "enum" in schema:
            for text in said:
                value = next((v for v in schema["enum"]
                              if re.search(rf"(?<!\w){re.escape(str(v))}(?:e?s)?(?!\w)", text, re.I)), None)
                if value is not None:
                    break
        elif (example := _example(description)) is not None:
            for text in said:
                found = shape(example).search(text)
                if found:
                    value = found.group(0)
                    break
        elif schema.get("type", "string") == "string":
            value = _request_text(request)
        if value is None:
            if name in required:
                return {}, description
            continue
        if schema.get("type") == "integer":
            value = int(re.sub(r"\D", "", str(value)) or 0)
        args[name] = value
    return args, None


def _resolved(schema: dict, root: dict) -> dict:
    if "$ref" in schema:
        return root.get("$defs", {}).get(schema["$ref"].split("/")[-1], schema)
    for option in schema.get("anyOf", ()):
        if option.get("type") != "null":
            return {**_resolved(option, root), "description": schema.get("description", "")}
    return schema


def _failed(result: str) -> bool:
    low = result.lower()
    return (bool(re.search(r"\b[45]\d\d\b", result) or LISTED_PROBLEMS.search(result))
            or any(w in low for w in FAILURE_WORDS))


def _reason(result: str) -> str:
    """The reason a tool's answer gives, read from its own fields when it has them."""
    found = re.search(r"['\"]?(?:reason|detail|note|nota|notiz|motivo|message|why|msg)['\"]?\s*[:=]\s*['\"]([^'\"]+)", result)
    return found.group(1) if found else result.strip()[:160]


def _quoted(result: str) -> str:
    return f"```text\n{result.strip()}\n```"


def _subject(line: str, verbs: str) -> str:
    text = re.sub(rf"^.*?\b{verbs}\b\s*", "", line, count=1, flags=re.I)
    text = re.sub(r"\s*,?\s*\b(as done|as complete|as not possible|done|to the \w+|for the \w+|with the)\b.*$", "", text,
                  flags=re.I)
    text = re.sub(r"^(the|a|an)\s+", "", text.strip(" .:`"), flags=re.I)
    return text or "request"


def _args_text(call: ToolCallRequest | None) -> str:
    if call is None or not call.arguments:
        return ""
    return " (" + ", ".join(f"{k}: {v}" for k, v in call.arguments.items()) + ")"


def checklist(summary: str, did: list[str], next_steps: list[str]) -> str:
    return ("### Summary\n" + summary + "\n\n### What I did\n" + "\n".join(did)
            + "\n\n### Next steps\n" + "\n".join(next_steps))


def _ask(description: str) -> ChatReply:
    what = re.sub(r"\s*,?\s*(?:e\.g\.|like|for example|such as)\s*[\"'][^\"']+[\"']\.?", "", description).strip(" .")
    what = what[0].lower() + what[1:] if what else "detail"
    return say("### Summary\nI need one detail before I can go on.\n\n### Next steps\n"
               f"- [ ] waiting for you\n\nCould you confirm {what}?")


def _hand_over(request, colleague: str, line: str) -> ChatReply:
    topics = _topics(line) or []
    about = next((t for t in topics if _stem(t) in _request_text(request).lower()), None)
    because = f"the request is about {about}" if about else "this is their part of the work"
    text = f"I am passing this to {colleague} because {because}."
    tool = resolve_handoff(colleague, request.tools)
    calls = (ToolCallRequest(name=tool.name, arguments={}),) if tool else ()
    return ChatReply(text=text, tool_calls=calls, finish_reason="tool_calls" if calls else "stop")


def _outcome(request, line: str) -> ChatReply | None:
    """An `If `tool` reports ... / fails` line, when the tool's newest answer matches it."""
    found = re.match(r"(?:if|when|where|should)\s+`?(\w+)`?\s+(reports|returns|answers|shows|says|comes back with"
                     r"|fails|does not go through)\s*(.*)$", line, re.I)
    if not found:
        return None
    tool, verb, rest = found.groups()
    results = _results(request, tool)
    if not results:
        return None
    newest = results[-1]
    if verb.lower() in ("fails", "does not go through"):
        matched, action = _failed(newest), rest
    else:
        words, _, action = rest.partition(",")
        wanted = [w.strip(" '\"`") for w in re.split(r"\bor\b|/", words) if w.strip(" '\"`")]
        matched = any(w.lower() in newest.lower() for w in wanted)
    if not matched:
        return None
    quote = re.search(r"\"([^\"]+)\"", action)
    if quote:
        return say(quote.group(1))
    item = _subject(action, r"(?:mark|tell|say|record|note|list|report)") if action.strip() else tool
    return say(checklist("I could not complete this.",
                         [f"- [ ] {item} - not possible: {_reason(newest)}", _quoted(newest)],
                         ["- [ ] a colleague will follow this up with you"]))


def _double_check(request, steps_limited: set[str]) -> ChatReply | None:
    """A read-only look-up the instructions mention, used once before closing."""
    if _last_call(request) is None:
        return None
    offered = {t.name for t in request.tools}
    for line in _instructions(request):
        for name in _names(line):
            if (name in offered and READ_ONLY.search(name) and name not in steps_limited
                    and not _results(request, name)):
                args, missing = _arguments(request, name)
                if missing is None:
                    return ChatReply(tool_calls=(ToolCallRequest(name=name, arguments=args),),
                                     finish_reason="tool_calls")
    return None


def act(request):
    lines = _instructions(request)
    offered = {t.name for t in request.tools}
    colleagues = {t.handoff_to for t in request.tools if t.handoff_to}
    limited = {n for line in lines if _topics(line) is not None for n in _names(line)}
    for line in lines:
        names = _names(line)
        low = line.lower()
        # a hand-over line
        target = next((n for n in names if n in colleagues or (n not in offered and re.search(
            rf"{HAND_VERBS}\b.*\bto\s+`?{re.escape(n)}`?", line, re.I))), None)
        if target and re.search(rf"\b{HAND_VERBS}", low):
            if _mentions(request, _topics(line)) and not _handed(request, target):
                return _hand_over(request, target, line)
            continue
        # an outcome line
        if re.match(r"(if|when|where|should)\b", low):
            answer = _outcome(request, line)
            if answer is not None:
                return answer
            continue
        # a closing line
        quote = re.search(r"\"([^\"]+)\"", line)
        if re.match(r"(say|reply|answer|finish with|sign off with)\b", low) and quote:
            return say(quote.group(1))
        if re.match(r"(report|quote|relay|pass on|sum up)\b", low):
            tool = next((n for n in names if _results(request, n)), None)
            if tool is not None:
                check = _double_check(request, limited)
                if check is not None:
                    return check
                newest = _results(request, tool)[-1]
                return say(checklist(f"Here is what {tool} answered.", [f"- [x] {tool} checked", _quoted(newest)],
                                     ["- [ ] nothing needed from you for now"]))
            continue
        if re.match(r"(tick off|tick|confirm|mark)\b", low):
            check = _double_check(request, limited)
            if check is not None:
                return check
            item = _subject(line, r"(?:tick off|tick|confirm|mark)")
            return say(checklist("Your request has been handled.", [f"- [x] {item}{_args_text(_last_call(request))}"],
                                 ["- [ ] nothing needed from you"]))
        # a tool step
        tool = next((n for n in names if n in offered or re.search(r"\b(with|using|by means of|call|use|run)\s+`"
                                                                     + re.escape(n) + "`", line, re.I)), None)
        if tool is None or not _mentions(request, _topics(line)):
            continue
        results = _results(request, tool)
        until = re.search(r"until it (?:shows|says|reads|returns)\s+['\"`]?(\w+)", line, re.I)
        if results and not (until and until.group(1).lower() not in results[-1].lower()):
            continue
        args, missing = _arguments(request, tool)
        if missing is not None:
            return _ask(missing)
        return ChatReply(tool_calls=(ToolCallRequest(name=tool, arguments=args),), finish_reason="tool_calls")
    return _nothing_left(request)


def _nothing_left(request) -> ChatReply:
    """No line applies: say so, with the newest tool answer unticked when it failed."""
    last = _last_call(request)
    newest = _results(request, last.name)[-1:] if last else []
    if newest and _failed(newest[0]):
        return say(checklist("I could not complete this.",
                             [f"- [ ] {last.name} - not possible: {_reason(newest[0])}", _quoted(newest[0])],
                             ["- [ ] a colleague will follow this up with you"]))
    return say(checklist("Nothing further is needed from me on this.", ["- [x] read the request"],
                         ["- [ ] none on my side"]))


def policy(request):
    return act(request)

