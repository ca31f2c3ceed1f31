"""Spec-aware deterministic oracles: FLARE's failure identification (§3.4) against its
specification (§3.2.1), for what a trace shows without a model.

Every failure cites the clause it violates (`Failure.clause`), so a report says which part of
the specification broke:

- speaking order (agent relationships failure, "Violation of Relationships-based Speaking
  Order", clause `rel::…`): in a free-form team an agent takes the floor before an agent it
  depends on has acted; in a fixed-order team a speaker other than the order's next one speaks;
- tool invocation omission ("Tool Invocation Omission", clause `task::<agent>::use::<tool>`): an
  agent whose task requires a tool answered in its turns but never called it. Only when the tool
  is named in the agent's instructions or its other task texts: an agent merely holding a tool
  often answers honestly without it (the seat-booking agent asking for a missing confirmation
  number), and an agent asking a question is waiting for input, not omitting its tool, as is one
  that asked for an argument the tool requires and got no answer (`_waiting`), and one a
  request was misrouted to (`misrouted_request`: its tools cannot serve it);
- `cite` attaches the clause to what the existing detectors (`detectors.py`) found, so they are
  not re-implemented here: a bound or a termination never taken cites the termination pattern,
  a restricted call or a tool error the tool's clause, a silent agent its answer task.
  `detect_cited` runs both: the existing detectors cited, then the spec-aware ones.
"""

from __future__ import annotations

import re

from masfuzz.graph.specification import FlareSpec, Task
from masfuzz.graph.paths import FIXED, FREE_FORM
from masfuzz.oracles.attribution import attribute
from masfuzz.oracles.blame import blame_all
from masfuzz.oracles.detectors import detect
from masfuzz.oracles.failure import Failure, dedupe
from masfuzz.oracles.onepass import judging
from masfuzz.oracles.instructed import beside_call
from masfuzz.oracles.semantic import REQUEST, asking_sentences
from masfuzz.oracles.wording import (RESULT_OF, STOPWORDS, asks_back, closing_offers, is_question, reply_texts, sentences, stem,
                                     tools_of, words)
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import (AgentTurn, DelegationEvent, Message, RestrictedAttempt, ToolCall, ToolResult, Trace,
                           said_by_user)

SPEAKING_ORDER = "Violation of Relationships-based Speaking Order"


def detect_flare(trace: Trace, flare_spec: FlareSpec,
                 workflow: WorkflowSpec | None = None) -> list[Failure]:
    """The spec-aware detectors over one trace; `workflow` adds the agents' instructions to what
    tool-omission reads (without it, only the specification's task texts)."""
    return dedupe(blame_all(trace, attribute(trace, speaking_order(trace, flare_spec)
                                             + tool_omission(trace, flare_spec, workflow))))


def detect_cited(trace: Trace, flare_spec: FlareSpec,
                 workflow: WorkflowSpec | None = None) -> list[Failure]:
    """Every deterministic oracle: the existing detectors with their clauses cited, then the
    spec-aware ones."""
    with judging():  # one pass: FLARE's detectors read the findings of `detect`'s
        cited = [cite(f, flare_spec) for f in detect(trace, workflow)]
        return dedupe(cited + detect_flare(trace, flare_spec, workflow))


# -- agent relationships --------------------------------------------------------------------------

def _turns(trace: Trace) -> list[tuple[int, str]]:
    return [(i, e.agent) for i, e in enumerate(trace.events) if isinstance(e, AgentTurn)]


def speaking_order(trace: Trace, spec: FlareSpec) -> list[Failure]:
    rel = spec.relationships
    if rel.pattern in FIXED and rel.order:
        return _order_deviations(trace, spec)
    if rel.pattern in FREE_FORM:
        return _dependency_violations(trace, spec)
    return []  # handoff and graph routes are the system's own control flow, not an order


def _order_deviations(trace: Trace, spec: FlareSpec) -> list[Failure]:
    """A fixed order cycles: each speaker must be the order's successor of the previous one,
    the first the order's head. Agents outside the order (an inner team's) are not its turns."""
    order = spec.relationships.order
    # a member of the order that runs others of it inside its own turn (an ADK SequentialAgent
    # holding a LoopAgent): the order nests, and a flat cycle does not describe it
    if any(d.trigger == "delegate" and d.from_ in order and d.to in order
           for d in trace.of_type(DelegationEvent)):
        return []
    out, prev = [], None
    for i, agent in ((i, a) for i, a in _turns(trace) if a in order):
        expected = order[0] if prev is None else order[(order.index(prev) + 1) % len(order)]
        if agent != expected:
            out.append(_order_failure(
                trace, spec, (i,), (expected, agent),
                f"{agent} spoke at event {i} where the fixed order "
                f"{' -> '.join(order)} gives the floor to {expected}"
                + (f" (after {prev})" if prev else " (first turn)")))
        prev = agent
    return dedupe(out)


def _dependency_violations(trace: Trace, spec: FlareSpec) -> list[Failure]:
    """In free-form dialogue (§3.4, relationship failure 2): `after` depends on `before`, so its
    first turn must come after `before`'s first turn."""
    first: dict[str, int] = {}
    for i, agent in _turns(trace):
        first.setdefault(agent, i)
    out = []
    for before, after in spec.relationships.dependencies:
        if after not in first or first.get(before, len(trace.events)) < first[after]:
            continue
        acted = f"only at event {first[before]}" if before in first else "never"
        out.append(_order_failure(
            trace, spec, tuple(sorted({first[after], first.get(before, first[after])})),
            (before, after),
            f"{after} acted at event {first[after]} before {before}, which it depends on, had "
            f"acted ({before} acted {acted})"))
    return out


def _order_failure(trace: Trace, spec: FlareSpec, evidence: tuple[int, ...],
                   elements: tuple[str, str], description: str) -> Failure:
    return Failure(category="agent_relationship", root_cause=SPEAKING_ORDER,
                   detector="speaking_order", evidence=evidence, scenario_id=trace.scenario_id,
                   elements=elements, clause=spec.relationships.id, description=description)


# -- tool invocation omission ---------------------------------------------------------------------

def tool_omission(trace: Trace, spec: FlareSpec,
                  workflow: WorkflowSpec | None = None) -> list[Failure]:
    from masfuzz.oracles.instructed import misrouted_request  # instructed reads flare: imported late

    # an agent a request was misrouted to cannot serve it: it owes no call of its own tools for
    # it (the concert office handed a subscription refund holds no ticket for it); the misroute
    # is the fault, found once
    misrouted = {f.elements[1] for f in misrouted_request(trace, workflow)} if workflow is not None else set()
    out = []
    for task in spec.tasks:
        if task.kind != "use_tool" or not task.tool or task.agent in misrouted \
                or not _duty(task, spec, workflow, trace):
            continue
        answers = _answers(trace, task.agent)
        if not answers or _called(trace, task.agent, task.tool):
            continue
        # what it wrote beside a call of its own is no reply (h10); every reply left waits for input
        replies = [i for i in answers if not beside_call(trace, i)]
        if replies and all(i in _waiting(trace, replies, task.tool, workflow, task.agent) for i in replies):
            continue  # it asked for what it lacks: waiting for input, not skipping its tool
        if workflow is not None and _answered_branch(trace, task, workflow):
            continue  # its instructions' own branch for what a tool of its answered took over
        out.append(Failure(
            category="tool_invocation", root_cause="Tool Invocation Omission",
            detector="tool_omission", evidence=tuple(answers), scenario_id=trace.scenario_id,
            elements=(task.agent, task.tool), clause=task.id,
            description=f"{task.agent} answered {len(answers)} time(s) (first at event "
            f"{answers[0]}) but never called {task.tool}, which its task requires"))
    return out


# A line of an agent's instructions for one answer of one of its tools: "If glue_cure says
# NO_SUCH_JOB, ...", "When book_tour returns Conflict, ...": the tool, then the word its answer holds.
ON_ANSWER = re.compile(r"\b(?:if|when|whenever|should)\s+`?(\w+)`?\s+(?:says|returns|answers|gives|reports|"
                       r"comes\s+back(?:\s+with)?)\s+[\"'`]?([\w-]+)", re.IGNORECASE)


def _answered_branch(trace: Trace, task: Task, workflow: WorkflowSpec) -> bool:
    """Did a tool of the agent answer what a line of its instructions has a branch for ("If
    glue_cure says NO_SUCH_JOB, ask the customer to check the number"), a line that does not name
    the task's tool? The agent that followed it did as told for that answer: a later step of its
    instructions ("Then take the book out with release_from_press") is not owed on a branch
    that leaves the procedure. The tool's newest answer must hold the line's word."""
    if all(a.id != task.agent for a in workflow.agents):
        return False
    results = [e for e in trace.events if isinstance(e, ToolResult) and e.agent == task.agent]
    for line in re.split(r"\n+|(?<=[.!?])\s+", workflow.agent(task.agent).instructions or ""):
        m = ON_ANSWER.search(line)
        if m is None or re.search(rf"\b{re.escape(task.tool)}\b", line):
            continue
        answers = [r.payload for r in results if r.tool == m.group(1)]
        if answers and re.search(rf"(?<![\w-]){re.escape(m.group(2))}(?![\w-])", answers[-1], re.IGNORECASE):
            return True
    return False


def _duty(task: Task, spec: FlareSpec, workflow: WorkflowSpec | None, trace: Trace) -> bool:
    """Is calling the tool the agent's duty in this run? The tool must be named in the agent's
    instructions or its other task texts (the use-tool task's own description is the tool's,
    and says nothing about the agent's duty), by a sentence that asks for it plainly or under a
    condition the trace shows met. A conditional sentence ("if the draft has problems, call
    request_revision", "only when the user asks for a refund, use issue_refund", an "IF ...:"
    line over the sentences below it, "ask T (only when ...)", a router's "Anything about A or B
    is put to X through ask_x") or a choice ("either output the
    document or call exit_loop", a line among those a "one desk per message, the first line
    that fits:" makes alternatives) makes the tool a duty only sometimes, and the critic that
    found nothing wrong owes no revision request."""
    texts = [task.responsibility]
    texts += [f"{t.description} {t.responsibility}" for t in spec.tasks_of(task.agent) if t.id != task.id]
    if workflow is not None and any(a.id == task.agent for a in workflow.agents):
        texts.append(workflow.agent(task.agent).instructions)
    named = re.compile(rf"\b{re.escape(task.tool)}\b")
    conditions = [c for text in texts for c in _conditions(text, named)]
    return any(c == "" or (c is not None and _met(c, trace)) for c in conditions)


# A condition: its marker and the words up to the next comma, colon, closing parenthesis or
# "then" (after the tool, "call X when the request mentions Y", it runs to the sentence's end;
# "call X (only when ...)" to the parenthesis).
# A condition's opening word ("where" opening the sentence too, as procedures write it: "Where
# extend_hire reports 404, state ..."), or a line's scope said in words of its own ("(applies to requests
# concerning off-hire, strike or collection)", "only for enquiries about fuel"): both limit the
# duty to the requests they name.
# A scope opening the sentence is one too ("For mixing or mastering, book with book_mix."; "for
# each" or "for every" is none).
_MARKER = (r"(?:^\W*for(?!\s+(?:each|every|all|any)\b)\b|^\W*(?:\d+[.)]\s*)?where\b|"
           r"\b(?:only|just|solely|exclusively)\s+for\b|"
           r"\b(?:only\s+)?(?:if|when|whenever|unless|in\s+case|provided|"
           r"applies\s+(?:only\s+)?to|for\s+(?:requests?|messages?|questions?|enquir(?:y|ies)|inquir(?:y|ies)))\b)\s*")
CONDITION = re.compile(_MARKER + r"(.*?)(?:,|:|\)|\bthen\b|$)", re.IGNORECASE)
# A condition on what a thing mentions, is about or has, listing alternatives ("the request
# mentions diesel, fuel or pump-out", "A, B, or C": one-word items after the first, the last
# after "or"): its commas do not end it.
LISTED = re.compile(_MARKER + r"([^,:]*?\b(?:mentions?|about|asks?\s+for|contains?|includes?|says?|wants?|"
                    r"needs?|has|have|involves?|concerns?|concerning|regarding|involving|mentioning)\s+[^,:]*?(?:,\s*[\w'-]+)+,?\s+or\s+[\w'-]+)"
                    r"(?=\s*(?:[,.:;!?)]|\bthen\b|$))", re.IGNORECASE)


# A condition as the sentence's subject: the requests it is about ("Requests concerning
# inspections, tags or handovers are referred by means of ask_safety.", "Messages about fuel go
# to `fuel_card`.", a router's "Anything about healing or fading is put to aftercare_m through
# ask_aftercare."): what they concern, up to the verb the duty follows.
SUBJECT = re.compile(r"^\W*(?:\d+[.)]\s*)?(?:all\s+|any\s+)?((?:requests?|messages?|questions?|enquir(?:y|ies)|"
                     r"inquir(?:y|ies)|matters?|anything|everything|whatever|something)\s+(?:that\s+(?:are|is)\s+)?(?:about|concerning|regarding|"
                     r"mentioning|involving)\s+.+?)\s+(?:are|is|go|goes|should|must|get|gets|will|can|need|needs)\b",
                     re.IGNORECASE)
# The same requests as the object of the line's verb ("Pass anything about eyes or sight tests to
# ask_optom.", "Send any questions regarding invoices through ask_billing."): an indefinite the
# language closes (anything, any request, all messages) scoped by what it is about, up to the
# preposition that leads to the tool.
OBJECT = re.compile(r"\b((?:anything|everything|whatever|something|(?:any|all)\s+(?:requests?|messages?|questions?|"
                    r"enquir(?:y|ies)|inquir(?:y|ies)|matters?))\s+(?:that\s+(?:are|is)\s+)?(?:about|concerning|"
                    r"regarding|mentioning|involving|to\s+do\s+with)\s+.+?)\s+(?:(?:on|over|across)\s+)?"
                    r"(?:to|through|via|with|using|into)\b", re.IGNORECASE)


# A scope listing topics with no verb ("ask_workroom (only for fabric, re-cover, recover or
# sofa)", "only for the extractor, hire, honey or spinning"): a duty only for a request about one
# of them; its commas do not end it either.
SCOPED = re.compile(r"\b(?:only|just|solely|exclusively)\s+for\s+((?:[\w'-]+\s+){0,3}?[\w'-]+"
                    r"(?:,\s*(?:[\w'-]+\s+){0,3}?[\w'-]+)*,?\s+(?:or|and)\s+(?:[\w'-]+\s+){0,3}?[\w'-]+)"
                    r"(?=\s*(?:[,.:;!?)]|$))", re.IGNORECASE)
# A scope after the tool, in the tool's own clause, naming the kind of request or person the line
# is for ("Reserve the space with T for a wheelchair, wheelchair user or companion", "Call T for
# refunds or exchanges"): a kind, bare or after "a"/"an", alone or among alternatives. A
# beneficiary ("for the caller", "for them"), a span ("for each", "for 2 nights") or a purpose
# ("for now", "for example") scopes nothing. A kind may carry its place ("for repairs inside a
# flat", "for faults in the home"), the line's examples after a colon.
SCOPE_AFTER = re.compile(
    r"\bfor\s+(?!(?:the|this|that|these|those|your|their|our|his|her|its|my|them|him|us|me|you|it|each|every|"
    r"all|any|now|later|today|tomorrow|tonight|sure|example|instance|free|good|once|real|more|less|up|"
    r"at|about|over|under)\b)((?:an?\s+)?[A-Za-z][\w'-]*(?:\s+[\w'-]+){0,4}"
    r"(?:\s*,\s*(?:an?\s+)?[\w'-]+(?:\s+[\w'-]+){0,2})*(?:,?\s+or\s+(?:an?\s+)?[\w'-]+(?:\s+[\w'-]+){0,2})?)"
    r"\s*(?=[.;:!?)]|$)", re.IGNORECASE)


def condition_of(sentence: str) -> re.Match[str] | None:
    """The sentence's first condition (`CONDITION`), whole when it lists alternatives (`LISTED`,
    `SCOPED`), or the requests its subject or its object names (`SUBJECT`, `OBJECT`)."""
    if subject := SUBJECT.search(sentence) or OBJECT.search(sentence):
        return subject
    plain = CONDITION.search(sentence)
    listed = min((m for m in (LISTED.search(sentence), SCOPED.search(sentence)) if m),
                 key=lambda m: m.start(), default=None)
    return listed if listed and (plain is None or listed.start() <= plain.start()) else plain


CHOICE = re.compile(r"\beither\b.+\bor\b", re.IGNORECASE)
# A sentence that makes the lines after it alternatives, one of which a message gets ("use one
# desk per message, the first line that fits:", "pick a single tool for each request",
# "whichever rule matches first", "one of the following"): no tool they name is owed by itself.
CHOICE_AMONG = re.compile(
    r"\b(?:one|a\s+single|only\s+one|just\s+one|exactly\s+one)\s+(?:[\w-]+\s+){0,2}?(?:per|for\s+(?:each|every|a|the|any)|each)"
    r"\s+(?:message|request|question|query|turn|ticket|enquiry|inquiry|e-?mail|case|customer|user|guest|caller|conversation)\b"
    r"|\bfirst\s+(?:[\w-]+\s+)?(?:that|which|to)\s+(?:fits?|applies|apply|matches|match)\b"
    r"|\bwhichever\s+(?:[\w-]+\s+){0,2}?(?:fits?|applies|matches|comes\s+first)\b"
    r"|\b(?:only\s+|just\s+)?one\s+of\s+(?:these|those|the\s+following|the\s+lines?\s+below)\b", re.IGNORECASE)
# A sentence that says where a thing comes from ("fares come from fare_table and cabins from
# cabin_list"): the tool is a duty when the run is about that thing, its condition.
SOURCE = re.compile(r"\bcomes?\s+from\b", re.IGNORECASE)
# A condition on what was asked, by its subject ("the request mentions ...", "the user asks ...").
ABOUT_REQUEST = re.compile(r"^\W*(?:the\s+|a\s+)?(?:user|customer|caller|client|request|message|question|enquir(?:y|ie)|"
                           r"anything|everything|whatever|something)s?(?:'s)?\b", re.IGNORECASE)
OTHERWISE = re.compile(r"^\W*(?:else|otherwise)\b", re.IGNORECASE)
NEGATED = re.compile(r"\b(?:not|no|never|none|nothing|without)\b|n't\b", re.IGNORECASE)
QUOTED = re.compile(r"[\"“]([^\"”]{3,}?)[\"”]|(?<!\w)['‘]([^'’]{3,}?)['’](?!\w)")
# Words a condition shares with any run: who asks and how, not what it is about.
FILLER = STOPWORDS | {
    "user", "users", "customer", "customers", "request", "requests", "asks", "ask", "asked",
    "want", "wants", "mention", "mentions", "says", "say", "is", "are", "was", "be", "been", "has",
    "have", "had", "any", "there", "it", "its", "this", "that", "you", "your", "they", "their",
    "contains", "contain", "exactly", "only", "needed", "necessary", "possible", "applicable",
    "something", "anything", "everything", "whatever", "some", "about", "into", "asking", "need", "needs", "concerning", "regarding",
    "mentioning", "involving", "message", "messages", "question", "questions", "matter", "matters"}


def _conditions(text: str, tool: re.Pattern[str]) -> list[str | None]:
    """The condition of each sentence of `text` that names the tool: "" for none, None for a
    choice or an else branch (a duty only sometimes, with nothing to check). A sentence's own
    condition is one before the tool ("if X, call T") or after it in the same clause ("call T
    when X"; not "call T, and if it fails, apologise"); an "IF ...:" line governs the sentences
    after it up to an else, an empty line or the next such line. A sentence that only uses the
    tool's result ("report the result of T", "if T raises an error, say ...") counts only when no
    other sentence of the text asks for the tool: "call T when X. Report the result of T." owes T
    only when X."""
    out: list[str | None] = []
    uses: list[str | None] = []  # the conditions of sentences that only use the tool's result
    result_of = re.compile(RESULT_OF.format(tool=tool.pattern), re.IGNORECASE)
    for block in re.split(r"\n\s*\n", text or ""):
        governing: str | None = ""
        choosing = False  # past a sentence that makes what follows alternatives (`CHOICE_AMONG`)
        for sentence in sentences(block):
            own = condition_of(sentence)
            choosing = choosing or bool(CHOICE_AMONG.search(sentence))
            if OTHERWISE.match(sentence):
                governing = None
            elif own and sentence.rstrip().endswith(":"):
                governing = _scope(own)
                continue
            at = tool.search(sentence)
            if at is None:
                continue
            if own is None:  # a scope closing the tool's clause ("... with T for a wheelchair user")
                own = SCOPE_AFTER.search(sentence, at.end())
            source = SOURCE.search(sentence) and re.search(rf"(\w+)\s+(?:(?:comes?|is|are)\s+)?from\s+"
                                                          rf"{tool.pattern}", sentence)
            if source:  # "fares come from fare_table": a duty when the run is about fares
                out.append(source.group(1))
            elif choosing:  # one line of several: even its own condition met, an earlier one may fit
                (uses if _only_uses(sentence, tool, result_of, own) else out).append(None)
            elif CHOICE.search(sentence):
                out.append(None)
            elif own and (own.start() < at.start() or "," not in sentence[at.end():own.start()]):
                (uses if _only_uses(sentence, tool, result_of, own) else out).append(_scope(own))
            else:
                (uses if _only_uses(sentence, tool, result_of, own) else out).append(governing)
    return out or uses


def _scope(own: re.Match[str]) -> str | None:
    """A condition's text; a topic-list scope (`SCOPED`) is on what was asked, so it is read as
    one on the requests (`ABOUT_REQUEST`): the agent's own "the concert office looks after
    tickets" does not make a subscription refund a request about tickets."""
    text = own.group(1).strip()
    return (f"requests about {text}" if own.re is SCOPED else text) or None


def _only_uses(sentence: str, tool: re.Pattern[str], result_of: re.Pattern[str],
               own: re.Match[str] | None) -> bool:
    """Is every mention of the tool in the sentence one of its result ("report the result of
    T") or in the sentence's own condition ("if T raises an error, say ...")? Either presupposes
    a call and asks for none."""
    spans = [m.span() for m in result_of.finditer(sentence)] + ([own.span(1)] if own else [])
    return all(any(a <= m.start() and m.end() <= b for a, b in spans) for m in tool.finditer(sentence))


def _met(condition: str, trace: Trace) -> bool:
    """Does the trace show the condition met? Its quoted words said in the run; else, for one of
    its alternatives ("A, B or C"), every word of what it is about in one plain (not negated)
    sentence of the run's messages. A condition on what was asked ("the request mentions
    diesel", "the user asks for a refund") is read in the user's messages only: an agent's own
    reply ("the fuel berth does diesel only") does not make the request about diesel. Unsure is
    unmet: the oracle stays quiet."""
    return met_in(condition, [m.content or "" for m in trace.events if isinstance(m, Message)
                              and (said_by_user(m) or not ABOUT_REQUEST.match(condition))])


def met_in(condition: str, said: list[str]) -> bool:
    """Do these texts meet the condition (`_met`): its quoted words said in them, or every word
    of one of its alternatives in one plain sentence of theirs?"""
    quoted = [a or b for a, b in QUOTED.findall(condition)]
    if quoted:
        text = " ".join(" ".join(s.split()).lower() for s in said)
        return all(" ".join(q.split()).lower().strip(" .") in text for q in quoted)
    plain = [set(_stems(s)) for text in said for s in sentences(text) if not NEGATED.search(s)]
    for alternative in re.split(r",|\bor\b", condition, flags=re.IGNORECASE):
        wanted = set(_stems(alternative, FILLER))
        if wanted and any(wanted <= s for s in plain):
            return True
    return False


def _stems(text: str, drop: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The text's words but `drop`, each as its stem (`wording.stem`: problems and problem are one)."""
    return [stem(w) for w in words(text) if w not in drop]


def _answers(trace: Trace, agent: str) -> list[int]:
    """The agent's own non-empty utterances (a hand-over or a silent turn is no answer)."""
    return [i for i, e in enumerate(trace.events) if isinstance(e, Message)
            and e.role == "assistant" and e.agent == agent and e.content.strip()]


def _waiting(trace: Trace, answers: list[int], tool: str, workflow: WorkflowSpec | None,
             agent: str | None = None) -> set[int]:
    """The answers in which the agent waits for input rather than skipping its tool: a question,
    and, once it asked for an argument the tool requires ("would you mind letting me know your
    slot?", "Please let me know which slot suits you.", or by a pronoun after the sentence naming
    it: "The following is needed: slot. Could it be sent?"), everything it says until the user
    answers, whatever closes the reply after the question (a list of next steps). An agent whose ask went unanswered (an AG2 proxy that never replies) has nothing to
    call the tool with, so signing off then is no omission. So does an ask for an argument another
    tool of the agent's requires (the customer number its look-up, the step before, needs): the
    agent cannot go on through its procedure to this tool until the user answers. An ask for
    anything else ("anything else I can do?") leaves its later answers owing the call."""
    required = _required_words(workflow, tool)
    if workflow is not None and agent is not None and any(a.id == agent for a in workflow.agents):
        required |= {w for t in tools_of(workflow, agent) for w in _required_words(workflow, t)}
    out: set[int] = set()
    asked = False
    for i, e in enumerate(trace.events):
        if said_by_user(e):
            asked = False
        if i not in answers:
            continue
        told = reply_texts(e.content)  # a typed answer's question is in its note
        # a closing offer naming an argument ("Want me to text the day's code too?") asks for nothing
        # a question asking by a pronoun is read with the sentence it points to ("... until the
        # following is provided: days. Could it be sent?": `asking_sentences`)
        asked = asked or any((is_question(s) or REQUEST.search(s)) and required & set(_stems(s))
                             for t in told for s in closing_offers(asking_sentences(t)))
        if asked or any(asks_back(t) for t in told):  # a question, or questions listed one per line
            out.add(i)
    return out


def _required_words(workflow: WorkflowSpec | None, tool: str) -> set[str]:
    """The words naming the arguments a tool requires: each required parameter's name
    (`slot`, `party_size`: party, size)."""
    t = next((x for x in workflow.tools if x.id == tool), None) if workflow is not None else None
    required = ((t.parameters or {}).get("required") or []) if t is not None else []
    return set(_stems(" ".join(required), STOPWORDS))


def _called(trace: Trace, agent: str, tool: str) -> bool:
    return any(isinstance(e, (ToolCall, RestrictedAttempt)) and e.agent == agent and e.tool == tool
               for e in trace.events)


# -- citing the clauses of the existing detectors' failures --------------------------------------

TERMINATION_CAUSES = ("Termination Condition Violation", "Max Round Limit Exceeded",
                      "Premature Termination")
TOOL_CAUSES = ("Restricted Tool Access", "Tool Execution Error", "Tool Specification Mismatch")


def cite(failure: Failure, flare_spec: FlareSpec) -> Failure:
    """`failure` with the clause it violates, when the specification has one (crashes have none)."""
    if failure.clause:
        return failure
    clause = _clause_for(failure, flare_spec)
    return failure.model_copy(update={"clause": clause}) if clause else failure


def _clause_for(f: Failure, spec: FlareSpec) -> str | None:
    el = f.elements
    if f.root_cause in TERMINATION_CAUSES:
        return spec.termination.id
    if f.root_cause in TOOL_CAUSES and len(el) >= 2:  # (agent, tool, …) in every tool detector
        return next((c.id for c in spec.tools if c.tool == el[1]), None)
    if f.root_cause == "Repetitive Execution of Completed Tasks":
        if el[:1] == ("tool",) and len(el) >= 3:  # one agent repeating one tool call
            return _task_clause(spec, el[1], tool=el[2])
        return spec.termination.id  # a speaker cycle: the run should have concluded
    if f.root_cause == "Incorrect Verification" and len(el) >= 2:  # (claiming agent, tool)
        return _task_clause(spec, el[0], kind="answer")
    if f.root_cause in ("Information Loss at Hand-over", "Misrouted Request"):
        return spec.relationships.id  # a hand-over between agents went wrong
    if f.root_cause == "Response Omission" and el:
        # empty_utterances names the silent agent; premature_termination (reason, last speaker)
        return _task_clause(spec, el[-1], kind="answer") or spec.termination.id
    return None


def _task_clause(spec: FlareSpec, agent: str, *, tool: str | None = None,
                 kind: str | None = None) -> str | None:
    return next((t.id for t in spec.tasks_of(agent)
                 if (tool is None or t.tool == tool) and (kind is None or t.kind == kind)), None)
