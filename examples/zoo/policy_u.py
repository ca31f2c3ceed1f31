"""The scripted model of the zoo's thirty-second set, written apart from the others: a
multilingual assistant. The apps' instructions and tools are in English, the customer writes in
Spanish, French, German, Italian or Portuguese, and it answers the customer in the customer's
language ("¡Listo! Su reserva quedó confirmada, ref. ...", "Leider konnte die Buchung nicht
vorgenommen werden: ..."), asks in it ("¿Para qué fecha?"), code-switches now and then ("ok,
c'est booké"), and writes numbers and dates the local way (14,50 €, "le 3 mars", 12/03).
Hand-over notes to colleagues are in English unless a line asks for the customer's language.

Use it as `--sut-model scripted/examples/zoo/policy_u.py:policy`. It knows no system of the zoo:
it reads the agent's instructions (the system messages) line by line and the first line that
applies acts:

- `Hand over to NAME` / `Transfer to NAME` (`for WORDS`: only when the customer's request is
  about one of them, understood across the five languages through a small glossary), when a
  handoff to NAME is offered: it hands over once;
- `If TOOL says WORD, ...` / `If TOOL raises ..., ...`, when TOOL's newest answer holds WORD (or
  is an error): a quoted reply is said as is, else it explains in the customer's language,
  quoting the tool's own status;
- a line naming an offered tool: it calls it once (`until it says WORD`: again while the newest
  answer lacks WORD); each argument comes from the conversation: an allowed value (or its
  translation), a date read in any of the five languages and written in the shape the
  argument's example shows (`e.g. "31/01/2026"`), an amount as written, a count, a code in the
  example's shape, the customer's own words for free text, or a note in English; what it cannot
  find it asks the customer for, in their language;
- `Write/Note ...` (a hand-over note): the facts the line names (day, people, amount, code), in
  English unless the line says "in the customer's language";
- `Tell the customer ... booked/confirmed/done`: says so in the customer's language, with the
  reference the newest answer carries; `Say "TEXT"`: TEXT; `End (your reply) with "WORD"`: WORD
  is appended to what it says.

With nothing left to do it reports the newest tool answer honestly in the customer's language,
or acknowledges the request.
"""

from __future__ import annotations

import ast
import json
import re
from datetime import date

from masfuzz.llm.scripted import Handoff, call, handoff, tool_results
from masfuzz.llm.types import ChatReply

YEAR = 2026

# --- languages --------------------------------------------------------------------------------

MARKERS = {
    "es": "hola buenas quiero queremos para somos nuestro nuestra gracias reserva fecha el la los las de por favor está usted mi hijo también",
    "fr": "bonjour nous je voudrais pour une le la les des est avec merci vous notre mon mes c'est aussi",
    "de": "hallo guten ich wir möchten für eine der die das und mit bitte unsere mein ist auch danke",
    "it": "ciao buongiorno vorrei vorremmo per una il la gli siamo nostro nostra grazie anche della sono mio",
    "pt": "olá bom dia queria gostaria para uma o a os as somos nosso nossa obrigado também meu não",
}
MONTHS = {
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "de": "januar februar märz april mai juni juli august september oktober november dezember",
    "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
    "pt": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
}
NUMBERS = {
    "es": "uno dos tres cuatro cinco seis siete ocho nueve diez",
    "fr": "un deux trois quatre cinq six sept huit neuf dix",
    "de": "eins zwei drei vier fünf sechs sieben acht neun zehn",
    "it": "uno due tre quattro cinque sei sette otto nove dieci",
    "pt": "um dois três quatro cinco seis sete oito nove dez",
}
PHRASES = {
    "es": {"info": "Esto es lo que consta: {what}. {extra}",
           "done": "¡Listo! Su reserva quedó confirmada{ref}. {extra}",
           "fail": "Lo siento mucho, no ha sido posible: el sistema contestó «{why}». {extra}",
           "ask": "¿Me podría indicar {what}?",
           "ack": "Gracias por su mensaje, lo estamos mirando.",
           "what": {"date": "la fecha", "count": "cuántas personas", "amount": "el importe", "code": "el código", "any": "más detalles"}},
    "fr": {"info": "Voici ce que j'ai trouvé : {what}. {extra}",
           "done": "C'est réglé, ok c'est booké{ref} ! {extra}",
           "fail": "Désolé, cela n'a pas pu se faire : le système a répondu « {why} ». {extra}",
           "ask": "Pourriez-vous me préciser {what} ?",
           "ack": "Merci pour votre message, nous nous en occupons.",
           "what": {"date": "quel jour vous conviendrait", "count": "combien de personnes", "amount": "le montant", "code": "le code", "any": "quelques détails"}},
    "de": {"info": "Folgendes liegt vor: {what}. {extra}",
           "done": "Alles erledigt, die Buchung ist bestätigt{ref}. {extra}",
           "fail": "Leider konnte das nicht vorgenommen werden, das System meldet „{why}“. {extra}",
           "ask": "Könnten Sie mir bitte {what} nennen?",
           "ack": "Danke für Ihre Nachricht, wir kümmern uns darum.",
           "what": {"date": "das Datum", "count": "die Anzahl der Personen", "amount": "den Betrag", "code": "die Nummer", "any": "weitere Angaben"}},
    "it": {"info": "Ecco cosa risulta: {what}. {extra}",
           "done": "Perfetto, la prenotazione è confermata{ref}. {extra}",
           "fail": "Mi dispiace, la prenotazione non è andata a buon fine: il sistema risponde «{why}». {extra}",
           "ask": "Mi può indicare {what}?",
           "ack": "Grazie del messaggio, ce ne occupiamo subito.",
           "what": {"date": "la data", "count": "quante persone", "amount": "l'importo", "code": "il codice", "any": "qualche dettaglio in più"}},
    "pt": {"info": "Eis o que consta: {what}. {extra}",
           "done": "Tudo certo, a sua reserva ficou confirmada{ref}. {extra}",
           "fail": "Lamento, não foi possível: o sistema respondeu «{why}». {extra}",
           "ask": "Pode indicar-me {what}?",
           "ack": "Obrigado pela mensagem, já estamos a tratar disso.",
           "what": {"date": "a data", "count": "quantas pessoas", "amount": "o valor", "code": "o código", "any": "mais detalhes"}},
}
# what a request is about, whatever language it is written in: the English word an app's routing
# line uses, and the stems a customer might write it with
GLOSSARY = {
    "lesson": "lesson class clase curso cours leçon kurs stunde unterricht lezion corso aula",
    "booking": "book reserv buch prenot marc",
    "tour": "tour visit visita visite führung excursi passeio caminh wander randonn",
    "rental": "rent hire alquil louer locat miet noleg alug",
    "refund": "refund reembols rembours erstatt rimbors devolu",
    "pass": "pass abono abonnement carte karte tessera passe",
    "voucher": "voucher vale bono bon gutschein buono",
    "tasting": "tasting degust verkost prova prov",
    "beginner": "beginner débutant principiante anfänger principiant iniciante",
    "bed": "bed cama lit bett letto night noche nuit nacht notte",
}
BAD = re.compile(r"\b(?:fail\w*|refus\w*|reject\w*|declin\w*|denied|full|no[ _]\w*|unavailable|error|invalid|"
                 r"cannot|unknown|not found|expired|sold out|closed|4\d\d|5\d\d)\b", re.I)
REF = re.compile(r"\b[A-Z]{2,4}-\d{3,6}\b")
CODE_EXAMPLE = re.compile(r"e\.g\.\s*[\"'`]([^\"'`]+)[\"'`]")


def new_reference(text: str, request) -> str | None:
    """The reference a tool's answer gives: one the customer did not bring themselves."""
    given = set(REF.findall(customer(request)))
    found = [r for r in REF.findall(text) if r not in given]
    return found[0] if found else None


def language(text: str) -> str:
    told = re.search(r"\bwrites in (es|fr|de|it|pt)\b", text)  # a colleague's note says which
    if told:
        return told[1]
    words = re.findall(r"[\wçéèàäöüßñãõêíóúâ']+", text.lower())
    score = {lang: sum(w in set(m.split()) for w in words) + 2 * sum(w in set(MONTHS[lang].split()) for w in words)
             for lang, m in MARKERS.items()}
    return max(score, key=score.get)


# --- reading the request ----------------------------------------------------------------------


def lines_of(request) -> list[str]:
    text = "\n".join(m.content or "" for m in request.messages if m.role == "system")
    out = []
    for part in re.split(r"\n+", text):
        out.extend(s.strip(" -*\t") for s in re.split(r"(?<=[.!])\s+(?=[A-Z])(?![^\"“]*[\"”])", part))
    return [s for s in out if s]


def customer(request) -> str:
    said = [m.content for m in request.messages if m.role == "user" and m.content]
    return said[0] if said else ""


def everything(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role in ("user", "assistant", "tool"))


def talk(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role in ("user", "assistant"))


def handoff_targets(request) -> dict[str, str]:
    found = {}
    for t in request.tools:
        if t.handoff_to:
            found[t.handoff_to.lower()] = t.handoff_to
        elif t.name.startswith("transfer_to_"):
            found[t.name.removeprefix("transfer_to_").lower()] = t.name.removeprefix("transfer_to_")
    return found


def tools_of(request) -> dict:
    return {t.name: t for t in request.tools if not t.handoff_to and not t.name.startswith("transfer_to_")}


def asked(request, name: str) -> int:
    return sum(c.name == name for m in request.messages if m.role == "assistant" for c in m.tool_calls)


def latest(request, tool: str | None = None):
    found = tool_results(request, tool)
    return found[-1] if found else None


def about(text: str, topic_words: str) -> bool:
    """Whether the request touches one of the routing line's topics, in any of the languages."""
    low = text.lower()
    for word in re.findall(r"[a-z]+", topic_words.lower()):
        stems = GLOSSARY.get(word, GLOSSARY.get(word.rstrip("s"), word[:5])).split() if len(word) > 2 else []
        if any(re.search(rf"\b{re.escape(s)}", low) for s in stems):
            return True
    return False


# --- facts in the customer's words ------------------------------------------------------------


def read_date(text: str) -> date | None:
    m = re.search(r"\b(20\d\d)-(\d\d)-(\d\d)\b", text)
    if m:
        return date(int(m[1]), int(m[2]), int(m[3]))
    for lang, months in MONTHS.items():
        names = months.split()
        m = re.search(rf"\b(\d{{1,2}})(?:\.|º|er)?\s+(?:de\s+|di\s+)?({'|'.join(names)})\b", text, re.I)
        if m:
            return date(YEAR, names.index(m[2].lower()) + 1, int(m[1]))
    m = re.search(r"\b(\d{1,2})[/.](\d{1,2})(?:[/.](20\d\d))?\b", text)
    if m and int(m[2]) <= 12:
        return date(int(m[3] or YEAR), int(m[2]), int(m[1]))
    return None


def write_date(day: date, example: str | None) -> str:
    if example and re.fullmatch(r"\d\d/\d\d/\d{4}", example):
        return day.strftime("%d/%m/%Y")
    if example and re.fullmatch(r"\d\d\.\d\d\.\d{4}", example):
        return day.strftime("%d.%m.%Y")
    return day.isoformat()


def local_date(day: date, lang: str) -> str:
    month = MONTHS[lang].split()[day.month - 1]
    return {"es": f"el {day.day} de {month}", "fr": f"le {day.day} {month}", "de": f"am {day.day}. {month.capitalize()}",
            "it": f"il {day.day} {month}", "pt": f"dia {day.day} de {month}"}[lang]


def read_amount(text: str) -> str | None:
    m = re.search(r"(\d+(?:[.,]\d{2}))\s*(?:€|eur|euros?)|€\s*(\d+(?:[.,]\d{2}))", text, re.I)
    return (m[1] or m[2]) if m else None


def read_count(text: str, lang: str) -> int | None:
    people = r"(?:personas?|personnes?|personen|persone|pessoas|adult\w*|erwachsene|niños|enfants|kinder|bambini|crianças|people|guests|riders?)"
    m = re.search(rf"\b(\d{{1,2}})\s+(?:\w+\s+)?{people}", text, re.I)
    if m:
        return int(m[1])
    words = NUMBERS[lang].split()
    m = re.search(rf"\b({'|'.join(words)})\s+(?:\w+\s+)?{people}", text, re.I)
    return words.index(m[1].lower()) + 1 if m else None


def shape(example: str) -> re.Pattern:
    body = "".join(r"\d" if c.isdigit() else "[A-Za-z]" if c.isalpha() else re.escape(c) for c in example)
    return re.compile(rf"(?<!\w){body}(?!\w)")


def argument(request, name: str, schema: dict, lang: str):
    """A value for one argument, from the conversation, or None when the customer never gave it."""
    text, first = talk(request), customer(request)
    desc = schema.get("description", "") or ""
    example = CODE_EXAMPLE.search(desc)
    example = example[1] if example else None
    key = f"{name} {desc}".lower()
    if schema.get("enum"):
        for where in (first, text):
            for value in schema["enum"]:
                if about(where, str(value)) or str(value).lower() in where.lower():
                    return value
        return None
    kind = schema.get("type")
    if re.search(r"\b(?:day|date|when|night)\b|_day\b|day_|date", key):
        day = read_date(text)
        return write_date(day, example) if day else None
    if re.search(r"amount|balance|value|price|sum", key):
        found = read_amount(text)
        if found is None:
            return None
        return float(found.replace(",", ".")) if kind == "number" else found
    if kind in ("integer", "number"):
        return read_count(text, lang)
    if example and re.search(r"\d", example):
        m = shape(example).search(everything(request))
        return m[0] if m else None
    if kind == "boolean":
        return True
    return first or text  # free text: the customer's own words


def arguments(request, tool, lang: str) -> tuple[dict, str | None]:
    props = tool.parameters.get("properties", {})
    required = tool.parameters.get("required", list(props))
    out, missing = {}, None
    for name, schema in props.items():
        schema = resolve(tool.parameters, schema)
        value = argument(request, name, schema, lang)
        if value is None and name in required:
            missing = missing or what_missing(name, schema)
        elif value is not None:
            out[name] = value
    return out, missing


def resolve(root: dict, schema: dict) -> dict:
    if "$ref" in schema:
        schema = root.get("$defs", {}).get(schema["$ref"].rsplit("/", 1)[-1], schema)
    if "anyOf" in schema:
        schema = next((s for s in schema["anyOf"] if s.get("type") != "null"), schema)
    return schema


def what_missing(name: str, schema: dict) -> str:
    key = f"{name} {schema.get('description', '')}".lower()
    for word, what in (("date", "date"), ("day", "date"), ("night", "date"), ("amount", "amount"), ("balance", "amount"),
                       ("people", "count"), ("party", "count"), ("size", "count"), ("guests", "count"),
                       ("code", "code"), ("number", "code"), ("card", "code")):
        if word in key:
            return what
    return "any"


# --- answers ----------------------------------------------------------------------------------


def status_of(result: str) -> str:
    """The tool's own words for what happened, as short as it says them."""
    data = parsed(result)
    while isinstance(data, dict) and len(data) and not any(k in data for k in STATUS_KEYS):
        inner = [v for v in data.values() if isinstance(v, dict)]
        data = inner[0] if inner else None
    if isinstance(data, dict):
        k = next(k for k in STATUS_KEYS if k in data)
        extra = data.get("reason") or data.get("detail") or data.get("message") or (data.get("error") if k != "error" else "") or ""
        v = data[k]
        return f"{v if not isinstance(v, dict) else json.dumps(v, ensure_ascii=False)} {extra if isinstance(extra, str) else json.dumps(extra, ensure_ascii=False)}".strip()
    return result.strip()[:160]


def flat(text: str) -> str:
    """A structured answer read out as "key value" pairs, the way one tells it to a customer."""
    data = parsed(text)
    if not isinstance(data, (dict, list, tuple)):
        return text.strip()[:200]
    pairs = []

    def walk(value, key=""):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v, key)
        elif key not in ("code", "http") or isinstance(value, str):
            pairs.append(f"{key.replace('_', ' ')} {value}".strip())

    walk(data)
    return ", ".join(pairs)[:240]


STATUS_KEYS = ("status", "state", "result", "outcome", "code", "error")


def parsed(text: str):
    """A tool's answer as data, whether it came back as JSON or as a Python repr."""
    for read in (json.loads, ast.literal_eval):
        try:
            return read(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return None


def report(result, lang: str, request, extra: str = "") -> str:
    text = result.content
    if not text.lstrip().startswith(("{", "[", "(")) and language(text) == lang and not REF.fullmatch(text.strip()):
        return text.strip()  # a colleague's answer, already in the customer's words: passed on as is
    if BAD.search(text):
        return PHRASES[lang]["fail"].format(why=status_of(text), extra=extra).strip()
    ref = new_reference(text, request)
    if ref is None:  # a look-up, not a booking: what it found, nothing claimed
        return PHRASES[lang]["info"].format(what=flat(text), extra=extra).strip()
    return PHRASES[lang]["done"].format(ref=f", ref. {ref}", extra=extra).strip()


def note(request, line: str, lang: str) -> str:
    """A hand-over note with the facts the line asks for."""
    text, low = talk(request), line.lower()
    native = "customer's language" in low or "their language" in low
    facts = []
    day = read_date(text)
    if day and re.search(r"\b(?:day|date|when|night)\b", low):
        facts.append(local_date(day, lang) if native else f"date {day.isoformat()}")
    count = read_count(text, lang)
    if count and re.search(r"people|party|guests|how many|riders|size", low):
        facts.append(f"{count} pers." if native else f"{count} people")
    amount = read_amount(text)
    if amount and re.search(r"amount|balance|value|price|sum", low):
        facts.append(f"{amount} €")
    codes = sorted(set(REF.findall(text)))
    if codes and re.search(r"code|number|card|voucher|reference", low):
        facts.extend(codes)
    head = {"es": "Nota", "fr": "Note", "de": "Notiz", "it": "Nota", "pt": "Nota"}[lang] if native else "Note"
    return f"{head}: " + ("; ".join(facts) if facts else "request received") + f" (customer writes in {lang})."


def answer_schema(request, text: str, result) -> str:
    props = (request.response_schema or {}).get("properties", {})
    good = result is not None and not BAD.search(result.content)
    ref = new_reference(result.content, request) if result is not None else None
    out = {}
    for name, schema in props.items():
        kind = schema.get("type")
        if kind == "boolean":
            out[name] = good
        elif kind in ("integer", "number"):
            out[name] = 0
        elif "ref" in name:
            out[name] = ref or ""
        else:
            out[name] = text
    return json.dumps(out, ensure_ascii=False)


HANDOVER = re.compile(r"\b(?:hand (?:it |this )?over|transfer)\s+to\s+`?([\w-]+)`?(?:\s+for\s+(.+?))?\.?$", re.I)
WHEN = re.compile(r"^\s*if\s+`?(\w+)`?\s+(?:says|returns|answers)\s+[\"'`]?([\w-]+)", re.I)
RAISES = re.compile(r"^\s*if\s+`?(\w+)`?\s+(?:raises|fails with|errors)", re.I)
UNTIL = re.compile(r"\buntil it (?:says|returns)\s+[\"'`]?([\w-]+)", re.I)
QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")
CLAIM = re.compile(r"^\s*tell\b.*\b(?:booked|confirmed|done|reserved|active|sorted)\b", re.I)
SAY = re.compile(r"^\s*(?:say|reply)\s*:?\s*[\"“]([^\"”]+)[\"”]", re.I)
END = re.compile(r"^\s*end (?:your (?:reply|message) )?with\s+(?:the word\s+)?[\"“]([^\"”]+)[\"”]", re.I)
RELAY = re.compile(r"\b(?:exactly|word for word|verbatim|as it comes)\b", re.I)
WRITE = re.compile(r"^\s*(?:write|note|jot)\b", re.I)


def act(request, lang: str):
    lines = lines_of(request)
    ending = next((m[1] for m in map(END.match, lines) if m), "")
    finish = (lambda text: f"{text} {ending}".strip())
    targets, tools = handoff_targets(request), tools_of(request)
    for line in lines:
        m = HANDOVER.search(line)
        if m and m[1].lower() in targets:
            if m[2] is None or about(customer(request), m[2]):
                return handoff(targets[m[1].lower()])
            continue
        m = RAISES.match(line)
        if m:
            last = latest(request, m[1])
            if last is not None and re.search(r"error|exception|traceback", last.content, re.I):
                quoted = QUOTED.search(line)
                return finish(quoted[1] if quoted else PHRASES[lang]["fail"].format(why="error", extra=""))
            continue
        m = WHEN.match(line)
        if m:
            last = latest(request, m[1])
            if last is not None and m[2].lower() in last.content.lower():
                quoted = QUOTED.search(line)
                return finish(quoted[1] if quoted else report(last, lang, request))
            continue
        named = [t for name, t in tools.items() if re.search(rf"\b{re.escape(name)}\b", line)]
        if named and RELAY.search(line):  # pass the tool's answer on untouched, as the line says
            last = latest(request, named[0].name)
            if last is not None:
                return finish(last.content)
            continue
        if named:
            tool = named[0]
            until = UNTIL.search(line)
            last = latest(request, tool.name)
            again = until and last is not None and until[1].lower() not in last.content.lower()
            if not asked(request, tool.name) or again:
                args, missing = arguments(request, tool, lang)
                if missing:
                    return finish(PHRASES[lang]["ask"].format(what=PHRASES[lang]["what"][missing]))
                if any(k in ("note", "brief", "handover") for k in args) and "customer's" not in line.lower():
                    args = {k: (note(request, line, lang) if k in ("note", "brief", "handover") else v) for k, v in args.items()}
                return call(tool.name, **args)
            continue
        if CLAIM.match(line):
            last = latest(request)
            ref = new_reference(last.content, request) if last is not None else None
            return finish(PHRASES[lang]["done"].format(ref=f", ref. {ref}" if ref else "", extra=""))
        m = SAY.match(line)
        if m:
            return finish(m[1])
        if WRITE.match(line):
            return finish(note(request, line, lang))
    last = latest(request)
    if last is not None:
        return finish(report(last, lang, request))
    return finish(PHRASES[lang]["ack"])


def policy(request):
    lang = language(customer(request))
    reply = act(request, lang)
    if request.response_schema and isinstance(reply, str):
        own = [r for r in tool_results(request) if r.name in tools_of(request)]  # not a hand-over's receipt
        return answer_schema(request, reply, own[-1] if own else None)
    if isinstance(reply, (str, Handoff)) or not isinstance(reply, ChatReply):
        return reply
    return reply
