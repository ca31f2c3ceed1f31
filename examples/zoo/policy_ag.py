"""The scripted model of the zoo's forty-fourth set, written apart from the others: the letter writer.

Use it as `--sut-model scripted/examples/zoo/policy_ag.py:policy`. It knows no system of the zoo:
it reads each agent's own instructions, the tools it is offered (names, schemas, docstrings), the
tools' answers and the conversation, and does what the instructions say, literally, a wrong line
included. Its character:

- every reply is a short business letter: a `Subject:` line naming the matter and, where there is
  one, the outcome ("Subject: Book fitting - confirmed"), a salutation ("Dear Amara Okafor," where
  the customer gave a name, else "Dear customer,"), one to three paragraphs of full sentences and
  a sign-off with the agent's own name ("Kind regards, desk_d"). It never writes lists, tables or
  markup;
- good news opens "We are pleased to confirm ...", bad news "We regret to inform you that ...",
  and a tool's answer is told in sentences ("The booking reference is FT-2210 and the time is
  15:15."); a tool that broke is told in its own words ("our fitting diary could not complete
  your request just now; nothing has been done yet"), never by quoting the error;
- to a colleague (a request passed on to another desk, a team message, or a reply to a colleague's
  memo) it writes an internal memo instead: "To: NAME / From: ME / Re: MATTER", the customer's
  request and the facts it has, in sentences;
- the lines it follows, one at a time, the first that still asks for something: `If TOOL says W
  (or W2), write/say "TEXT"`; `If TOOL fails, write/say "TEXT"`; `Once TOOL has answered,
  write/say "TEXT"`; `Pass/hand/send/refer ... to NAME [when the request is about A, B or C]` (a
  hand-over where one is offered, a call where NAME is a tool that runs a colleague, else a memo
  to NAME in the team's conversation); a line naming an offered tool (called once, its arguments
  taken from earlier answers, a labelled field ("Items: ..."), the shape the parameter's
  description shows, the customer's words; when one is missing it writes asking for it);
  `Write/Say "TEXT"`; `Report/Tell the customer ... TOOL`;
- where the agent has an output type (a `final_result` tool, a response schema) it fills it from
  the same letter: text fields get the letter, yes/no fields the outcome, fields named like an
  answer's key that value, and a union is chosen by whether the news is good.
"""

from __future__ import annotations

import ast
import json
import re

from masfuzz.llm.scripted import call, handoff, resolve_handoff, say, tool_results

QUOTED = r"[\"“]([^\"”]+)[\"”]"
IF_ANSWER = re.compile(r"^(?:if|when|should)\s+(\w+)\s+(?:says?|answers?|returns?|reports?|comes back with)\s+"
                       r"(.+?)[,:]\s*(?:write|say|reply|tell)\b[^\"“]*" + QUOTED, re.I)
IF_BROKEN = re.compile(r"^(?:if|when|should)\s+(\w+)\s+(?:fails?|breaks?|raises?|errors?|is down)\b[^\"“]*" + QUOTED, re.I)
ONCE = re.compile(r"^(?:once|after|when)\s+(\w+)\s+has\s+(?:answered|replied|run)\b[^\"“]*" + QUOTED, re.I)
PASS = re.compile(r"\b(?:pass|hand|send|refer|transfer|forward)\b.*?\bto\s+([A-Za-z][\w-]*)", re.I)
# the topics a hand-over line is for, before its "to NAME" or after it
TOPICS = r"\b(?:about|mentions?|concerns?|asks? for|wants?)\s+(.+?)(?:\s+to\s+{name}\b|\W*$)"
WRITE = re.compile(r"^(?:write|say|reply|answer|tell the customer)\b[^\"“]*" + QUOTED, re.I)
REPORT = re.compile(r"^(?:report|tell|give|explain|write up)\b", re.I)
ASK = re.compile(r"^(?:could you let us know|we need)\b", re.I)

BAD = re.compile(r"\b(?:declined|refused|rejected|denied|unavailable|full|failed|failure|invalid|expired|"
                 r"closed|cancelled|not[ _]found|not[ _]possible|no|none|false|waitlisted|[45]\d\d)\b", re.I)
GOOD = re.compile(r"\b(?:booked|confirmed|ok|okay|done|ordered|reserved|paid|accepted|approved|credited|"
                  r"scheduled|true|yes|2\d\d)\b", re.I)
STATUS_KEYS = ("status", "result", "outcome", "state", "ok", "success", "booked", "code")
NAMED = re.compile(r"\b(?:I'm|I am|my name is|this is|name's)\s+([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)+)")
SIGNED = re.compile(r"(?:thanks|thank you|regards|cheers|best)[,!.]?\s*\n?\s*([A-Z][a-z'-]+\s+[A-Z][a-z'-]+)\W*$", re.I)
REFERENCE = re.compile(r"\b[A-Z]{1,5}-\d{2,7}[A-Z]?\b")
FREE_TEXT = re.compile(r"request|message|question|query|details|note|task|input|enquiry|brief", re.I)


# --- what it reads ---------------------------------------------------------------------------


def lines_of(request) -> list[str]:
    """Its instructions, a line or sentence at a time, quoted text kept whole."""
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    out = []
    for line in text.splitlines():
        line = line.strip().lstrip("-*• ").strip()
        parts, current, quoting = [], "", False
        for ch in line:
            current += ch
            if ch in "\"“”":
                quoting = not quoting if ch == '"' else ch == "“"
            if ch in ".!?" and not quoting:
                parts.append(current.strip())
                current = ""
        parts.append(current.strip())
        out += [p for p in parts if p]
    return out


def heard(request) -> list[str]:
    """What others said to it (the customer, a colleague's memo), oldest first."""
    return [m.content for m in request.messages if m.role == "user" and m.content]


def spoken(request) -> list[str]:
    return [m.content for m in request.messages if m.role == "assistant" and m.content]


def my_calls(request) -> list:
    return [c for m in request.messages if m.role == "assistant" for c in m.tool_calls]


def parse(text: str):
    for reader in (json.loads, ast.literal_eval):
        try:
            return reader(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return None


def is_memo(text: str) -> bool:
    return bool(re.match(r"\s*To:.*\n\s*From:", text))


def memo_sender(text: str) -> str | None:
    m = re.search(r"^\s*From:\s*(\S+)", text, re.M)
    return m[1] if m else None


def body_of(text: str) -> str:
    """A letter's or memo's paragraphs, without its heading, salutation and sign-off."""
    kept = []
    for line in text.splitlines():
        s = line.strip()
        if re.match(r"(?:Subject|To|From|Re):", s) or re.match(r"Dear\b.*,$", s):
            continue
        if re.match(r"(?:Kind regards|Yours sincerely|Best wishes),?$", s):
            break
        if s:
            kept.append(s)
    return " ".join(kept)


def customer_request(request) -> str:
    """The customer's own words: the first thing it heard, or the request a colleague's memo
    carries."""
    said = heard(request)
    if not said:
        return ""
    first = said[0]
    if is_memo(first):
        m = re.search(r"The customer writes:\s*(.+?)(?:\n\n|$)", first, re.S)
        return m[1].strip() if m else body_of(first)
    return first


def customer_name(request) -> str | None:
    for text in heard(request):
        words = text if not is_memo(text) else customer_request(request)
        if m := NAMED.search(words) or SIGNED.search(words.strip()):
            return m[1]
    return None


def broken(content: str) -> bool:
    """A tool that raised: an error text where an answer should be."""
    if parse(content) is not None:
        return False
    return bool(re.search(r"\b\w*(?:Error|Exception)\b|\btraceback\b|\berror\b", content, re.I))


def fields(value, into=None) -> dict:
    into = {} if into is None else into
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, (dict, list)):
                fields(v, into)
            else:
                into.setdefault(str(k).lower(), v)
    elif isinstance(value, list):
        for v in value:
            fields(v, into)
    return into


def unwrapped(content: str) -> str:
    """A colleague's letter or memo that a framework handed back wrapped in a one-field object
    (`{"result": "To: ..."}`) is that letter."""
    data = parse(content)
    if isinstance(data, dict) and len(data) == 1:
        [inner] = data.values()
        if isinstance(inner, str) and (is_memo(inner) or inner.lstrip().startswith("Subject:")):
            return inner
    return content


def verdict(content: str) -> str:
    """good, bad, broken or plain (an answer that is neither, a look-up)."""
    content = unwrapped(content)
    if broken(content):
        return "broken"
    data = parse(content)
    if isinstance(data, dict):
        flat = fields(data)
        for key in STATUS_KEYS:
            if key in flat:
                value = str(flat[key])
                if BAD.search(value):
                    return "bad"
                if GOOD.search(value):
                    return "good"
        return "plain"
    text = body_of(content) if "\n" in content else content
    if re.search(r"\bregret\b|\bunable\b|\bcould not\b|\bcannot\b", text, re.I):
        return "bad"
    if re.search(r"\bpleased to confirm\b", text, re.I):
        return "good"
    return "plain"


# --- writing ---------------------------------------------------------------------------------


def words_of(name: str) -> str:
    return re.sub(r"[_\s]+", " ", name).strip()


def sentence_of(key: str, value) -> str:
    if isinstance(value, bool):
        value = "yes" if value else "no"
    return f"the {words_of(key)} is {value}"


def told(content: str) -> str:
    """A tool's answer in full sentences."""
    content = unwrapped(content)
    data = parse(content)
    if isinstance(data, dict):
        parts = [sentence_of(k, v) for k, v in fields(data).items()]
        if not parts:
            return "The answer we had was empty."
        joined = ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
        return joined[0].upper() + joined[1:] + "."
    if "\n" in content and (is_memo(content) or content.lstrip().startswith("Subject:")):
        return body_of(content)
    return content.strip().rstrip(".") + "."


def letter(request, subject: str, paragraphs: list[str]) -> str:
    """To whoever it answers: the customer a letter, a colleague (who wrote it a memo) a memo."""
    me = request.agent or "the desk"
    said = heard(request)
    if said and is_memo(said[0]):
        return memo(me, memo_sender(said[0]) or "colleague", subject, paragraphs)
    name = customer_name(request)
    salutation = f"Dear {name}," if name else "Dear customer,"
    text = "\n\n".join(p for p in paragraphs if p)
    return f"Subject: {subject}\n\n{salutation}\n\n{text}\n\nKind regards,\n{me}"


def memo(me: str, to: str, about: str, paragraphs: list[str]) -> str:
    text = "\n\n".join(p for p in paragraphs if p)
    return f"To: {to}\nFrom: {me}\nRe: {about}\n\n{text}"


def matter(request) -> str:
    asked = customer_request(request)
    refs = REFERENCE.findall(asked)
    return "Your enquiry" + (f" ({refs[0]})" if refs else "")


def quoted_letter(request, text: str, tool: str | None) -> str:
    """A line's own words; the subject states the outcome those words give (the letter says one
    thing throughout, whatever the tool answered)."""
    outcome = {"good": " - confirmed", "bad": " - not possible"}.get(verdict(text), "")
    if not outcome and tool and (got := tool_results(request, tool)) and broken(got[-1].content):
        outcome = " - delayed"
    return letter(request, matter(request) + outcome, [text])


def report(request, tool: str | None) -> str:
    answers = tool_results(request, tool) if tool else tool_results(request)
    if not answers:
        return letter(request, matter(request), ["Thank you for your message. We have noted your request and "
                                                 "will write again as soon as we have news."])
    answer = answers[-1]
    what = words_of(answer.name or "our system")
    kind = verdict(answer.content)
    if kind == "broken":
        return letter(request, f"{matter(request)} - delayed", [
            f"We regret to inform you that our {what} system could not complete your request just now. "
            "Nothing has been done yet, and we will write again as soon as it is working."])
    body = told(answer.content)
    opens = body.startswith(("We regret", "We are pleased"))  # a colleague's letter, relayed
    if kind == "bad":
        return letter(request, f"{matter(request)} - not possible", [
            body if opens else f"We regret to inform you that we could not do this for you. {body}"])
    if kind == "good":
        return letter(request, f"{matter(request)} - confirmed", [
            body if opens else f"We are pleased to confirm that this is done. {body}"])
    return letter(request, matter(request), [f"Thank you for your message. We have looked into it for you. {told(answer.content)}"])


def nothing_more(request) -> str:
    return memo(request.agent or "the desk", "the team", "Nothing further",
                ["I have done my part of this matter and have nothing further to add."])


# --- acting ----------------------------------------------------------------------------------


def pattern_of(sample: str) -> str:
    """A regular expression for values shaped like the sample a parameter's description gives."""
    out = ""
    for piece in re.findall(r"\d+|[A-Z]+|[a-z]+|\s+|.", sample):
        if piece.isdigit():
            out += r"\d{1,%d}" % max(2, len(piece)) if len(piece) <= 2 else r"\d{%d}" % len(piece)
        elif piece.isalpha():
            out += "[A-Z]+" if piece.isupper() else "[A-Za-z]+" if piece[0].isupper() else "[a-z]+"
        elif piece.isspace():
            out += r"\s?"
        else:
            out += re.escape(piece)
    return rf"(?<![\w-]){out}(?![\w-])"


def value_for(request, name: str, spec: dict):
    spec = next((s for s in spec.get("anyOf", []) if s.get("type") != "null"), spec)
    kind = spec.get("type", "string")
    # an earlier answer's field of the same name
    for r in reversed(tool_results(request)):
        got = fields(parse(r.content))
        if name.lower() in got and got[name.lower()] not in (None, ""):
            return got[name.lower()]
    texts = [customer_request(request), *heard(request)[1:], *(r.content for r in tool_results(request))]
    # a labelled field in a brief or memo: "Items: Stilton, Yarg."
    label = re.escape(words_of(name))
    for text in texts:
        if m := re.search(rf"(?im)^\W*{label}\s*:\s*(.+?)\.?\s*$", text):
            return int(m[1]) if kind == "integer" and m[1].isdigit() else m[1].strip()
    if "enum" in spec:
        said = customer_request(request).lower()
        return next((o for o in spec["enum"] if str(o).lower() in said), None)
    description = spec.get("description") or ""
    if sample := re.search(r"(?:like|e\.g\.|for example|such as)[,:]?\s*[\"'“]([^\"'”]+)[\"'”]", description, re.I):
        regex = pattern_of(sample[1])
    elif re.search(r"e-?mail", name, re.I):
        regex = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    elif re.search(r"date|day", name, re.I):
        regex = r"\b\d{4}-\d{2}-\d{2}\b"
    elif re.search(r"ref|_id$|^id$|number|account|booking|order|ticket", name, re.I):
        regex = REFERENCE.pattern
    elif kind in ("integer", "number"):
        stem = re.escape(name.split("_")[-1][:4])
        said = customer_request(request)
        m = re.search(rf"\b(\d+(?:\.\d+)?)\s+(?:\w+\s+)?{stem}", said, re.I) or re.search(rf"{stem}\w*\D{{0,12}}?(\d+)", said, re.I)
        return (int(float(m[1])) if kind == "integer" else float(m[1])) if m else None
    elif re.search(r"name|customer|client|who", name, re.I):
        return customer_name(request)
    elif FREE_TEXT.search(name) or re.search(r"customer's (?:own )?words|as (?:written|given)", description, re.I):
        return customer_request(request)
    else:
        return None
    for text in texts:
        if m := re.search(regex, text):
            return int(m[0]) if kind == "integer" and m[0].isdigit() else m[0]
    return None


def use(request, tool):
    schema = tool.parameters or {}
    props = schema.get("properties") or {}
    args = {}
    for name in schema.get("required") or list(props):
        value = value_for(request, name, props.get(name, {}))
        if value is None:
            if name in (schema.get("required") or []):
                return say(letter(request, matter(request) + " - a detail we need", [
                    f"Thank you for your message. Before we can go ahead, could you let us know your "
                    f"{words_of(name)}? We will deal with your request as soon as we have it."]))
            continue
        args[name] = value
    return call(tool.name, **args)


def memo_for(request, to: str) -> str:
    facts = [told(r.content) for r in tool_results(request) if not broken(r.content)]
    paragraphs = [f"The customer writes: {customer_request(request)}"]
    if facts:
        paragraphs.append("What we have found so far: " + " ".join(facts))
    paragraphs.append("Please could you deal with this and reply to me.")
    return memo(request.agent or "the desk", to, matter(request), paragraphs)


def about(request, topics: str | None) -> bool:
    if not topics:
        return True
    said = customer_request(request).lower()
    wanted = [w.strip(" .'\"").lower() for w in re.split(r",|\bor\b|\band\b", topics)]
    # a topic's stem: "repairs" covers a customer's "repair"
    stems = [re.sub(r"(?:es|s)$", "", w) if len(w) > 4 else w for w in wanted]
    return any(w and re.search(r"\b" + re.escape(w), said) for w in stems)


def already(request, text: str) -> bool:
    return any(text in s for s in spoken(request))


def step(request):
    tools = {t.name: t for t in request.tools if not t.handoff_to and not t.name.startswith("final_result")}
    asked = {c.name for c in my_calls(request)}
    answers = tool_results(request)
    newest = answers[-1] if answers else None
    replied = newest is not None and any(m.role == "assistant" and m.content for m in
                                         request.messages[[i for i, m in enumerate(request.messages) if m.role == "tool"][-1]:])
    for line in lines_of(request):
        if m := IF_BROKEN.match(line):
            got = tool_results(request, m[1])
            if got and broken(got[-1].content) and not already(request, m[2]):
                return say(quoted_letter(request, m[2], m[1]))
            continue
        if m := IF_ANSWER.match(line):
            got = tool_results(request, m[1])
            wanted = [w.strip(" '\"`.") for w in re.split(r"\bor\b|,|/", m[2])]
            if got and any(w and re.search(rf"\b{re.escape(w)}\b", got[-1].content, re.I) for w in wanted) \
                    and not already(request, m[3]):
                return say(quoted_letter(request, m[3], m[1]))
            continue
        if m := ONCE.match(line):
            if tool_results(request, m[1]) and not already(request, m[2]):
                return say(quoted_letter(request, m[2], m[1]))
            continue
        if newest is not None and broken(newest.content) and not replied:
            return say(report(request, newest.name))
        if m := PASS.search(line):
            target = m[1].rstrip(".")
            topics = re.search(TOPICS.format(name=re.escape(target)), line, re.I)
            if not about(request, topics[1] if topics else None):
                continue
            if target in tools:
                if target in asked:
                    continue
                props = (tools[target].parameters or {}).get("properties") or {}
                slot = next((p for p in props if FREE_TEXT.search(p)), next(iter(props), "request"))
                return call(target, **{slot: memo_for(request, target)})
            if (h := resolve_handoff(target, request.tools)) is not None:
                if h.name in asked:
                    continue
                return handoff(target)
            if already(request, f"To: {target}"):
                continue
            return say(memo_for(request, target))
        named = [t for t in tools if re.search(rf"\b{re.escape(t)}\b", line)]
        if named and not REPORT.match(line) and not WRITE.match(line):
            if named[0] in asked:
                continue
            return use(request, tools[named[0]])
        if m := WRITE.match(line):
            if not already(request, m[1]):
                return say(quoted_letter(request, m[1], None))
            continue
        if REPORT.match(line):
            if newest is not None and not replied:
                tool = next((t for t in asked if re.search(rf"\b{re.escape(t)}\b", line)), None)
                return say(report(request, tool))
            continue
    if newest is not None and not replied:
        return say(report(request, None))
    if not spoken(request) and not asked:
        return say(report(request, None))
    return say(nothing_more(request))


# --- output types ----------------------------------------------------------------------------


def outcome_is_bad(request, text: str) -> bool:
    answers = tool_results(request)
    if answers:
        return verdict(answers[-1].content) in ("bad", "broken")
    return bool(re.search(r"\bregret\b", text))


def fill(schema: dict, text: str, request) -> dict:
    defs = schema.get("$defs") or {}

    def resolve(s):
        return defs.get(s["$ref"].rsplit("/", 1)[-1], s) if "$ref" in s else s

    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        bad = outcome_is_bad(request, text)
        options = [resolve(o) for o in options]
        schema = next((o for o in options if bool(re.search(r"declin|refus|reject|fail|unable|not",
                      f"{o.get('title', '')} {o.get('description', '')}", re.I)) == bad), options[0])
    known = {}
    for r in tool_results(request):
        known.update(fields(parse(r.content)))
    out = {}
    for name, spec in (schema.get("properties") or {}).items():
        spec = resolve(spec)
        kind = spec.get("type") or next((s.get("type") for s in spec.get("anyOf", []) if s.get("type") != "null"), "string")
        if name.lower() in known and not isinstance(known[name.lower()], (dict, list)):
            out[name] = known[name.lower()]
        elif kind == "boolean":
            out[name] = not outcome_is_bad(request, text)
        elif kind in ("integer", "number"):
            out[name] = value_for(request, name, spec) or 0
        elif "enum" in spec:
            out[name] = next((o for o in spec["enum"] if str(o).lower() in text.lower()), spec["enum"][0])
        elif kind == "array":
            out[name] = REFERENCE.findall(" ".join(r.content for r in tool_results(request)))
        elif re.search(r"reason|why", name, re.I):
            out[name] = body_of(text)
        else:
            out[name] = text
    return out


def policy(request):
    reply = step(request)
    text = getattr(reply, "text", None)
    if text is None or getattr(reply, "tool_calls", ()):
        return reply
    outputs = [t for t in request.tools if t.name.startswith("final_result")]
    if outputs:
        bad = outcome_is_bad(request, text)
        chosen = next((t for t in outputs if bool(re.search(r"declin|refus|reject|fail|unable|not",
                                                              f"{t.name} {t.description}", re.I)) == bad), outputs[0])
        return call(chosen.name, **fill(chosen.parameters or {}, text, request))
    if request.tool_choice not in ("auto", "none") and request.tools:
        forced = next((t for t in request.tools if t.name == request.tool_choice), request.tools[0])
        return call(forced.name, **fill(forced.parameters or {}, text, request))
    if request.response_schema:
        return say(json.dumps(fill(request.response_schema, text, request)))
    return reply
