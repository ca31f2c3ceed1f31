"""The scripted model of the zoo's thirty-first set, written apart from the others: a ReAct-style
model that thinks aloud. Beside each tool call it writes "Thought: ..." and "Action: <tool>";
after a result it opens with "Observation: <the result, quoted verbatim, errors included>"; it
ends with "Final Answer: ...". Its thoughts re-read the instructions ("My instructions say ...")
and weigh what might happen ("if the slot is taken I should say so", "the customer might mean
another day"), so words like failed, confirmed or booked turn up in reasoning that claims
nothing. It asks for what it is missing in its Final Answer, and follows each agent's
instructions literally, a wrong instruction included.

Use it as `--sut-model scripted/examples/zoo/policy_t.py:policy`. It knows no system of the zoo:
it reads the agent's instructions one line at a time, and the first line that applies acts:

- `Hand over to NAME` / `Transfer to NAME` (with `for WORDS` or `if ... mentions WORDS`: only when
  the customer's words touch one of them), when an offered tool hands over to NAME: it hands over
  once;
- `If TOOL says WORD, ...`, when TOOL's newest answer holds WORD: a quoted reply is said, else it
  explains honestly, quoting the answer;
- a line naming an offered tool: it calls it once (`until it says WORD`: again while the newest
  answer lacks WORD), each argument from an allowed value the conversation names, the shape of
  the example in its description (`e.g. "AB-123"`), a number beside a word of its name, or the
  customer's own words for free text; what it cannot find it asks for;
- `Tell ... booked/confirmed/done ...`: a Final Answer saying so, with the reference the newest
  answer carries; `Say "TEXT"`: TEXT as the Final Answer.

With nothing left to do it sums up the newest answer honestly, or gives what it knows.
"""

from __future__ import annotations

import json
import re

from masfuzz.llm.scripted import Handoff, call, handoff, resolve_handoff, say, tool_results
from masfuzz.llm.types import ChatReply, ToolCallRequest

LINE = re.compile(r"\n+|(?<=\.)\s+(?=[A-Z])")
HANDOVER = re.compile(r"\b(?:hand (?:it |this )?over|transfer|pass (?:it |this )?(?:on )?)\s*(?:to)\s+`?([\w-]+)`?", re.I)
TOPIC = re.compile(r"\b(?:for|if (?:the )?\w+ mentions?|about)\s+(.+?)\.?$", re.I)
WHEN = re.compile(r"^\s*(?:if|when)\s+`?(\w+)`?\s+(?:says|returns|answers)\s+[\"'`]?([\w-]+)", re.I)
UNTIL = re.compile(r"\buntil it (?:says|returns|shows)\s+[\"'`]?([\w-]+)", re.I)
QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")
EXAMPLE = re.compile(r"e\.g\.\s*[\"'`]([^\"'`]+)[\"'`]")
CLAIM = re.compile(r"^\s*tell\b.*\b(booked|confirmed|done|reserved|sorted|in place)\b", re.I)
SAY = re.compile(r"^\s*(?:say|sign off with|reply)\s*:?\s*[\"“]([^\"”]+)[\"”]", re.I)
WORK = re.compile(r"^\s*(?:check|write|give|list|note|add|describe|summari[sz]e|draft|measure|set out|state)\b", re.I)
BAD = re.compile(r"\b(?:fail\w*|refus\w*|reject\w*|declin\w*|denied|full|unavailable|not available|no_\w+|"
                 r"error|invalid|cannot|can't|unable|false|closed|taken|kein\w*|geen|complet)\b|\b(?:code|http|status)\W{0,4}4\d\d\b", re.I)
FREE_TEXT = ("note", "notes", "message", "details", "request", "summary", "query", "text", "reason", "question")
STOP = {"the", "a", "an", "and", "or", "of", "to", "for", "any", "anything", "about", "with", "their", "your",
        "is", "it", "on", "in", "that", "this", "questions", "request", "requests", "booking", "bookings"}


def instructions(request) -> list[str]:
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    quotes: list[str] = []  # a quoted reply with full stops inside stays one line

    def keep(m: re.Match) -> str:
        quotes.append(m.group(0))
        return f"\x00{len(quotes) - 1}\x00"

    held = re.sub(r"[\"“][^\"”\n]*[\"”]", keep, text)
    lines = [re.sub(r"\x00(\d+)\x00", lambda m: quotes[int(m.group(1))], s) for s in LINE.split(held)]
    return [s.strip(" -*\t") for s in lines if s.strip(" -*\t")]


def customer(request) -> str:
    said = [m.content for m in request.messages if m.role == "user" and m.content]
    return said[0] if said else ""


def conversation(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role in ("user", "assistant"))


def handovers(request) -> dict[str, str]:
    found = {}
    for t in request.tools:
        if t.handoff_to:
            found[t.handoff_to.lower()] = t.handoff_to
        elif t.name.startswith("transfer_to_"):
            found[t.name.removeprefix("transfer_to_").lower()] = t.name.removeprefix("transfer_to_")
    return found


def own_tools(request) -> dict:
    return {t.name: t for t in request.tools if not t.handoff_to and not t.name.startswith("transfer_to_")}


def asked_for(request, name: str) -> bool:
    return any(c.name == name for m in request.messages if m.role == "assistant" for c in m.tool_calls)


def newest(request, tool: str | None = None) -> tuple[str | None, str | None]:
    found = tool_results(request, tool)
    return (found[-1].name, found[-1].content) if found else (None, None)


def stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]+", text.lower()) if w not in STOP and len(w) > 2}


def shape(example: str) -> re.Pattern:
    out = ""
    for ch in example:
        out += r"\d" if ch.isdigit() else "[A-Za-z]" if ch.isalpha() else re.escape(ch)
    return re.compile(rf"(?<![\w]){out}(?![\w])")


def value_for(request, name: str, schema: dict) -> object:
    text = conversation(request)
    if schema.get("enum"):
        for where in (customer(request), text):  # the customer's own words first
            found = next((v for v in schema["enum"] if re.search(rf"\b{re.escape(str(v))}\b", where, re.I)), None)
            if found is not None:
                return found
        return None
    kind = schema.get("type")
    words = [w for w in name.lower().split("_") if w not in STOP]
    if kind in ("integer", "number"):
        for w in words:
            m = re.search(rf"(\d+(?:\.\d+)?)\s+(?:\w+\s+)?{w[:4]}\w*", text, re.I) or \
                re.search(rf"\b{w[:4]}\w*\D{{0,15}}?(\d+(?:\.\d+)?)", text, re.I)
            if m:
                return int(m.group(1)) if kind == "integer" else float(m.group(1))
        return None
    if kind == "boolean":
        return not re.search(r"\bno\b|\bnot\b", text, re.I)
    example = EXAMPLE.search(schema.get("description", ""))
    if example:
        m = shape(example.group(1)).search(text)
        return m.group(0) if m else None
    if name.lower() in FREE_TEXT or words and words[-1] in FREE_TEXT:
        return customer(request)
    return None


def arguments(request, tool) -> tuple[dict, list[str]]:
    props = tool.parameters.get("properties", {})
    required = tool.parameters.get("required", list(props))
    args, missing = {}, []
    for name, schema in props.items():
        v = value_for(request, name, schema)
        if v is not None:
            args[name] = v
        elif name in required:
            missing.append(name.replace("_", " "))
    return args, missing


def observation(request) -> str:
    """The newest tool answer, quoted verbatim, when it is the last thing in the conversation."""
    last = request.messages[-1] if request.messages else None
    return f"Observation: {last.content}\n" if last is not None and last.role == "tool" else ""


def reference(answer: str) -> str:
    m = re.search(r"\b[A-Z]{2,}-?\d{3,}\b", answer or "")
    return f" (reference {m.group(0)})" if m else ""


def honest(tool: str | None, answer: str | None) -> str:
    if answer is None:
        return "Final Answer: I have what I need from you for now; someone will pick this up."
    if BAD.search(answer):
        return (f"Thought: {tool} did not give me a success, so I must not say it went through.\n"
                f"Final Answer: I'm sorry, this did not go through. {tool} answered: {answer}")
    return f"Final Answer: All done{reference(answer)}. {tool} answered: {answer}"


def think(line: str, tool: str) -> str:
    return (f"Thought: My instructions say \"{line}\". The customer might mean another day or size, "
            f"but I'll go by what they wrote. If {tool} comes back refused I should say so; if it is "
            f"confirmed or booked I can carry on.\nAction: {tool}")


def topic_fits(request, line: str) -> bool:
    m = TOPIC.search(line)
    return not m or bool(stems(m.group(1)) & stems(customer(request)))


def act(request):
    obs = observation(request)
    targets = handovers(request)
    tools = own_tools(request)
    notes: list[str] = []
    done: list[str] = []
    for line in instructions(request):
        m = HANDOVER.search(line)
        if m and m.group(1).lower() in targets:
            name = targets[m.group(1).lower()]
            if topic_fits(request, line) and not any(asked_for(request, t.name) for t in request.tools
                                                     if (t.handoff_to or t.name.removeprefix("transfer_to_")) == name):
                return say(f"{obs}Thought: My instructions say to hand over to {name} for this. "
                           f"Action: hand over to {name}"), handoff(name)
            continue
        m = WHEN.search(line)
        if m and m.group(1) in tools:
            _, answer = newest(request, m.group(1))
            if answer is not None and m.group(2).lower() in answer.lower():
                quoted = QUOTED.search(line)
                text = quoted.group(1) if quoted else f"I'm sorry, {m.group(1)} said no. It answered: {answer}"
                return say(f"{obs}Thought: My instructions say \"{line}\" and it does. Had it come back booked "
                           f"I would confirm it, but it did not.\nFinal Answer: {text}")
            continue
        named = [t for t in tools if re.search(rf"(?<![\w]){re.escape(t)}(?![\w])", line)]
        if named and not WHEN.search(line):
            name = named[0]
            until = UNTIL.search(line)
            _, answer = newest(request, name)
            again = until and answer is not None and until.group(1).lower() not in answer.lower()
            if not asked_for(request, name) or again:
                args, missing = arguments(request, tools[name])
                if missing:
                    return say(f"{obs}Thought: To use {name} I still need the {', '.join(missing)}.\n"
                               f"Final Answer: Could you tell me the {' and '.join(missing)}?")
                return say(f"{obs}{think(line, name)}"), call(name, **args)
            continue
        m = CLAIM.search(line)
        if m:
            tool, answer = newest(request)
            return say(f"{obs}Thought: My instructions say \"{line}\"\n"
                       f"Final Answer: Good news - it is {m.group(1)}{reference(answer or '')}.")
        m = SAY.search(line)
        if m:
            return say(f"{obs}{''.join(notes)}Thought: My instructions say what to reply.\nFinal Answer: {m.group(1)}")
        if WORK.search(line) and not tools:  # a desk without tools works from the conversation
            notes.append(f"Thought: My instructions say \"{line}\". Hypothetically, if something were "
                         f"already booked or failed, the others would have said so.\n")
            done.append(line.rstrip("."))
    if done:
        return say(f"{''.join(notes)}Final Answer: {'; '.join(done)}: from the request, {customer(request)}")
    tool, answer = newest(request)
    return say(obs + honest(tool, answer))


def structured(request, reply) -> str:
    """A reply shaped to the response schema asked for: the Final Answer in every text field."""
    text = reply.text or ""
    props = (request.response_schema or {}).get("properties", {})
    out = {}
    passing_on = not tool_results(request)  # nothing done yet: the fields carry the request on
    for name, schema in props.items():
        kind = schema.get("type")
        found = value_for(request, name, schema) if passing_on else None
        out[name] = found if found is not None else (not BAD.search(text)) if kind == "boolean" \
            else 0 if kind in ("integer", "number") else schema["enum"][0] if schema.get("enum") \
            else text.split("Final Answer:")[-1].strip()
    return json.dumps(out)


def policy(request):
    result = act(request)
    if isinstance(result, tuple):  # thoughts beside an action, as a ReAct model writes them
        text, step = result
        if isinstance(step, Handoff):
            step = ToolCallRequest(name=resolve_handoff(step.agent, request.tools).name, arguments={})
        return ChatReply(text=text.text, tool_calls=(step,))
    if request.response_schema and not request.tools:
        return say(structured(request, result))
    return result
