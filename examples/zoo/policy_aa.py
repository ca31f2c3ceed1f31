"""The scripted model of the zoo's thirty-eighth set, written apart from the others: the implier.

Use it as `--sut-model scripted/examples/zoo/policy_aa.py:policy`. It knows no system of the zoo;
it reads each agent's own instructions line by line, in order, and does the first thing they ask
that the conversation shows is not done yet:

- a tool line (a line naming one of the tools it is offered): calls the tool once, each argument
  taken from the conversation by the parameter's documented example (its shape: a reference like
  "AB-1234", a date written as the example writes it, ISO or "4 July 2026" or "04/07/2026"), else
  by its name and type (a count said next to a word the parameter's name starts, a date, a
  reference); `... until it says WORD` calls it again while its newest answer lacks WORD;
- a hand-over line (`pass / hand / send / refer / leave ... to NAME`, optionally `... about A, B or
  C` or `... anything about A`): hands over once to NAME where the customer's words touch the
  topic, through the hand-over tool or the agent offered as a tool, else by writing a one-sentence
  note that names NAME (an app that routes by the reply reads it);
- an outcome line (`If / When / Should TOOL answers / says / returns A or B, ...` or `If TOOL
  fails / breaks`): when the newest answer shows it, says the quoted text, or, told to "tell the
  customer what it said", relays the answer's own words in quotes;
- a closing line (`Say / Reply / Close with / Sign off with / Tell the customer "TEXT"`, or `Once
  ... has answered, say "TEXT"`): says TEXT once.

Its own words are those of someone who never names an outcome: it says success and failure by
their consequences and next steps ("Pack your wellies - see you on the fourth of July!", "You
will want to pick another date, I am afraid that one has gone"), writes numbers, dates, times and
amounts out in words ("the fourteenth of June", "half past five", "forty-five pounds", "two
adults"), leans on British idioms and litotes ("no joy there", "it is in the bag", "not the end of
the world"), writes a hand-over note as one flowing sentence, and asks indirectly ("I will just
need your booking reference and we are away"). Quoted text from its instructions is said as
written, and a tool's own words are quoted as the tool gave them.

It follows its lines literally, a wrong one included, and never knows which twin it is in. A
tool that breaks, with no line for it, gets a plain sentence of its own that says the answer
could not be had. Asked for a structured answer (a response schema, or an output tool such as
PydanticAI's `final_result`), it fills each field from what it would have said. As a group chat's
selector it names the first listed member that has not spoken yet.
"""

from __future__ import annotations

import ast
import json
import re
from datetime import date

from masfuzz.llm.scripted import call, handoff, say

# --- saying things in words -----------------------------------------------------------------

ONES = ("nought one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen").split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
ORDINAL = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth",
           "nine": "ninth", "twelve": "twelfth"}
MONTHS = ("January February March April May June July August September October November "
          "December").split()
CURRENCY = {"£": ("pound", "pounds"), "GBP": ("pound", "pounds"), "€": ("euro", "euros"),
            "EUR": ("euro", "euros"), "$": ("dollar", "dollars"), "USD": ("dollar", "dollars")}


def spelled(n: int) -> str:
    if n < 0:
        return "minus " + spelled(-n)
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("-" + ONES[n % 10] if n % 10 else "")
    if n < 1000:
        rest = n % 100
        return ONES[n // 100] + " hundred" + (" and " + spelled(rest) if rest else "")
    if n < 1_000_000:
        rest = n % 1000
        joint = " and " if rest and rest < 100 else " "
        return spelled(n // 1000) + " thousand" + (joint + spelled(rest) if rest else "")
    return str(n)


def ordinal(n: int) -> str:
    words = spelled(n)
    head, _, last = words.rpartition("-")
    if last in ORDINAL:
        last = ORDINAL[last]
    elif last.endswith("y"):
        last = last[:-1] + "ieth"
    else:
        last += "th"
    return f"{head}-{last}" if head else last


def day_in_words(d: date) -> str:
    return f"{d.strftime('%A')} the {ordinal(d.day)} of {MONTHS[d.month - 1]}"


def time_in_words(h: int, m: int) -> str:
    hour = spelled(h % 12 or 12)
    if m == 0:
        return f"{hour} o'clock"
    if m == 30:
        return f"half past {hour}"
    if m == 15:
        return f"quarter past {hour}"
    if m == 45:
        return f"quarter to {spelled((h + 1) % 12 or 12)}"
    return f"{spelled(m)} minutes past {hour}" if m < 30 else f"{spelled(60 - m)} minutes to {spelled((h + 1) % 12 or 12)}"


def money_in_words(symbol: str, amount: str) -> str:
    one, many = CURRENCY.get(symbol, ("unit", "units"))
    whole, _, pence = amount.partition(".")
    out = f"{spelled(int(whole))} {one if int(whole) == 1 else many}"
    if pence and int(pence):
        out += f" and {spelled(int(pence))}"
    return out


def in_words(text: str) -> str:
    """Its own prose: dates, times, amounts and small numbers written out."""
    def iso(m):
        try:
            return day_in_words(date.fromisoformat(m.group(0)))
        except ValueError:
            return m.group(0)
    text = re.sub(r"\b\d{4}-\d{2}-\d{2}\b", iso, text)
    text = re.sub(r"\b([01]?\d|2[0-3]):([0-5]\d)\b", lambda m: time_in_words(int(m.group(1)), int(m.group(2))), text)
    text = re.sub(r"(£|€|\$|\b(?:GBP|EUR|USD)\s?)(\d+(?:\.\d\d)?)\b",
                  lambda m: money_in_words(m.group(1).strip(), m.group(2)), text)
    # a bare count; digits inside a reference ("KT-2041") or a code stay as they are
    return re.sub(r"(?<![\w.\-/])(\d{1,3})(?![\w.\-/:])", lambda m: spelled(int(m.group(1))), text)


# --- reading the request ---------------------------------------------------------------------

REFERENCE = re.compile(r"\b[A-Z]{1,4}-?\d{2,6}\b")
ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”")
OUTCOME = re.compile(r"^\s*(?:if|when|should|once)\b", re.I)
HAND_VERB = re.compile(r"\b(?:pass|hand|send|refer|leave|forward|route|transfer)\b", re.I)
CLOSE_VERB = re.compile(r"^\s*(?:say|reply|answer|close with|sign off with|finish with|end with|tell the "
                        r"(?:customer|guest|caller|visitor|family|rider|swimmer)s?)\b", re.I)
UNTIL = re.compile(r"\buntil\b[^\"]*?\b(?:says?|reads?|shows?|returns?|answers?)\s+[\"'`]?([\w-]+)", re.I)
BROKE = re.compile(r"\b(?:fails?|breaks?|errors?|raises?|goes wrong|is down)\b", re.I)
RELAY = re.compile(r"\bwhat (?:it|the tool|they) (?:said|says|answered)\b|\bits (?:answer|words|reason)\b", re.I)
ABOUT = re.compile(r"\b(?:about|on|for|concerning|involving)\s+(.+?)\s+to\s+\w+|\b(?:about|concerning)\s+(.+?)(?:[.;]|$)", re.I)
AGENT_TOOL_PARAMS = ("request", "input", "query", "message")
STOP = {"the", "and", "any", "anything", "with", "from", "questions", "question", "requests", "request",
        "bookings", "booking", "all", "else", "other", "them", "that", "this", "their", "your", "our"}


def instructions(request) -> list[str]:
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    return [re.sub(r"^\s*(?:[-*•]|\d+[.)])\s+", "", ln).strip() for ln in text.splitlines() if ln.strip()]


def customer_text(request) -> str:
    """What others said to this agent (the customer, colleagues), tool answers left out."""
    return "\n".join(m.content or "" for m in request.messages if m.role == "user" and m.content)


def everything(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role != "system" and m.content)


def my_words(request) -> list[str]:
    return [m.content or "" for m in request.messages if m.role == "assistant" and m.content]


def calls_made(request) -> list:
    return [c for m in request.messages if m.role == "assistant" for c in m.tool_calls]


def answers_of(request, tool: str) -> list[str]:
    """Every answer this tool gave in the conversation, oldest first."""
    ids = {c.id: c.name for c in calls_made(request)}
    return [m.content or "" for m in request.messages if m.role == "tool"
            and (m.name == tool or ids.get(m.tool_call_id or "") == tool)]


def newest_answer(request) -> tuple[str, str] | None:
    ids = {c.id: c.name for c in calls_made(request)}
    for m in reversed(request.messages):
        if m.role == "tool":
            return (m.name or ids.get(m.tool_call_id or "", "") or ""), (m.content or "")
        if m.role == "user":
            return None
    return None


def as_data(text: str):
    for load in (json.loads, ast.literal_eval):
        try:
            return load(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return text


def flat(data, out=None) -> dict[str, object]:
    out = {} if out is None else out
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(v, (dict, list, tuple)):
                flat(v, out)
            else:
                out.setdefault(str(k), v)
    elif isinstance(data, (list, tuple)):
        for v in data:
            flat(v, out)
    return out


def broke(answer: str) -> bool:
    """A tool that raised rather than answered (the frameworks' error wrappers)."""
    return bool(re.search(r"Traceback|\b\w*(?:Error|Exception)\b\s*[:(]|An error occurred|^Error\b", answer))


def went_well(answer: str) -> bool:
    """Whether an answer reads as the thing happening, by its structure: a status code, a boolean
    verdict, an error or reason field, an empty result."""
    if broke(answer):
        return False
    data = as_data(answer)
    leaves = flat(data)
    for key in ("status", "code", "status_code"):
        value = leaves.get(key)
        if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
            return 200 <= int(value) < 300
    for value in leaves.values():
        if isinstance(value, bool):
            return value
    if any(k in leaves for k in ("error", "reason", "detail")) and not leaves.get("ok"):
        return False
    if isinstance(data, str):
        code = re.match(r"\s*(\d{3})\b", data)
        if code:
            return 200 <= int(code.group(1)) < 300
    return data not in ([], {}, "", None)


def gist(answer: str) -> str:
    """The tool's own words for an outcome: its reason/detail/note field, else the answer."""
    leaves = flat(as_data(answer))
    for key in ("detail", "reason", "error", "note", "message"):
        if leaves.get(key):
            return str(leaves[key])
    return " ".join(answer.split())[:300]


# --- filling a tool's arguments --------------------------------------------------------------


def example_in(description: str) -> str | None:
    found = re.search(r"(?:e\.g\.|for example|such as|like)\s*[\"'“]([^\"'”]+)[\"'”]", description or "")
    return found.group(1) if found else None


def dated_as(example: str, day: date) -> str:
    """The day written the way the example writes one."""
    if ISO_DAY.fullmatch(example):
        return day.isoformat()
    if re.fullmatch(r"\d{1,2} [A-Z][a-z]+ \d{4}", example):
        return f"{day.day} {MONTHS[day.month - 1]} {day.year}"
    if re.fullmatch(r"\d{2}/\d{2}/\d{4}", example):
        return day.strftime("%d/%m/%Y")
    return day.isoformat()


def days_mentioned(text: str) -> list[date]:
    out = []
    for found in ISO_DAY.findall(text):
        try:
            out.append(date.fromisoformat(found))
        except ValueError:
            pass
    return out


def count_near(name: str, text: str) -> int | None:
    """A count said next to a word the parameter's name begins ("3 riders" for `riders`)."""
    for stem in [p[:4] for p in re.split(r"[_\W]+", name.lower()) if len(p) >= 3]:
        found = re.search(rf"\b(\d{{1,4}})\s+(?:[a-z-]+\s+){{0,2}}?{stem}", text, re.I) or \
            re.search(rf"\b{stem}\w*\W{{1,3}}(\d{{1,4}})\b", text, re.I)
        if found:
            return int(found.group(1))
    return None


def value_for(name: str, spec: dict, request):
    text = customer_text(request)
    kind = spec.get("type")
    desc = spec.get("description", "") or spec.get("title", "")
    if spec.get("enum"):
        return next((v for v in spec["enum"] if str(v).lower() in text.lower()), spec["enum"][0])
    example = example_in(desc)
    days = days_mentioned(text)
    low = name.lower()
    if example and days and re.search(r"\d", example) and re.search(r"[-/ ]", example) and not REFERENCE.fullmatch(example):
        return dated_as(example, days[0])
    if example and REFERENCE.fullmatch(example):
        found = [r for r in REFERENCE.findall(everything(request)) if r[:2] == example[:2]]
        if found:
            return found[0]
    if kind in ("integer", "number"):
        n = count_near(name, text)
        if n is None:
            n = count_near(desc, text)
        return n if n is not None else 1
    if kind == "boolean":
        return True
    if low.endswith(("day", "date")) or "date" in desc.lower():
        return days[0].isoformat() if days else ""
    if low.endswith(("ref", "reference", "code", "booking", "id")):
        found = REFERENCE.findall(everything(request))
        if found:
            return found[0]
    return " ".join(text.split())[:600]


def fill_arguments(tool, request) -> dict:
    props = (tool.parameters or {}).get("properties", {})
    return {name: value_for(name, spec, request) for name, spec in props.items()}


# --- its own sentences ----------------------------------------------------------------------


def consequence(answer: str) -> str:
    """A success or a failure said by what follows from it."""
    data = as_data(answer)
    if isinstance(data, str) and not broke(answer):  # words, not a record: passed on as they are
        return f"Word back on that one reads \"{' '.join(answer.split())[:400]}\" - over to you from here."
    facts = flat(data)
    if went_well(answer):
        when = next((str(v) for v in facts.values() if isinstance(v, str) and ISO_DAY.search(v)), "")
        detail = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in facts.items()
                           if isinstance(v, str) and k not in ("status",))[:240]
        tail = f" - see you on {when}!" if when else " - it is in the bag."
        return in_words(f"Happy days: {detail}" + tail) if detail else in_words("Nothing standing in your way now" + tail)
    return ("No joy there, I am afraid - the answer I had back was "
            f"\"{gist(answer)}\", so you will want to try another way.")


def broke_sentence(tool: str) -> str:
    return (f"The {tool.replace('_', ' ')} would not give me an answer just now, I am afraid, so I "
            "cannot tell you either way yet - do ring us later and we will have another go.")


def note_for(agent: str, request) -> str:
    """A hand-over note: one flowing sentence with the customer's facts in words."""
    text = customer_text(request)
    first = text.split("\n")[0]
    refs = REFERENCE.findall(text)
    days = days_mentioned(text)
    parts = [f"Over to you, {agent}: the customer would like a hand with this"]
    if days:
        parts.append(f"for {day_in_words(days[0])}")
    if refs:
        parts.append(f"under reference {refs[0]}")
    return " ".join(parts) + f", and in their own words: \"{' '.join(first.split())[:400]}\""


def relayed(answer: str) -> str:
    """A colleague's or tool's answer passed on in its own words, with what follows from it."""
    words = gist(answer)
    if went_well(answer):
        return f"Word from our side, in their own words: \"{words}\""
    return (f"Not quite the news you wanted, I am afraid - word from our side reads \"{words}\", "
            "so you will want to pick another date.")


def ask_for(what: str) -> str:
    return f"I will just need your {what} and we are away."


# --- the steps -------------------------------------------------------------------------------


def hand_targets(request) -> dict[str, object]:
    """Agents this agent can hand over to, by lower-case name: a hand-over tool, or an agent
    offered as a tool (its name is the agent's)."""
    out = {}
    for t in request.tools:
        if t.handoff_to:
            out[t.handoff_to.lower()] = t
        elif t.name.startswith("transfer_to_"):
            out[t.name.removeprefix("transfer_to_").lower()] = t
    return out


def on_topic(line: str, request) -> bool:
    head = line.split('"')[0]
    found = ABOUT.search(head)
    if not found:
        return True
    topic = found.group(1) or found.group(2) or ""
    stems = {w[:5] for w in re.findall(r"[a-z]{3,}", topic.lower()) if w not in STOP}
    said = customer_text(request).lower()
    return not stems or any(re.search(rf"\b{re.escape(s)}", said) for s in stems)


def outcome_holds(line: str, request, tool: str) -> bool:
    """Whether the condition of an outcome line (the words before its first comma) shows in the
    tool's newest answer."""
    got = answers_of(request, tool)
    if not got:
        return False
    newest = got[-1]
    cond = line.split('"')[0].split(",")[0]
    after = cond.split(tool, 1)[-1]
    if re.search(r"\bhas answered\b|\bcomes back\b|\banswered\s*$", after, re.I):
        return True  # "Once TOOL has answered, ...": whatever it said
    if BROKE.search(after):
        return broke(newest)
    words = re.search(r"\b(?:answers?|says?|returns?|reads?|shows?)\s+(.+)$", after, re.I)
    if not words:
        return False
    wanted = [w.strip(" '`\"") for w in re.split(r"\s+or\s+|\s*/\s*", words.group(1)) if w.strip(" '`\"")]
    return not broke(newest) and any(w.lower() in newest.lower() for w in wanted)


def quoted(line: str) -> str | None:
    found = QUOTED.search(line)
    return (found.group(1) or found.group(2)) if found else None


def tools_named(line: str, request) -> list[str]:
    """The offered tools a line names; an identity line ("You are NAME ...") names none, and an
    agent never takes a tool that bears its own name (itself lent to others as a tool)."""
    head = line.split('"')[0]
    if re.match(r"\s*you are\b", head, re.I):
        return []
    return [t.name for t in request.tools if not t.handoff_to and not t.name.startswith("transfer_to_")
            and t.name != request.agent and re.search(rf"(?<![\w-]){re.escape(t.name)}(?![\w-])", head)]


def act(request):
    said = my_words(request)
    targets = hand_targets(request)
    offered = {t.name: t for t in request.tools}
    handed = {c.name for c in calls_made(request)}
    for line in instructions(request):
        head = line.split('"')[0]
        named = tools_named(line, request)
        if OUTCOME.match(line):
            if named and outcome_holds(line, request, named[0]):
                text = quoted(line)
                if text is None and RELAY.search(head):
                    text = relayed(answers_of(request, named[0])[-1])
                if text and text not in said:
                    return say(text)
            continue
        if named:
            tool = offered[named[0]]
            got = answers_of(request, tool.name)
            until = UNTIL.search(head)
            if not got or (until and until.group(1).lower() not in got[-1].lower() and not broke(got[-1])):
                props = list((tool.parameters or {}).get("properties", {}))
                if len(props) == 1 and props[0] in AGENT_TOOL_PARAMS:  # an agent offered as a tool
                    return call(tool.name, **{props[0]: note_for(tool.name, request)})
                return call(tool.name, **fill_arguments(tool, request))
            continue
        if HAND_VERB.search(head):
            names = [w for w in re.findall(r"[\w-]+", head) if w.lower() in targets]
            if names and on_topic(line, request):
                tool = targets[names[0].lower()]
                if tool.name not in handed:
                    return handoff(tool.handoff_to or names[0])
                continue
            # no hand-over tool: a note naming the colleague, which the app routes by
            who = [w for w in re.findall(r"\b[a-z]+_[a-z]\b", head)]
            if who and on_topic(line, request):
                text = note_for(who[0], request)
                if text not in said:
                    return say(text)
                return say(f"It is with {who[0]} now.")
            continue
        if CLOSE_VERB.match(line):
            text = quoted(line)
            if text and text not in said:
                return say(text)
            continue
    return say(wrap_up(request))


def wrap_up(request) -> str:
    newest = newest_answer(request)
    if newest:
        tool, answer = newest
        return broke_sentence(tool) if broke(answer) else consequence(answer)
    if my_words(request):
        return "That is me done for now - not the end of the world if you think of anything else."
    return ask_for("dates and how many of you there are")


# --- structured answers ---------------------------------------------------------------------


def structured(schema: dict, text: str, request) -> dict:
    newest = newest_answer(request)
    well = bool(newest) and went_well(newest[1])
    out = {}
    for key, spec in (schema.get("properties") or {}).items():
        kind = spec.get("type")
        if kind == "boolean":
            out[key] = well
        elif kind in ("integer", "number"):
            out[key] = value_for(key, spec, request)
        elif spec.get("enum"):
            out[key] = spec["enum"][0 if well else -1]
        else:
            out[key] = text
    return out


def output_tool(request):
    return next((t for t in request.tools if t.name.startswith("final_result")), None)


def select(request):
    text = "\n".join(m.content or "" for m in request.messages)
    head, _, history = text.partition("onversation so far")
    roles = re.findall(r"^\s*(\w+)\s*:", head, re.M)
    spoke = set(re.findall(r"^\s*(\w+)\s*:", history, re.M))
    return say(next((r for r in roles if r not in spoke), roles[-1] if roles else ""))


def policy(request):
    if request.agent == "selector":
        return select(request)
    result = act(request)
    text = getattr(result, "text", None)
    if text is not None and not getattr(result, "tool_calls", ()):
        tool = output_tool(request)
        if tool is not None:
            return call(tool.name, **structured(tool.parameters or {}, text, request))
        if request.response_schema:
            return say(json.dumps(structured(request.response_schema, text, request)))
    return result
