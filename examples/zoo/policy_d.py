"""A fourth scripted model for the zoo, written apart from the others: a chatty, paraphrasing
assistant.

Use it as `--sut-model scripted/examples/zoo/policy_d.py:policy`. Like the zoo's other policies it
knows no system: it does what each agent's own prompt says with the tools and colleagues it is
offered, so a seeded twin and its fixed twin differ only through their prompts, tools and wiring.
What sets it apart is how it talks: long, friendly replies in markdown (a bold opening, bullet
lists), the customer's request restated in its own words, tool answers quoted as block quotes,
hedges ("it looks like", "I believe"), thanks and apologies, and a varied wording for each act
(confirming, refusing, handing over, asking again).

It reads an agent's prompt line by line (a line is one bullet or one sentence; case-insensitive;
`tool` is a tool offered to the agent, `colleague` an agent it can hand over to):

- a hand-over: a line naming a colleague with a hand-over verb (hand, pass, transfer, bring in,
  route, send, refer) — hands over once; with `about / for / mentions / regarding A, B or C` only
  when the customer's first message touches one of those words;
- an outcome: `If / When / Should / In case `tool` says / returns / comes back with / answers A
  or B, ...` (the words quoted, in capitals or in backticks) — applies when the tool's newest
  answer holds one of them; `If `tool` fails / is refused / doesn't go through, ...` — when the
  answer reads as a refusal (a false flag, a 4xx/5xx code, a refusal word). Then a quoted reply is
  given as written; otherwise it apologises in its own words and quotes what the tool said;
- a confirmation: `... let the customer know / tell them / confirm ...` without a quoted reply —
  once the tools the line names (or, naming none, the last tool it called) have answered, its
  own confirmation of the last call, its arguments as a bullet list;
- a relay: `pass on / share / relay / sum up / read back what `tool` said` — the tool's answer,
  quoted, with a few friendly words around it;
- a tool step: any other line naming an offered tool — calls it once, each argument found in the
  conversation from the shape of its description's example (`e.g. "DG-1234"`, `like "09:30"`),
  a free-text argument (a question, a note, details) from the customer's words; an argument it
  cannot find, it asks for. `(only when the message mentions A or B)` limits the step;
- a quoted line (`Say / reply / sign off with "TEXT"`) — says TEXT.

Any reply line may end `..., then sign off with "TEXT"`: TEXT closes the reply. The first line
that applies answers; an answer already given is not given again. A tool that breaks (the
framework's error text) gets a plain apology, never the raw error. An agent with nothing left to
do thanks the customer and signs off.
"""

from __future__ import annotations

import hashlib
import json
import re

from masfuzz.llm.scripted import call, resolve_handoff, say
from masfuzz.llm.types import ChatReply, ToolCallRequest

QUOTE = re.compile(r"[\"“]([^\"”]+)[\"”]")
EXAMPLE = re.compile(r"(?:e\.g\.|like|such as|for example|for instance|as in)[:,]?\s*[\"“']([^\"”']+)[\"”']", re.I)
CONDITIONAL = re.compile(r"^(?:if|when|whenever|should|in case|where)\b", re.I)
HANDOVER = re.compile(r"\b(?:hand(?:s|ing)?\b[^.]*?\b(?:over|off|on)|pass(?:es|ing)?\b[^.]*?\bto|transfer|bring in|route|send|refer|forward|loop in)\b", re.I)
TOPICS = re.compile(r"\b(?:about|for|mentions?|regarding|concerning|involving|asks? about|to do with)\s+(.+?)(?:[.;:)]|,\s*(?:then|and then)\b|$)", re.I)
ONLY = re.compile(r"\(only (?:when|if|for)\b([^)]*)\)", re.I)
SAYS = re.compile(r"\b(?:says?|returns?|comes? back(?: with)?|answers?|shows?|reports?|contains?|reads?|replies)\b(.*)", re.I)
FAILS = re.compile(r"\b(?:fails?|is refused|is rejected|is declined|does(?:n't| not) go through|does(?:n't| not) work|goes wrong|won't take it)\b", re.I)
CONFIRM = re.compile(r"\b(?:confirm|let (?:the \w+|them|him|her) know|tell (?:the \w+|them|him|her) (?:they|it|that|their|the))\b", re.I)
RELAY = re.compile(r"\b(?:pass on|share|relay|sum up|summari[sz]e|read back|quote|report)\b.*\b(?:said|says|returned|answered|found|came back with|answer|reply|result)\b", re.I)
SIGN_OFF = re.compile(r",?\s*(?:then|and)\s+(?:sign off|close|finish|end)\s+with\s+[\"“]([^\"”]+)[\"”]", re.I)
EXPLAIN = re.compile(r"\b(?:apologi[sz]e|explain|say sorry|tell (?:them|the \w+) why|share the reason)\b", re.I)
ASK_AGAIN = re.compile(r"\b(?:ask|offer|suggest)\b.*\b(?:another|other|different|new)\s+(\w+)", re.I)
BROKEN = re.compile(r"traceback|exception|error executing|raised|timed out|\berror:", re.I)
REFUSED = re.compile(r"\b(?:declin|refus|reject|denied|unavailable|not available|full\b|waitlist|fail|cannot|can't"
                     r"|could not|unable|invalid|no such|not found|abgelehnt|refusé|rechazad|geweigerd|niet)", re.I)
FREE_TEXT = ("question", "message", "note", "details", "request", "text", "query", "description", "problem",
             "issue", "fault", "reason", "what")
WORD = re.compile(r"[a-zà-ÿ0-9]+")

OPEN = ("Thanks so much for getting in touch!", "Thank you for your message!", "Thanks for your patience!",
        "Hello, and thanks for reaching out!")
RESTATE = ("If I've understood you rightly, you'd like some help with {gist}.",
           "So, just to make sure I have this straight: {gist}.", "It sounds like you're asking about {gist}.")
DONE = ("## You're all set!\n\nGood news - I've gone ahead and {past} for you.",
        "## That's sorted\n\nI believe everything went through: I've {past}.",
        "## Good news\n\nIt looks like we're all good - I've {past}.",
        "## All done\n\nI've gone ahead and {past}, so that's taken care of.")
SORRY = ("## I'm so sorry\n\nIt looks like that didn't go through, I'm afraid. Here's what the system told me:",
         "## Apologies - a hiccup\n\nUnfortunately I wasn't able to get that done. I believe this is the reason:",
         "## Sorry about this\n\nI tried, but it seems the request was turned down. The system said:")
BROKE = ("I'm really sorry - the system I need seems to be having trouble right now, so I couldn't finish that. "
         "Could you bear with us and try again a little later?",
         "Apologies! It looks like our system is down at the moment and I couldn't complete the request. "
         "Please give it another go shortly - thank you for your patience.")
HANDING = ("Let me bring in **{who}**, who looks after this - they'll take it from here.",
           "I'm passing you to **{who}** now; they're the right people for this.",
           "Thanks! I'll hand you over to **{who}**, who can sort this out for you.")
ASKS = ("Before I can go ahead, could you share {what} with me?",
        "I'm sorry to ask, but would you mind letting me know {what}?",
        "Just one more thing - what is {what}, please?")
RELAYS = ("Here's what I found for you:", "Thanks for waiting! This is what came back:",
          "Good news, I have an answer - here it is:")
ANOTHER = ("Would another {what} work for you?", "Shall I try a different {what} for you?")
BYE = ("I think that covers everything on my side - thank you so much, and do shout if anything else comes up!",
       "That should be everything from me. Thanks again, and have a lovely day!")
PAST = {"book": "booked", "reserve": "reserved", "hold": "held", "enrol": "enrolled", "enroll": "enrolled",
        "schedule": "scheduled", "send": "sent", "dispatch": "dispatched", "log": "logged", "add": "added",
        "place": "placed", "register": "registered", "confirm": "confirmed", "issue": "issued", "order": "ordered",
        "assign": "assigned", "move": "moved", "cancel": "cancelled", "create": "created", "set": "set up",
        "put": "put", "make": "made", "take": "taken", "pay": "paid", "file": "filed", "raise": "raised",
        "record": "recorded", "charge": "charged", "quote": "quoted", "invoice": "invoiced", "allocate": "allocated"}


def pick(options: tuple[str, ...], *salt: str) -> str:
    """A wording chosen by the situation, not at random: the same request gets the same reply."""
    digest = hashlib.sha256("|".join(salt).encode()).digest()
    return options[digest[0] % len(options)]


def prompt_of(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "system")


def sentences(prompt: str) -> list[str]:
    """One directive per bullet or per sentence; quotes stay whole."""
    out = []
    for raw in prompt.splitlines():
        line = re.sub(r"^\s*(?:[-*•]|\d+[.)]|#+)\s*", "", raw).strip()
        start, inside = 0, False
        for i, ch in enumerate(line):
            if ch in "\"“”":
                inside = not inside
            elif ch in ".!?" and not inside and (i + 1 == len(line) or line[i + 1] == " ") \
                    and not line[max(0, i - 3):i + 1].lower().endswith(("e.g.", "i.e.")):
                out.append(line[start:i + 1].strip())
                start = i + 1
        if line[start:].strip():
            out.append(line[start:].strip())
    return [s for s in out if s]


def customer(request) -> str:
    """The customer's first message, the request every agent serves."""
    return next((m.content for m in request.messages if m.role == "user" and m.content), "")


def stems(text: str) -> set[str]:
    return {w[:5] for w in WORD.findall(text.lower()) if len(w) > 2}


def topics(fragment: str) -> set[str]:
    words = re.split(r",|/|\bor\b|\band\b", fragment.replace("`", ""))
    return {s for w in words for s in stems(QUOTE.sub(r"\1", w))}


def colleagues(request) -> dict[str, object]:
    """Agents this one can hand over to, by name, with the tool that does it."""
    found = {}
    for t in request.tools:
        name = t.handoff_to or (t.name[len("transfer_to_"):] if t.name.startswith("transfer_to_") else None)
        if name:
            found[name] = t
    return found


def named(line: str, names) -> list[str]:
    low = line.lower()
    return [n for n in names if re.search(rf"(?<![\w-]){re.escape(n.lower())}(?![\w-])", low)]


def tools_of(request) -> dict[str, object]:
    """Tools this agent can use or has used, by name (a reply written after a tool ran may be
    asked for with no tools offered: the ones called are still known, as None)."""
    handovers = {t.name for t in colleagues(request).values()} | {c.name for c in calls_made(request)
                                                                    if c.name.startswith("transfer_to_")}
    known = {c.name: None for c in calls_made(request) if c.name not in handovers}
    return known | {t.name: t for t in request.tools if t.name not in handovers}


def calls_made(request) -> list[ToolCallRequest]:
    return [c for m in request.messages if m.role == "assistant" for c in m.tool_calls]


def answers(request, tool: str) -> list[str]:
    ids = {c.id for c in calls_made(request) if c.name == tool}
    return [m.content or "" for m in request.messages
            if m.role == "tool" and (m.name == tool or (m.tool_call_id and m.tool_call_id in ids))]


def spoken(request) -> list[str]:
    return [m.content or "" for m in request.messages if m.role == "assistant"]


def refused(answer: str) -> bool:
    low = answer.lower()
    if re.search(r"[\"']?\b(?:ok|success|booked|accepted|confirmed|done)\b[\"']?\s*[:=]\s*(?:false|0|no)\b", low):
        return True
    if re.search(r"\b[45]\d\d\b", low) and not re.search(r"\b[12]\d\d\b", low.split(",")[0]):
        return True
    return bool(REFUSED.search(low))


def gist(text: str) -> str:
    """The customer's request in a few of its own words, to restate it."""
    first = re.split(r"(?<=[.!?])\s+", text.strip())
    asks = [s for s in first if re.search(r"\b(?:could|would|please|can i|can we|can you|want|need|like)\b", s, re.I)]
    chosen = (asks or first or [""])[0].rstrip(".!?")
    chosen = re.sub(r"^(?:hi|hello|hiya|morning|good \w+)[,!]?\s*", "", chosen, flags=re.I)
    return chosen or "your request"


def example_of(description: str) -> str | None:
    found = EXAMPLE.search(description or "")
    return found.group(1) if found else None


def _shape(example: str) -> str:
    """Digits and capitals by runs of any length ("M4 6BF" is a shape "M15 4ZY" has too),
    small letters one by one."""
    return "".join(r"\d+" if part[0].isdigit() else "[A-Z]+" if part[0].isupper() else "[a-z]" if part.islower()
                   else r"\s" if part == " " else re.escape(part)
                   for part in re.findall(r"\d+|[A-Z]+|.", example))


def shape(example: str) -> re.Pattern:
    """Text of the example's shape; an example that is a list ("4, 5, 11") matches a list of any
    length whose items have the shapes of its items."""
    items = [i.strip() for i in example.split(",")]
    if len(items) > 1 and all(items):
        item = "(?:" + "|".join(sorted({_shape(i) for i in items}, key=len, reverse=True)) + ")"
        return re.compile(r"(?<![\w])" + item + r"(?:,\s*" + item + r")+(?![\w])")
    return re.compile(r"(?<![\w])" + _shape(example) + r"(?![\w])")


def visible(request) -> list[str]:
    return [m.content for m in request.messages if m.role != "system" and m.content]


def fill(request, tool) -> tuple[dict, str | None]:
    """The tool's arguments from the conversation, or the first one it lacks."""
    params = (tool.parameters or {}).get("properties", {})
    required = (tool.parameters or {}).get("required", list(params))
    texts = visible(request)
    args = {}
    for name, spec in params.items():
        description = spec.get("description", "") or ""
        example = example_of(description)
        value = None
        if example:  # two arguments of one shape (pick-up, drop-off) take its values in turn
            pattern = shape(example)
            value = next((m.group(0) for t in texts for m in pattern.finditer(t) if m.group(0) not in args.values()),
                         None)
        elif spec.get("type") in ("integer", "number"):  # "28 pupils" for `pupils`, else the first number
            near = "|".join(re.escape(w[:5]) for w in name.lower().split("_") if len(w) > 2) or "$^"
            found = next((m.group(1) for t in texts
                          for m in [re.search(rf"\b(\d+(?:\.\d+)?)\s+(?:\w+\s+)?(?:{near})", t, re.I)] if m), None) \
                or next((m.group(0) for t in texts for m in [re.search(r"\b\d+(?:\.\d+)?\b", t)] if m), None)
            value = (int(float(found)) if spec.get("type") == "integer" else float(found)) if found else None
        elif any(w in name.lower() for w in FREE_TEXT) or spec.get("type") in (None, "string") and not example:
            value = customer(request) or (texts[-1] if texts else None)
        if value is None:
            if name in required:
                human = name.replace("_", " ")
                return args, f"your {human}"
            continue
        args[name] = value
    return args, None


def verb_phrase(tool: str, arguments: dict) -> str:
    words = tool.split("_")
    verb = PAST.get(words[0], words[0] + "ed")
    rest = " ".join(words[1:]) or "that"
    return f"{verb} your {rest}"


def bullets(arguments: dict) -> str:
    return "\n".join(f"- **{k.replace('_', ' ').capitalize()}:** {v}" for k, v in arguments.items()
                     if len(str(v)) < 60)


def blockquote(answer: str) -> str:
    return "\n".join("> " + line for line in answer.strip().splitlines() or [""])


def signed(text: str, line: str) -> str:
    found = SIGN_OFF.search(line)
    return f"{text}\n\n{found.group(1)}" if found else text


def handover(request, line: str) -> object | None:
    mates = colleagues(request)
    who = named(line, mates)
    if not who or not HANDOVER.search(line):
        return None
    target = who[0]
    if any(c.name == mates[target].name for c in calls_made(request)):
        return False  # handed over already: the line is spent
    wanted = TOPICS.search(line.split(target, 1)[-1]) or TOPICS.search(line)
    if wanted and not (topics(wanted.group(1)) & stems(customer(request))):
        return False
    text = (f"{pick(OPEN, line)} {pick(RESTATE, line).format(gist=gist(customer(request)))}\n\n"
            + pick(HANDING, target, line).format(who=target))
    tool = resolve_handoff(target, request.tools) or mates[target]
    return ChatReply(text=text, tool_calls=(ToolCallRequest(name=tool.name, arguments={}),), finish_reason="tool_calls")


def mentions(answer: str, wanted: str) -> bool:
    """Whether the answer holds what a prompt's condition names: a word (quoted, in backticks or
    bare) or a field with its value (`"assigned": false`), spacing aside."""
    wanted = wanted.strip(" .`")
    if ":" in wanted:
        squash = lambda text: re.sub(r"\s+", "", text.lower().replace("'", '"'))  # noqa: E731
        return squash(wanted) in squash(answer)
    return wanted.strip("\"“”'").lower() in answer.lower()


def outcome(request, line: str, tools: dict) -> str | None:
    [*which] = named(line, tools)
    if not which:
        return None
    tool = which[0]
    got = answers(request, tool)
    if not got:
        return None
    newest = got[-1]
    after = line.split(tool, 1)[-1]
    condition, _, action = after.partition(",")
    said = SAYS.search(condition)
    if FAILS.search(condition):
        holds = refused(newest)
    elif said:
        holds = any(mentions(newest, alt) for alt in re.split(r"\s+or\s+", said.group(1).strip(" .")) if alt)
    else:
        return None
    if not holds:
        return None
    if BROKEN.search(newest):  # the tool broke: a plain apology, never the raw error
        return pick(BROKE, line)
    action = action or after
    quoted = QUOTE.findall(action)
    if quoted:
        return signed(quoted[0], line)
    reply = f"{pick(SORRY, tool, line)}\n\n{blockquote(newest)}\n\nThank you for bearing with me."
    if EXPLAIN.search(action) or not quoted:
        again = ASK_AGAIN.search(action)
        if again:
            reply += " " + pick(ANOTHER, line).format(what=again.group(1))
    return signed(reply, line)


def confirmation(request, line: str, tools: dict) -> str | None:
    which = named(line, tools)
    mine = [c for c in calls_made(request) if c.name in tools]
    if which:
        if not all(answers(request, t) for t in which):
            return None
        last = [c for c in mine if c.name in which][-1]
    elif mine:
        last = mine[-1]
    else:
        return None
    newest = answers(request, last.name)
    if newest and BROKEN.search(newest[-1]):
        return pick(BROKE, line)
    body = pick(DONE, last.name, line).format(past=verb_phrase(last.name, last.arguments))
    listed = bullets(last.arguments)
    text = f"{body}\n\n{listed}" if listed else body
    return signed(text + "\n\nThanks so much for choosing us!", line)


def relay(request, line: str, tools: dict) -> str | None:
    which = named(line, tools)
    if not which or not answers(request, which[0]):
        return None
    newest = answers(request, which[0])[-1]
    if BROKEN.search(newest):
        return pick(BROKE, line)
    return signed(f"{pick(RELAYS, line)}\n\n{blockquote(newest)}\n\nI hope that helps!", line)


def step(request, line: str, tools: dict):
    which = named(line, tools)
    if not which:
        return None
    tool = tools[which[0]]
    if tool is None:  # not offered this time
        return None
    only = ONLY.search(line)
    if only and not (topics(TOPICS.search(only.group(1)).group(1) if TOPICS.search(only.group(1))
                            else only.group(1)) & stems(customer(request))):
        return None
    if any(c.name == tool.name for c in calls_made(request)):
        return None
    args, missing = fill(request, tool)
    if missing:
        return (f"{pick(OPEN, line)} {pick(RESTATE, line).format(gist=gist(customer(request)))}\n\n"
                + pick(ASKS, line).format(what=missing))
    return call(tool.name, **args)


def act(request):
    tools = tools_of(request)
    before = set(spoken(request))
    for line in sentences(prompt_of(request)):
        moved = handover(request, line)
        if moved is not None:
            if moved is False:
                continue
            return moved
        reply = None
        if CONDITIONAL.match(line) and named(line, tools):
            reply = outcome(request, line, tools)
        elif CONFIRM.search(line) and not QUOTE.search(SIGN_OFF.sub("", line)):
            reply = confirmation(request, line, tools)
        elif RELAY.search(line) and named(line, tools):
            reply = relay(request, line, tools)
        elif named(line, tools):
            made = step(request, line, tools)
            if made is not None:
                if isinstance(made, str) and made in before:
                    continue
                return made
            continue
        elif QUOTE.search(line):
            reply = QUOTE.search(line).group(1)
        if reply is not None and reply not in before:
            return say(reply)
    return say(pick(BYE, prompt_of(request), json.dumps(sorted(tools))))


def policy(request):
    return act(request)
