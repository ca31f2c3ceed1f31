"""A sixth scripted model for the zoo, written apart from the others: a ReAct-style reasoning model.

Use it as `--sut-model scripted/examples/zoo/policy_f.py:policy`. Like the other policies it
knows no system of the zoo: a seeded twin and its fixed twin differ only through what their
instructions, tools and wiring give it. Its character:

- it thinks aloud before it acts, the way ReAct prompting taught models to: a call or a
  hand-over comes with its reasoning in the reply text ("Thought: the guest wants ... I should
  check the diary first.\\nAction: look_up_diary"), and a final answer sometimes keeps a short
  reasoning line above it;
- outcomes in the passive and the past tense, in its own words: "Your wedding date has been
  secured.", "The fitting went through.", "Sorted - reference attached.", "That one could not be
  arranged: ...";
- colleagues named by the role words of the line that routes to them, or by their names as the
  app gives them, with or without underscores ("night desk", "front_2");
- missing particulars asked for as numbered questions, one per particular;
- literal: it reads an agent's instructions sentence by sentence, in order, and the first one
  that applies answers, a wrong instruction included.

What a sentence can say (a TOOL is a tool the agent is offered, a COLLEAGUE an agent it can hand
over to, named as the app names it, underscores or spaces alike):

- a topic, `about/concerning/regarding/involving A, B or C` or `when ... mentions A, B or C`:
  the sentence applies only when the customer's message shares a word stem with one of them;
- a hand-over, a COLLEAGUE with a verb such as hand, pass, send, route, transfer, refer, bring
  in: hands over, once (to `user` too, where a team offers that);
- an outcome, a sentence opening with If/When/Should/Where/Whenever about a TOOL that
  `says/returns/answers/reports/shows/comes back with W1 or W2` (its newest answer holds one of
  the words) or that `fails/errors/raises/breaks` (its newest answer reads as a failure or is the
  framework's error text): a quoted reply is said as written, `word for word` relays the
  answer, anything else explains the answer's reason in its own words;
- a relay, `pass on / read out / relay what TOOL says ... word for word (verbatim, exactly)`:
  once TOOL has answered, says that answer and nothing else;
- a poll, `... TOOL until it says WORD`: calls TOOL again while its newest answer lacks WORD;
- any other sentence naming a TOOL: calls it once, its arguments found in the conversation by
  the shape of the example their descriptions give (`e.g. "RF-00000"`, `like "205/55 R16"`), an
  enum by the words the message shares with each value, a count by the number before a word
  of its description, a free-text parameter (message, request, input, details, note, query) as
  the customer's own words; what it cannot find, it asks for;
- a closing: `Confirm X ...` confirms X in the passive past once the agent's own tools have
  answered (a reference from the answer attached); `Reply/Say/Sign off/End with "TEXT"` says
  TEXT; `Write/Note/Sum up ... on A and B` writes a note of the customer's sentences about A or
  B; `pass/hand/refer ... to the X` with no colleague to hand to says so in words.

With no sentence left to apply it reports its newest tool answer in its own words (a failure
as a failure, with its reason), or signs off. Asked for a response schema, it fills each field
from the conversation.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from dataclasses import dataclass, field

from masfuzz.llm.scripted import call, say, tool_results
from masfuzz.llm.types import ChatReply

STOP = {"the", "a", "an", "and", "or", "of", "to", "for", "in", "on", "with", "is", "are", "be", "it", "its",
        "this", "that", "any", "anything", "request", "requests", "message", "customer", "please", "if", "by",
        "from", "as", "at", "what", "when", "their", "they", "them", "you", "your", "our", "we", "i", "my"}
HANDOVER = re.compile(r"\b(?:hand|pass|send|sent|route|transfer|refer|forward|escalat)\w*\b|\bbring in\b|"
                      r"\bgo(?:es)? to\b", re.I)
CONDITION = re.compile(r"^(if|when|should|where|whenever|in case)\b", re.I)
SAYS = re.compile(r"\b(?:says|returns|answers|reports|shows|comes back with|gives|replies)\s+(.+)", re.I)
FAILS = re.compile(r"\b(fails|errors|raises|breaks|goes wrong|is down|cannot|does not go through)\b", re.I)
VERBATIM = re.compile(r"word for word|verbatim|exactly|as it stands|unchanged", re.I)
RELAY = re.compile(r"\b(pass on|read|relay|quote|give|tell|repeat)\b", re.I)
TOPIC = re.compile(r"\b(?:about|concerning|regarding|involving|mentions|mentioning)\s+(.+)", re.I)
TOPIC_END = re.compile(r"[.;:]|\s[-\u2014]\s|\b(go|goes|is|are|should|use|with|to|hand|pass|send|route|bring)\b", re.I)
EXAMPLE = re.compile(r'(?:e\.g\.|eg\.?|like|for example|such as)\s*[:,]?\s*["\u201c]([^"\u201d]+)["\u201d]', re.I)
FREE = re.compile(r"message|request|input|details|note|query|question|brief|task|description", re.I)
QUOTED = re.compile(r'"([^"]+)"')
FAILURE_WORDS = re.compile(r"\b(error|refused|declined|rejected|denied|full|unavailable|invalid|failed|cannot|"
                           r"not|no|closed|clash|conflict|taken)\b", re.I)
ERROR_TEXT = re.compile(r"\berror\b|traceback|exception|raised|\b[A-Z][a-z]+Error\b", re.I)
PARTICIPLES = ("secured", "locked in", "put through", "booked in", "taken care of", "sorted")
OK_KEYS = re.compile(r"^(ok|success|confirmed|booked|held|done|accepted|assigned|fitted|approved)$", re.I)
CODE_KEYS = re.compile(r"^(http|status|code|status_code)$", re.I)


def pick(options, *salt) -> str:
    """One of `options`, the same for the same conversation: varied wording, reproducible runs."""
    digest = hashlib.sha256("|".join(map(str, salt)).encode()).digest()
    return options[digest[0] % len(options)]


def stem(word: str) -> str:
    word = word.lower()
    for suffix in ("ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def stems(text: str) -> set[str]:
    return {stem(w) for w in re.findall(r"[A-Za-z]+", text) if w.lower() not in STOP and len(w) > 2}


def words(name: str) -> str:
    return name.replace("_", " ").strip()


# --- reading the request ---------------------------------------------------------------------


def instructions(request) -> str:
    return "\n".join(m.content or "" for m in request.messages if m.role == "system")


def customer(request) -> str:
    """The message the agent works for: the first a user (or whoever stands in for one) sent."""
    for m in request.messages:
        if m.role == "user" and (m.content or "").strip():
            return m.content
    return ""


def seen_texts(request) -> list[str]:
    """What the conversation gives to find a value in: user and assistant texts first, then tool
    answers."""
    said = [m.content for m in request.messages if m.role in ("user", "assistant") and m.content]
    return said + [m.content for m in request.messages if m.role == "tool" and m.content]


def colleagues(request) -> dict[str, str]:
    """Agents this one can hand over to, by name."""
    found = {}
    for t in request.tools:
        name = t.handoff_to or (t.name[len("transfer_to_"):] if t.name.startswith("transfer_to_") else None)
        if name:
            found[name] = t.name
    return found


def own_tools(request) -> dict:
    handoffs = set(colleagues(request).values())
    return {t.name: t for t in request.tools if t.name not in handoffs}


def newest(request, tool: str) -> str | None:
    answers = tool_results(request, tool)
    return answers[-1].content if answers else None


def last_call(request, tool: str):
    calls = [c for m in request.messages if m.role == "assistant" for c in m.tool_calls if c.name == tool]
    return calls[-1] if calls else None


def named(sentence: str, name: str) -> bool:
    spaced = re.escape(words(name)).replace(r"\ ", r"[\s_]")
    return re.search(rf"(?<![\w-])(?:{re.escape(name)}|{spaced})(?![\w-])", sentence, re.I) is not None


# --- the instructions, sentence by sentence -----------------------------------------------------


@dataclass
class Sentence:
    text: str
    quotes: list[str] = field(default_factory=list)

    @property
    def topics(self) -> list[set[str]]:
        m = TOPIC.search(self.text)
        if not m:
            return []
        phrase = TOPIC_END.split(m.group(1))[0]
        items = re.split(r",|\bor\b|\band\b|/", phrase)
        return [s for s in (stems(i) for i in items) if s]

    def concerns(self, request) -> bool:
        topics = self.topics
        mine = stems(customer(request))
        return not topics or any(t & mine for t in topics)


def sentences(text: str) -> list[Sentence]:
    found = []
    for line in text.splitlines():
        line = re.sub(r"^\s*(?:[-*\u2022]|\d+[.)])\s*", "", line).strip()
        quotes = QUOTED.findall(line)
        masked = QUOTED.sub(lambda m: f"\"{{{quotes.index(m.group(1))}}}\"", line)
        for part in re.split(r"(?<=[.!?])\s+(?=[A-Z])", masked):
            if part.strip():
                kept = [quotes[int(i)] for i in re.findall(r'"\{(\d+)\}"', part)]
                found.append(Sentence(re.sub(r'"\{(\d+)\}"', lambda m: f'"{quotes[int(m.group(1))]}"', part), kept))
    return found


# --- tool answers ------------------------------------------------------------------------------


def parsed(answer: str):
    for load in (json.loads, ast.literal_eval):
        try:
            return load(answer)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return answer


def leaves(value, key: str = ""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, str(k))
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from leaves(v, key if i else key or "first")
    else:
        yield key, value


def broken(answer: str) -> bool:
    return bool(ERROR_TEXT.search(answer)) and not isinstance(parsed(answer), (dict, list, tuple))


def failed(answer: str) -> bool:
    if broken(answer):
        return True
    for key, value in leaves(parsed(answer)):
        flag, code = OK_KEYS.match(key) or key == "first", CODE_KEYS.match(key) or key == "first"
        if isinstance(value, bool) and flag and not value:
            return True
        if isinstance(value, int) and not isinstance(value, bool) and value >= 400 and code:
            return True
        if isinstance(value, str) and FAILURE_WORDS.search(value) and (flag or code or key in ("state", "result")):
            return True
    return False


def reason(answer: str) -> str:
    """The answer's own words for what happened, longest text first."""
    texts = [(k, v) for k, v in leaves(parsed(answer)) if isinstance(v, str)]
    if not texts:
        return answer.strip()
    texts.sort(key=lambda kv: -len(kv[1]))
    states = [f"{k}: {v}" for k, v in texts if len(v) < 24 and v != texts[0][1]]
    return texts[0][1] + (f" ({'; '.join(states)})" if states else "")


def reference(answer: str) -> str | None:
    for key, value in leaves(parsed(answer)):
        if re.search(r"ref|reference|booking|confirmation|job|ticket", key, re.I) and isinstance(value, (str, int)):
            return str(value)
    return None


# --- arguments ---------------------------------------------------------------------------------


def shape(example: str) -> re.Pattern:
    parts = []
    for run in re.findall(r"\d+|[A-Z]+|[a-z]+|\s+|.", example):
        if run.isdigit():
            parts.append(rf"\d{{{len(run)}}}")
        elif run.isalpha():
            cls = "[A-Z]" if run.isupper() else "[a-z]" if run.islower() else "[A-Za-z]"
            parts.append(f"{cls}{{{len(run)}}}" if len(run) <= 2 else f"{cls}+")
        elif run.isspace():
            parts.append(r"\s")
        else:
            parts.append(re.escape(run))
    return re.compile(r"(?<![\w])" + "".join(parts) + r"(?![\w])")


def value_for(request, name: str, spec: dict):
    description = spec.get("description", "") or ""
    if spec.get("enum"):
        mine = stems(customer(request))
        scored = [(len(stems(str(v)) & mine), i, v) for i, v in enumerate(spec["enum"])]
        best = max(scored, key=lambda s: (s[0], -s[1]))
        return best[2] if best[0] else None
    example = EXAMPLE.search(description)
    if example:
        pattern = shape(example.group(1))
        for text in seen_texts(request):
            m = pattern.search(text)
            if m:
                return m.group(0)
        return None
    if spec.get("type") in ("integer", "number"):
        wanted = stems(description) | stems(words(name))
        for text in seen_texts(request):
            for number, first, second in re.findall(r"\b(\d+)\s+([A-Za-z]+)(?:\s+([A-Za-z]+))?", text):
                if {stem(first), stem(second)} & wanted:  # "7 climbers", "2 new tyres"
                    return int(number) if spec.get("type") == "integer" else float(number)
        return None
    if FREE.search(name) or FREE.search(description.split(".")[0]):
        return customer(request)
    return None


def schema_of(tool) -> tuple[dict, list[str]]:
    params = tool.parameters or {}
    return params.get("properties", {}), list(params.get("required", []))


def arguments(request, tool) -> tuple[dict, list[tuple[str, dict]]]:
    props, required = schema_of(tool)
    found, missing = {}, []
    for name, spec in props.items():
        value = value_for(request, name, spec)
        if value is not None:
            found[name] = value
        elif name in required:
            missing.append((name, spec))
    return found, missing


def questions(missing, request) -> str:
    lines = [pick(("Thought: I cannot go ahead yet; some details are missing.",
                   "Thought: a few particulars are missing before I can act."), customer(request))]
    lines.append(pick(("Before this can be done:", "To get this moving I need:"), customer(request)))
    for i, (name, spec) in enumerate(missing, 1):
        description = (spec.get("description") or words(name)).split(",")[0].split(" e.g.")[0].strip().rstrip(".")
        if spec.get("enum"):
            lines.append(f"{i}. Which one is it: {', '.join(map(str, spec['enum']))}?")
        else:
            asked = description if re.match(r"(how|which|what|when|where|who)\b", description, re.I) \
                else f"What is {description[0].lower() + description[1:]}"
            lines.append(f"{i}. {asked}?")
    return "\n".join(lines)


# --- what it says ------------------------------------------------------------------------------


def thought(request, action: str, why: str) -> str:
    opener = pick(("The customer wants something done", "There is a request on the table",
                   "The guest is asking for help"), customer(request), action)
    return f"Thought: {opener}; {why}\nAction: {action}"


def explain(tool: str, answer: str, request) -> str:
    if broken(answer):
        return pick(("That one could not be arranged: the system did not answer properly. It will be retried.",
                     "Nothing went through - the system broke on our side. Please bear with us."), answer)
    head = pick(("That one could not be arranged", "It did not go through", "Unfortunately it was not done"),
                answer, tool)
    return f"{head}: {reason(answer)}."


def confirm(thing: str, request, tools: dict) -> str:
    answered = [(t, newest(request, t)) for t in tools if newest(request, t) is not None]
    ref = next((r for r in (reference(a) for _, a in reversed(answered)) if r), None)
    participle = pick(PARTICIPLES, customer(request), thing)
    text = f"Your {thing} has been {participle}." if thing else pick(("Sorted.", "That went through."), thing)
    if ref:
        text += f" Reference: {ref}."
    lead = pick(("", "Thought: the tool has answered, so this can be closed.\n"), customer(request), "lead")
    return lead + text


def summary(sentence: Sentence, request) -> str:
    m = re.search(r"\b(?:on|of|about)\s+(.+)", sentence.text, re.I)
    wanted = stems(m.group(1)) if m else set()
    parts = re.split(r"(?<=[.!?])\s+", customer(request))
    kept = [p for p in parts if not wanted or stems(p) & wanted]
    return "Handover note: " + " ".join(kept)


# --- acting ------------------------------------------------------------------------------------


def outcome_words(text: str) -> list[str]:
    m = SAYS.search(text)
    if not m:
        return []
    head = re.split(r",|\bthen\b|;", m.group(1))[0]
    return [w.strip(" `'\".") for w in re.split(r"\bor\b|/", head) if w.strip(" `'\".")]


def step(s: Sentence, request, tools: dict, mates: dict):
    """What sentence `s` has the agent do now, or None when it does not apply."""
    text = s.text
    lower = text.lower()
    tool = next((t for t in tools if named(text, t)), None)
    mate = next((c for c in mates if named(text, c)), None)
    if not s.concerns(request):
        return None
    if CONDITION.match(text) and tool:  # about whichever named tool has answered
        tool = next((t for t in tools if named(text, t) and newest(request, t) is not None), tool)
        answer = newest(request, tool)
        if answer is None:
            return None
        hits = outcome_words(text)
        if hits and not any(w.lower() in answer.lower() for w in hits):
            return None
        if not hits and not (FAILS.search(text) and failed(answer)):
            return None
        if s.quotes:
            return say(s.quotes[-1])
        if VERBATIM.search(text):
            return say(answer)
        return say(explain(tool, answer, request))
    if mate and HANDOVER.search(text):
        if any(c.name == mates[mate] for m in request.messages if m.role == "assistant" for c in m.tool_calls):
            return None
        why = pick((f"this is a matter for {words(mate)}", f"{mate} handles this, not me",
                    f"{words(mate)} should take it from here"), customer(request), mate)
        return _reply(request, call(mates[mate]), why, f"hand over to {mate}")
    if tool and VERBATIM.search(text) and RELAY.search(text):  # whichever named tool has answered
        answered = [a for a in (newest(request, t) for t in tools if named(text, t)) if a is not None]
        return say(answered[-1]) if answered else None
    if tool and re.search(r"\buntil\b", lower):
        answer = newest(request, tool)
        word = (re.search(r"\buntil\b.*?\b(?:says|shows|reports|returns|reads)\s+[\"'`]?([\w-]+)", text, re.I)
                or re.search(r"\buntil\b\s+[\"'`]?([\w-]+)", text)).group(1)
        if answer is not None and word.lower() in answer.lower():
            return None
        previous = last_call(request, tool)
        if previous is not None:
            return _reply(request, call(tool, **previous.arguments), f"{tool} has not said {word} yet; again")
        return _call(tool, request, tools)
    if tool:
        return None if newest(request, tool) is not None else _call(tool, request, tools)
    if re.match(r"^(confirm|let .{0,30}know)\b", lower):
        if tools and not any(newest(request, t) is not None for t in tools):
            return None
        m = re.match(r"^confirm\s+(?:the\s+|that\s+the\s+)?(.+?)(?:\s+to\b|\s+with\b|,|\.|$)", text, re.I)
        return say(confirm(m.group(1) if m else "", request, tools))
    if s.quotes and re.match(r"^(reply|say|sign off|end|finish|answer)\b", lower):
        return say(s.quotes[-1])
    if re.match(r"^(write|note|sum up|summari[sz]e|jot)\b", lower):
        return say(summary(s, request))
    if HANDOVER.search(text) and re.search(r"\bto the\s+([a-z ]+)", lower):
        target = re.search(r"\bto the\s+([a-z ]+)", lower).group(1).strip()
        return say(pick((f"Passed to the {target}.", f"This has been handed to the {target}."), customer(request)))
    return None


def _reply(request, tool_call, why: str, action: str = ""):
    """A call that thinks aloud: the reasoning as the reply's text, the call beside it."""
    return ChatReply(text=thought(request, action or tool_call.name, why), tool_calls=(tool_call,))


def _call(tool: str, request, tools: dict):
    found, missing = arguments(request, tools[tool])
    if missing:
        return say(questions(missing, request))
    why = pick((f"I should run {tool} first", f"{words(tool)} is the step that gets this done",
                f"the next step is {words(tool)}"), customer(request), tool)
    return _reply(request, call(tool, **found), why)


def fallback(request, tools: dict) -> str:
    answered = [(t, newest(request, t)) for t in tools if newest(request, t) is not None]
    if answered:
        tool, answer = answered[-1]
        if failed(answer):
            return explain(tool, answer, request)
        return pick(("Sorted - ", "That went through: ", "Done and filed: "), answer) + reason(answer) + "."
    return pick(("Thought: nothing here is mine to act on.\nNoted - nothing further from me.",
                 "Nothing for me to add here."), customer(request), request.agent or "")


def structured(request) -> str:
    props = (request.response_schema or {}).get("properties", {})
    filled = {}
    for name, spec in props.items():
        value = value_for(request, name, spec)
        filled[name] = value if value is not None else ("" if spec.get("type", "string") == "string" else None)
    return json.dumps(filled)


def policy(request):
    if request.response_schema and not request.tools:
        return say(structured(request))
    tools, mates = own_tools(request), colleagues(request)
    for s in sentences(instructions(request)):
        reply = step(s, request, tools, mates)
        if reply is not None:
            return reply
    return say(fallback(request, tools))
