"""The scripted model of the zoo's thirty-third set, written apart from the others: a recapper
that hedges. Every reply opens with a recap of the whole story so far ("Recap: you asked ...;
the first book_x try bounced (...); desk_b said ...") and then gives the new part ("Now: ...").
Its outcomes are hedged ("looks like it went through", "that should be all sorted", "I'm afraid
that one didn't take"); an honest answer after a retry names the earlier failure beside the later
success; a hand-over carries the recap as its note; it asks with "Just to check — ...?". It follows
each agent's instructions literally, a wrong instruction included.

Use it as `--sut-model scripted/examples/zoo/policy_v.py:policy`. It knows no system of the zoo:
it reads the agent's instructions one line at a time, and the first line that applies acts:

- `Hand over to NAME ...` / `Pass ... to NAME` / `Transfer ... to NAME` (with `for WORDS`: only
  when the customer's words touch one of them), when an offered tool hands over to NAME and this
  agent has not handed over yet: it hands over, the recap as its note;
- `If TOOL says WORD, try the alternative it gives.`: when TOOL's newest answer holds WORD and
  offers another value of an argument's shape, TOOL again with that value;
- `If TOOL says WORD, ...`: when TOOL's newest answer holds WORD and is the newest message: the
  quoted text if there is one, else an honest "didn't take" quoting the answer;
- a line naming an offered tool (`with TOOL`, `for WORDS` as above): it calls it once (`until it
  says WORD`: again while the newest answer lacks WORD); each argument from the schema: an
  allowed value the line or the conversation names, a text of the shape of the description's
  example (`e.g. "AB-123"`), a count beside a word of its name, the customer's own words where
  the description asks for them, the recap for a note or brief; what it cannot find it asks for;
- `Let the CUSTOMER know ...` / `Tell the CUSTOMER ...`: says so, hedged, with the reference the
  newest answer carries; `Say "TEXT"`: TEXT.

With nothing left to do it sums up the newest tool answer, hedged, or says it has nothing to add.
A typed answer (a response schema) is filled from that text.
"""

from __future__ import annotations

import json
import re

from masfuzz.llm.scripted import Handoff, ToolResult, call, handoff, resolve_handoff, say, tool_results
from masfuzz.llm.types import ChatReply, ToolCallRequest

ASKING = re.compile(r"\b(i'?d like|would like|could you|can you|can i|could i|may i|can we|could we|please|we'?d like|"
                    r"i want|we want|i need|we need|hoping|looking to|fancy|wondering|would love|'d love)\b", re.I)
SETBACK = re.compile(r"fail|declin|refus|reject|taken|\bfull\b|unavailable|not found|unknown|invalid|denied|"
                     r"error|exception|conflict|\b4\d\d\b|\"?ok\"?\s*[:=]\s*(false|0)|'ok': false|rechaz|"
                     r"abgelehnt|geweigerd|complet|no room|no space|try again", re.I)
REFERENCE = re.compile(r"\b[A-Z]{1,4}-\d{2,6}\b")
NUMBERS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
ROUTING = re.compile(r"\b(?:hand over|pass|transfer|send|route)\b.*?\bto (\w+)", re.I)
NOTE_WORDS = ("note", "brief", "summary", "recap", "handover", "context")
OWN_WORDS = ("own words", "their words", "in full", "as written", "customer's words")


def policy(request):
    reply = act(request)
    if isinstance(reply, tuple):  # a call with the recap written beside it
        text, step = reply
        if isinstance(step, Handoff):
            tool = resolve_handoff(step.agent, request.tools)
            step = ToolCallRequest(name=tool.name, arguments=fill_note(tool, text))
        return ChatReply(text=text, tool_calls=(step,))
    if isinstance(reply, str):
        return say(typed(request, reply)) if request.response_schema else say(reply)
    return reply


# --- reading the request ----------------------------------------------------------------------


def instructions(request) -> list[str]:
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    return [line.strip() for line in re.split(r"\n|(?<=[.!])\s+(?=[A-Z])", text) if line.strip()]


def customer_text(request) -> str:
    """What the customer wrote: the first user message that is not a colleague's recap."""
    for m in request.messages:
        if m.role == "user" and m.content and not m.content.startswith("For context"):
            return m.content
    return ""


def everything(request) -> list[str]:
    return [m.content or "" for m in request.messages if m.role != "system"]


def asked_for(request) -> str:
    """The sentences of the customer's message that ask for something: the recap's first part."""
    text = customer_text(request)
    if text.startswith("Recap:"):
        return re.sub(r"^Recap:\s*(you asked\s*)?", "", text.split(" Now:")[0]).strip().rstrip(".;")
    sentences = re.split(r"(?<=[.!?])\s+", text)
    wanted = [s for s in sentences if ASKING.search(s)] or sentences[:1]
    return '"' + " ".join(wanted).strip().rstrip(".") + '"'


def results(request) -> list[ToolResult]:
    """The answers of the agent's own tools (a hand-over's acknowledgement is no answer)."""
    return [r for r in tool_results(request) if not (r.name or "").startswith("transfer_to")]


def newest_is_result(request) -> bool:
    return bool(request.messages) and request.messages[-1].role == "tool"


def failed(content: str) -> bool:
    if "went through" in content:  # a colleague's answer: its verdict, whatever it passed on the way
        return False
    stripped = content.strip()
    return bool(SETBACK.search(content)) or stripped in ("", "[]", "{}", "None", "null", "()")


def short(content: str, limit: int = 140) -> str:
    flat = " ".join(content.split())
    return flat if len(flat) <= limit else flat[:limit].rsplit(" ", 1)[0] + " ..."


def gist(r: ToolResult, nth: str) -> str:
    if failed(r.content):
        return f"the {nth}{r.name} try bounced ({short(r.content, 90)})"
    ref = REFERENCE.search(r.content)
    return f"{r.name} looked fine" + (f" ({ref.group(0)})" if ref else "")


def recap(request, leave_out_newest: bool = True) -> str:
    parts = [f"you asked {asked_for(request)}"]
    done = results(request)
    if leave_out_newest and done and newest_is_result(request):
        done = done[:-1]
    for i, r in enumerate(done):
        again = any(x.name == r.name for x in done[:i])
        line = gist(r, "next " if again else "first ")
        if parts[-1].split(" (x")[0] == line:  # the same answer again: counted, not repeated
            times = int(parts[-1].rpartition(" (x")[2].rstrip(")") or 1) if " (x" in parts[-1] else 1
            parts[-1] = f"{line} (x{times + 1})"
        else:
            parts.append(line)
    said = [m for m in request.messages if m.role in ("assistant", "user") and m.content and " Now: " in m.content]
    for m in said[-3:]:
        head, now = m.content.rsplit(" Now: ", 1)
        quoted = re.findall(r"\[(\w+)\] said", head)  # a colleague's words quoted as context
        who = m.name or (quoted[-1] if quoted else "I" if m.role == "assistant" else "a colleague")
        now = re.split(r"<<<|\n|\[\w+\] (?:said|called)", now)[0]
        parts.append(f"{who} then said: {short(now, 100).rstrip(' .')}")
    return "Recap: " + "; ".join(parts) + "."


def words(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]{3,}", text.lower())}


def touches(line: str, request) -> bool:
    """A `for WORDS` condition: the customer's words must touch one of them."""
    m = re.match(r"for (.+?),\s*(?:pass|hand|send|transfer|route)\b", line, re.I) or re.search(r"\bfor (.+?)(?: with \w+)?\.?$", line, re.I)
    if not m:
        return True
    return bool(words(m.group(1)) & words(customer_text(request)))


# --- acting ------------------------------------------------------------------------------------


def act(request):
    offered = {t.name: t for t in request.tools}
    mine = [r for r in results(request)]
    lines = instructions(request)
    routing = [line for line in lines if ROUTING.search(line)]
    asked = {c.name for m in request.messages if m.role == "assistant" for c in m.tool_calls}
    # a customer is passed on once: after one routing line acted, the others no longer apply
    routed = any(t.startswith("transfer_to") or re.search(rf"\b{re.escape(t)}\b", " ".join(routing)) for t in asked)
    for line in lines:
        lower = line.lower()
        if routed and line in routing:
            continue
        target = ROUTING.search(line)
        if target and not re.search(r"\bwith (\w+)", line):
            name = target.group(1)
            tool = resolve_handoff(name, request.tools)
            if tool and touches(line, request):
                return recap(request) + f" Now: passing you over to {name}, who should be able to take it from here.", handoff(name)
            continue
        cond = re.match(r"if (\w+) (?:says|answers|comes back) ['\"]?([\w -]+?)['\"]?, (.+)$", line, re.I)
        if cond:
            tool, word, then = cond.groups()
            newest = [r for r in mine if r.name == tool]
            if not newest or word.lower() not in newest[-1].content.lower():
                continue
            if re.search(r"\b(alternative|try again|retry)\b", then, re.I):
                retry = alternative(request, offered.get(tool), newest[-1].content)
                if retry:
                    return recap(request, False) + f" Now: that one didn't take, so trying {tool} again.", retry
                continue
            if not newest_is_result(request):
                continue
            quoted = re.search(r'"([^"]+)"', then)
            body = quoted.group(1) if quoted else f"{tool} came back with {short(newest[-1].content, 200)}"
            return recap(request) + f" Now: I'm afraid that one didn't take - {body}."
        named = [t for t in offered if re.search(rf"\b{re.escape(t)}\b", line)]
        if named and not lower.startswith(("if ", "let ", "tell ")):
            tool = offered[named[0]]
            if not touches(line, request):
                continue
            until = re.search(r"until it says ['\"]?([\w -]+?)['\"]?\.?$", line, re.I)
            own = [r for r in mine if r.name == tool.name]
            if own and not (until and until.group(1).lower() not in own[-1].content.lower()):
                continue
            arguments, missing = fill(request, tool, line)
            if missing:
                question = missing if missing.startswith("how many") else f"what is {missing}"
                return recap(request) + f" Now: Just to check - {question}?"
            return recap(request, False) + f" Now: checking that with {tool.name}.", call(tool.name, **arguments)
        let = re.match(r"(?:let|tell) the \w+(?: know)?(?: that)? (.+?)\.?$", line, re.I)
        if let:
            claim = re.sub(r"\btheir\b", "your", let.group(1))
            claim = re.sub(r"\bthey\b", "you", claim)
            ref = newest_reference(request)
            return recap(request) + f" Now: {claim}" + (f" - {ref}." if ref else ".")
        quoted = re.match(r'say "([^"]+)"', line, re.I)
        if quoted:
            return recap(request) + f" Now: {quoted.group(1)}"
    return summary(request)


def summary(request) -> str:
    done = results(request)
    if not done:
        return recap(request) + " Now: nothing more from me on this one, as far as I can tell."
    newest = done[-1]
    content = newest.content.rsplit(" Now: ", 1)[-1]  # a colleague's answer: its new part
    if failed(content):
        return recap(request) + f" Now: I'm afraid that one didn't take - {newest.name} came back with {short(content, 200)}."
    ref = REFERENCE.search(content)
    if not ref:
        return recap(request) + f" Now: as far as I can tell, {newest.name} says: {short(content, 200)}"
    if content != newest.content and "bounced" not in newest.content:  # a colleague's verdict, passed on
        return recap(request) + f" Now: word back from {newest.name}: {short(content, 200)}"
    # an earlier failure on the way, the agent's own or one its colleague's answer recaps
    earlier = [short(r.content, 90) for r in done[:-1] if r.name == newest.name and failed(r.content)] \
        or re.findall(r"try bounced \((.*?)\);", newest.content.replace('\\"', '"'))
    if earlier:
        return recap(request) + (f" Now: the first try bounced ({earlier[-1]}), but looks like the second "
                                 f"went through: {ref.group(0)}.")
    return recap(request) + f" Now: looks like it went through: {ref.group(0)} ({short(content, 160)})."


def newest_reference(request) -> str | None:
    done = results(request)
    found = REFERENCE.search(done[-1].content) if done else None
    return found.group(0) if found else None


# --- arguments ----------------------------------------------------------------------------------


def shape(example: str) -> re.Pattern:
    out = ""
    for ch in example:
        out += r"\d" if ch.isdigit() else "[A-Z]" if ch.isupper() else "[a-z]" if ch.islower() else re.escape(ch)
    return re.compile(rf"(?<![\w/:.-]){out}(?![\w/:-])")


def example_of(spec: dict) -> str | None:
    m = re.search(r"(?:e\.g\.|like|for example|such as)\s*\"([^\"]+)\"", spec.get("description", ""), re.I)
    return m.group(1) if m else None


def choices(spec: dict) -> list:
    if "enum" in spec:
        return list(spec["enum"])
    for key in ("anyOf", "oneOf"):
        found = [x.get("const", (x.get("enum") or [None])[0]) for x in spec.get(key, ()) if "const" in x or "enum" in x]
        if found:
            return found
    return []


def fill(request, tool, line: str) -> tuple[dict, str | None]:
    schema = tool.parameters or {}
    props = schema.get("properties", {})
    needed = schema.get("required", list(props))
    customer = customer_text(request)
    out = {}
    for name, spec in props.items():
        if name not in needed:
            continue
        desc = spec.get("description", "")
        kind = spec.get("type")
        options = choices(spec)
        if options:
            options.sort(key=lambda o: -len(str(o)))  # the most specific value the words name
            pick = next((o for o in options if re.search(rf"\b{re.escape(str(o))}\b", line, re.I)), None) \
                or next((o for o in options if re.search(rf"\b{re.escape(str(o))}\b", customer, re.I)), None) \
                or next((o for o in options for t in everything(request) if re.search(rf"\b{re.escape(str(o))}\b", t, re.I)), None)
            if pick is None:
                return {}, f"the {name.replace('_', ' ')} ({' / '.join(map(str, options))})"
            out[name] = pick
            continue
        example = example_of(spec)
        if example:
            pattern = shape(example)
            found = [m.group(0) for text in [customer, *everything(request)] for m in pattern.finditer(text)
                     if m.group(0) != example]
            if not found:
                what = re.sub(r"^the ", "", desc.split(',')[0].rstrip('.').lower()) or name.replace("_", " ")
                return {}, f"the {what} (like {example})"
            out[name] = found[0]
            continue
        if kind in ("integer", "number"):
            n = count(customer, name + " " + desc)
            if n is None:
                return {}, desc.rstrip(".").lower() if desc.lower().startswith("how many") else f"the {name.replace('_', ' ')}"
            out[name] = n
            continue
        if kind == "boolean":
            out[name] = True
            continue
        if any(w in (name + " " + desc).lower() for w in NOTE_WORDS):
            out[name] = recap(request)
        elif any(w in desc.lower() for w in OWN_WORDS) or name in ("details", "request", "query", "message", "enquiry"):
            out[name] = customer
        else:
            out[name] = asked_for(request).strip('"')
    return out, None


def count(text: str, about: str) -> int | None:
    near = words(about)
    for m in re.finditer(r"\b(\d{1,3}|" + "|".join(NUMBERS) + r")\b(?![:/.-]\d)\s*(?:of us\s*)?(\w+)?", text, re.I):
        before = text[max(0, m.start() - 30):m.start()]
        if re.search(r"[:/-]$", before):
            continue
        if words(m.group(2) or "") & near or words(before) & near or m.group(0).lower().rstrip().endswith("of us"):
            value = m.group(1).lower()
            return int(value) if value.isdigit() else NUMBERS[value]
    return None


def alternative(request, tool, answer: str):
    """The same call again, the argument the answer offers another value for changed to it."""
    if tool is None:
        return None
    last = next((c for m in reversed(request.messages) if m.role == "assistant" for c in m.tool_calls
                 if c.name == tool.name), None)
    if last is None:
        return None
    for name, spec in (tool.parameters or {}).get("properties", {}).items():
        example = example_of(spec)
        if not example or name not in last.arguments:
            continue
        others = [v for v in shape(example).findall(answer) if v != last.arguments[name]]
        if others:
            return call(tool.name, **{**last.arguments, name: others[0]})
    return None


def fill_note(tool, text: str) -> dict:
    props = (tool.parameters or {}).get("properties", {})
    return {name: text for name, spec in props.items() if spec.get("type", "string") == "string"}


# --- typed answers ------------------------------------------------------------------------------


def typed(request, text: str) -> str:
    """A JSON answer fitting the response schema, filled from the reply's text."""
    schema = request.response_schema or {}
    if "anyOf" in schema:
        schema = schema["anyOf"][0]
    defs = schema.get("$defs", {})
    props = schema.get("properties")
    if not props:
        return json.dumps({"response": text}) if schema.get("type") == "object" else json.dumps(text)
    done = results(request)
    good = bool(done) and not failed(done[-1].content)
    ref = newest_reference(request) or ""
    out = {}
    for name, spec in props.items():
        if "$ref" in spec:
            spec = defs.get(spec["$ref"].rsplit("/", 1)[-1], {})
        kind = spec.get("type")
        options = choices(spec)
        if options:
            out[name] = options[0]
        elif kind == "boolean":
            out[name] = good
        elif kind in ("integer", "number"):
            out[name] = 0
        elif kind == "array":
            out[name] = []
        elif re.search(r"ref|code|number|booking|docket", name):
            out[name] = ref if good else ""
        else:
            out[name] = text
    return json.dumps(out)
