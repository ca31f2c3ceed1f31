"""A scripted model for the zoo, written apart from the others: a terse operator.

Use it as `--sut-model scripted/examples/zoo/policy_m.py:policy`. Like the other policies it
knows no system of the zoo: a seeded twin and its fixed twin differ only through what their
instructions, tools and wiring give it. Its character:

- a few words a reply, never an explanation: "Booked.", "Done: LK-4471.", "No slot.",
  "Passing to billing."; a question is the bare names of the fields it lacks ("Date?",
  "Postcode + van size?");
- a tool's answer is paraphrased to one word of its own ("Held." when it reads as a success,
  "Nope." when it reads as a refusal), unless a line says what to answer;
- minimal calls: only the parameters a tool's schema requires, each found in the conversation by
  the shape of the example its description gives (`e.g. "LK-0000"`), else by its name (a date, a
  time, a reference), an enum by the words the customer used;
- literal: it reads the agent's instructions one line (or sentence) at a time, and the first
  line that still applies is what it does, a wrong line included:
  - `If TOOL says W1/W2: "TEXT"` (or `..., reply "TEXT"`): answers TEXT when the tool's newest
    answer holds a word; without a quoted reply it answers "Failed - W.";
  - a line naming an offered tool: calls it once (only when the customer's words touch the
    line's `for ...` topics, if it has any);
  - `... with TOOL until it says W`: calls TOOL again while its newest answer lacks W;
  - `Pass/Hand/Send/Transfer ... to NAME [for ...]`: hands over once, through the hand-over tool
    when one is offered, else says "Passing to NAME.";
  - `Reply/Say "TEXT"`: says TEXT once;
  - `Confirm ...`: "Done: REF." with the reference the last answer holds, else "Booked.";
- a tool that broke (the framework's error text) gets "Tool down. Try later." unless a line
  plans for it (`If TOOL errors: "..."`); an agent with nothing left to do says "Ok.".
"""

from __future__ import annotations

import ast
import json
import re

from masfuzz.llm.scripted import call, say, tool_results
from masfuzz.llm.types import ChatReply, ToolCallRequest

NO = re.compile(r"\b(no|not|none|refused|rejected|declined|denied|full|failed|false|invalid|"
                r"unavailable|closed|waitlist\w*|[45]\d\d)\b", re.I)
BROKE = re.compile(r"\b(error|exception|traceback)\b", re.I)
BY_NAME = (  # a parameter without an example, found by what its name says it is
    (r"date|day", r"\b\d{4}-\d{2}-\d{2}\b"),
    (r"time|slot|hour", r"\b\d{1,2}:\d{2}\b"),
    (r"postcode", r"\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b"),
    (r"ref|order|booking|number|id\b|code", r"\b[A-Z]{2,4}-?\d{3,}\b"),
)
OUTCOME = re.compile(r"^(?:if|when)\s+(\w+)\s+(?:says|answers|returns|gives)\s+(.+?)(?:[:,]\s*(.*))?$", re.I)
ERRORS = re.compile(r"^(?:if|when)\s+(\w+)\s+(?:errors|breaks|raises)\b[:,]?\s*(.*)$", re.I)
PASS = re.compile(r"\b(?:pass|hand|send|transfer|route)\b.*?\bto\s+(\w+)\s*(?:\bfor\b\s*(.*))?$", re.I)
HANDOFF = re.compile(r"(?:transfer|handoff|hand_off)_(?:back_)?to_(\w+)$")  # a hand-over tool by its name
QUOTE = re.compile(r'"([^"]+)"')


# --- reading ----------------------------------------------------------------------------------


def lines(request) -> list[str]:
    out = []
    for raw in "\n".join(m.content or "" for m in request.messages if m.role == "system").splitlines():
        raw = re.sub(r"^\s*(?:[-*]|\d+[.)])\s*", "", raw).strip()
        out += [s.strip() for s in re.split(r'(?<=[.!?])\s+(?=[A-Z])(?=(?:[^"]*"[^"]*")*[^"]*$)', raw) if s.strip()]
    return out


def customer(request) -> str:
    return " ".join(m.content or "" for m in request.messages if m.role == "user")


def words(text: str) -> set[str]:
    """Rough stems: "tuning" and "tune" meet, "lilies" and "lily" do not need to."""
    return {re.sub(r"(?:ing|ed|es|s|e)$", "", w)[:5] for w in re.findall(r"[a-z]{3,}", text.lower())}


def touches(request, topics: str | None) -> bool:
    if not topics:
        return True
    wanted = words(re.sub(r"\b(?:or|and|the|any|anything|about|requests?|customers?)\b", " ", topics, flags=re.I))
    return bool(wanted & words(customer(request)))


def calls(request) -> list[ToolCallRequest]:
    return [c for m in request.messages if m.role == "assistant" for c in m.tool_calls]


def said(request, text: str) -> bool:
    return any(m.role == "assistant" and (m.content or "").strip() == text for m in request.messages)


def parsed(answer: str):
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(answer)
        except (ValueError, SyntaxError, TypeError):
            pass
    return None


def broke(answer: str) -> bool:
    """The framework's text for a tool that raised, not something the tool answered."""
    return parsed(answer) is None and bool(BROKE.search(answer)) and not answer.lstrip().startswith(("{", "("))


def ref_in(answer: str, given=()) -> str | None:
    """The reference an answer holds: not one the call itself passed in."""
    return next((r for r in re.findall(r"\b[A-Z]{2,4}-\d{3,}\b", answer) if r not in given), None)


def answered(request) -> bool:
    """Something was said since the newest tool answer (it gets no second word)."""
    roles = [m.role for m in request.messages if m.role == "tool" or (m.role == "assistant" and m.content)]
    return "tool" not in roles or roles[-1] != "tool"


# --- acting -----------------------------------------------------------------------------------


def example(spec: dict) -> str | None:
    m = re.search(r"""e\.g\.\s*["']([^"']+)["']""", spec.get("description") or "")
    return m[1] if m else None


def pattern_of(sample: str) -> str:
    out = ""
    for run in re.findall(r"\d+|[A-Z]+|[a-z]+|.", sample):
        out += (r"\d+" if run.isdigit() else rf"[A-Z]{{{len(run)}}}" if run.isupper()
                else "[a-z]+" if run.isalpha() else re.escape(run))
    return rf"(?<![\w-]){out}(?![\w-])"


def sources(request) -> list[str]:
    said_ = [m.content or "" for m in request.messages if m.role in ("user", "assistant")]
    return said_ + [m.content or "" for m in request.messages if m.role == "tool"]


def value_for(request, name: str, spec: dict):
    spec = spec.get("anyOf", [spec])[0] if "anyOf" in spec and "enum" not in spec else spec
    if "enum" in spec:
        heard = {w[:3] for w in words(customer(request))}  # "lilies" for "lily"
        return next((o for o in spec["enum"] if {w[:3] for w in words(str(o))} & heard), None)
    if sample := example(spec):
        regex = pattern_of(sample)
    else:
        regex = next((r for key, r in BY_NAME if re.search(key, name, re.I)), None)
    if regex is None:  # free text (a question for a colleague): the customer's own words
        said_ = [m.content for m in request.messages if m.role == "user" and m.content]
        return said_[-1] if said_ and re.search(r"question|message|request|query|text|task", name) else None
    hit = next((m[0] for text in sources(request) for m in [re.search(regex, text)] if m), None)
    return int(hit) if hit is not None and spec.get("type") == "integer" else hit


def minimal_call(request, tool):
    schema = tool.parameters or {}
    props = schema.get("properties") or {}
    args, lacking = {}, []
    for name in schema.get("required") or []:
        value = value_for(request, name, props.get(name, {}))
        if value is None:
            lacking.append(name.replace("_", " "))
        else:
            args[name] = value
    if lacking:
        return say(" + ".join(lacking).capitalize() + "?")
    return call(tool.name, **args)


def gist(answer: str) -> str:
    return "Nope." if NO.search(answer) else "Held."


def act(request):
    handoffs = {(t.handoff_to or m[1]).lower(): t for t in request.tools
                if (m := HANDOFF.match(t.name) or [None, None]) and (t.handoff_to or m[1])}
    tools = {t.name: t for t in request.tools if t not in handoffs.values()}
    made = calls(request)
    done = {c.name for c in made} | {r.name for r in tool_results(request)}
    # a reflection on a tool's answer is asked without the tools: the newest answered call counts
    last = next((c for c in reversed(made) if c.name in tools or tool_results(request, c.name)), None)
    newest = (tool_results(request, last.name) or [None])[-1] if last else None
    planned = {m[1] for line in lines(request) if (m := ERRORS.match(line))}
    if newest is not None and broke(newest.content) and last.name not in planned and not said(request, "Tool down. Try later."):
        return say("Tool down. Try later.")
    for line in lines(request):
        if m := ERRORS.match(line):
            got = tool_results(request, m[1])
            text = (QUOTE.search(m[2]) or [None, "Tool down."])[1]
            if got and broke(got[-1].content) and not said(request, text):
                return say(text)
            continue
        if m := OUTCOME.match(line):
            got = tool_results(request, m[1])
            if not got:
                continue
            hit = next((w.strip(" '\"`.") for w in re.split(r"/|\bor\b", m[2])
                        if w.strip(" '\"`.") and w.strip(" '\"`.").lower() in got[-1].content.lower()), None)
            if hit:
                text = (QUOTE.search(m[3] or "") or [None, f"Failed - {hit}."])[1]
                if not said(request, text):
                    return say(text)
            continue
        named = [t for t in tools if re.search(rf"\b{re.escape(t)}\b", line)]
        if named and not re.match(r"(?:confirm|reply|say)\b", line, re.I):
            topics = re.search(r"\bfor\b\s+(.*)$", line)
            until = re.search(r"\buntil\b.*?\b(?:says|shows|reads)\s+['\"`]?(\w+)", line)
            got = tool_results(request, named[0])
            again = bool(until and got and until[1].lower() not in got[-1].content.lower())
            if (named[0] in done and not again) or not touches(request, topics[1] if topics else None):
                continue
            return minimal_call(request, tools[named[0]])
        if m := PASS.search(line):
            if not touches(request, m[2]):
                continue
            target = m[1].lower()
            text = f"Passing to {m[1]}."
            if target in handoffs:
                if handoffs[target].name in done:
                    continue
                return ChatReply(text=text, finish_reason="tool_calls",
                                 tool_calls=(ToolCallRequest(name=handoffs[target].name, arguments={}),))
            if said(request, text):
                continue
            return say(text)
        if m := re.match(r'(?:reply|say)\s*:?\s*"([^"]+)"', line, re.I):
            if not said(request, m[1]):
                return say(m[1])
            continue
        if line.lower().startswith("confirm") and last is not None:
            ref = ref_in(newest.content, [str(v) for v in last.arguments.values()]) if newest is not None else None
            text = f"Done: {ref}." if ref else "Booked."
            if not said(request, text):
                return say(text)
            continue
    if newest is not None and not answered(request):
        return say(gist(newest.content))
    return say("Ok.")


def policy(request):
    return act(request)
