"""The scripted model of the zoo's forty-fifth set, written apart from the others: the hand-over
note writer.

Use it as `--sut-model scripted/examples/zoo/policy_ah.py:policy`. It knows no system of the zoo:
it reads each agent's own instructions, the tools it is offered (names, schemas, docstrings), the
tools' answers and the conversation, and does what the instructions say, literally, a wrong line
included. Its character:

- whenever it passes work on (a hand-off, an agent offered as a tool, a message for the next
  member of a team) it first writes a structured note, "HANDOVER -> <agent>" then the lines
  "Customer:", "Asked for:", "Known:", "Still needed:", in its own paraphrase, with only the facts
  the passing line names ("Pass the postcode and the day to NAME"; every reference, date, postcode
  and count the customer gave where the line names none);
- when it receives work (a note addressed to it) it reads the latest note, not the conversation:
  a tool's arguments come from the tools' answers, then that note's "Known:" facts, and only an
  agent that received no note reads the customer's own words;
- a required argument it cannot find it asks for ("Could you give me the delivery date?");
- its final replies end with a "Next step:" line; it abbreviates where natural (ref, appt, qty,
  approx.) and writes dates "Tue 14 Mar" in its own words (in a tool's argument it follows the
  shape the parameter's description shows);
- the lines it follows, one at a time, the first that still asks for something: `If TOOL says /
  answers / returns W, say "TEXT"`; `If TOOL fails / raises / errors, say "TEXT"`; `Pass / Hand
  over / Send / Transfer ... to NAME [when the request mentions A or B]`; a line naming an offered
  tool (called once; `... until it says W`: again while its newest answer lacks W); `Say / Reply
  "TEXT"` (`{key}` filled from the tools' answers); `Report the result of TOOL`;
- a tool that broke and no line plans for gets an apology in its own words, never the raw error.
  Where the agent has an output type (a response schema, a `final_result` tool) it fills the
  fields from its reply: text fields get the reply, yes/no fields whether no tool said no.
"""

from __future__ import annotations

import ast
import datetime as dt
import json
import re

from masfuzz.llm.scripted import call, resolve_handoff, say, tool_results
from masfuzz.llm.types import ChatReply, ToolCallRequest

NOTE = "HANDOVER -> "
FIELDS = ("Customer", "Asked for", "Known", "Still needed")
QUOTED = r"[\"“]([^\"”]+)[\"”]"
WHEN_SAYS = re.compile(r"^(?:if|when|where)\s+(\w+)\s+(?:says?|answers?|returns?|reports?|gives?)\s+(.+?)[,:]\s*"
                       r"(?:say|reply|answer|tell\b[^\"“]*)\s*:?\s*" + QUOTED, re.I)
WHEN_BREAKS = re.compile(r"^(?:if|when|where)\s+(\w+)\s+(?:fails?|raises?|errors?|breaks?|is down)\b.*?" + QUOTED, re.I)
PASSING = re.compile(r"^(?:pass|hand(?:\s+over|\s+off)?|send|transfer|refer|forward|route)\b(.*?)\bto\s+"
                     r"([A-Za-z][\w-]*)(.*)$", re.I)
SAYING = re.compile(r"^(?:say|reply|answer|close with|end with)\s*:?\s*" + QUOTED, re.I)
REPORTING = re.compile(r"^report\b.*?\b(\w+)\W*$", re.I)
UNTIL = re.compile(r"\buntil\b.*?\b(?:says?|shows?|reads?|returns?|answers?)\s+[\"'`]?([\w-]+)", re.I)
EXAMPLE = re.compile(r"""(?:like|e\.g\.|such as|for example)[,:]?\s*["'“]([^"'”]+)["'”]""", re.I)
REF = re.compile(r"\b[A-Z]{1,5}-\d{2,7}\b")
ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
SHORT_DAY = re.compile(r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\d{1,2}) ([A-Z][a-z]{2}) (\d{4})\b")
POSTCODE = re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b")
BROKEN = re.compile(r"\b(?:error|exception|traceback|raised)\b|\b\w+Error\b", re.I)
NO = re.compile(r"\b(?:no|not|declined|refused|rejected|waitlisted|unavailable|full|failed|false|invalid|"
                r"cancelled)\b|\b(?:status|code)\W+[45]\d\d\b", re.I)
SHORTER = [(r"\breferences?\b", "ref"), (r"\bappointments?\b", "appt"), (r"\bquantity\b", "qty"),
           (r"\bapproximately\b", "approx."), (r"\babout (?=\d)", "approx. ")]


# --- reading what it is given -----------------------------------------------------------------


def lines_of(request) -> list[str]:
    """The agent's instructions, one line or sentence each (a quotation is never cut)."""
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    out = []
    for raw in text.splitlines():
        raw = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s+", "", raw).strip()
        parts = re.split(r'(?<=[.!?])\s+(?=[A-Z])(?=(?:[^"“”]*["“”][^"“”]*["“”])*[^"“”]*$)', raw)
        out += [p.strip() for p in parts if p.strip()]
    return out


def parse(text: str):
    for reader in (json.loads, ast.literal_eval):
        try:
            return reader(text)
        except (ValueError, SyntaxError, TypeError, MemoryError):
            continue
    return None


def broke(text: str) -> bool:
    return parse(text) is None and bool(BROKEN.search(text))


def keys_of(value) -> dict:
    """Every key of an answer, nested ones too, lower-cased, to its value."""
    found: dict = {}
    if isinstance(value, dict):
        for k, v in value.items():
            found.setdefault(str(k).lower(), v)
            for kk, vv in keys_of(v).items():
                found.setdefault(kk, vv)
    elif isinstance(value, list):
        for v in value:
            for kk, vv in keys_of(v).items():
                found.setdefault(kk, vv)
    return found


def answers(request) -> dict:
    """What the tools said, newest answer first on a shared key."""
    out: dict = {}
    for r in tool_results(request):
        if not broke(r.content):
            out.update({k: v for k, v in keys_of(parse(r.content)).items() if not isinstance(v, (dict, list))})
    return out


def latest_note(request) -> str | None:
    """The newest hand-over note addressed to this agent: what it works from."""
    me = (request.agent or "").lower()
    users = [m for m in request.messages if m.role == "user"]
    for m in reversed(request.messages):
        text = m.content or ""
        if m.role == "tool" or NOTE not in text:
            continue
        note = text[text.index(NOTE):]
        target = (note.removeprefix(NOTE).split() or [""])[0].strip(":,.").lower()
        # addressed to it by name, or the very input it was run with (an agent run as a tool is
        # given the note under the tool's name)
        if target == me or (users and m is users[0]):
            return note
    return None


def known_facts(note: str) -> dict[str, str]:
    line = next((x for x in note.splitlines() if x.startswith("Known:")), "")
    facts = {}
    for part in line.removeprefix("Known:").split(";"):
        name, sep, value = part.partition("=")
        if sep:
            facts[name.strip().lower()] = value.strip()
    return facts


def customer_text(request) -> str:
    return " ".join(m.content or "" for m in request.messages if m.role == "user" and NOTE not in (m.content or ""))


def sources(request) -> list[str]:
    """What it reads for facts: the note it was handed, else the customer's words."""
    note = latest_note(request)
    return [note] if note else [customer_text(request)]


def my_calls(request) -> list:
    return [c for m in request.messages if m.role == "assistant" for c in m.tool_calls]


def said_already(request, text: str) -> bool:
    key = text.splitlines()[0][:60]
    return any(m.role == "assistant" and key in (m.content or "") for m in request.messages
               if NOTE not in (m.content or "") or NOTE in key)


# --- writing it out ---------------------------------------------------------------------------


def short_day(iso: str, year: bool = False) -> str:
    """"Tue 14 Mar"; in a note's facts with the year, so the next agent can write the day out."""
    try:
        d = dt.date.fromisoformat(iso)
    except ValueError:
        return iso
    return f"{d:%a} {d.day} {d:%b}" + (f" {d.year}" if year else "")


def in_my_words(text: str) -> str:
    text = ISO.sub(lambda m: short_day(m[0]), text)
    for pattern, short in SHORTER:
        text = re.sub(pattern, short, text, flags=re.I)
    return text


def paraphrase(request_text: str) -> str:
    """The customer's ask in the third person, first sentence or two."""
    text = " ".join(request_text.split())
    text = re.sub(r"^(?:hi|hello|good (?:morning|afternoon|evening))\b[,!.]?\s*", "", text, flags=re.I)
    swaps = [(r"\bI'd like\b", "wants"), (r"\bI would like\b", "wants"), (r"\bI want\b", "wants"),
             (r"\bI need\b", "needs"), (r"\bwe'd like\b", "want"), (r"\bwe need\b", "need"),
             (r"(?i)\b(?:could|can) you\b", "asks us to"), (r"(?i)\b(?:could|can) I\b", "asks to"), (r"\bI'm\b", "they are"),
             (r"\bI've\b", "they have"), (r"\bI\b", "they"), (r"\bmy\b", "their"), (r"\bme\b", "them"),
             (r"\bwe\b", "they"), (r"\bour\b", "their"), (r"\bus\b", "them")]
    for pattern, swap in swaps:
        text = re.sub(pattern, swap, text)
    return in_my_words(text[:220].rstrip(" ,;"))


def next_step_line(request) -> str:
    said = [r.content for r in tool_results(request)]
    if said and broke(said[-1]):
        return "Next step: we retry on our side and get back to you."
    if said and NO.search(said[-1]):
        return "Next step: reply here if you want us to look at another option."
    return "Next step: nothing more from you for now."


def final(text: str, request) -> str:
    return text if "Next step:" in text else f"{text}\n{next_step_line(request)}"


def filled(template: str, request) -> str:
    known = answers(request)
    for note in sources(request):
        for k, v in known_facts(note).items():
            known.setdefault(k.replace(" ", "_"), v)
    return re.sub(r"\{(\w+)\}", lambda m: str(known.get(m[1].lower(), m[1].replace("_", " "))), template)


# --- finding an argument ----------------------------------------------------------------------


def shape(sample: str) -> str:
    out = ""
    for run in re.findall(r"\d+|[A-Z]+|[a-z]+|\s+|.", sample):
        out += (rf"\d{{{len(run)}}}" if run.isdigit() else "[A-Z]+" if run.isupper()
                else "[A-Za-z]+" if run.isalpha() else r"\s?" if run.isspace() else re.escape(run))
    return rf"(?<![\w-]){out}(?![\w-])"


def as_iso(text: str, latest: bool = False) -> str | None:
    """A day in the text, as ISO: the first one, or the last where the wanted day is a new one
    (a customer names the day they have before the day they want)."""
    days = [m[0] for m in ISO.finditer(text)] or [
        dt.datetime.strptime(f"{m[1]} {m[2]} {m[3]}", "%d %b %Y").date().isoformat() for m in SHORT_DAY.finditer(text)]
    return (days[-1] if latest else days[0]) if days else None


def wants_new(name: str) -> bool:
    return bool(re.search(r"\b(?:new|instead|moved?|changed?|to)\b", name.replace("_", " "), re.I))


def by_kind(name: str, text: str, spec: dict):
    """A value for a parameter found by what its name says it is."""
    kind = spec.get("type")
    if re.search(r"date|day", name, re.I):
        return as_iso(text, wants_new(name))
    if re.search(r"postcode|post_code|zip", name, re.I):
        return (m := POSTCODE.search(text)) and m[0]
    if re.search(r"ref|_id$|^id$|number|code|ticket|booking|order|account", name, re.I) and kind != "integer":
        return (m := REF.search(text)) and m[0]
    if kind in ("integer", "number"):
        stem = re.escape(name.lower().split("_")[-1][:4])
        if m := (re.search(rf"\b(\d{{1,4}}(?:\.\d+)?)\s*(?:[a-z]+\s+)?{stem}", text, re.I)
                 or re.search(rf"\b{stem}\w*\s*(?:of|:|=|for)?\s*(\d{{1,4}}(?:\.\d+)?)\b", text, re.I)):
            return int(float(m[1])) if kind == "integer" else float(m[1])
        return None
    if re.search(r"name|customer|person|who", name, re.I):
        m = re.search(r"\b(?:I'm|I am|my name is|this is|Customer:)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)+)", text)
        return m and m[1]
    return None


def value_for(request, name: str, spec: dict):
    spec = next((s for s in spec.get("anyOf", []) if s.get("type") != "null"), spec)
    said = answers(request)
    if name.lower() in said:
        return said[name.lower()]
    texts = sources(request)
    for note in texts:
        facts = known_facts(note) if note.startswith(NOTE) else {}
        for fact, value in facts.items():
            if fact.replace(" ", "_") == name.lower() or fact in name.lower().replace("_", " "):
                texts = [value, *texts]
                break
    if "enum" in spec:
        return next((o for o in spec["enum"] for t in texts if str(o).lower() in t.lower()), None)
    sample = EXAMPLE.search(spec.get("description") or "")
    for text in texts:
        if sample:
            if ISO.fullmatch(sample[1]) and (iso := as_iso(text, wants_new(name))):
                return iso
            if m := re.search(shape(sample[1]), text):
                return m[0]
        if (found := by_kind(name, text, spec)) is not None:
            return found
    if spec.get("type", "string") == "string" and re.search(r"request|details|note|message|task|query|input|what", name, re.I):
        return texts[0]
    return None


def use(request, tool):
    props = (tool.parameters or {}).get("properties") or {}
    args = {}
    for name in (tool.parameters or {}).get("required") or []:
        value = value_for(request, name, props.get(name, {}))
        if value is None:
            return say(final(f"Could you give me the {name.replace('_', ' ')}?", request))
        args[name] = value
    return call(tool.name, **args)


# --- passing work on --------------------------------------------------------------------------


def note_for(request, target: str, facts_named: str, tail: str) -> str:
    """The hand-over note: who, what they asked, the facts the line says to pass, what is left."""
    heard = " ".join(sources(request))
    said = answers(request)
    names = [w for w in re.split(r",|\band\b|\bwith\b|\bthe\b|\bon\b|\bits\b|\btheir\b", facts_named)
             if w.strip() and not re.fullmatch(r"\s*(?:request|job|it|this|work|them|customer|case)\s*", w)]
    known = []
    for fact in (n.strip(" .'\"") for n in names):
        key = fact.lower().replace(" ", "_")
        value = said.get(key)
        if value is None:
            value = by_kind(key, heard, {"type": "integer" if re.search(r"count|number of|qty|how many", fact) else None})
        if value is not None:
            known.append(f"{fact.lower()} = {short_day(str(value), True) if ISO.fullmatch(str(value)) else value}")
    if not names:  # no facts named: every reference, date, postcode and count the customer gave
        known += [f"ref = {r}" for r in dict.fromkeys(REF.findall(heard))]
        known += [f"date = {short_day(d[0], True)}" for d in ISO.finditer(heard)]
        known += [f"postcode = {p}" for p in dict.fromkeys(POSTCODE.findall(heard))]
    who = re.search(r"\b(?:I'm|I am|my name is|this is|Customer:)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)+)", heard)
    asked = next((x.removeprefix("Asked for:").strip() for x in heard.splitlines() if x.startswith("Asked for:")),
                 None) or paraphrase(customer_text(request))
    wanted = tail.strip(" .") or "take it from here"
    return (f"{NOTE}{target}\nCustomer: {who[1] if who else 'not given'}\nAsked for: {asked}\n"
            f"Known: {'; '.join(known) or 'nothing beyond the ask'}\nStill needed: {target} to {wanted}")


def topic_fits(request, tail: str) -> bool:
    m = re.search(r"\b(?:when|if|where)\b.*?\b(?:mentions?|is about|asks? (?:for|about))\s+(.+)$", tail, re.I)
    if not m:
        return True
    heard = " ".join(sources(request)).lower()
    return any(w and re.search(r"\b" + re.escape(w[:5]), heard)
               for w in (x.strip(" .'\"").lower() for x in re.split(r",|\bor\b|\band\b", m[1])))


def pass_on(request, target: str, facts_named: str, tail: str):
    """A hand-off, an agent-as-tool call, or a message for the team: the note goes first."""
    done = {c.name for c in my_calls(request)}
    tail = re.split(r"\b(?:when|if|where)\b", tail)[0]
    text = note_for(request, target, facts_named, tail)
    tool = resolve_handoff(target, request.tools)
    if tool is not None:
        if tool.name in done:
            return None
        return ChatReply(text=text, tool_calls=(ToolCallRequest(name=tool.name, arguments={}),))
    as_tool = next((t for t in request.tools if t.name == target), None)
    if as_tool is not None:
        if target in done:
            return None
        props = list(((as_tool.parameters or {}).get("properties") or {}))
        return call(target, **{(props[0] if props else "input"): text})
    if any(NOTE + target in (m.content or "") for m in request.messages):
        return None
    return say(text)


# --- the next step ----------------------------------------------------------------------------


def spoke_since_tool(request) -> bool:
    order = [m.role for m in request.messages if m.role == "tool" or (m.role == "assistant" and m.content)]
    return bool(order) and order[-1] != "tool"


def report(request, tool: str | None) -> str:
    got = tool_results(request, tool) if tool else tool_results(request)
    if not got:
        return final(f"Noted: {paraphrase(customer_text(request))}.", request)
    data = parse(got[-1].content)
    if isinstance(data, dict):
        body = "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in data.items() if not isinstance(v, (dict, list)))
    else:
        body = got[-1].content.strip()
    return final(in_my_words(f"From {got[-1].name or 'the system'}: {body}."), request)


def step(request):
    tools = {t.name: t for t in request.tools
             if not t.handoff_to and not t.name.startswith(("transfer_to", "final_result"))}
    made = {c.name for c in my_calls(request)} | {r.name for r in tool_results(request)}
    results = tool_results(request)
    newest = results[-1] if results else None
    planned = {m[1] for line in lines_of(request) if (m := WHEN_BREAKS.match(line))}
    if newest is not None and broke(newest.content) and newest.name not in planned and not spoke_since_tool(request):
        return say(final(f"Sorry, {newest.name or 'our system'} isn't working right now, so nothing is done yet.", request))
    for line in lines_of(request):
        if m := WHEN_BREAKS.match(line):
            got = tool_results(request, m[1])
            if got and broke(got[-1].content) and not said_already(request, filled(m[2], request)):
                return say(final(filled(m[2], request), request))
            continue
        if m := WHEN_SAYS.match(line):
            got = tool_results(request, m[1])
            words = [w.strip(" '\"`.") for w in re.split(r"/|\bor\b|,", m[2])]
            if got and any(w and re.search(rf"\b{re.escape(w)}\b", got[-1].content, re.I) for w in words):
                text = filled(m[3], request)
                if not said_already(request, text):
                    return say(final(text, request))
                return None
            continue
        if m := PASSING.match(line):
            if not topic_fits(request, m[3]):
                continue
            if m[2] in tools and m[2] in made:
                continue
            if m[2] in tools or resolve_handoff(m[2], request.tools) is not None or not any(
                    re.search(rf"\b{re.escape(t)}\b", line) for t in tools):
                got = pass_on(request, m[2], m[1], m[3])
                if got is not None:
                    return got
                if resolve_handoff(m[2], request.tools) is None and m[2] not in tools:
                    return None  # the note is out: the next member takes it from here
                continue
        named = [t for t in tools if re.search(rf"\b{re.escape(t)}\b", line)]
        if named and not re.match(r"(?:if|when|report|say|reply)\b", line, re.I):
            tool = named[0]
            until = UNTIL.search(line)
            got = tool_results(request, tool)
            # a broken answer is not "not yet W": checking again would only break again
            again = until and got and not broke(got[-1].content) \
                and not re.search(rf"\b{re.escape(until[1])}\b", got[-1].content, re.I)
            if tool in made and not again:
                continue
            return use(request, tools[tool])
        if m := SAYING.match(line):
            text = filled(m[1], request)
            if not said_already(request, text):
                return say(final(text, request))
            return None
        if m := REPORTING.match(line):
            if newest is not None and not spoke_since_tool(request):
                return say(report(request, m[1] if m[1] in made else None))
            continue
    if newest is not None and not spoke_since_tool(request):
        return say(report(request, None))
    return None


# --- output types and choosing a speaker -------------------------------------------------------


def fill(schema: dict, text: str, request) -> dict:
    defs = schema.get("$defs") or {}
    options = schema.get("anyOf") or schema.get("oneOf")
    refused = bool(NO.search(" ".join(r.content for r in tool_results(request))[-400:] or text))
    if options:
        options = [defs.get(o["$ref"].rsplit("/", 1)[-1], o) if "$ref" in o else o for o in options]
        schema = next((o for o in options if bool(re.search(r"declin|refus|reject|fail|unable|not",
                                                              f"{o.get('title', '')} {o.get('description', '')}", re.I)) == refused),
                      options[0])
    said = answers(request)
    out = {}
    for name, spec in (schema.get("properties") or {}).items():
        if "$ref" in spec:
            spec = defs.get(spec["$ref"].rsplit("/", 1)[-1], spec)
        kind = spec.get("type") or next((s.get("type") for s in spec.get("anyOf", []) if s.get("type") != "null"), "string")
        if name.lower() in said:
            out[name] = said[name.lower()]
        elif kind == "boolean":
            out[name] = not refused
        elif kind in ("integer", "number"):
            n = re.search(r"\b\d+\b", customer_text(request))
            out[name] = int(n[0]) if n else 0
        elif "enum" in spec:
            out[name] = next((o for o in spec["enum"] if str(o).lower() in text.lower()), spec["enum"][0])
        elif kind == "array":
            out[name] = list(dict.fromkeys(REF.findall(" ".join(r.content for r in tool_results(request)))))
        else:
            out[name] = text
    return out


def choose_speaker(request):
    """A group chat asks who speaks next: the member the newest note names, else the first listed
    member who has not spoken."""
    text = "\n".join(m.content or "" for m in request.messages)
    prompt, _, history = text.partition("onversation")
    members = re.findall(r"^\s*([A-Za-z]\w*)\s*:", prompt, re.M)
    if NOTE in history:
        named = history.rsplit(NOTE, 1)[1].split()[0].strip(":,.")
        if named in members:
            return say(named)
    spoke = set(re.findall(r"^\s*([A-Za-z]\w*)\s*:", history, re.M))
    return say(next((m for m in members if m not in spoke), members[-1] if members else ""))


def policy(request):
    if request.agent == "selector":
        return choose_speaker(request)
    reply = step(request)
    if reply is None:
        reply = say(final("That is all from me.", request))
    text = getattr(reply, "text", None)
    if text is not None and not getattr(reply, "tool_calls", ()):
        outputs = [t for t in request.tools if t.name.startswith("final_result")]
        if outputs:
            refused = bool(NO.search(text.splitlines()[0]))
            tool = next((t for t in outputs if bool(re.search(r"declin|refus|reject|fail|unable|not",
                                                               f"{t.name} {t.description}", re.I)) == refused), outputs[0])
            return call(tool.name, **fill(tool.parameters or {}, text, request))
        if request.tool_choice not in ("auto", "none") and request.tools:
            forced = next((t for t in request.tools if t.name == request.tool_choice), request.tools[0])
            return call(forced.name, **fill(forced.parameters or {}, text, request))
        if request.response_schema:
            return say(json.dumps(fill(request.response_schema, text, request)))
    return reply
