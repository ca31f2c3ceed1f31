"""A fifth scripted model for the zoo, written apart from the others: a formal, impersonal
back-office clerk.

Use it as `--sut-model scripted/examples/zoo/policy_e.py:policy`. Like the other policies it
knows no system of the zoo: a seeded twin and its fixed twin differ only through what their
instructions, tools and wiring give it. Its character:

- impersonal and passive: "The appointment has been entered under reference ...", "The request
  could not be processed.", "The matter is referred to ..."; tool results restated as numbered
  lists or small markdown tables (`| Particular | Value |`);
- it answers in the customer's language when the customer writes German, French or Spanish (its
  set phrases; the tables and quoted replies stay as written);
- missing data is asked for as a numbered checklist, one question per particular;
- procedural: it reads an agent's instructions as a procedure, one step a line (bullets and
  numbers stripped, long lines cut at sentence ends), and the first step that applies answers,
  a wrong step included. A step may be:
  - a referral naming a colleague it can hand over to: hands over, once, when the customer's
    message concerns the step's subject (`Requests concerning A, B or C are referred to X`), or
    at once when the step names no subject;
  - a tool step naming an offered tool (`... is to be entered by means of TOOL`, `Call TOOL`):
    calls it once, with its arguments found in the conversation by the shape of the example its
    parameter descriptions give (`e.g. "NT-00000"`, `like "8471 30 00"`), an enum by the words
    the message shares with each value, a free-text parameter (question, request, note, details)
    as the customer's own words; `... until it reports WORD` calls it again while its newest
    answer lacks WORD; a subject limits it as a referral's does;
  - an outcome step, `Where/If/Should TOOL reports/returns/answers W1 or W2, ...` (`fails`,
    `is refused`: an answer that reads as a failure; `raises an error`, `is unavailable`: the
    framework's error text): applies when the tool's newest answer holds one of the words; a
    quoted reply is said as written, anything else is explained formally with the answer's
    fields in a table;
  - a closing step: `State/Reply/Conclude with "TEXT"` says TEXT; `Confirm ...` confirms the
    object named from the particulars submitted in the last call (and its reference, when the
    answer holds one); `Restate/Report/Set out the result of TOOL` tabulates the answer;
    `... referred to the X` without a colleague to hand to says so in words;
- a tool that broke (the framework's error text) with no step for it gets a formal notice that
  the request could not be processed, never the raw error;
- as a group chat's speaker selector (`request.agent == "selector"`) it takes the order of work
  the selection prompt states (`a, then b, then c`; `a -> b -> c`), else the role whose
  description shares most words with the request, among those not yet heard;
- asked for a response schema, it fills each field from the conversation.
"""

from __future__ import annotations

import json
import re

from masfuzz.llm.scripted import call, handoff, say, tool_results

WORD = re.compile(r"[a-zà-ÿß]+(?:-[a-zà-ÿß]+)*")  # "off-hire" is one word
STOP = set("the a an of to for and or in on at by is are be was were with from as that this it its "
           "any all each their his her your our which who whom when where if then than into per "
           "request requests concerning regarding about relating involving matter matters".split())
LANGS = {
    "de": set("der die das und ich nicht bitte mit für ist wir sie ein eine meine mein zu den dem "
              "auf wäre können möchte danke guten".split()),
    "fr": set("le la les et je vous pour une est avec nous merci bonjour mon ma mes des du au "
              "pourriez voudrais".split()),
    "es": set("el la los las y para por una con mi gracias hola quiero es del al podrían "
              "quisiera necesito".split()),
    "en": set("the and is for with my please we you could would of to".split()),
}
PHRASES = {
    "en": {"entered": "The {what} has been entered", "under": " under reference {ref}",
           "failed": "The {what} could not be processed.", "missing": "The request cannot be processed "
           "until the following particulars are supplied:", "nothing": "No further action is required on "
           "this file.", "down": "The request could not be processed: the {tool} service did not respond. "
           "The matter is referred to the back office.", "referred": "The request has been registered. "
           "The matter is referred to {whom}.", "result": "The following result has been recorded:",
           "what": "What is the {name}{form}?", "request": "request"},
    "de": {"entered": "Der Vorgang ({what}) wurde erfasst", "under": " unter dem Aktenzeichen {ref}",
           "failed": "Der Vorgang ({what}) konnte nicht bearbeitet werden.", "missing": "Der Antrag kann "
           "erst bearbeitet werden, wenn folgende Angaben vorliegen:", "nothing": "Weitere Schritte sind "
           "nicht erforderlich.", "down": "Der Antrag konnte nicht bearbeitet werden: das System {tool} hat "
           "nicht geantwortet. Die Angelegenheit wird an das Backoffice weitergeleitet.", "referred":
           "Der Antrag wurde erfasst und an {whom} weitergeleitet.", "result": "Folgendes Ergebnis wurde "
           "festgehalten:", "what": "Wie lautet {name}{form}?", "request": "Antrag"},
    "fr": {"entered": "La demande ({what}) a été enregistrée", "under": " sous la référence {ref}",
           "failed": "La demande ({what}) n'a pas pu être traitée.", "missing": "La demande ne peut être "
           "traitée qu'après réception des éléments suivants :", "nothing": "Aucune autre action n'est "
           "requise.", "down": "La demande n'a pas pu être traitée : le service {tool} n'a pas répondu. Le "
           "dossier est transmis au back-office.", "referred": "La demande a été enregistrée et transmise "
           "à {whom}.", "result": "Le résultat suivant a été consigné :", "what": "Quel est le {name}{form} ?",
           "request": "demande"},
    "es": {"entered": "La solicitud ({what}) ha sido registrada", "under": " con la referencia {ref}",
           "failed": "La solicitud ({what}) no ha podido tramitarse.", "missing": "La solicitud no puede "
           "tramitarse hasta que se faciliten los siguientes datos:", "nothing": "No se requiere ninguna "
           "otra actuación.", "down": "La solicitud no ha podido tramitarse: el servicio {tool} no ha "
           "respondido. El asunto se remite al back office.", "referred": "La solicitud ha sido registrada "
           "y se remite a {whom}.", "result": "Se ha registrado el siguiente resultado:", "what":
           "¿Cuál es el {name}{form}?", "request": "solicitud"},
}
FREE_TEXT = {"question", "request", "note", "details", "message", "query", "task", "summary", "text"}
FAIL_WORDS = re.compile(r"\b(refus\w*|reject\w*|declin\w*|denied|not[ _]\w+|unavailable|invalid|"
                        r"fail\w*|cannot|could not|no longer|abgelehnt|nicht|refusé\w*|rechaz\w*)\b", re.I)
BROKEN = re.compile(r"(error|exception|traceback)", re.I)
SUBJECT = re.compile(r"\b(?:concerning|regarding|about|relating to|in respect of|involving|mentioning|"
                     r"on the subject of)\s+(.+?)(?=\s+(?:are|is|shall|must|go|goes|to be)\b|[,:;]\s+(?:are|is|"
                     r"shall|the|they|it)\b|$)", re.I)


# --- reading the request ------------------------------------------------------------------


def instructions(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "system")


def customer(request) -> str:
    """The opening message: the customer's, or whatever the caller handed this agent."""
    return next((m.content for m in request.messages if m.role == "user" and m.content), "")


def texts(request) -> list[str]:
    """Where a value may be found, newest first: messages and tool answers, not instructions."""
    # its own replies are no source: a checklist's "(format: ...)" examples are no one's data
    return [re.sub(r"\(format: [^)]*\)", "", m.content) for m in reversed(request.messages)
            if m.role in ("user", "tool") and m.content]


def stems(text: str) -> set[str]:
    return {stem(w) for w in WORD.findall(text.lower()) if w not in STOP and len(w) > 2}


def stem(word: str) -> str:
    """A word's first five letters, a plural's without its s: "fees" and "fee" are one word."""
    return (word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word)[:5]


def language(request) -> str:
    words = WORD.findall(customer(request).lower())
    counts = {lang: sum(w in vocab for w in words) for lang, vocab in LANGS.items()}
    best = max(counts, key=counts.get)
    return best if best != "en" and counts[best] >= 3 and counts[best] > counts["en"] else "en"


def phrase(request, key: str, **slots) -> str:
    return PHRASES[language(request)][key].format(**slots)


def steps(request) -> list[str]:
    """The procedure: one step a line, bullets and numbers stripped, long lines cut at sentence
    ends outside quotes."""
    out = []
    for line in instructions(request).splitlines():
        line = re.sub(r"^\s*(?:[-*•]|\d+[.)]|#+)\s*", "", line).strip()
        for sentence in re.split(r'(?<=[.!?])\s+(?=[A-Z"])(?=(?:[^"]*"[^"]*")*[^"]*$)', line):
            if sentence.strip():
                out.append(sentence.strip())
    return out


def colleagues(request) -> dict[str, str]:
    """Who it can hand over to: the colleague's name, as a step may write it -> the agent."""
    found = {}
    for t in request.tools:
        target = t.handoff_to or (t.name[len("transfer_to_"):] if t.name.startswith("transfer_to_") else None)
        if target:
            found[target.lower()] = target
            found[t.name.lower()] = target
    return found


def handed(request, target: str) -> bool:
    names = {t.name for t in request.tools if t.handoff_to == target or t.name.lower().endswith(target.lower())}
    return any(c.name in names for m in request.messages if m.role == "assistant" for c in m.tool_calls)


def own_tools(request) -> dict:
    return {t.name: t for t in request.tools if not (t.handoff_to or t.name.startswith("transfer_to_"))}


def names_in(line: str, names) -> list[str]:
    return [n for n in names if re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", line, re.I)]


def answers(request, tool: str) -> list[str]:
    return [r.content for r in tool_results(request, tool)]


def subject_applies(line: str, request) -> bool:
    found = SUBJECT.search(line)
    if not found:
        return True
    words = re.split(r",\s*|\s+or\s+|\s+and\s+", found.group(1))
    want = {stem(w) for phrase_ in words for w in WORD.findall(phrase_.lower()) if w not in STOP and len(w) > 2}
    return bool(want & stems(customer(request)))


# --- values -------------------------------------------------------------------------------


def example_of(description: str) -> str | None:
    found = re.search(r"(?:e\.g\.|like|such as|for example|format|as in)\s*:?\s*[\"'“]([^\"'”]+)[\"'”]",
                      description or "", re.I)
    return found.group(1) if found else None


def shape(example: str) -> re.Pattern:
    if re.fullmatch(r"[A-Z]+", example):
        body = rf"[A-Z]{{{len(example)}}}"
    else:
        body = ""
        runs = re.findall(r"\d+|[a-z]+|[A-Z]+|.", example)
        for i, run in enumerate(runs):
            after = runs[i + 1][0] if i + 1 < len(runs) else ""
            if run[0].isdigit():
                body += r"\d+"
            elif run[0].islower():
                body += r"[a-zà-ÿ]+"
            elif run[0].isupper() and not (after.isdigit() or after in "-/"):
                body += rf"[A-Z]{{{len(run)}}}"  # a word's capital, not a code's prefix
            else:
                body += re.escape(run)  # a prefix such as NT- or GB
    return re.compile(rf"(?<![\w]){body}(?![\w])")


def find_value(request, name: str, spec: dict):
    description = spec.get("description", "")
    if spec.get("enum"):  # the value the message speaks of most
        said = [stem(w) for w in WORD.findall(customer(request).lower())]
        return max(spec["enum"], key=lambda v: sum(said.count(w) for w in stems(str(v))))
    example = example_of(description)
    if example:
        pattern = shape(example)
        for text in texts(request):
            found = pattern.search(text)
            if found:
                return found.group(0)
        return None
    if spec.get("type") in ("integer", "number"):
        unit = "|".join(w[:4] for w in WORD.findall((name + " " + description).lower()) if len(w) > 3)
        for text in texts(request):
            found = unit and (re.search(rf"(\d+(?:\.\d+)?)\s*(?:{unit})", text.lower())  # "3 weeks"
                              or re.search(rf"\b(?:{unit})\w*\s*[:=]\s*(\d+(?:\.\d+)?)", text.lower()))  # "hours: 2"
            if found:
                number = float(found.group(1))
                return int(number) if spec.get("type") == "integer" else number
        return None
    if name.lower() in FREE_TEXT or set(WORD.findall(name.lower())) & FREE_TEXT:
        return customer(request)
    return None


def arguments(request, tool) -> tuple[dict, list[tuple[str, str]]]:
    params = (tool.parameters or {}).get("properties", {})
    required = set((tool.parameters or {}).get("required", params))
    values, missing = {}, []
    for name, spec in params.items():
        value = find_value(request, name, spec)
        if value is not None:
            values[name] = value
        elif name in required:
            missing.append((name, example_of(spec.get("description", "")) or ""))
    return values, missing


def checklist(request, missing) -> str:
    lines = [phrase(request, "missing")]
    for i, (name, example) in enumerate(missing, 1):
        form = f" (format: {example})" if example else ""
        lines.append(f"{i}. " + phrase(request, "what", name=name.replace("_", " "), form=form))
    return "\n".join(lines)


# --- tool answers -------------------------------------------------------------------------


def data(answer: str):
    for parse in (json.loads, _literal):
        try:
            return parse(answer)
        except (ValueError, SyntaxError, TypeError):
            continue
    pairs = re.findall(r"(\w+)=('[^']*'|\"[^\"]*\"|[^,()]+)", answer)
    return {k: v.strip("'\" ") for k, v in pairs} or None


def _literal(answer: str):
    import ast

    return ast.literal_eval(answer)


def fields(value, key: str = "") -> list[tuple[str, str]]:
    if isinstance(value, dict):
        return [kv for k, v in value.items() for kv in fields(v, f"{key}.{k}" if key else str(k))]
    if isinstance(value, (list, tuple)):
        return [kv for i, v in enumerate(value) for kv in fields(v, f"{key}[{i}]" if key else f"item {i + 1}")]
    return [(key or "result", str(value))]


def table(answer: str) -> str:
    parsed = data(answer)
    if parsed is None or isinstance(parsed, (str, int, float)):
        return "\n".join(f"> {line}" if line else ">" for line in answer.strip().splitlines())
    rows = ["| Particular | Value |", "| --- | --- |"]
    rows += [f"| {k} | {v} |" for k, v in fields(parsed)]
    return "\n".join(rows)


def failed(answer: str) -> bool:
    parsed = data(answer)
    flat = dict(fields(parsed)) if parsed is not None and not isinstance(parsed, str) else {}
    for k, v in flat.items():
        leaf = k.rsplit(".", 1)[-1].lower()
        if v in ("False", "false", "0", "None") and leaf in ("ok", "success", "accepted", "entered", "done",
                                                               "booked", "confirmed", "assigned"):
            return True
        if re.fullmatch(r"[45]\d\d", v) and re.search(r"status|code|http", leaf):
            return True
    if isinstance(parsed, tuple) and parsed and (parsed[0] is False or re.fullmatch(r"[45]\d\d", str(parsed[0]))):
        return True
    return bool(FAIL_WORDS.search(answer))


def broken(answer: str) -> bool:
    """The framework's report of a tool that raised (or a tool that answered nothing), not an
    answer the tool gave, which is data even when it holds the word "error"."""
    if not answer.strip():
        return True
    for parse in (json.loads, _literal):
        try:
            parse(answer)
            return False
        except (ValueError, SyntaxError, TypeError):
            continue
    return bool(BROKEN.search(answer))


# --- the steps ----------------------------------------------------------------------------


def outcome(line: str, request, tools: set[str]):
    """An outcome step's reply, when the tool it names has answered as the step says."""
    found = re.match(r"(?:where|if|should|when|in case)\s+(\w+)\s+(.+?),\s*(.+)$", line, re.I)
    if not found or found.group(1) not in tools:
        return None
    tool, condition, consequence = found.groups()
    said = answers(request, tool)
    if not said:
        return None
    newest = said[-1]
    cond = condition.lower()
    if re.search(r"raises|error|unavailable|does not respond|is down", cond):
        hit = broken(newest)
    elif re.search(r"\bfails\b|is refused|is rejected|does not succeed|does not go through", cond):
        hit = failed(newest) and not broken(newest)
    else:
        cond = re.sub(r"^(?:reports|returns|answers|gives|states|shows|comes back with|says)\s+", "", condition,
                      flags=re.I)
        words = [w.strip(" \"'`") for w in re.split(r",\s*|\s+or\s+", cond) if w.strip(" \"'`")]
        hit = any(w.lower() in newest.lower() for w in words)
    if not hit:
        return None
    quoted = re.search(r"\"([^\"]+)\"", consequence)
    if quoted:
        return say(quoted.group(1))
    what = re.search(r"\bthe\s+([a-z]+(?: [a-z]+)?)\s+(?:could not|cannot|was not|has not|is not)", consequence, re.I)
    text = phrase(request, "failed", what=what.group(1) if what else phrase(request, "request"))
    text += "\n\n" + table(newest)
    whom = re.search(r"referred to (?:the )?([\w' -]+)", consequence, re.I)
    if whom:
        text += "\n\n" + phrase(request, "referred", whom="the " + whom.group(1).strip())
    return say(text)


def confirm(line: str, request) -> str:
    last = next(((c, m) for m in reversed(request.messages) if m.role == "assistant"
                 for c in m.tool_calls if not c.name.startswith("transfer_to_")), None)
    what = re.search(r"confirm(?:ed)?\s+(?:that\s+)?(?:the\s+)?([a-z -]+?)(?:\s+(?:to|with|for|as|has|is)\b|[.,]|$)",
                     line, re.I)
    what = what.group(1).strip() if what and what.group(1).strip() else phrase(request, "request")
    text = phrase(request, "entered", what=what)
    if last:
        call_, _ = last
        said = answers(request, call_.name)
        if said and broken(said[-1]):  # nothing to confirm: the tool itself broke
            return phrase(request, "down", tool=call_.name)
        parsed = data(said[-1]) if said else None
        flat = dict(fields(parsed)) if parsed is not None and not isinstance(parsed, str) else {}
        ref = next((v for k, v in flat.items() if v not in ("None", "", "null") and re.search(r"ref|reference|entry|number|booking|id$",
                                                             k.rsplit(".", 1)[-1], re.I)), None)
        if ref:
            text += phrase(request, "under", ref=ref)
        rows = ["| Particular | Value |", "| --- | --- |"]
        rows += [f"| {k.replace('_', ' ')} | {v} |" for k, v in call_.arguments.items()]
        return text + ".\n\n" + "\n".join(rows)
    return text + "."


def closing(line: str, request, tools: set[str]):
    low = line.lower()
    quoted = re.search(r"\"([^\"]+)\"", line)
    if quoted and re.search(r"\b(state|reply|conclude|close|answer|respond|say|sign|end|write)\w*", low):
        return say(quoted.group(1))
    if re.search(r"\bconfirm", low):
        return say(confirm(line, request))
    named = names_in(line, tools)
    whom = re.search(r"\breferred to (?:the )?([\w' -]+)", line, re.I)
    if named and re.search(r"\b(restate|report|relay|set out|summar|tabulat|pass on)", low):
        said = answers(request, named[0])
        if said and broken(said[-1]):
            return say(phrase(request, "down", tool=named[0]))
        if said:
            onward = "\n\n" + phrase(request, "referred", whom="the " + whom.group(1).strip()) if whom else ""
            return say(phrase(request, "result") + "\n\n" + table(said[-1]) + onward)
    if whom and not named:
        return say(phrase(request, "referred", whom="the " + whom.group(1).strip()))
    return None


def act(request):
    tools = own_tools(request)
    people = colleagues(request)
    last = request.messages[-1] if request.messages else None
    # a tool that answered is still this agent's to report on when it is offered no tools (a
    # reflection on its results)
    known = set(tools) | {c.name for m in request.messages if m.role == "assistant" for c in m.tool_calls}
    for line in steps(request):
        if re.match(r"(?:where|if|should|when|in case)\b", line, re.I):
            reply = outcome(line, request, known)
            if reply is not None:
                return reply
            continue
        targets = names_in(line, people)
        if targets and not names_in(line, known):
            target = people[targets[0].lower()]
            if subject_applies(line, request) and not handed(request, target):
                return handoff(target)
            continue
        named = [n for n in names_in(line, tools) if not re.search(rf"result of\s+{n}", line, re.I)]
        if named and not re.search(r"\b(restate|report|relay|set out|summar|confirm)", line, re.I):
            tool = tools[named[0]]
            if not subject_applies(line, request):
                continue
            said = answers(request, tool.name)
            until = re.search(r"until it (?:reports|returns|shows|says)\s+\"?(\w+)", line, re.I)
            if said and not (until and until.group(1).lower() not in said[-1].lower()):
                continue
            values, missing = arguments(request, tool)
            if missing:
                return say(checklist(request, missing))
            return call(tool.name, **values)
        reply = closing(line, request, known)
        if reply is not None:
            return reply
    if last is not None and last.role == "tool" and broken(last.content or ""):
        return say(phrase(request, "down", tool=last.name or "booking"))
    return say(phrase(request, "nothing"))


# --- group chats and structured output ----------------------------------------------------


def select(request) -> str:
    text = "\n".join(m.content or "" for m in request.messages)
    head, _, history = text.partition("conversation")
    roles = dict(re.findall(r"^(\w+)\s*:\s*(.+)$", head, re.M))
    listed = re.search(r"from \[?([\w, ']+)\]?\s+to play", text)
    names = [n.strip(" '") for n in listed.group(1).split(",")] if listed else list(roles)
    spoke = set(re.findall(r"^(\w+)\s*:", history, re.M)) | {m.name for m in request.messages if m.name}
    order = re.search(r"(?:order of work|work proceeds|sequence)\s*(?:is|:)?\s*([\w ,>-]+?)(?:\.|$)", text, re.I | re.M)
    if order:
        sequence = [n for n in re.split(r"\s*(?:,|->|→|then)\s*", order.group(1)) if n in names]
        for name in sequence:
            if name not in spoke:
                return name
        if sequence:
            return sequence[-1]
    want = stems(customer(request))
    waiting = [n for n in names if n not in spoke] or names
    return max(waiting, key=lambda n: len(want & stems(roles.get(n, ""))), default="")


def structured(request) -> str:
    schema = request.response_schema or {}
    props = schema.get("properties", {})
    out = {}
    for name, spec in props.items():
        value = find_value(request, name, spec)
        if value is None:
            kind = spec.get("type")
            value = False if kind == "boolean" else 0 if kind in ("integer", "number") else ""
        out[name] = value
    return json.dumps(out)


def policy(request):
    if request.agent == "selector":
        return say(select(request))
    if request.response_schema and not request.tools:
        return say(structured(request))
    return act(request)
