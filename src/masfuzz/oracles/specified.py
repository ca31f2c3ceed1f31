"""Where the app's own spec points a choice its model made: a model's error is the model's.

Routing (`model_misroute`, `model_passed_over`), and a success claimed after a failed tool when
the claimer's own instructions name that very failure and say what to do on it
(`model_ignored_named_failure`: "If book_tour says declined, explain why ..." and the tour came
back declined). Such instructions cover only the failures they name: "if the tool fails" or
"raises an error" names an answer that is an error by its status (the tool raised, an HTTP 4xx
or 5xx code), not a result that says it failed in its own fields (a `warnings` list, `accepted:
false`), and a claim after such a result stays the app's (the claims seeded in apps are most
often a failure their instructions do not name). A fact the receiving agent was given and asked
for again stays the app's too (`handover_facts` blames the receiver).

`misrouted_request` finds a request handed to an agent that cannot serve it while a sibling the
router could reach can. Two different defects look alike in the trace. The app's: its spec sends
the request there (the router's instructions list the request's words under the wrong agent, the
members' descriptions say the wrong agent serves it), or says nothing that tells the two apart,
so a model that follows it can go either way (the zoo's seeded misroutes are built so). The
model's: the spec points the request to the right agent, unambiguously, and the model in use
chose another (a selector team's speaker only when a model was asked: `model_chose_speaker`) (the embedded 270M model handing "change my seat" to the FAQ agent of a triage
told "hand seat changes to the seat booking agent"). The second is no bug of the app. The same
question decides `participation`'s member that never acted because a router handed the request
to another (`model_passed_over`): a Spanish request a language triage gave the French agent.

The spec's pointing is read from two places, the router's own instructions first (they are its
routing rules; the members' descriptions are what it chooses from when the rules are silent):

- its instructions, cut into clauses, each clause's part about one member (the words before that
  member's name, "seat changes to the seat booking agent", or after it when the clause starts
  with the name, "hand off to billing_agent when the request mentions refunds", or with a
  routing verb and the one routed, "put the member through to concerts for refunds"), matched
  to the request by content words (the member's name itself left out);
- when no such part shares a word with the request: the members' own descriptions (an Agents SDK
  `handoff_description`, AgentChat's and ADK's `description`), and, when none of them says the
  chosen member serves it, the request itself, where it names a member or describes it in its
  description's words (the user asked for it, and the router could reach it).

It points the right way when some part about a holder of a fitting tool shares a content word
with the request and no part about the chosen agent does. Only a choice the model makes by the
agent's name counts: a hand-off (trigger `handoff`) the router is offered unconditionally, or a
speaker selector's pick. An `as_tool` or delegating tool is the app's code mapping the model's
tool choice to an agent (a tool copied from another may run the wrong one), and a hand-off
offered only under a condition (`is_enabled`, a context condition) may not have been offered in
this run: both stay the app's. A negated clause ("never send refunds
to shipping") is left out: whichever way it is read, the rest must decide.

Cannot see: rules the router is given outside its instructions (a prompt built at run time that
the trace does not record), synonyms (a rule for "refunds" and a request for "money back"), and
rules whose conditions are not words of the request (the customer's tier, the time of day): then
the spec reads as silent and the finding stays the app's.
"""

from __future__ import annotations

import re

from masfuzz.oracles.wording import (STOPWORDS, addresses_agent, agent_names, asks_back, content_stems, mentions, name_pattern, sentences, stem,
                                    structured, words)
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import SYSTEM_PROMPTS, AgentTurn, DelegationEvent, Message, ToolCall, ToolResult, Trace, said_by_user, users_words


# A delegation condition that gates the hand-off (the Agents SDK's `is_enabled`, a feature flag,
# an AG2 context condition); one that names the mechanism (ADK's `transfer_to_agent`) is no gate.
_GATED = re.compile(r"enabled|context|flag|when|if\b", re.IGNORECASE)


def model_misroute(spec: WorkflowSpec, router: str | None, request: str, chosen: str,
                   right: list[str]) -> str:
    """Why a misroute is the model's: the app's spec points `request` to one of `right` and not to
    `chosen` ("" when it points to `chosen`, is silent or ambiguous: then it is the app's)."""
    said, pointed = _pointed(spec, router, request, chosen, right)
    if not pointed:
        return ""
    return (f"the model in use chose {chosen}, though {said} this request to {', '.join(pointed)} "
            f"and not to {chosen}: the model did not follow the app's routing, which is right here")


def model_chose_speaker(trace: Trace, spec: WorkflowSpec) -> bool:
    """Can a model have chosen a selector team's speaker in this run? Not when the run recorded
    its model calls (`meta.agent_settings`, one entry per caller) and every call was a member's:
    the selector's model was never asked (AgentChat calls it only when the app's `candidate_func`
    or `selector_func` leaves it more than one speaker), so the app's code chose. True when the
    calls are not recorded (an imported log) or a caller that is no member made one."""
    ran = trace.meta.get("agent_settings")
    if not isinstance(ran, dict) or not ran:
        return True
    members = {a.id for a in spec.agents}
    return any(agent not in members and int((v or {}).get("calls") or 0) > 0 for agent, v in ran.items())


def _pointed(spec: WorkflowSpec, router: str | None, request: str, chosen: str | None,
             right: list[str], lent: bool = False) -> tuple[str, list[str]]:
    """Which text points `request` (its words "point(s)") and to which of `right`, when it points
    to none of them but `chosen` (None: no member was chosen); ("", []) otherwise. `lent`: a
    member the router may call as a tool counts as offered (a run in which it called none)."""
    if router is not None:  # a hand-off the app offers only under a condition may not have been offered
        right = [m for m in right if _offered(spec, router, m) or (lent and _lent(spec, router, m))]
    if not right:
        return "", []
    agents = {a.id for a in spec.agents}
    if chosen is not None and chosen not in agents:  # not a member (the user, an end): no routing of the spec's
        return "", []
    right = [m for m in right if m in agents]
    if not right:
        return "", []
    asked = content_stems(request)
    members = [m for m in (chosen, *right) if m is not None]
    rules = _rule_parts(spec, router, members) if router else {}
    scores = {m: max((len(asked & content_stems(p)) for p in rules.get(m, ())), default=0) for m in members}
    said = f"{router}'s instructions point"
    if not any(scores.values()):
        scores = {m: len(asked & content_stems(_without_names(spec, m, _description(spec, m)))) for m in members}
        said = "the members' descriptions point"
        # the user asked for a member by its name or its description's words, the router could
        # reach it, and no description says the chosen one serves this: the request points there
        named = {m: int(addresses_agent(request, spec, m)) for m in members}
        if not scores.get(chosen) and any(named.values()):
            said, scores = "the request points", named
    pointed = [m for m in right if scores[m]]
    return ("", []) if scores.get(chosen) or not pointed else (said, pointed)


def _offered(spec: WorkflowSpec, router: str, member: str) -> bool:
    """Does the app offer `router` a hand-off to `member` whatever the run (no `is_enabled`, no
    context condition)?"""
    return any(d.from_ == router and d.to == member and d.trigger == "handoff" and not _GATED.search(d.condition)
               for d in spec.delegations)


# What lets an agent end a run by itself: a stop word or line it is given, an end it is told of.
_ENDS = re.compile(r"[\"“]|\b(?:stop|end|finish|terminat|done|final|conclude|close)\w*", re.IGNORECASE)
# A fallback line ("Otherwise reply "..."", "Else say ...", "If none of these fits, ..."): it
# applies only where no rule of the agent's points the request on, so it lets the agent end only
# a request its rules send nowhere.
_FALLBACK = re.compile(r"(?:^|(?<=[-*\u2022] )|(?<=[.!?;] ))(?:otherwise|else|if (?:none|nothing|no rule)\b"
                       r"[^.\n]*?\b(?:fits?|applies|matches))\b[^\n]*", re.IGNORECASE | re.MULTILINE)


def model_passed_over(trace: Trace, spec: WorkflowSpec, member: str, ender: str | None = None) -> str:
    """Why a needed member that never acted is the model's doing (`participation`): a router
    that could hand the request to `member` handed it to another, against a spec pointing it to
    `member` (`model_misroute`), or the model of the agent that ended the run had the last word
    (the run ended on its own message, not on a tool's answer the app stopped at) and did not
    hand over, though it could hand the request there unconditionally and its own rules send this
    request there (by the request's words, or whatever the request: `instructed_handoffs`), and
    nothing in its instructions lets it end by itself as it did (a stop word, a line to close on
    that says when or whose closing words it said: `_may_end`) but a fallback for requests its
    rules send nowhere (`_FALLBACK`). Its rules also send the request there when they leave the
    choice to the member that fits, naming none ("delegate questions to other appropriate
    agents", "always use the provided tools": `_leaves_to_fit`), and the members' descriptions or
    the request's naming point to `member`; then a member lent as a tool (`as_tool`) counts too,
    since no tool was called. "" otherwise."""
    if ender is not None and _had_last_word(trace, ender, {a.id for a in spec.agents}) and (_offered(spec, ender, member) or _lent(spec, ender, member)):
        from masfuzz.oracles.instructed import instructed_handoffs  # instructed calls this: imported late

        rules = (a.instructions or "") if (a := spec.find_agent(ender)) else ""
        last = next((e.content for e in reversed(trace.events) if isinstance(e, Message) and e.agent == ender), "")
        # closing words a line gives after the line that routes to the member are the
        # procedure's last step, said once the request is passed on: no end of its own
        if not _may_end(rules, last, after=_naming(spec, member)):
            request = next((e.content for _, e in users_words(trace)), "")
            # no tool called at all: which agent a delegating tool runs is not in question
            called = any(isinstance(e, ToolCall) and e.agent == ender for e in trace.events)
            said, pointed = _pointed(spec, ender, request, None, [member], lent=not called)
            if pointed and said.endswith("instructions point"):  # its own rules, not the descriptions
                said += " this request"
            elif (ender, member) in {(a, t) for a, t, _ in instructed_handoffs(spec)}:
                said = f"{ender}'s instructions hand every request"
            elif topic := _topic_asked(spec, ender, member, request):
                said = f"{ender}'s instructions hand a request for {topic}"
            elif (line := _leaves_to_fit(rules)) and (by := _pointed(spec, None, request, None, [member])[0]):
                said = f"{ender}'s instructions leave the work to the member that fits (\"{line[:80]}\"), and {by} this request"
            else:
                said = ""
            if said:
                return (f"the model in use ended the run at {ender}, though {said} on to {member}, "
                        f"which {ender} could hand it to: the model did not follow the app's routing, "
                        "which is right here")
    request = ""
    agents = {a.id for a in spec.agents}
    for e in trace.events:
        if said_by_user(e):
            request = e.content
        # a hand-off to the user (a Swarm's "user", a HandoffTermination) ends the run: it chose no
        # other member, so it is no misroute of the model's
        if isinstance(e, DelegationEvent) and e.trigger == "handoff" and e.to != member \
                and e.to in agents and e.from_ in agents \
                and any(x.from_ == e.from_ and x.to == member for x in spec.delegations):
            because = model_misroute(spec, e.from_, request, e.to, [member])
            if because:
                return because
    return ""


# The stop conditions of an AgentChat team as the spec renders them: a word a message must
# mention, a tool whose call ends the run.
_STOP_WORD = re.compile(r"\bTextMentionTermination\(text=(['\"])(.+?)\1")
_STOP_CALL = re.compile(r"\bFunctionCallTermination\(function_name=(['\"])(.+?)\1")
_STOP_HANDOFF = re.compile(r"\bHandoffTermination\(target=(['\"])(.+?)\1")
# Where instructions give an agent a word to say: inside a quoted line, or after a verb of saying
# in the same sentence ("Say APPROVED when ...", "end with DONE").
_SAYING = r"\b(?:say|reply|respond|answer|write|end|finish|close|sign\s+off)\b[^.!?\n]*?\b{W}\b|[\"“][^\"”]*\b{W}\b[^\"”]*[\"”]"
_CALLING = r"\b(?:call|use|run|invoke)\b[^.!?\n]*?\b{F}\b"


def model_left_stop_undone(trace: Trace, spec: WorkflowSpec | None) -> str:
    """Why a run stopped by a bound is the model's doing (`missing_termination`): the team's own
    stop condition waits for a word an agent's instructions give it to say, or a call of a tool
    they tell it to make, unconditionally, and that agent had turns in which it never did (no
    message of the run mentions the word; the tool was never called). The app's condition would
    have fired on what its instructions ask: the model did not follow them. "" otherwise (a word
    no agent is told to say, a tool's own answer the instructions wait for, a condition the spec
    does not render: the app's)."""
    if spec is None:
        return ""
    conditions = " ".join(spec.termination.conditions)
    spoken = " ".join(e.content for e in trace.events if isinstance(e, Message))
    called = {e.tool for e in trace.events if isinstance(e, ToolCall)}
    turned = {e.agent for e in trace.events if isinstance(e, AgentTurn)}
    waits = [(w, _SAYING, f"say {w!r}") for _, w in _STOP_WORD.findall(conditions) if w not in spoken] + \
            [(f, _CALLING, f"call {f}") for _, f in _STOP_CALL.findall(conditions) if f not in called]
    for target, rule, act in waits:
        told = re.compile(rule.replace("{W}", re.escape(target)).replace("{F}", re.escape(target)), re.IGNORECASE)
        for a in spec.agents:
            line = next((x for x in _whole_sentences(a.instructions or "") if told.search(x)
                         and not _hedged(_QUOTE.sub(" ", x))), None)
            if a.id in turned and line is not None:
                return (f"the team stops when an agent does what {a.id}'s instructions ask ({act}: "
                        f"\"{line}\"), and {a.id} spoke without doing it: the model in use did not "
                        "follow the app's instructions, on which its stop condition would have fired")
    return _asked_without_handing_over(trace, spec, conditions)


def _asked_without_handing_over(trace: Trace, spec: WorkflowSpec, conditions: str) -> str:
    """The team stops when an agent hands the floor to the user (AgentChat's
    `HandoffTermination(target="user")`, a Swarm's way to ask its human), the app offered the
    agent that hand-over, and that agent ended the run asking the user in words (`asks_back`, or a closing offer) without
    ever taking it: its question could only be heard through the hand-over the app gave it, so
    going round unanswered to the bound is the model's choice, not the app's. "" otherwise (no
    such condition, no such hand-over offered: then the app left its agent no way to ask)."""
    said = [e for e in trace.events if isinstance(e, Message) and e.role == "assistant" and e.content.strip()]
    for _, target in _STOP_HANDOFF.findall(conditions):
        if not said or any(isinstance(e, DelegationEvent) and e.to == target for e in trace.events):
            continue
        last = said[-1]
        offered = (a.model_settings.get("handoffs") if (a := spec.find_agent(last.agent)) else None) or {}
        # any question to the user, a closing offer too ("Anything else?"): it is heard only
        # through the hand-over, whether it asks for a detail or offers more
        if target in (offered.values() if isinstance(offered, dict) else offered) \
                and (asks_back(last.content) or last.content.rstrip().endswith("?")):
            question = " ".join(last.content.split())[-80:]
            return (f"the team stops when an agent hands the floor to {target}, as the app lets {last.agent} "
                    f'do, and {last.agent} asked {target} in words instead ("{question}") '
                    "without handing over: the model in use did not take the hand-over on which the app "
                    "would have heard the question and stopped")
    return ""


_QUOTE = re.compile(r"[\"“][^\"“”]*[\"”]")

# A line told for a later turn or a state of the work ("After the video is rendered, say it is
# done, and on your next turn reply TERMINATE"): whether the agent ever had that turn is the
# team's order, not the model's choice, so the rule cannot blame the model for it.
_DEFERRED = re.compile(r"\b(?:after|once|as\s+soon\s+as|before|until|at\s+the\s+end|finally|"
                       r"(?:on|in)\s+(?:your|the)\s+(?:next|following|last|final)\s+(?:turn|message|reply))\b",
                       re.IGNORECASE)


def _hedged(said: str) -> bool:
    """Is an instruction (its quoted words taken out) negated, conditional or deferred, so that
    the trace cannot say the agent had to do it on a turn it had?"""
    from masfuzz.oracles.instructed import CONDITIONAL, NEGATED  # instructed calls this module: imported late

    return bool(NEGATED.search(said) or CONDITIONAL.search(said) or _DEFERRED.search(said))


def _whole_sentences(text: str) -> list[str]:
    """The text's sentences, a quoted line kept whole in its sentence ('Say "Looks good.
    APPROVED"' is one): what the agent is told, and the words it is given to say."""
    quotes = _QUOTE.findall(text)

    def hold(m: re.Match[str]) -> str:  # a quoted line ending its sentence ('say "Done." Then') ends it
        end = m.group(0)[-2:-1]
        return f"\x00{quotes.index(m.group(0))}\x00" + (end if end in (".", "!", "?") else "")

    held = _QUOTE.sub(hold, text)
    return [re.sub(r"\x00(\d+)\x00[.!?]?", lambda m: quotes[int(m.group(1))], x) for x in sentences(held)]


# What makes an ending line hold at a point of the work ("Say "DONE" once the die is rolled.").
_WHEN = re.compile(r"\b(?:if|when|whenever|once|after|unless|as\s+soon\s+as|otherwise)\b", re.IGNORECASE)
# A condition on a tool breaking ("If next_free_day raises an error, say ..."): the words to give
# the customer then, not a point of the work at which to end.
_ON_BREAKING = re.compile(r"\b(?:raises?|raised|fail(?:s|ed)?|errors?|is\s+down|unavailable|times?\s+out)\b",
                          re.IGNORECASE)


def _may_end(instructions: str, last: str, after: str | None = None) -> bool:
    """Do the agent's instructions let it end the run as it did, with `last`: a line that ends
    (`_ENDS`: a stop word, a line to close on, a quoted reply), outside a fallback? An
    unconditional line that only gives the closing words ('3. Close with "Thank you for
    contacting the passport office."', the last step of a procedure that routes first) is how to
    close, not leave to end anywhere: an end in words of the model's own ("can't sort that one
    here") is not that line's. A line that says when to end ("once the die is rolled") lets the
    agent end there, in whatever words. With `after` (a pattern naming the member the request is
    sent on to), closing words given by a line after the first line naming that member are the
    last step of a procedure that routes first ("2. Transfer to `officer` when ... 3. Close with
    "Thank you ..."."): said without the routing, they are the model's skipping a step, and do
    not let it end. A line for a tool breaking ("If next_free_day raises an error, say ...") gives
    the words for that case, not a point at which to end: only those words said let the agent end."""
    said = {stem(w) for w in words(last)}
    routed = False
    # a quoted line kept whole: the closing words 'Say "Where to? TERMINATE."' are one line, not two
    for line in _whole_sentences(_FALLBACK.sub("", instructions)):
        if not _ENDS.search(line):
            routed = routed or bool(after and re.search(after, line, re.IGNORECASE))
            continue
        quotes = [{stem(w) for w in words(q) if w not in STOPWORDS} for q in _QUOTE.findall(line)]
        bare = _QUOTE.sub("", line)
        if not quotes or _WHEN.search(bare) and not _ON_BREAKING.search(bare):
            return True
        if not routed and any(q and len(q & said) * 2 >= len(q) for q in quotes):
            return True
        routed = routed or bool(after and re.search(after, line, re.IGNORECASE))
    return False


def _topic_asked(spec: WorkflowSpec, router: str, member: str, request: str) -> str:
    """The kind of request a routing line of `router`'s hands to `member` ("Hand over to press_b
    for collections or binding jobs.") that the request names, as `participation` reads the line
    (a word or its plural: "job" names "jobs"), or "": the same line that makes the member needed
    points this request there."""
    from masfuzz.oracles.instructed import topic_handoffs  # instructed calls this: imported late

    return next((t for a, to, topics, _ in topic_handoffs(spec) if a == router and to == member
                 for t in topics if mentions(request, [t])), "")


def _had_last_word(trace: Trace, agent: str, members: set[str]) -> bool:
    """Did the run end on `agent`'s own message, its model's choice to answer, or on its hand-off
    to the user (a Swarm's `handoffs=["user"]`: a tool call its model chose, the run's end)? Not
    when it ended on a tool's answer (an Agents SDK agent stopped at a tool by the app's
    `tool_use_behavior`) or a hand-over to a member."""
    for e in reversed(trace.events):
        if isinstance(e, DelegationEvent) and e.trigger == "handoff" and e.from_ == agent and e.to not in members:
            return True
        if isinstance(e, (ToolCall, ToolResult, DelegationEvent)):
            return False
        if isinstance(e, Message) and e.content.strip():
            return e.role == "assistant" and e.agent == agent
    return False


def _lent(spec: WorkflowSpec, router: str, member: str) -> bool:
    """Is `member` an agent `router` may call as a tool (`as_tool`) whatever the run? Only for a
    run that ended with no call at all: which agent a tool runs is then not in question."""
    return any(d.from_ == router and d.to == member and d.trigger == "as_tool" and not _GATED.search(d.condition)
               for d in spec.delegations)


# A line that leaves the choice of member to the model, whatever the request: "You can use your
# tools to delegate questions to other appropriate agents." (the Agents SDK's customer-service
# triage), "you always use the provided tools" (its agents-as-tools orchestrator). It names no
# member: the members' descriptions, or the request naming one, decide which fits.
_TO_FIT = re.compile(r"\b(?:delegat\w*|hand\w*\s+(?:\w+\s+)?(?:off|over)|transfer\w*|route|direct|forward|pass|send|"
                     r"refer|use|call)\b[^.!?\n]*?\b(?:appropriate|relevant|right|correct|suitable|proper|matching|"
                     r"provided|given)\s+(?:\w+\s+)?(?:agents?|specialists?|colleagues?|experts?|tools?|members?)\b",
                     re.IGNORECASE)


def _leaves_to_fit(instructions: str) -> str:
    """The first clause of `instructions` that tells the agent to delegate to (or use) the member
    that fits the request without naming one (`_TO_FIT`), not negated; "" when none does."""
    from masfuzz.oracles.instructed import NEGATED, clauses

    text = re.sub(r"(?<=[a-z][.!?])(?=[A-Z])", " ", instructions)  # "translate.If asked": glued pieces
    # a comma splice is two clauses too: "You never translate on your own, you always use the
    # provided tools" negates only its first
    parts = (p for s in sentences(text) for c in clauses(s) for p in re.split(r",\s+", c))
    return next((p for p in parts if _TO_FIT.search(p) and not NEGATED.search(p)), "")


def _description(spec: WorkflowSpec, agent: str) -> str:
    return a.description if (a := spec.find_agent(agent)) else ""


def _without_names(spec: WorkflowSpec, agent: str, text: str) -> str:
    return re.sub(rf"\b{name_pattern(spec, agent)}\b", " ", text or "", flags=re.IGNORECASE)


def _naming(spec: WorkflowSpec, agent: str) -> str:
    """How a routing rule names a member: its id or display name (spaces for underscores), or its
    bare role word only where a rule names someone ("to billing", "the billing", "Billing for
    invoices", "Billing:"): "seat" of seat_agent in "seat changes go to ..." is the request's
    word, not the agent. A delegating tool that runs the member (`instructed.delegated_agent`: a PydanticAI
    tool that runs it, an `as_tool`) names it too: "Pass anything about eyes to ask_optom" routes
    to the optometrist the tool runs."""
    from masfuzz.oracles.instructed import delegated_agent  # instructed calls this: imported late

    a = spec.agent(agent)
    lent = [t.id for t in spec.tools if delegated_agent(spec, t.id) == agent]
    full = {n for x in (a.id, a.name or a.id, *lent) for n in (x, re.sub(r"[_\-]+", " ", x).strip())}
    bare = [n for n in agent_names(spec, agent) if n not in full]
    alts = "|".join(re.escape(n) for n in sorted(full, key=len, reverse=True))
    names = "|".join(re.escape(n) for n in bare)
    tail = (rf"|(?:(?<=\bto\s)|(?<=\bthe\s))(?:{names})\b|\b(?:{names})(?=\s+(?:for|handles?|takes?)\b|:)"
            if bare else "")
    return rf"\b(?:the\s+)?(?:{alts})\b{tail}"


# The words that lead a routing rule up to the member's name and say nothing of the request: a
# verb of routing, the one routed (the member, the caller, them, the message itself: "Pass the
# message to `bench_w` when it is about a repair"), fillers.
_ROUTING_LEAD = (r"\b(?:hand(?:s)?\s+off|send|transfer|route|pass|delegate|forward|escalate|give|hand|"
                 r"put|connect|refer|direct|redirect|switch|through|over|across|on|onward|straight|"
                 r"the|a|this|that|any|every|them|him|her|it|you|"
                 r"member|customer|client|caller|user|guest|patient|person|visitor|they|"
                 r"message|request|query|enquiry|inquiry|conversation|chat|"
                 r"to|and|or|then|always|please)\b")


def _rule_parts(spec: WorkflowSpec, router: str, members: list[str]) -> dict[str, list[str]]:
    """Each member's parts of the router's instruction clauses: the words that route to it."""
    from masfuzz.oracles.instructed import NEGATED, clauses

    # prompts glued from string pieces lose the space after a full stop ("support.First, if"):
    # without it two rules read as one sentence, and a negation in one would hide the other
    text = re.sub(r"(?<=[a-z][.!?])(?=[A-Z])", " ", (a.instructions if (a := spec.find_agent(router)) else ""))
    out: dict[str, list[str]] = {}
    for clause in (c for s in sentences(text) for c in clauses(s)):
        if NEGATED.search(clause):
            continue
        # every member's names cut the clause, so that the parts end where another's begins
        found = sorted((m.start(), -m.end(), a.id) for a in spec.agents if a.id != router and agent_names(spec, a.id)
                       for m in re.finditer(_naming(spec, a.id), clause, re.IGNORECASE))
        spans: list[tuple[int, int, str]] = []
        for start, end, x in found:
            if not spans or start >= spans[-1][1]:  # a name inside a longer one is that one's
                spans.append((start, -end, x))
        if not any(x in members for _, _, x in spans):
            continue
        # "hand off to A when ..., to B when ...": the words after each name are its; "X to A
        # and Y to B": the words before it are. A routing verb with its object ("put the member
        # through to A for ...", "connect the caller to A about ...") still puts the name first.
        name_first = not re.search(r"\w", re.sub(_ROUTING_LEAD, "", clause[:spans[0][0]], flags=re.IGNORECASE))
        for i, (start, end, x) in enumerate(spans):
            if name_first:
                part = clause[end:spans[i + 1][0] if i + 1 < len(spans) else len(clause)]
            else:
                part = clause[spans[i - 1][1] if i else 0:start]
            if x in members:
                out.setdefault(x, []).append(part)
    return out


# A condition on a tool's answer in an agent's instructions ("If book_tour says declined, ...",
# "When hold_seats comes back with SOLD_OUT: ..."): the clause up to its comma or colon, `{T}`
# the tool's name. What follows the name is the failure the clause names.
_ON_ANSWER = r"\b(?:if|when(?:ever)?|should)\b[^,:;.!?]*?\b{T}\b(?P<named>[^,:;.!?\n]*)"
# The verbs a condition says the answer with, not the failure itself.
_ANSWER_VERBS = {"say", "says", "said", "answer", "answers", "answered", "return", "returns", "returned",
                 "come", "comes", "back", "with", "report", "reports", "give", "gives", "reply", "replies",
                 "respond", "responds", "is", "are", "was", "has", "have", "or", "and", "an", "a", "the",
                 "any", "its", "state", "status", "result", "outcome", "code", "there", "that", "it",
                 "this", "they", "them", "something", "anything"}
# A failure named only in general words: "fails", "returns an error", "raises an exception".
_GENERAL_FAILURE = {"fail", "fails", "failed", "error", "errors", "go", "goes", "wrong", "through", "not",
                    "work", "doesn", "does", "did", "t"}
_RAISES = {"raise", "raises", "raised", "throw", "throws", "exception", "exceptions"}
# An answer that is an error by its status code: an HTTP client or server error in a code field.
_ERROR_CODE = re.compile(r"\b(?:code|status|http|status_code)\W{1,4}[45]\d\d\b", re.IGNORECASE)


def model_ignored_named_failure(trace: Trace, spec: WorkflowSpec | None, agent: str, result: ToolResult,
                                why: str, did: str = "") -> str:
    """Why a success claimed after a failed tool is the model's lapse (`claimed_outcome`): the
    claimer's own instructions hold a condition on that tool's answer that names this very failure
    and say what to do on it ("If book_tour says declined, explain why ..." and the tour came back
    `declined`), and the agent claimed success anyway in words of its model's (a message, not a
    final answer the app's code may have written). The named failure is the value that made the
    answer one (`why`, "result.state: declined"), among the condition's words, or a code the
    answer gives as a field's whole value beside it ("If hold_seats answers E409" and `{"code":
    "E409", "detail": "already taken"}`): "if it answers bookings" names a field an empty answer
    has too. A failure named in general words names only
    an answer that is an error by its status: "raises an error" one the tool raised, "fails" or
    "returns an error" that or an HTTP 4xx/5xx code. A result that says it failed in its own
    fields (a `warnings` list, `accepted: false`) is a failure such instructions do not name: the
    claim stays the app's (the claims seeded in apps are most often that). "" otherwise.
    With `did`, what the agent did instead of a claim ("it passed the raw error on"): the same
    reading of its lines, without the honesty lines, which are about claims."""
    if spec is None or all(a.id != agent for a in spec.agents):
        return ""
    told = spec.agent(agent).instructions or (trace.meta.get(SYSTEM_PROMPTS) or {}).get(agent) or ""
    cond = re.compile(_ON_ANSWER.replace("{T}", re.escape(result.tool)), re.IGNORECASE)
    # the value that made the answer a failure: "a failure in its answer (result.state: declined)"
    inner = why[why.find("(") + 1:why.rfind(")")] if "(" in why else ""
    said = set(words(inner.split(":", 1)[1] if ":" in inner else inner))
    # ... or a code the same answer gives beside it, a field's whole value ("E409" beside the
    # detail "211-212 already taken": `{"code": "E409", "detail": ...}`)
    data = structured(result.payload)
    codes = {v.strip().lower() for v in (data.values() if isinstance(data, dict) else ())
             if isinstance(v, str) and re.fullmatch(r"[A-Za-z]*\d*[A-Za-z_]*", v.strip()) and 1 < len(v.strip()) <= 24}
    for line in _whole_sentences(told):
        for m in cond.finditer(line):
            named = words(m.group("named"))
            specific = [w for w in named if w not in _ANSWER_VERBS and w not in _GENERAL_FAILURE
                        and w not in _RAISES and w not in STOPWORDS]
            raised = any(w in _RAISES for w in named)
            general = raised or any(w in _GENERAL_FAILURE for w in named)
            covered = (specific and (said and said <= set(named) or set(specific) <= codes)) or (
                not specific and general and (result.status == "error" or (
                    not raised and _ERROR_CODE.search(result.payload) is not None)))
            if covered and line[m.end():].strip(" ,:;-"):
                return (f"{agent}'s own instructions name this failure of {result.tool} and say what to "
                        f"do on it (\"{line.strip()[:120]}\"), and {did or 'it claimed success anyway'}: "
                        "the model in use did not follow the app's instructions")
    if did:
        return ""
    return _told_to_be_honest(_whole_sentences(told), spec, agent, result.tool)


# A line that tells an agent to pass failures on as they are, or never to claim an outcome its
# tool did not confirm: "Be honest when a booking does not go through", "Never tell a camper a
# pitch is held unless hold_pitch confirms it", "Report every refusal to the customer".
_HONESTY = re.compile(
    r"\bhonest(?:ly|y)?\b|"
    r"\b(?:never|not|n't)\s+(?:\w+\s+){0,2}(?:claim|say|tell|confirm|report|promise)\w*\b[^.;]*?"
    r"\b(?:unless|until|without|before)\b|"
    r"\b(?:report|pass\s+on|relay|tell)\w*\s+(?:\w+\s+){0,3}?(?:every|each|all|any)\s+(?:\w+\s+)?"
    r"(?:failures?|errors?|refusals?|problems?)\b", re.IGNORECASE)
# Words of a line that has the agent say its piece whatever the tool answered: the app's own
# instruction invites the claim ("Let the customer know they're all set whatever the room said").
_WHATEVER = re.compile(r"\b(?:whatever|regardless|no\s+matter|in\s+any\s+case|either\s+way|come\s+what\s+may)\b",
                       re.IGNORECASE)


def _told_to_be_honest(lines: list[str], spec: WorkflowSpec, agent: str, tool: str) -> str:
    """Why a success claimed after a failed tool is the model's lapse though no line names the
    failure: a line of the claimer's own instructions tells it to pass failures on honestly or
    never to claim what its tool did not confirm (`_HONESTY`), about this tool or no tool in
    particular, and no line of them invites the claim (`_WHATEVER`: "tell them they're all set
    whatever hold_wheel answers" makes the claim the app's). The app asked for the truth; the
    model in use told the user otherwise. A condition on the tool failing in general words ("If
    T fails, explain what went wrong") is read above, and names only an error by status."""
    if any(_WHATEVER.search(line) for line in lines):
        return ""
    others = [t.id for t in spec.tools if t.id != tool]
    for line in lines:
        if not _HONESTY.search(line):
            continue
        if not re.search(rf"\b{re.escape(tool)}\b", line) and any(re.search(rf"\b{re.escape(o)}\b", line) for o in others):
            continue  # honesty about another tool's answers
        return (f"{agent}'s own instructions tell it to pass failures on honestly (\"{line.strip()[:120]}\"), "
                f"and it claimed success after {tool} failed: the model in use did not follow the app's instructions")
    return ""
